/**
 * Helpers for datasets shipped with servicegym (policy and task files beside the code).
 */
import path from 'node:path';
import { TaskSchema, type Task } from '../../spec/task.js';
import { BadInputError } from '../../spec/errors.js';
import { parseJsonText, readTextFile } from '../../util/json-file.js';
import { validateAt } from './tau2-folder.js';
import { copyOfText, rememberCopy, type CopyOptions } from './validated-copy.js';
import { z } from 'zod';

/** The validated copy of a dataset's task files (`validated-copy.ts`), keyed by their names and texts. */
const BUILTIN_TASKS_COPY: CopyOptions = { name: 'servicegym-tasks', schema: () => z.array(TaskSchema) };

/**
 * Reads task files (an explicit list, never a folder scan) from `dir`, each one task in tau2
 * format plus the servicegym block. Throws BadInputError naming the file and JSON path of a
 * malformed task, or a duplicate id. The validated tasks are kept on disk (`validated-copy.ts`,
 * keyed by the files' names and texts and what validated them): a later process reads the same
 * files' tasks back with one `JSON.parse` instead of validating them again (task files ship with
 * the code, so every command that loads a dataset would pay for it). Each call returns fresh objects.
 */
export function loadBuiltinTasks(dir: string, files: readonly string[]): Task[] {
  const texts = files.map((f) => readTextFile(path.join(dir, f)));
  const key = JSON.stringify(files.map((f, i) => [f, texts[i]]));
  const copied = copyOfText<Task[]>(key, BUILTIN_TASKS_COPY);
  if (copied !== undefined) return copied;
  const seen = new Set<string>();
  const tasks = files.map((f, i) => {
    const file = path.join(dir, f);
    const task = validateAt(TaskSchema, parseJsonText(texts[i], file), file);
    if (seen.has(task.id)) throw new BadInputError(`duplicate task id '${task.id}'`, { file, path: '$.id' });
    seen.add(task.id);
    return task;
  });
  rememberCopy(key, tasks, null, BUILTIN_TASKS_COPY);
  return tasks;
}
