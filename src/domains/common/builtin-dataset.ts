/**
 * Helpers for datasets shipped with servicegym (policy and task files beside the code).
 */
import path from 'node:path';
import { TaskSchema, type Task } from '../../spec/task.js';
import { BadInputError } from '../../spec/errors.js';
import { parseJsonText, readTextFile } from '../../util/json-file.js';
import { validateAt } from './tau2-folder.js';

/**
 * Reads task files (an explicit list, never a folder scan) from `dir`, each one task in tau2
 * format plus the servicegym block. Throws BadInputError naming the file and JSON path of a
 * malformed task, or a duplicate id.
 */
export function loadBuiltinTasks(dir: string, files: readonly string[]): Task[] {
  const seen = new Set<string>();
  return files.map((f) => {
    const file = path.join(dir, f);
    const task = validateAt(TaskSchema, parseJsonText(readTextFile(file), file), file);
    if (seen.has(task.id)) throw new BadInputError(`duplicate task id '${task.id}'`, { file, path: '$.id' });
    seen.add(task.id);
    return task;
  });
}
