/**
 * Reading a tau2 domain folder (`db.json`, `tasks.json`, `policy.md`) with errors that name the
 * file and the JSON path of the first problem, and a per-process cache for validated DBs; the
 * validated DB and tasks are also kept on disk (`validated-copy.ts`), so later processes skip
 * the validation.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { BadInputError, jsonPath } from '../../spec/errors.js';
import { TaskSchema, type Task } from '../../spec/task.js';
import { parseJsonText, readTextFile } from '../../util/json-file.js';
import { copyOfFile, copyOfText, rememberCopy, type CopyOptions } from './validated-copy.js';


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
  const copy: CopyOptions | undefined = opts.schema && { name: opts.name ?? 'db', schema: typeof opts.schema === 'function' ? opts.schema : () => opts.schema as z.ZodType, keyOrders: opts.keyOrders, lazyParts: opts.lazyTables ?? true, contentKey: true };
  return (file) => {
    const { real, stat } = statOf(file);
    const hit = cache.get(real);
    if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.db;
    const db = copy ? loadWithCopy(file, real, stat, copy, parse) : parseText(readTextFile(file), file, parse);
    cache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, db });
    return db;
  };
}

/** Options of {@link createCachedDbLoader}. */
export interface DbCacheOptions {
  /**
   * The zod schema `parse` validates with (or a function building it), when `parse` is exactly
   * that validation (its output is plain JSON). Then the validated DB is also kept on disk (see
   * `validated-copy.ts`: keyed by the file's text and the schema, found through a stat index),
   * so the next process reads it back instead of validating again; a changed file or schema
   * misses the copy.
   */
  schema?: z.ZodType | (() => z.ZodType);
  /** What the DB is, for the copy's key (e.g. `airline-db`); default `db`. */
  name?: string;
  /**
   * `parse` also keeps the text order of dicts with integer-like keys (`rememberKeyOrders` of
   * `integerKeyOrders(text)`, see `json-key-order.ts`), which JSON does not carry: the disk copy
   * then stores those orders beside the DB and the loader attaches them again on reading it.
   */
  keyOrders?: boolean;
  /** A DB read from its disk copy parses each table the first time it is read (default true). */
  lazyTables?: boolean;
}

/** The real path and stat of `file`; throws the standard "file not found" / "cannot read" {@link BadInputError}. */
function statOf(file: string): { real: string; stat: fs.Stats } {
  try {
    const real = fs.realpathSync(file);
    return { real, stat: fs.statSync(real) };
  } catch {
    readTextFile(file); // throws the standard "file not found" / "cannot read" BadInputError
    throw new BadInputError('cannot read file', { file });
  }
}

/**
 * The validated value of `file`: its disk copy through the stat index (the file is not read),
 * else the copy of its text, else `parse` (then a copy is kept). Throws what `parse` throws.
 */
function loadWithCopy<D>(file: string, real: string, stat: fs.Stats, copy: CopyOptions, parse: (value: unknown, file: string, text: string) => D): D {
  const indexed = copyOfFile<D>(real, stat, copy);
  if (indexed !== undefined) return indexed;
  const text = readTextFile(file);
  const known = copyOfText<D>(text, copy);
  const value = known !== undefined ? known : parseText(text, file, parse);
  rememberCopy(text, value, { real, stat }, copy, known !== undefined);
  return value;
}

function parseText<D>(text: string, file: string, parse: (value: unknown, file: string, text: string) => D): D {
  return parse(parseJsonText(text, file), file, text);
}

const TASKS_COPY: CopyOptions = { name: 'tau2-tasks', schema: () => z.array(TaskSchema) };

/**
 * Reads a tau2 `tasks.json` (an array of tasks); unknown fields are errors naming the path, and
 * so is a duplicate task id. The validated tasks are kept on disk like a DB (`validated-copy.ts`),
 * so a later process reads an unchanged file's tasks back without validating them again; each
 * call returns a fresh array.
 */
export function loadTau2Tasks(file: string): Task[] {
  const { real, stat } = statOf(file);
  return loadWithCopy(file, real, stat, TASKS_COPY, (value) => checkTasks(validateAt(z.array(TaskSchema), value, file), file));
}

function checkTasks(tasks: Task[], file: string): Task[] {
  if (tasks.length === 0) throw new BadInputError('no tasks; expected a JSON array of tau2 tasks', { file, path: '$' });
  const seen = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (seen.has(t.id)) throw new BadInputError(`duplicate task id '${t.id}' (first at $[${seen.get(t.id)}])`, { file, path: `$[${i}].id` });
    seen.set(t.id, i);
  });
  return tasks;
}
