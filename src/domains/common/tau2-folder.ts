/**
 * Reading a tau2 domain folder (`db.json`, `tasks.json`, `policy.md`) with errors that name the
 * file and the JSON path of the first problem, and a per-process cache for validated DBs (with an
 * optional disk copy of the validated DB, so later processes skip the validation).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BadInputError, jsonPath } from '../../spec/errors.js';
import { TaskSchema, type Task } from '../../spec/task.js';
import { parseJsonText, readTextFile } from '../../util/json-file.js';
import { integerKeyOrders, rememberKeyOrders } from './json-key-order.js';
import { dbCacheDir, setDbContentKey, writeAtomically } from './disk-cache.js';

/**
 * Validates `value`; throws {@link BadInputError} naming `file` and the JSON path of the first
 * problem. For an unknown key the path ends at that key (`tasks.json at $[3].foo`).
 */
export function validateAt<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const p: PropertyKey[] = [...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys.length) p.push(issue.keys[0]);
  throw new BadInputError(issue.message, { file, path: jsonPath(p) });
}

/** Reads a tau2 `tasks.json` (an array of tasks); unknown fields are errors naming the path. */
export function loadTau2Tasks(file: string): Task[] {
  const tasks = validateAt(z.array(TaskSchema), parseJsonText(readTextFile(file), file), file);
  if (tasks.length === 0) throw new BadInputError('no tasks; expected a JSON array of tau2 tasks', { file, path: '$' });
  const seen = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (seen.has(t.id)) throw new BadInputError(`duplicate task id '${t.id}' (first at $[${seen.get(t.id)}])`, { file, path: `$[${i}].id` });
    seen.set(t.id, i);
  });
  return tasks;
}

/** Throws {@link BadInputError} (`data directory not found`, naming `dir`) unless `dir` is a directory. */
export function requireDataDir(dir: string): void {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new BadInputError('data directory not found', { file: dir });
}

/**
 * A loader for one domain's `db.json`: `parse(value, file, text)` validates a parsed file
 * (throwing {@link BadInputError} with file and path); `text` is the file's source, for what
 * `JSON.parse` loses (see `json-key-order.ts`). Each file is read and validated once per process
 * (cached by real path, size and modification time; only successful loads are cached). The
 * returned DB is shared: never mutate it — episodes write through copy-on-write views.
 */
export function createCachedDbLoader<D>(parse: (value: unknown, file: string, text: string) => D, opts: DbCacheOptions = {}): (file: string) => D {
  const cache = new Map<string, { mtimeMs: number; size: number; db: D }>();
  return (file) => {
    let real: string;
    let stat: fs.Stats;
    try {
      real = fs.realpathSync(file);
      stat = fs.statSync(real);
    } catch {
      readTextFile(file); // throws the standard "file not found" / "cannot read" BadInputError
      throw new BadInputError('cannot read file', { file });
    }
    const hit = cache.get(real);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.db;
    let db = opts.schema ? copyOfFile<D>(real, stat, opts) : undefined;
    if (db === undefined) {
      const text = readTextFile(file);
      db = (opts.schema && validatedCopy<D>(text, opts)) || parse(parseJsonText(text, file), file, text);
      if (opts.schema) rememberValidated(text, opts, db, { real, stat });
    }
    cache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, db });
    return db;
  };
}

/** Options of {@link createCachedDbLoader}. */
export interface DbCacheOptions {
  /**
   * The zod schema `parse` validates with, when `parse` is exactly that validation (its output is
   * plain JSON). Then the validated DB is also kept on disk (see {@link dbCacheDir}), keyed by the
   * sha256 of the file's text and of the schema's JSON Schema, so the next process reads it back
   * with one `JSON.parse` instead of validating again; a changed file or schema misses the cache.
   * A small index keyed by the file's real path, size, modification time and inode names the copy
   * of the text that file held, so a process that finds its file unchanged reads neither the file
   * nor its hash (a file rewritten in place keeps its inode but changes its modification time).
   */
  schema?: z.ZodType;
  /**
   * `parse` also keeps the text order of dicts with integer-like keys (`rememberKeyOrders` of
   * `integerKeyOrders(text)`, see `json-key-order.ts`), which JSON does not carry: the disk copy
   * then stores those orders beside the DB and the loader attaches them again on reading it.
   */
  keyOrders?: boolean;
}

/** Folder of validated-DB copies (see `disk-cache.ts`). */
export { dbCacheDir };

const schemaKeys = new WeakMap<z.ZodType, string>();

function cacheFile(text: string, opts: DbCacheOptions): string | null {
  const dir = dbCacheDir();
  const schema = opts.schema;
  if (!dir || !schema) return null;
  return path.join(dir, 'validated-db', `${createHash('sha256').update(text).digest('hex')}-${schemaKey(schema)}${opts.keyOrders ? '-key-orders' : ''}.json`);
}

/** 16 hex digits of the sha256 of a schema's JSON Schema (computed once per schema and process). */
function schemaKey(schema: z.ZodType): string {
  let key = schemaKeys.get(schema);
  if (!key) schemaKeys.set(schema, (key = createHash('sha256').update(JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any' }))).digest('hex').slice(0, 16)));
  return key;
}

/** A disk copy with key orders: the DB and its `integerKeyOrders` entries. */
interface OrderedCopy {
  db: unknown;
  key_orders: [string, string[]][];
}

/** The validated copy of `text` from the disk cache, or undefined (no copy, unreadable, or caching off). */
function validatedCopy<D>(text: string, opts: DbCacheOptions): D | undefined {
  const f = cacheFile(text, opts);
  return f ? readCopy<D>(f, opts) : undefined;
}

/** The copy in file `f` (with its key orders attached), or undefined when it is missing or unreadable. */
function readCopy<D>(f: string, opts: DbCacheOptions): D | undefined {
  try {
    const copy = JSON.parse(fs.readFileSync(f, 'utf8')) as unknown;
    if (!opts.keyOrders) return copy as D;
    const { db, key_orders } = copy as OrderedCopy;
    return rememberKeyOrders(db, new Map(key_orders)) as D;
  } catch {
    return undefined;
  }
}

/** Where a file's stat index entry is kept: keyed by real path, size, modification time and inode (and the schema). */
function indexFile(real: string, stat: fs.Stats, opts: DbCacheOptions): string | null {
  const dir = dbCacheDir();
  if (!dir || !opts.schema) return null;
  const id = createHash('sha256').update(JSON.stringify([real, stat.size, stat.mtimeMs, stat.ino, stat.dev])).digest('hex').slice(0, 32);
  return path.join(dir, 'validated-db-index', `${id}-${schemaKey(opts.schema)}${opts.keyOrders ? '-key-orders' : ''}`);
}

/** The validated copy of an unchanged file through the stat index, without reading the file; else undefined. */
function copyOfFile<D>(real: string, stat: fs.Stats, opts: DbCacheOptions): D | undefined {
  const idx = indexFile(real, stat, opts);
  if (!idx) return undefined;
  let name: string;
  try {
    name = fs.readFileSync(idx, 'utf8');
  } catch {
    return undefined;
  }
  if (!/^[0-9a-f]{64}-[0-9a-f]{16}(-key-orders)?\.json$/.test(name)) return undefined;
  const db = readCopy<D>(path.join(path.dirname(path.dirname(idx)), 'validated-db', name), opts);
  if (db !== undefined) keyContent(db, name);
  return db;
}

/** Names a validated DB's content by its copy's file name (see `setDbContentKey`), so what is derived from it can be cached too. */
function keyContent(db: unknown, name: string): void {
  if (typeof db === 'object' && db !== null) setDbContentKey(db, `validated-${name.replace(/\.json$/, '')}`);
}

/**
 * Keeps a validated copy on disk and indexes the file that held `text` (written atomically; a
 * failure to write only loses the speed-up); names `db`'s content by the copy's name.
 */
function rememberValidated(text: string, opts: DbCacheOptions, db: unknown, from: { real: string; stat: fs.Stats }): void {
  const f = cacheFile(text, opts);
  if (!f) return;
  keyContent(db, path.basename(f));
  if (!fs.existsSync(f)) writeAtomically(f, JSON.stringify(opts.keyOrders ? ({ db, key_orders: [...integerKeyOrders(text)] } satisfies OrderedCopy) : db));
  const idx = indexFile(from.real, from.stat, opts);
  if (idx && fs.existsSync(f)) writeAtomically(idx, path.basename(f));
}
