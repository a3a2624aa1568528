/**
 * Episode state of the retail domain: a copy-on-write view ({@link CowDb}) over the DB loaded
 * once per process, and the tau2-compatible DB hash (the cached incremental hasher of
 * `../common/table-hash.ts` with the retail float positions).
 */
import type { CowDb } from '../../env/cow-db.js';
import type { StateOps } from '../../spec/state.js';
import { cowDbStateOps, createTableDbHasher, type TableDbHasher } from '../common/table-hash.js';
import { RETAIL_TABLE_RECORD_TYPES, type RetailDb } from './schema.js';

/** The retail episode state: a copy-on-write view over the shared DB. */
export type RetailState = CowDb<RetailDb>;

/**
 * tau2's DB hash of a state: hex SHA-256 of `json.dumps(db.model_dump(), sort_keys=True)` —
 * Python spacing and ASCII escapes, every price, payment amount, gift-card balance and exchange
 * price difference printed as a float, an order's unset optional fields as `null`. The pristine
 * view returns a cached digest; a written view resumes from the last checkpoint of the pristine
 * stream before the first record it wrote.
 */
export const retailDbHash: TableDbHasher<RetailDb> = createTableDbHasher<RetailDb>(RETAIL_TABLE_RECORD_TYPES);

/**
 * State operations for the retail domain: `fork` branches the view, `equal` and `diff` look at
 * touched records only, `hash` is {@link retailDbHash}. A forked state must not be written.
 */
export const retailStateOps: StateOps<RetailState> = cowDbStateOps<RetailDb>(retailDbHash);
