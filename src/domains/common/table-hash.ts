/**
 * tau2's DB hash for table-shaped DBs (`{table: {id: record}}`: airline, retail) held in a
 * copy-on-write view ({@link CowDb}), and the {@link StateOps} built on it.
 *
 * tau2 hashes a DB as `sha256(json.dumps(db.model_dump(), sort_keys=True))`. A hasher made by
 * {@link createTableDbHasher} writes the same bytes without building the multi-megabyte string:
 * records of the shared base are serialised once per process (cached per record object), records
 * the episode wrote are serialised fresh, and the pieces are fed to one incremental SHA-256. The
 * pristine DB's digest is cached, and so are snapshots of the SHA-256 state every ~256 KB of the
 * pristine stream: a state that wrote a few records resumes from the last snapshot before the
 * first of them. Which numbers print as Python floats comes from a {@link PyTypeTree} per table
 * (the domain's pydantic float fields).
 */
import { createHash, type Hash } from 'node:crypto';
import { CowDb, type Tables } from '../../env/cow-db.js';
import type { StateOps } from '../../spec/state.js';
import { pyDumps, pyString, type PyTypeTree } from '../../util/pyjson.js';

/** A point in the hashed byte stream: just before record `pos` of table `tables[table]`. */
interface StreamPos {
  table: number;
  pos: number;
}
/** The SHA-256 state of the pristine base's stream at a {@link StreamPos}. */
interface Checkpoint extends StreamPos {
  hash: Hash;
}

const CHECKPOINT_EVERY = 1 << 18;
const before = (a: StreamPos, b: StreamPos) => a.table < b.table || (a.table === b.table && a.pos <= b.pos);

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
 * A tau2-compatible hash function for views of a DB with the tables of `recordTypes` (table name
 * → float positions of one record). The hash is the hex SHA-256 of `json.dumps(db,
 * sort_keys=True)` with Python's spacing, ASCII escapes and float formatting. Caches live in the
 * returned function (per base DB and per base record, weakly held), so make one hasher per
 * domain and reuse it. Base DBs and their records must never be mutated (views write copies).
 */
export function createTableDbHasher<T extends Tables>(recordTypes: { [K in keyof T]: PyTypeTree }): (db: CowDb<T>) => string {
  /** Tables in sorted order (the order `sort_keys` writes them). */
  const tables = (Object.keys(recordTypes) as (keyof T & string)[]).sort();
  const recordJson = new WeakMap<object, string>();
  const sortedIds = new WeakMap<object, string[]>();
  const baseHashes = new WeakMap<object, { digest: string; checkpoints: Checkpoint[] }>();

  const dumpRecord = (rec: unknown, types: PyTypeTree) => pyDumps(rec, { sortKeys: true, ensureAscii: true, types });
  const baseRecordJson = (rec: object, types: PyTypeTree) => {
    let s = recordJson.get(rec);
    if (s === undefined) {
      s = dumpRecord(rec, types);
      recordJson.set(rec, s);
    }
    return s;
  };
  const baseSortedIds = (table: Record<string, unknown>) => {
    let ids = sortedIds.get(table);
    if (!ids) {
      ids = Object.keys(table).sort();
      sortedIds.set(table, ids);
    }
    return ids;
  };
  /** Python's `sort_keys` order: by code point; JS's default sort (UTF-16 units) agrees on BMP text. */
  const idsInHashOrder = (db: CowDb<T>, table: keyof T) => {
    const base = db.base[table] as Record<string, unknown>;
    const touched = db.touched().get(table);
    if (!touched || touched.every((id) => Object.prototype.hasOwnProperty.call(base, id) && db.has(table, id))) return baseSortedIds(base);
    return db.ids(table).sort();
  };

  /** Feeds the dump's bytes to `h` from the start or from a checkpoint; with `capture`, records checkpoints. */
  const feed = (h: Hash, db: CowDb<T>, from?: StreamPos, capture?: Checkpoint[]) => {
    let buf = from ? '' : '{';
    let sinceCheckpoint = CHECKPOINT_EVERY;
    const flush = () => {
      if (buf) h.update(buf);
      buf = '';
    };
    for (let ti = from?.table ?? 0; ti < tables.length; ti++) {
      const table = tables[ti];
      const resume = from !== undefined && ti === from.table;
      if (!resume) buf += (ti ? ', ' : '') + pyString(table) + ': {';
      const base = db.base[table] as Record<string, object>;
      const types = recordTypes[table];
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
  };

  const baseHash = (db: CowDb<T>) => {
    let info = baseHashes.get(db.base);
    if (!info) {
      const checkpoints: Checkpoint[] = [];
      const h = createHash('sha256');
      feed(h, db.fork(), undefined, checkpoints);
      info = { digest: h.digest('hex'), checkpoints };
      baseHashes.set(db.base, info);
    }
    return info;
  };

  return (db) => {
    const info = baseHash(db);
    let first: StreamPos | undefined;
    for (const [table, ids] of db.touched()) {
      const ti = tables.indexOf(table as keyof T & string);
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
  };
}

/**
 * {@link StateOps} for a table DB in a {@link CowDb} view: `fork` branches the view (copies only
 * the overlay of touched records, so a pristine view forks in O(1) and a prepared initial state
 * keeps its changes); `equal` and `diff` look at touched records only; `hash` is the given
 * (tau2-compatible) hash. A state that has been forked must not be written afterwards
 * (environments never do).
 */
export function cowDbStateOps<T extends Tables>(hash: (db: CowDb<T>) => string): StateOps<CowDb<T>> {
  return {
    fork: (s) => s.branch(),
    equal: (a, b) => CowDb.equal(a, b),
    diff: (a, b) => CowDb.diff(a, b),
    hash,
    view: (s) => s.materialize(),
  };
}
