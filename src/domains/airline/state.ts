/**
 * Episode state of the airline domain: a copy-on-write view ({@link CowDb}) over the DB loaded
 * once per process, and the tau2-compatible DB hash (the cached incremental hasher of
 * `../common/table-hash.ts`, with the airline float positions).
 */
import type { CowDb } from '../../env/cow-db.js';
import type { StateOps } from '../../spec/state.js';
import { cowDbStateOps, createTableDbHasher, type TableDbHasher } from '../common/table-hash.js';
import { TABLE_RECORD_TYPES, type AirlineDb } from './schema.js';

/** The airline episode state: a copy-on-write view over the shared DB. */
export type AirlineState = CowDb<AirlineDb>;

/**
 * tau2's DB hash of a state: hex SHA-256 of `json.dumps(db, sort_keys=True)` with Python's
 * spacing, ASCII escapes and float formatting (gift-card and certificate balances as floats).
 * A pristine view returns the cached digest; otherwise hashing resumes from the last checkpoint
 * of the pristine stream before the first record the view wrote.
 */
export const airlineDbHash: TableDbHasher<AirlineDb> = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES);

/**
 * State operations for the airline domain: `fork` branches the view, `equal` and `diff` look at
 * touched records only, `hash` is {@link airlineDbHash}. A forked state must not be written.
 */
export const airlineStateOps: StateOps<AirlineState> = cowDbStateOps<AirlineDb>(airlineDbHash);
