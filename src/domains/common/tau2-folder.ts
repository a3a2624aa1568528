/**
 * Reading a tau2 domain folder (`db.json`, `tasks.json`, `policy.md`) with errors that name the
 * file and the JSON path of the first problem, and a per-process cache for validated DBs.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { BadInputError, jsonPath } from '../../spec/errors.js';
import { TaskSchema, type Task } from '../../spec/task.js';
import { parseJsonText, readTextFile } from '../../util/json-file.js';

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
export function createCachedDbLoader<D>(parse: (value: unknown, file: string, text: string) => D): (file: string) => D {
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
    const text = readTextFile(file);
    const db = parse(parseJsonText(text, file), file, text);
    cache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, db });
    return db;
  };
}
