/**
 * tau2's DB hash for table-shaped DBs (`{table: {id: record}}`: airline, retail) held in a
 * copy-on-write view ({@link CowDb}), and the {@link StateOps} built on it.
 *
 * tau2 hashes a DB as `sha256(json.dumps(db.model_dump(), sort_keys=True))`. A hasher made by
 * {@link createTableDbHasher} writes the same bytes. The pristine base's stream is made once per
 * process and base (every record serialised), kept as one byte buffer with where each record lies in
 * it (`hash-stream.ts`), hashed with snapshots of the SHA-256 state every 256 K characters; a view
 * that wrote records is hashed as edits of that stream (its changed records' JSON replaced, new
 * records inserted, a table with removed records rewritten), from the last snapshot before the
 * first edit: the records it did not write are fed as slices of the pristine stream, never read or
 * serialised again. Which numbers print as Python floats comes from a {@link PyTypeTree} per table
 * (the domain's pydantic float fields).
 *
 * A base DB with a content key (`disk-cache.ts`: a generated or validated DB) also has its
 * pristine stream kept on disk with each record's length: a later process takes the stream from
 * there (reading no record of the base), checks its shape against the base's ids and its hash
 * against the digest kept with it (a stream that does not fit is made again and rewritten).
 *
 * Digests already made are not made again: each view's digest is kept by the records it changed
 * (`digest-memo.ts`, in memory and beside the stream on disk), so a view with the same changes as
 * one hashed before (the same task run again, two tasks or trials that end alike) costs the dump of
 * its changed records only, and a process whose views were all hashed before never reads the
 * stream.
 */
import { CowDb, type Tables } from '../../env/cow-db.js';
import type { StateOps } from '../../spec/state.js';
import { pyDumps, pyString, type PyTypeTree } from '../../util/pyjson.js';
import { cacheKey, cachePath, dbCacheDir, dbContentKey, readCacheBytes, sourceFingerprint, writeAtomically } from './disk-cache.js';
import { changeKey, createDigestMemo, type DigestMemo, type RecordChange } from './digest-memo.js';
import { AsciiText, editedStreamDigest, hashStreamSteps, layoutOf, type Checkpoint, type StreamEdit, type TableLayout } from './hash-stream.js';

/** While the pristine stream is made, a step (a yield of `warmSteps`) after about this many characters of record JSON (a millisecond or two). */
const FEED_PIECE_CHARS = 1 << 14;

/** Index of the first id >= `id` in sorted `ids`. */
function lowerBound(ids: readonly string[], id: string): number {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ids[mid] < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A pristine base's stream (ASCII bytes), where its tables and records lie in it, its digest and the SHA-256 states along it. */
interface BaseHash {
  digest: string;
  stream: Buffer;
  layout: TableLayout[];
  checkpoints: Checkpoint[];
}

/** What one hasher ({@link createTableDbHasher}) keeps: its tables and record types, and per base DB its sorted ids, hash info and digest memo. */
interface HasherState<T extends Tables> {
  /** Tables in sorted order (the order `sort_keys` writes them). */
  tables: (keyof T & string)[];
  recordTypes: { [K in keyof T]: PyTypeTree };
  sortedIds: WeakMap<object, string[]>;
  baseHashes: WeakMap<object, BaseHash>;
  memos: WeakMap<object, DigestMemo>;
}

/**
 * A tau2-compatible hash function for views of a DB with the tables of `recordTypes` (table name
 * → float positions of one record). The hash is the hex SHA-256 of `json.dumps(db,
 * sort_keys=True)` with Python's spacing, ASCII escapes and float formatting. The pristine
 * stream of each base lives in the returned function (weakly held per base), so make one hasher
 * per domain and reuse it. Base DBs and their records must never be mutated (views write copies).
 */
export function createTableDbHasher<T extends Tables>(recordTypes: { [K in keyof T]: PyTypeTree }): TableDbHasher<T> {
  const h: HasherState<T> = {
    tables: (Object.keys(recordTypes) as (keyof T & string)[]).sort(),
    recordTypes,
    sortedIds: new WeakMap<object, string[]>(),
    baseHashes: new WeakMap<object, BaseHash>(),
    memos: new WeakMap<object, DigestMemo>(),
  };
  const hash = (db: CowDb<T>) => hashView(h, db);
  return Object.assign(hash, {
    *warmSteps(db: CowDb<T>): Generator<void, void> {
      // Stops early once a hash made it meanwhile (in one piece, where it was needed).
      const steps = baseHashSteps(h, db);
      while (!h.baseHashes.has(db.base) && !steps.next().done) yield;
    },
  });
}

/** The digest of view `db`: from the memo when a view with the same changes was hashed before, else as edits of the pristine stream (kept in the memo). */
function hashView<T extends Tables>(h: HasherState<T>, db: CowDb<T>): string {
  const changes = changesOf(h, db);
  const memo = memoOf(h, db.base);
  const key = changeKey(changes);
  const known = memo.get(key);
  if (known !== undefined) return known;
  const info = drain(baseHashSteps(h, db));
  const digest = changes.length ? editedStreamDigest(info.stream, info.checkpoints, editsOf(h, db, info, changes)) : info.digest;
  memo.set(key, digest);
  return digest;
}

/** A record's JSON as the stream writes it. */
function dumpRecord(rec: unknown, types: PyTypeTree): string {
  return pyDumps(rec, { sortKeys: true, ensureAscii: true, types });
}

/** A base table's ids in Python's `sort_keys` order (by code point; JS's default sort, by UTF-16 units, agrees on BMP text), sorted once per table. */
function baseSortedIds<T extends Tables>(h: HasherState<T>, table: Record<string, unknown>): string[] {
  let ids = h.sortedIds.get(table);
  if (!ids) {
    ids = Object.keys(table).sort();
    h.sortedIds.set(table, ids);
  }
  return ids;
}

/** The pristine stream of `base` with each record's JSON length; yields every {@link FEED_PIECE_CHARS} of record JSON. */
function* makeStream<T extends Tables>(h: HasherState<T>, base: T): Generator<void, { stream: Buffer; lengths: Record<string, number[]> }> {
  const { tables, recordTypes } = h;
  const out = new AsciiText();
  out.add('{');
  const lengths: Record<string, number[]> = {};
  let since = 0;
  for (let ti = 0; ti < tables.length; ti++) {
    const table = tables[ti];
    const records = base[table] as Record<string, object>;
    const ids = baseSortedIds(h, records);
    const lens = (lengths[table] = new Array<number>(ids.length));
    out.add((ti ? ', ' : '') + pyString(table) + ': {');
    for (let k = 0; k < ids.length; k++) {
      const json = dumpRecord(records[ids[k]], recordTypes[table]);
      lens[k] = json.length;
      out.add((k ? ', ' : '') + pyString(ids[k]) + ': ');
      out.add(json);
      if ((since += json.length) > FEED_PIECE_CHARS) {
        since = 0;
        yield;
      }
    }
    out.add('}');
  }
  out.add('}');
  return { stream: out.bytes(), lengths };
}

/** `base`'s hash info from `stream` when it has the base's shape and hashes to `digest` (any digest when undefined). */
function* fromStream<T extends Tables>(h: HasherState<T>, base: T, stream: Buffer, lengths: Record<string, unknown>, digest?: string): Generator<void, BaseHash | undefined> {
  const layout = layoutOf(stream, h.tables, (t) => baseSortedIds(h, base[t] as Record<string, unknown>), lengths);
  if (!layout) return undefined;
  const hashed = yield* hashStreamSteps(stream);
  return digest === undefined || hashed.digest === digest ? { ...hashed, stream, layout } : undefined;
}

/** The pristine base's hash info, made once per base (from the disk cache when it holds it); yields as {@link makeStream} and {@link hashStreamSteps} do. */
function* baseHashSteps<T extends Tables>(h: HasherState<T>, db: CowDb<T>): Generator<void, BaseHash> {
  let info = h.baseHashes.get(db.base);
  if (!info) {
    const cache = hashStreamCache(db.base, h.recordTypes);
    const kept = cache?.read();
    info = kept ? yield* fromStream(h, db.base, kept.stream, kept.lengths, kept.digest) : undefined;
    if (!info) {
      const made = yield* makeStream(h, db.base);
      info = yield* fromStream(h, db.base, made.stream, made.lengths);
      if (!info) throw new Error('table-hash: a stream made from the base does not have its shape');
      cache?.write({ digest: info.digest, lengths: made.lengths, stream: made.stream });
    }
    // Made in steps, another call may have made it meanwhile: the first one made is kept.
    info = h.baseHashes.get(db.base) ?? info;
    h.baseHashes.set(db.base, info);
  }
  return info;
}

/**
 * The records `db` changed in its base, in table order then id order: written records whose
 * object is not the base's (dumped as the stream writes them), added ones, removed ones (json
 * null). A record added and then removed is no change.
 */
function changesOf<T extends Tables>(h: HasherState<T>, db: CowDb<T>): RecordChange[] {
  const changes: RecordChange[] = [];
  for (const [table, ids] of db.touched()) {
    const base = db.base[table] as Record<string, object>;
    for (const id of ids) {
      const inBase = Object.prototype.hasOwnProperty.call(base, id);
      const rec = db.get(table, id);
      if (rec === undefined) {
        if (inBase) changes.push({ table: table as string, id, json: null });
      } else if (!inBase || rec !== base[id]) changes.push({ table: table as string, id, json: dumpRecord(rec, h.recordTypes[table]) });
    }
  }
  const tables = h.tables;
  const order = (t: string) => tables.indexOf(t as keyof T & string);
  return changes.sort((a, b) => order(a.table) - order(b.table) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The body of table `ti` as the view `db` has it: the changed records' JSON from `changed`, the others' from the pristine stream. */
function tableBody<T extends Tables>(h: HasherState<T>, db: CowDb<T>, ti: number, info: BaseHash, changed: ReadonlyMap<string, string | null>): string {
  const table = h.tables[ti];
  const lay = info.layout[ti];
  const base = db.base[table] as Record<string, unknown>;
  return db.ids(table).sort().map((id) => {
    const mine = changed.get(id);
    const k = mine !== undefined || !Object.prototype.hasOwnProperty.call(base, id) ? -1 : lowerBound(lay.ids, id);
    const json = k >= 0 ? info.stream.toString('latin1', lay.valueStart[k], lay.end[k]) : (mine ?? dumpRecord(db.get(table, id), h.recordTypes[table]));
    return pyString(id) + ': ' + json;
  }).join(', ');
}

/** The view's stream as edits of the pristine one (sorted by start), from its {@link changesOf}. */
function editsOf<T extends Tables>(h: HasherState<T>, db: CowDb<T>, info: BaseHash, changes: readonly RecordChange[]): StreamEdit[] {
  const edits: StreamEdit[] = [];
  for (let i = 0; i < changes.length; ) {
    const table = changes[i].table;
    const ti = h.tables.indexOf(table as keyof T & string);
    const lay = info.layout[ti];
    const base = db.base[table] as Record<string, object>;
    const mine = new Map<string, string | null>();
    for (; i < changes.length && changes[i].table === table; i++) mine.set(changes[i].id, changes[i].json);
    if ([...mine.values()].includes(null)) {
      edits.push({ start: lay.bodyStart, end: lay.bodyEnd, text: tableBody(h, db, ti, info, mine) });
      continue;
    }
    const added: string[] = [];
    for (const [id, json] of mine) {
      if (!Object.prototype.hasOwnProperty.call(base, id)) added.push(id);
      else {
        const k = lowerBound(lay.ids, id);
        edits.push({ start: lay.valueStart[k], end: lay.end[k], text: json! });
      }
    }
    insertions(edits, lay, added, (id) => pyString(id) + ': ' + mine.get(id)!);
  }
  return edits.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The memo of `base`'s view digests (`digest-memo.ts`), kept beside its hash stream on disk when that is. */
function memoOf<T extends Tables>(h: HasherState<T>, base: T): DigestMemo {
  let memo = h.memos.get(base);
  if (!memo) h.memos.set(base, (memo = createDigestMemo(hashCacheFiles(base, h.recordTypes)?.digests ?? null)));
  return memo;
}

/**
 * Pushes onto `edits` the insertion of the new records `added` (sorted ids none of which the base
 * has) into a table laid out as `lay`: each group that sorts before the same base record goes in
 * front of it, with its separators (`piece(id)` is the record's `"id": JSON`).
 */
function insertions(edits: StreamEdit[], lay: TableLayout, added: readonly string[], piece: (id: string) => string): void {
  const n = lay.ids.length;
  for (let i = 0; i < added.length; ) {
    const p = lowerBound(lay.ids, added[i]);
    const group: string[] = [];
    for (; i < added.length && lowerBound(lay.ids, added[i]) === p; i++) group.push(piece(added[i]));
    if (n === 0) edits.push({ start: lay.bodyStart, end: lay.bodyStart, text: group.join(', ') });
    else if (p < n) edits.push({ start: lay.keyStart[p], end: lay.keyStart[p], text: group.map((x) => `${x}, `).join('') });
    else edits.push({ start: lay.end[n - 1], end: lay.end[n - 1], text: group.map((x) => `, ${x}`).join('') });
  }
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
 * work the first hash of a view over `db`'s base does once per base (its pristine stream, from the
 * disk cache when kept there, and its digest) in steps of a millisecond or two, so that a run can
 * do it between other work; iterated to its end, later hashes over that base only hash from the
 * first record a view wrote.
 */
export type TableDbHasher<T extends Tables> = ((db: CowDb<T>) => string) & { warmSteps(db: CowDb<T>): Generator<void, void> };

/** A base DB's hash stream as kept on disk: its digest, the length of each record's JSON (per table, ids sorted) and the stream's bytes. */
interface HashStream {
  digest: string;
  lengths: Record<string, unknown>;
  stream: Buffer;
}

/** Where one base DB's {@link HashStream} is kept. */
interface HashStreamCache {
  /** The kept stream, unchecked (the hasher checks it against the base and its digest), or undefined. */
  read(): HashStream | undefined;
  write(s: HashStream): void;
}

/** The code the hash stream is a function of (relative to this module), besides the record types. */
const HASHER_MODULES = ['./table-hash', './hash-stream', './digest-memo', '../../util/pyjson', '../../env/cow-db'];
let hasherFingerprint: string | undefined;

/**
 * Where the hash data of `base` is kept on disk (the cache folder of `disk-cache.ts`): its hash
 * stream (`db-hash/<name>.txt`) and the digests of views of it (`db-digests/<name>.txt`,
 * `digest-memo.ts`), named by the DB's content key, the record types and the hasher's code; null
 * when the DB has no content key or the cache is off.
 */
function hashCacheFiles(base: object, recordTypes: unknown): { stream: string; digests: string } | null {
  const dbKey = dbContentKey(base);
  if (!dbKey || !dbCacheDir()) return null;
  hasherFingerprint ??= sourceFingerprint(import.meta.url, HASHER_MODULES);
  const name = `${dbKey}-${cacheKey([hasherFingerprint, recordTypes])}.txt`;
  return { stream: cachePath('db-hash', name)!, digests: cachePath('db-digests', name)! };
}

/** The disk cache of the hash stream of `base` (as `<header JSON>\n<stream>`, see {@link hashCacheFiles}); null when there is none. */
function hashStreamCache(base: object, recordTypes: unknown): HashStreamCache | null {
  const f = hashCacheFiles(base, recordTypes)?.stream;
  if (!f) return null;
  return {
    read() {
      const bytes = readCacheBytes(f);
      const nl = bytes?.indexOf(0x0a) ?? -1;
      if (bytes === undefined || nl < 0) return undefined;
      try {
        const { digest, lengths } = JSON.parse(bytes.toString('utf8', 0, nl)) as Partial<HashStream>;
        if (typeof digest !== 'string' || typeof lengths !== 'object' || lengths === null) return undefined;
        return { digest, lengths, stream: bytes.subarray(nl + 1) };
      } catch {
        return undefined;
      }
    },
    write: ({ digest, lengths, stream }) => writeAtomically(f, [`${JSON.stringify({ digest, lengths })}\n`, stream]),
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
