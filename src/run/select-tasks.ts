/** Picking a dataset's tasks by id or glob (a module of its own, light enough for command start-up). */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';

/** Selects tasks by id (comma-separated list or array); throws BadInputError naming unknown ids. */
export function selectTasks(loaded: LoadedDomain<any>, ids?: string[]): Task[] {
  if (!ids || ids.length === 0) return loaded.tasks;
  const byId = new Map(loaded.tasks.map((t) => [t.id, t]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) throw new BadInputError(`unknown task id(s): ${unknown.join(', ')} (the dataset has ${loaded.tasks.length} task${loaded.tasks.length === 1 ? '' : 's'}: ${loaded.tasks.slice(0, 12).map((t) => t.id).join(', ')}${loaded.tasks.length > 12 ? ', …' : ''})`);
  return ids.map((id) => byId.get(id)!);
}

/** True when `pattern` is a glob (`*`, `?` or a `[...]` class). */
const isGlob = (pattern: string) => /[*?[]/.test(pattern);

/** One piece of a glob: `*` (any run of characters), or one character: its RegExp source and test. */
type GlobToken = { star: true } | { star: false; source: string; test: (c: string) => boolean };

/** Escapes a character for a RegExp source outside a class. */
const literal = (c: string) => c.replace(/[.*?+^${}()|[\]\\/]/g, '\\$&');

/**
 * A glob as its pieces: `*` any run of characters, `?` one, `[...]` a class (`[!...]` negated),
 * `\x` the character x itself (`\[mobile_data_issue\]*` for tau2 telecom's ids, which hold
 * brackets). Throws BadInputError for an unclosed or invalid class.
 */
function globTokens(pattern: string): GlobToken[] {
  const out: GlobToken[] = [];
  for (let i = 0; i < pattern.length; i++) {
    let c = pattern[i];
    if (c === '*') {
      if (!out.at(-1)?.star) out.push({ star: true });
      continue;
    }
    if (c === '?') {
      out.push({ star: false, source: '.', test: () => true });
      continue;
    }
    if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) throw new BadInputError(`--tasks pattern '${pattern}' has an unclosed '['`);
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      const source = `[${body.replace(/\\/g, '\\\\')}]`;
      let re: RegExp;
      try {
        re = new RegExp(`^${source}$`);
      } catch {
        throw new BadInputError(`--tasks pattern '${pattern}' is not a valid glob (a '[...]' class such as [z-a] has its range out of order)`);
      }
      out.push({ star: false, source, test: (x) => re.test(x) });
      i = end;
      continue;
    }
    if (c === '\\' && i + 1 < pattern.length) c = pattern[++i];
    const ch = c;
    out.push({ star: false, source: literal(ch), test: (x) => x === ch });
  }
  return out;
}

/**
 * A glob ({@link globTokens}) as a whole-string regular expression.
 * @throws BadInputError for an unclosed or invalid class.
 */
export function globRegExp(pattern: string): RegExp {
  return new RegExp(`^${globTokens(pattern).map((t) => (t.star ? '.*' : t.source)).join('')}$`);
}

/**
 * A glob ({@link globTokens}) as a whole-string test that takes time linear in the pattern times
 * the id however many `*` it has (a RegExp of `*a*a*a…` backtracks exponentially on a long id
 * without a match: tau2 telecom has 2285 ids of ~60 characters).
 * @throws BadInputError for an unclosed or invalid class.
 */
export function globMatcher(pattern: string): (id: string) => boolean {
  const tokens = globTokens(pattern);
  return (id) => {
    let p = 0;
    let i = 0;
    let starAt = -1;
    let resumeAt = 0;
    while (i < id.length) {
      const t = tokens[p];
      if (t && !t.star && t.test(id[i])) {
        p++;
        i++;
      } else if (t?.star) {
        starAt = p++;
        resumeAt = i;
      } else if (starAt >= 0) {
        p = starAt + 1;
        i = ++resumeAt;
      } else return false;
    }
    while (tokens[p]?.star) p++;
    return p === tokens.length;
  };
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
  // An entry given twice is one task (a run keys its episodes by task id).
  const patterns = [...new Set((tasksFlag ?? '').split(',').map((s) => s.trim()).filter(Boolean))];
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
  const res = patterns.map((p) => ({ p, re: isPattern(p) ? { test: globMatcher(p) } : null }));
  for (const { p, re } of res) {
    const hits = loaded.tasks.filter((t) => (re ? re.test(t.id) : t.id === p));
    if (hits.length === 0) throw new BadInputError(`--tasks: ${re ? 'pattern' : 'task id'} '${p}' matches no task (the dataset has ${loaded.tasks.length} task${loaded.tasks.length === 1 ? '' : 's'}: ${loaded.tasks.slice(0, 12).map((t) => t.id).join(', ')}${loaded.tasks.length > 12 ? ', …' : ''})`);
  }
  return loaded.tasks.filter((t) => res.some(({ p, re }) => (re ? re.test(t.id) : t.id === p)));
}
