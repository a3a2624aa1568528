/**
 * Episode state of the airline domain: a copy-on-write view ({@link CowDb}) over the DB loaded
 * once per process, and the tau2-compatible DB hash.
 *
 * tau2 hashes a DB as `sha256(json.dumps(db.model_dump(), sort_keys=True))`. The hash here
 * writes the same bytes without building the 7 MB string: records of the shared base are
 * serialised once per process (cached per record object), records the episode wrote are
 * serialised fresh, and the pieces are fed to one incremental SHA-256. The pristine DB's digest
 * is cached, and so are snapshots of the SHA-256 state every ~256 KB of the pristine stream: a
 * state that wrote a few records resumes from the last snapshot before the first of them.
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

/** A point in the hashed byte stream: just before record `pos` of table `TABLES[table]`. */
interface StreamPos {
  table: number;
  pos: number;
}
/** The SHA-256 state of the pristine base's stream at a {@link StreamPos}. */
interface Checkpoint extends StreamPos {
  hash: Hash;
}
/** Per base DB: the pristine digest and checkpoints every ~256 KB of the stream. */
const baseHashes = new WeakMap<object, { digest: string; checkpoints: Checkpoint[] }>();
const CHECKPOINT_EVERY = 1 << 18;

const before = (a: StreamPos, b: StreamPos) => a.table < b.table || (a.table === b.table && a.pos <= b.pos);

/**
 * Feeds the `json.dumps(db, sort_keys=True)` bytes to `h`, from the start or (with `from`) from
 * a checkpoint whose hash state already holds everything before that record. With `capture`,
 * records checkpoints of this stream.
 */
function feed(h: Hash, db: AirlineState, from?: StreamPos, capture?: Checkpoint[]): void {
  let buf = from ? '' : '{';
  let sinceCheckpoint = CHECKPOINT_EVERY;
  const flush = () => {
    if (buf) h.update(buf);
    buf = '';
  };
  for (let ti = from?.table ?? 0; ti < TABLES.length; ti++) {
    const table = TABLES[ti];
    const resume = from !== undefined && ti === from.table;
    if (!resume) buf += (ti ? ', ' : '') + pyString(table) + ': {';
    const base = db.base[table] as Record<string, object>;
    const types = TABLE_RECORD_TYPES[table];
    const ids = idsInHashOrder(db, table);
    for (let j = resume ? from.pos : 0; j < ids.length; j++) {
      if (capture && (j === 0 || sinceCheckpoint >= CHECKPOINT_EVERY)) {
        flush();
        capture.push({ table: ti, pos: j, hash: h.copy() });
        sinceCheckpoint = 0;
      }
      const id = ids[j];
      const rec = db.get(table, id) as object;
      const json = rec === base[id] ? baseRecordJson(rec, types) : dumpRecord(rec, types);
      const piece = (j ? ', ' : '') + pyString(id) + ': ' + json;
      buf += piece;
      sinceCheckpoint += piece.length;
      if (buf.length > 1 << 16) flush();
    }
    buf += '}';
  }
  buf += '}';
  flush();
}

function baseHash(db: AirlineState): { digest: string; checkpoints: Checkpoint[] } {
  let info = baseHashes.get(db.base);
  if (!info) {
    const checkpoints: Checkpoint[] = [];
    const h = createHash('sha256');
    feed(h, db.fork(), undefined, checkpoints);
    info = { digest: h.digest('hex'), checkpoints };
    baseHashes.set(db.base, info);
  }
  return info;
}

/** Index of the first id >= `id` in sorted `ids`. */
function lowerBound(ids: string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * tau2's DB hash of a state: hex SHA-256 of `json.dumps(db, sort_keys=True)` with Python's
 * spacing, ASCII escapes and float formatting (gift-card and certificate balances as floats).
 * A pristine view returns the cached digest; otherwise hashing resumes from the last checkpoint
 * of the pristine stream before the first record the view wrote.
 */
export function airlineDbHash(db: AirlineState): string {
  const info = baseHash(db);
  let first: StreamPos | undefined;
  for (const [table, ids] of db.touched()) {
    const ti = TABLES.indexOf(table);
    const sorted = baseSortedIds(db.base[table] as Record<string, unknown>);
    for (const id of ids) {
      const p = { table: ti, pos: lowerBound(sorted, id) };
      if (!first || !before(first, p)) first = p;
    }
  }
  if (!first) return info.digest;
  const target = first;
  const cp = info.checkpoints.filter((c) => before(c, target)).at(-1);
  const h = cp ? cp.hash.copy() : createHash('sha256');
  feed(h, db, cp);
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
