/** Picking a dataset's tasks by id (a module of its own, light enough for command start-up). */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';

/** Selects tasks by id (comma-separated list or array); throws BadInputError naming unknown ids. */
export function selectTasks(loaded: LoadedDomain<any>, ids?: string[]): Task[] {
  if (!ids || ids.length === 0) return loaded.tasks;
  const byId = new Map(loaded.tasks.map((t) => [t.id, t]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) throw new BadInputError(`unknown task id(s): ${unknown.join(', ')} (the dataset has ${loaded.tasks.length} tasks: ${loaded.tasks.slice(0, 12).map((t) => t.id).join(', ')}${loaded.tasks.length > 12 ? ', …' : ''})`);
  return ids.map((id) => byId.get(id)!);
}
