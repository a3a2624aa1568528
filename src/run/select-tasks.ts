/** Picking a dataset's tasks by id or glob (a module of its own, light enough for command start-up). */
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

/** True when `pattern` is a glob (`*`, `?` or a `[...]` class). */
const isGlob = (pattern: string) => /[*?[]/.test(pattern);

/**
 * A glob as a whole-string regular expression: `*` any run of characters, `?` one, `[...]` a class
 * (`[!...]` negated), `\x` the character x itself (`\[mobile_data_issue\]*` for tau2 telecom's
 * ids, which hold brackets). Throws BadInputError for an unclosed or invalid class.
 */
export function globRegExp(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\' && i + 1 < pattern.length) re += pattern[++i].replace(/[.*?+^${}()|[\]\\/]/g, '\\$&');
    else if (c === '*') re += '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new BadInputError(`--tasks pattern '${pattern}' has an unclosed '['`);
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += c.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${re}$`);
  } catch {
    throw new BadInputError(`--tasks pattern '${pattern}' is not a valid glob (a '[...]' class such as [z-a] has its range out of order)`);
  }
}

/**
 * The tasks a `--tasks` flag names, for every command that takes one (`run`, `validate`, `lint`):
 * comma-separated ids or globs (`T0*`, `1?`, `C0[1-3]`); undefined means every task. A list of
 * plain ids keeps the order given; with a glob the dataset's order is kept. An entry that is a task
 * id is that task even when it holds glob characters (tau2 telecom's ids all do:
 * `[mobile_data_issue]data_mode_off[PERSONA:None]`).
 * @throws BadInputError naming `--tasks`, for a flag given but naming nothing (`''`, `','`: an
 *   empty list from a generated config must not run the whole dataset), an unknown id, a pattern
 *   matching no task or an invalid pattern.
 */
export function selectTasksFlag(loaded: LoadedDomain<any>, tasksFlag: string | undefined): Task[] {
  const patterns = (tasksFlag ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (tasksFlag !== undefined && patterns.length === 0) throw new BadInputError(`--tasks names no task (got '${tasksFlag}'); give task ids or globs, or leave the flag out to run every task`);
  const ids = new Set(loaded.tasks.map((t) => t.id));
  const isPattern = (p: string) => isGlob(p) && !ids.has(p);
  if (!patterns.some(isPattern)) {
    try {
      return selectTasks(loaded, patterns);
    } catch (err) {
      // Named after the flag, so that a `"tasks"` value from a config file is blamed on its JSON path.
      throw err instanceof BadInputError && err.file === undefined ? new BadInputError(`--tasks: ${err.message}`) : err;
    }
  }
  const res = patterns.map((p) => ({ p, re: isPattern(p) ? globRegExp(p) : null }));
  for (const { p, re } of res) {
    const hits = loaded.tasks.filter((t) => (re ? re.test(t.id) : t.id === p));
    if (hits.length === 0) throw new BadInputError(`--tasks: ${re ? 'pattern' : 'task id'} '${p}' matches no task (the dataset has ${loaded.tasks.length} tasks: ${loaded.tasks.slice(0, 12).map((t) => t.id).join(', ')}${loaded.tasks.length > 12 ? ', …' : ''})`);
  }
  return loaded.tasks.filter((t) => res.some(({ p, re }) => (re ? re.test(t.id) : t.id === p)));
}
