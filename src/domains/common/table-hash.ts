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
 *
 * A base DB with a content key (`disk-cache.ts`: a generated or validated DB) also has its
 * pristine stream kept on disk with each record's place in it: a later process takes every base
 * record's JSON from there instead of serialising it again, and checks the result against the
 * digest kept with it (a stream that does not fit is recomputed and rewritten).
 */
import { createHash, type Hash } from 'node:crypto';
import { CowDb, type Tables } from '../../env/cow-db.js';
import type { StateOps } from '../../spec/state.js';
import { pyDumps, pyString, type PyTypeTree } from '../../util/pyjson.js';
import { cacheKey, cachePath, dbCacheDir, dbContentKey, readCacheText, sourceFingerprint, writeAtomically } from './disk-cache.js';

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
/** The stream is fed to the hash in pieces of about this many characters, a step of `warmSteps` each (a millisecond or two when its records are serialised afresh). */
const FEED_PIECE_CHARS = 1 << 14;
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
export function createTableDbHasher<T extends Tables>(recordTypes: { [K in keyof T]: PyTypeTree }): TableDbHasher<T> {
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

  /**
   * Feeds the dump's bytes to `h` from the start or from a checkpoint; with `capture`, records
   * checkpoints; with `chunks`, also keeps the bytes fed. Yields after each piece of
   * {@link FEED_PIECE_CHARS} fed (see {@link drain} for running it at once).
   */
  const feed = function* (h: Hash, db: CowDb<T>, from?: StreamPos, capture?: Checkpoint[], chunks?: string[]): Generator<void, void> {
    let buf = from ? '' : '{';
    let sinceCheckpoint = CHECKPOINT_EVERY;
    const flush = () => {
      if (buf) h.update(buf);
      if (buf && chunks) chunks.push(buf);
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
        if (buf.length > FEED_PIECE_CHARS) {
          flush();
          yield;
        }
      }
      buf += '}';
    }
    buf += '}';
    flush();
  };

  /** The pristine base's digest and checkpoints; with `chunks`, also keeps its stream. */
  const hashBase = function* (db: CowDb<T>, chunks?: string[]): Generator<void, BaseHash> {
    const checkpoints: Checkpoint[] = [];
    const h = createHash('sha256');
    yield* feed(h, db.fork(), undefined, checkpoints, chunks);
    return { digest: h.digest('hex'), checkpoints };
  };

  /**
   * Record JSON of every base record from a cached stream: `lengths[table][j]` is the length of
   * the j-th record (ids sorted) in `stream`, checked against the separators and ids around it.
   * False (and nothing kept) when the stream does not fit the base.
   */
  const primeFromStream = (base: T, stream: string, lengths: Record<string, unknown>): boolean => {
    const primed: object[] = [];
    let pos = 1;
    let ok = stream[0] === '{';
    for (let ti = 0; ok && ti < tables.length; ti++) {
      const table = tables[ti];
      const head = (ti ? ', ' : '') + pyString(table) + ': {';
      const ids = baseSortedIds(base[table] as Record<string, unknown>);
      const lens = lengths[table];
      ok = stream.startsWith(head, pos) && Array.isArray(lens) && lens.length === ids.length;
      pos += head.length;
      for (let j = 0; ok && j < ids.length; j++) {
        const key = (j ? ', ' : '') + pyString(ids[j]) + ': ';
        const n = (lens as unknown[])[j];
        ok = stream.startsWith(key, pos) && Number.isInteger(n) && (n as number) > 0 && pos + key.length + (n as number) <= stream.length;
        if (!ok) break;
        pos += key.length;
        const rec = (base[table] as Record<string, object>)[ids[j]];
        recordJson.set(rec, stream.slice(pos, pos + (n as number)));
        primed.push(rec);
        pos += n as number;
      }
      ok = ok && stream[pos++] === '}';
    }
    ok = ok && stream[pos] === '}' && pos + 1 === stream.length;
    if (!ok) for (const rec of primed) recordJson.delete(rec);
    return ok;
  };

  /** The pristine base's hash info from the disk cache (see {@link hashStreamCache}), or undefined. */
  const cachedBaseHash = function* (db: CowDb<T>, cache: HashStreamCache): Generator<void, BaseHash | undefined> {
    const kept = cache.read();
    if (!kept || !primeFromStream(db.base, kept.stream, kept.lengths)) return undefined;
    const info = yield* hashBase(db);
    if (info.digest === kept.digest) return info;
    for (const table of tables) for (const rec of Object.values(db.base[table] as Record<string, object>)) recordJson.delete(rec);
    return undefined;
  };

  /** The pristine base's hash info, made once per base (from the disk cache when it holds it); yields as {@link feed} does. */
  const baseHashSteps = function* (db: CowDb<T>): Generator<void, BaseHash> {
    let info = baseHashes.get(db.base);
    if (!info) {
      const cache = hashStreamCache(db.base, recordTypes);
      info = cache ? yield* cachedBaseHash(db, cache) : undefined;
      if (!info) {
        const chunks: string[] | undefined = cache ? [] : undefined;
        info = yield* hashBase(db, chunks);
        if (cache && chunks) {
          const lengths = Object.fromEntries(tables.map((t) => [t, baseSortedIds(db.base[t] as Record<string, unknown>).map((id) => recordJson.get((db.base[t] as Record<string, object>)[id])!.length)]));
          cache.write({ digest: info.digest, lengths, stream: chunks.join('') });
        }
      }
      // Made in steps, another call may have made it meanwhile: the first one made is kept.
      info = baseHashes.get(db.base) ?? info;
      baseHashes.set(db.base, info);
    }
    return info;
  };

  const hash = (db: CowDb<T>) => {
    const info = drain(baseHashSteps(db));
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
    drain(feed(h, db, cp));
    return h.digest('hex');
  };
  return Object.assign(hash, {
    *warmSteps(db: CowDb<T>): Generator<void, void> {
      // Stops early once a hash made it meanwhile (in one piece, where it was needed).
      const steps = baseHashSteps(db);
      while (!baseHashes.has(db.base) && !steps.next().done) yield;
    },
  });
}

/** A pristine base's digest and the SHA-256 states along its stream. */
interface BaseHash {
  digest: string;
  checkpoints: Checkpoint[];
}

/** Runs `steps` to the end at once and returns what it returns. */
function drain<R>(steps: Generator<void, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * A tau2-compatible hash of table DB views ({@link createTableDbHasher}), and `warmSteps(db)`: the
 * work the first hash of a view over `db`'s base does once per base (its pristine digest and
 * stream, from the disk cache when kept there) in steps of {@link FEED_PIECE_CHARS} of the stream,
 * each a millisecond or two, so that a run can do it between other work; iterated to its end, later
 * hashes over that base only hash what views wrote.
 */
export type TableDbHasher<T extends Tables> = ((db: CowDb<T>) => string) & { warmSteps(db: CowDb<T>): Generator<void, void> };

/** A base DB's hash stream as kept on disk: its digest, the length of each record's JSON (per table, ids sorted) and the stream. */
interface HashStream {
  digest: string;
  lengths: Record<string, unknown>;
  stream: string;
}

/** Where one base DB's {@link HashStream} is kept. */
interface HashStreamCache {
  /** The kept stream, unchecked (the hasher checks it against the base and its digest), or undefined. */
  read(): HashStream | undefined;
  write(s: HashStream): void;
}

/** The code the hash stream is a function of (relative to this module), besides the record types. */
const HASHER_MODULES = ['./table-hash', '../../util/pyjson', '../../env/cow-db'];
let hasherFingerprint: string | undefined;

/**
 * The disk cache of the hash stream of `base` (`db-hash/` in the cache folder of `disk-cache.ts`,
 * as `<header JSON>\n<stream>`), keyed by the DB's content key, the record types and the hasher's
 * code; null when the DB has no content key or the cache is off.
 */
function hashStreamCache(base: object, recordTypes: unknown): HashStreamCache | null {
  const dbKey = dbContentKey(base);
  if (!dbKey || !dbCacheDir()) return null;
  hasherFingerprint ??= sourceFingerprint(import.meta.url, HASHER_MODULES);
  const f = cachePath('db-hash', `${dbKey}-${cacheKey([hasherFingerprint, recordTypes])}.txt`)!;
  return {
    read() {
      const text = readCacheText(f);
      const nl = text?.indexOf('\n') ?? -1;
      if (text === undefined || nl < 0) return undefined;
      try {
        const { digest, lengths } = JSON.parse(text.slice(0, nl)) as Partial<HashStream>;
        if (typeof digest !== 'string' || typeof lengths !== 'object' || lengths === null) return undefined;
        return { digest, lengths, stream: text.slice(nl + 1) };
      } catch {
        return undefined;
      }
    },
    write: ({ digest, lengths, stream }) => writeAtomically(f, `${JSON.stringify({ digest, lengths })}\n${stream}`),
  };
}

/**
 * {@link StateOps} for a table DB in a {@link CowDb} view: `fork` branches the view (copies only
 * the overlay of touched records, so a pristine view forks in O(1) and a prepared initial state
 * keeps its changes); `equal` and `diff` look at touched records only; `hash` is the given
 * (tau2-compatible) hash. A state that has been forked must not be written afterwards
 * (environments never do).
 */
export function cowDbStateOps<T extends Tables>(hash: ((db: CowDb<T>) => string) & { warmSteps?: (db: CowDb<T>) => Iterator<unknown> }): StateOps<CowDb<T>> {
  return {
    ...(hash.warmSteps ? { hashSteps: (s: CowDb<T>) => hash.warmSteps!(s) } : {}),
    fork: (s) => s.branch(),
    unwrittenFork: (start, s) => s instanceof CowDb && start instanceof CowDb && s.sharesRecordsWith(start),
    equal: (a, b) => CowDb.equal(a, b),
    diff: (a, b) => CowDb.diff(a, b),
    hash,
    view: (s) => s.materialize(),
  };
}
