/**
 * Episode state of the airline domain: a copy-on-write view ({@link CowDb}) over the DB loaded
 * once per process, and the tau2-compatible DB hash.
 *
 * tau2 hashes a DB as `sha256(json.dumps(db.model_dump(), sort_keys=True))`. The hash here
 * writes the same bytes without building the 7 MB string: records of the shared base are
 * serialised once per process (cached per record object), records the episode wrote are
 * serialised fresh, and the pieces are fed to one incremental SHA-256.
 */
import { createHash, type Hash } from 'node:crypto';
import { CowDb } from '../../env/cow-db.js';
import type { StateOps } from '../../spec/state.js';
import { pyDumps, pyString, type PyTypeTree } from '../../util/pyjson.js';
import { TABLE_RECORD_TYPES, type AirlineDb } from './schema.js';

/** The airline episode state: a copy-on-write view over the shared DB. */
export type AirlineState = CowDb<AirlineDb>;

/** Tables in sorted order (the order `sort_keys` writes them). */
const TABLES = (Object.keys(TABLE_RECORD_TYPES) as (keyof AirlineDb)[]).sort();

/** Serialised base records (`"id": {...}` is not cached, only the record's JSON). */
const recordJson = new WeakMap<object, string>();
/** Sorted ids per base table object. */
const sortedIds = new WeakMap<object, string[]>();

function dumpRecord(rec: unknown, types: PyTypeTree): string {
  return pyDumps(rec, { sortKeys: true, ensureAscii: true, types });
}

function baseRecordJson(rec: object, types: PyTypeTree): string {
  let s = recordJson.get(rec);
  if (s === undefined) {
    s = dumpRecord(rec, types);
    recordJson.set(rec, s);
  }
  return s;
}

function baseSortedIds(table: Record<string, unknown>): string[] {
  let ids = sortedIds.get(table);
  if (!ids) {
    ids = Object.keys(table).sort();
    sortedIds.set(table, ids);
  }
  return ids;
}

/** Python's `sort_keys` order: by code point; JS's default sort (UTF-16 units) agrees on BMP text. */
function idsInHashOrder(db: AirlineState, table: keyof AirlineDb): string[] {
  const base = db.base[table] as Record<string, unknown>;
  const touched = db.touched().get(table);
  if (!touched || touched.every((id) => Object.prototype.hasOwnProperty.call(base, id) && db.has(table, id))) {
    return baseSortedIds(base);
  }
  return db.ids(table).sort();
}

function feedTable(h: Hash, db: AirlineState, table: keyof AirlineDb): void {
  const base = db.base[table] as Record<string, object>;
  const types = TABLE_RECORD_TYPES[table];
  const ids = idsInHashOrder(db, table);
  if (ids.length === 0) {
    h.update('{}');
    return;
  }
  let chunk = '{';
  ids.forEach((id, i) => {
    const rec = db.get(table, id) as object;
    const json = rec === base[id] ? baseRecordJson(rec, types) : dumpRecord(rec, types);
    chunk += (i ? ', ' : '') + pyString(id) + ': ' + json;
    if (chunk.length > 1 << 16) {
      h.update(chunk);
      chunk = '';
    }
  });
  h.update(chunk + '}');
}

/**
 * tau2's DB hash of a state: hex SHA-256 of `json.dumps(db, sort_keys=True)` with Python's
 * spacing, ASCII escapes and float formatting (gift-card and certificate balances as floats).
 */
export function airlineDbHash(db: AirlineState): string {
  const h = createHash('sha256');
  h.update('{');
  TABLES.forEach((table, i) => {
    h.update((i ? ', ' : '') + pyString(table) + ': ');
    feedTable(h, db, table);
  });
  h.update('}');
  return h.digest('hex');
}

/**
 * State operations for the airline domain. `fork` branches the view (copies only the overlay
 * of touched records, so a pristine view forks in O(1) and a prepared initial state keeps its
 * changes); `equal` and `diff` look at touched records only; `hash` is {@link airlineDbHash}.
 * A state that has been forked must not be written afterwards (environments never do).
 */
export const airlineStateOps: StateOps<AirlineState> = {
  fork: (s) => s.branch(),
  equal: (a, b) => CowDb.equal(a, b),
  diff: (a, b) => CowDb.diff(a, b),
  hash: (s) => airlineDbHash(s),
};
