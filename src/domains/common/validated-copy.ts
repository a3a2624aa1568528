/**
 * Disk copies of validated data files (a tau2 `db.json`, a `tasks.json`), so a later process reads
 * a file's validated value back instead of parsing and validating it again.
 *
 * - A copy is keyed by the sha256 of the file's text and by what validated it (see
 *   {@link CopyOptions.name} and {@link copyKey}): a changed file or a changed schema misses.
 * - A small index keyed by the file's real path, size, modification time, inode and device names
 *   the copy of the text that file held, so a process that finds its file unchanged reads neither
 *   the file nor its hash (a file rewritten in place keeps its inode but changes its modification
 *   time, and misses).
 * - A copy of an object can keep its top-level values apart (`lazyParts`), and the entries of each
 *   value that is an object (a table's records) apart too: each table is made the first time it is
 *   read, and each of its records is parsed the first time it is read, so a run that uses three
 *   records of a 7 MB DB does not parse the rest of it (a search over a whole table parses that
 *   table's records, and no others).
 * - Only successfully validated values are kept; a copy that cannot be read only costs the speed-up,
 *   and is replaced: the header keeps the sha256 of the rest of the copy, checked before any part
 *   is handed out, so a damaged copy is never read (a lazily parsed part would otherwise fail, or
 *   give other data, in the middle of a run).
 * - Writing a new copy removes those older than a week and all but the newest 32.
 *
 * Format of a copy: one header line of JSON (`{"format", "sha256", "parts": [[key, bytes, records?], …]
 * | null, "key_orders"}`), then the value's JSON: whole, or each part's one after the other. A part
 * with `records` (`[[key, bytes], …]`: the part is an object) is its entries' JSON values one after
 * the other, without the keys (they are in the header).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BUILD_ID } from '../../util/build-id.js';
import { integerKeyOrders, rememberKeyOrder, rememberKeyOrders } from './json-key-order.js';
import { dbCacheDir, setDbContentKey, writeAtomically } from './disk-cache.js';


const FORMAT = 'servicegym.validated-copy/4';

/** What a copy is made of and how it is read back. */
export interface CopyOptions {
  /** What the value is ("airline-db", "tau2-tasks"): part of the key, so two kinds never share a copy. */
  name: string;
  /**
   * The zod schema the value was validated with, built on demand: its JSON Schema is part of the
   * key, unless the running code is a stamped build ({@link BUILD_ID}), whose id stands for every
   * schema in it (then no schema is built to find a copy).
   */
  schema: () => z.ZodType;
  /**
   * The value also keeps the text order of dicts with integer-like keys (`rememberKeyOrders` of
   * `integerKeyOrders(text)`, see `json-key-order.ts`), which JSON does not carry: the copy stores
   * those orders and reading it attaches them again.
   */
  keyOrders?: boolean;
  /** The value is an object whose top-level values are parsed on first read (table DBs). */
  lazyParts?: boolean;
  /**
   * The value is a base DB: it gets its copy's name as content key (`setDbContentKey` of
   * `disk-cache.ts`), so what is derived from it (its tau2 hash stream) is cached under that name.
   */
  contentKey?: boolean;
}

const keys = new Map<string, string>();

/** 16 hex digits naming what validated a copy: the build id, else the schema's JSON Schema (computed once per name and process). */
export function copyKey(opts: Pick<CopyOptions, 'name' | 'schema'>): string {
  let key = keys.get(opts.name);
  if (!key) {
    const by = BUILD_ID ?? JSON.stringify(z.toJSONSchema(opts.schema(), { unrepresentable: 'any' }));
    keys.set(opts.name, (key = createHash('sha256').update(`${FORMAT}\n${opts.name}\n${by}`).digest('hex').slice(0, 16)));
  }
  return key;
}

const suffix = (opts: CopyOptions) => `${copyKey(opts)}${opts.keyOrders ? '-key-orders' : ''}.copy`;
const COPY_NAME = /^[0-9a-f]{64}-[0-9a-f]{16}(-key-orders)?\.copy$/;

function copyFile(text: string, opts: CopyOptions): string | null {
  const dir = dbCacheDir();
  return dir ? path.join(dir, 'validated-db', `${createHash('sha256').update(text).digest('hex')}-${suffix(opts)}`) : null;
}

/** Where a file's index entry is kept: keyed by real path, size, modification time, inode and device (and the copy key). */
function indexFile(real: string, stat: fs.Stats, opts: CopyOptions): string | null {
  const dir = dbCacheDir();
  if (!dir) return null;
  const id = createHash('sha256').update(JSON.stringify([real, stat.size, stat.mtimeMs, stat.ino, stat.dev])).digest('hex').slice(0, 32);
  return path.join(dir, 'validated-db-index', `${id}-${suffix(opts)}`);
}

/** A top-level value of a copy kept apart (see the module doc). */
type Part = [key: string, bytes: number, records?: [key: string, bytes: number][]];

interface Header {
  format: string;
  /** Hex sha256 of every byte after the header line. */
  sha256: string;
  /** Top-level values kept apart: key, byte length, and for an object its entries (key, byte length). */
  parts: Part[] | null;
  key_orders: [string, string[]][] | null;
}

/** The copy in file `f`, or undefined when it is missing, unreadable, of another format or damaged (its checksum does not match). */
function readCopy<D>(f: string, opts: CopyOptions): D | undefined {
  let buf: Buffer;
  try {
    buf = fs.readFileSync(f);
  } catch {
    return undefined;
  }
  const nl = buf.indexOf(10);
  let header: Header;
  try {
    header = JSON.parse(buf.toString('utf8', 0, nl < 0 ? buf.length : nl)) as Header;
  } catch {
    return undefined;
  }
  if (nl < 0 || header.format !== FORMAT) return undefined;
  if (createHash('sha256').update(buf.subarray(nl + 1)).digest('hex') !== header.sha256) return undefined;
  const orders = header.key_orders ? new Map(header.key_orders) : null;
  if (!header.parts) {
    try {
      const value = JSON.parse(buf.toString('utf8', nl + 1)) as D;
      return orders ? rememberKeyOrders(value, orders) : value;
    } catch {
      return undefined;
    }
  }
  if (header.parts.reduce((n, [, bytes]) => n + bytes, nl + 1) !== buf.length) return undefined;
  if (header.parts.some(([, bytes, records]) => records && records.reduce((n, [, b]) => n + b, 0) !== bytes)) return undefined;
  return lazyObject(buf, nl + 1, header.parts, orders) as D;
}

/** A key as a JSON pointer segment (`~` → `~0`, `/` → `~1`). */
const seg = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The key orders (pointer → keys) grouped by the first `depth` segments of their pointer (`/t` for
 * 1, `/t/id` for 2): each group holds every order at or below that pointer. Shallower pointers are left out.
 */
function groupOrders(orders: Map<string, string[]> | null, depth: number): Map<string, Map<string, string[]>> {
  const groups = new Map<string, Map<string, string[]>>();
  for (const [p, keys] of orders ?? []) {
    const segs = p.split('/');
    if (segs.length <= depth) continue;
    const at = segs.slice(0, depth + 1).join('/');
    if (!groups.has(at)) groups.set(at, new Map());
    groups.get(at)!.set(p, keys);
  }
  return groups;
}

/**
 * Defines on `obj`, for each `[key, bytes]` of `entries` laid one after another in `buf` from
 * `start`, an enumerable property whose first read gives `make(key, from, bytes)` (then it is a
 * plain property); writing it replaces it.
 */
function defineLazy(obj: Record<string, unknown>, start: number, entries: readonly (readonly [string, number])[], make: (key: string, from: number, bytes: number) => unknown): void {
  const settle = (key: string, value: unknown) => Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  let at = start;
  for (const [key, bytes] of entries) {
    const from = at;
    at += bytes;
    Object.defineProperty(obj, key, {
      enumerable: true,
      configurable: true,
      get: () => {
        const value = make(key, from, bytes);
        settle(key, value);
        return value;
      },
      set: (value: unknown) => settle(key, value),
    });
  }
}

/**
 * An empty plain object that V8 keeps as a hash table (a "dictionary"): deleting a property other
 * than the last one added makes it so. A table of thousands of lazy records is one: in V8's default
 * (fast) layout each record's first read, which redefines its property, copies the descriptors of
 * all of them (reading every record of a 300-record table cost 80 ms instead of 0.2 ms).
 */
function dictionaryObject(): Record<string, unknown> {
  const obj: Record<string, unknown> = { a: 0, b: 0 };
  delete obj.a;
  delete obj.b;
  return obj;
}

/**
 * An object whose top-level values are the parts laid one after another in `buf` from `start`
 * (see {@link Part}), each made the first time it is read: a part without records is its JSON
 * parsed; a part with records is an object made the same way from its records.
 */
function lazyObject(buf: Buffer, start: number, parts: Part[], orders: Map<string, string[]> | null): Record<string, unknown> {
  const obj: Record<string, unknown> = {};
  const parse = (from: number, bytes: number) => JSON.parse(buf.toString('utf8', from, from + bytes)) as unknown;
  const byPart = groupOrders(orders, 1);
  const byRecord = groupOrders(orders, 2);
  const records = new Map(parts.map(([key, , recs]) => [key, recs]));
  defineLazy(obj, start, parts.map(([key, bytes]) => [key, bytes] as const), (key, from, bytes) => {
    const recs = records.get(key);
    if (!recs) {
      const value = parse(from, bytes);
      const own = byPart.get(`/${seg(key)}`);
      if (own) rememberKeyOrders({ [key]: value }, own);
      return value;
    }
    const table = dictionaryObject();
    defineLazy(table, from, recs, (id, at, n) => {
      const value = parse(at, n);
      const own = byRecord.get(`/${seg(key)}/${seg(id)}`);
      if (own) rememberKeyOrders({ [key]: { [id]: value } }, own);
      return value;
    });
    const tableOrder = orders?.get(`/${seg(key)}`);
    if (tableOrder) rememberKeyOrder(table, tableOrder);
    return table;
  });
  const rootOrder = orders?.get('');
  if (rootOrder) rememberKeyOrder(obj, rootOrder);
  return obj;
}

/** The validated copy of an unchanged file through the index, without reading the file; else undefined. */
export function copyOfFile<D>(real: string, stat: fs.Stats, opts: CopyOptions): D | undefined {
  const idx = indexFile(real, stat, opts);
  if (!idx) return undefined;
  let name: string;
  try {
    name = fs.readFileSync(idx, 'utf8');
  } catch {
    return undefined;
  }
  if (!COPY_NAME.test(name)) return undefined;
  return keyed(readCopy<D>(path.join(path.dirname(path.dirname(idx)), 'validated-db', name), opts), name, opts);
}

/** The validated copy of `text` (a file's content), or undefined (no copy, unreadable, or caching off). */
export function copyOfText<D>(text: string, opts: CopyOptions): D | undefined {
  const f = copyFile(text, opts);
  return f ? keyed(readCopy<D>(f, opts), path.basename(f), opts) : undefined;
}

/** `value`, named by the copy `name` as its content key when `opts.contentKey` (see {@link CopyOptions.contentKey}). */
function keyed<D>(value: D | undefined, name: string, opts: CopyOptions): D | undefined {
  if (opts.contentKey && typeof value === 'object' && value !== null) setDbContentKey(value, `validated-${name.replace(/\.copy$/, '')}`);
  return value;
}

/** The bytes of a copy of `value` (see the module doc). */
function copyBytes(text: string, value: unknown, opts: CopyOptions): Buffer {
  const keyOrders = opts.keyOrders ? [...integerKeyOrders(text)] : null;
  if (!opts.lazyParts || value === null || typeof value !== 'object' || Array.isArray(value)) {
    const body = Buffer.from(JSON.stringify(value) ?? 'null');
    return Buffer.concat([Buffer.from(`${JSON.stringify({ format: FORMAT, sha256: sha256Of([body]), parts: null, key_orders: keyOrders } satisfies Header)}\n`), body]);
  }
  const parts = Object.entries(value).map(([k, v]) => partOf(k, v));
  const header: Header = { format: FORMAT, sha256: sha256Of(parts.flatMap((p) => p.bodies)), parts: parts.map((p) => p.part), key_orders: keyOrders };
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`), ...parts.flatMap((p) => p.bodies)]);
}

/** One top-level value of a copy: its JSON, or for a plain object its entries' JSON values one after the other (see {@link Part}). */
function partOf(key: string, v: unknown): { part: Part; bodies: Buffer[] } {
  if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype || typeof (v as { toJSON?: unknown }).toJSON === 'function') {
    const body = Buffer.from(JSON.stringify(v) ?? 'null');
    return { part: [key, body.length], bodies: [body] };
  }
  // The entries JSON.stringify writes (it leaves out undefined, functions and symbols).
  const entries = Object.entries(v as Record<string, unknown>)
    .filter(([, rec]) => rec !== undefined && typeof rec !== 'function' && typeof rec !== 'symbol')
    .map(([id, rec]) => [id, Buffer.from(JSON.stringify(rec))] as const);
  return { part: [key, entries.reduce((n, [, b]) => n + b.length, 0), entries.map(([id, b]) => [id, b.length])], bodies: entries.map(([, b]) => b) };
}

/** Hex sha256 of `chunks` one after the other. */
function sha256Of(chunks: readonly Buffer[]): string {
  const h = createHash('sha256');
  for (const c of chunks) h.update(c);
  return h.digest('hex');
}

/** Copies and index entries older than this are removed when a new copy is written. */
const KEEP_MS = 7 * 24 * 3600 * 1000;
/** At most this many copies (and index entries) are kept, the newest. */
const KEEP_FILES = 32;

/**
 * Removes from `dir` the files written more than {@link KEEP_MS} ago, and all but the newest
 * {@link KEEP_FILES} (each build, schema change or edited file makes new copies). Best effort.
 */
function prune(dir: string): void {
  try {
    const now = Date.now();
    const files = fs.readdirSync(dir).map((name) => ({ f: path.join(dir, name), mtime: fs.statSync(path.join(dir, name)).mtimeMs })).sort((a, b) => b.mtime - a.mtime);
    files.forEach(({ f, mtime }, i) => {
      if (i >= KEEP_FILES - 1 || now - mtime > KEEP_MS) fs.rmSync(f, { force: true });
    });
  } catch {
    // a missing folder, or another process pruning at the same time
  }
}

/**
 * Keeps a copy of `value` (validated from `text`) and indexes the file that held `text` (both
 * written atomically; a failure to write only loses the speed-up); `from` null: `text` is not one
 * file's content (e.g. several files'), nothing is indexed. `copyRead`: the copy of `text` was just
 * read back ({@link copyOfText}); when false, a copy already there is unreadable or damaged and is replaced.
 */
export function rememberCopy(text: string, value: unknown, from: { real: string; stat: fs.Stats } | null, opts: CopyOptions, copyRead = false): void {
  const f = copyFile(text, opts);
  if (!f) return;
  keyed(value, path.basename(f), opts);
  if (!copyRead) {
    prune(path.dirname(f));
    prune(path.join(path.dirname(path.dirname(f)), 'validated-db-index'));
    writeAtomically(f, copyBytes(text, value, opts));
  }
  if (!from) return;
  const idx = indexFile(from.real, from.stat, opts);
  if (idx && fs.existsSync(f)) writeAtomically(idx, path.basename(f));
}
