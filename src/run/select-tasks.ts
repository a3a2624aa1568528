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
 * brackets). Throws BadInputError, naming `flag`, for an unclosed or invalid class.
 */
function globTokens(pattern: string, flag: string): GlobToken[] {
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
      if (end < 0) throw new BadInputError(`${flag} pattern '${pattern}' has an unclosed '['`);
      let body = pattern.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      const source = `[${body.replace(/\\/g, '\\\\')}]`;
      let re: RegExp;
      try {
        re = new RegExp(`^${source}$`);
      } catch {
        throw new BadInputError(`${flag} pattern '${pattern}' is not a valid glob (a '[...]' class such as [z-a] has its range out of order)`);
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
 * @throws BadInputError naming `flag` (the flag the pattern came from) for an unclosed or invalid class.
 */
export function globRegExp(pattern: string, flag = '--tasks'): RegExp {
  return new RegExp(`^${globTokens(pattern, flag).map((t) => (t.star ? '.*' : t.source)).join('')}$`);
}

/**
 * A glob ({@link globTokens}) as a whole-string test that takes time linear in the pattern times
 * the id however many `*` it has (a RegExp of `*a*a*a…` backtracks exponentially on a long id
 * without a match: tau2 telecom has 2285 ids of ~60 characters).
 * @throws BadInputError naming `flag` (the flag the pattern came from) for an unclosed or invalid class.
 */
export function globMatcher(pattern: string, flag = '--tasks'): (id: string) => boolean {
  const tokens = globTokens(pattern, flag);
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

/** Where a task selection picks from, for its error messages. */
export interface TaskIdSource {
  /** The flag the selection came from, e.g. `--tasks`. */
  flag: string;
  /** The ids' owner as a message names it: `the dataset`, `run 'r1'`. */
  owner: string;
  /** What leaving the flag out does, e.g. `run every task`. */
  unset: string;
}

/**
 * The task ids of `ids` that a flag's value names, for every command that selects tasks (`run`,
 * `validate` and `lint` `--tasks`, `export-trajectories --task`): comma-separated ids or globs
 * (`T0*`, `1?`, `C0[1-3]`, {@link globMatcher}); undefined when the flag is not given. A list of
 * plain ids keeps the order given; with a glob the order of `ids` is kept. An entry that is an id
 * is that id even when it holds glob characters (tau2 telecom's ids all do:
 * `[mobile_data_issue]data_mode_off[PERSONA:None]`); an entry given twice is one id.
 * @throws BadInputError naming `source.flag`, for a flag given but naming nothing (`''`, `','`:
 *   an empty list from a generated config must not select everything), an unknown id, a pattern
 *   matching no id or an invalid pattern; the message lists `source.owner`'s first ids.
 */
export function selectTaskIds(ids: readonly string[], value: string | undefined, source: TaskIdSource): string[] | undefined {
  if (value === undefined) return undefined;
  const { flag, owner } = source;
  const patterns = [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
  if (patterns.length === 0) throw new BadInputError(`${flag} names no task (got '${value}'); give task ids or globs, or leave the flag out to ${source.unset}`);
  const known = new Set(ids);
  const listing = `${owner} has ${ids.length} task${ids.length === 1 ? '' : 's'}: ${ids.slice(0, 12).join(', ')}${ids.length > 12 ? ', …' : ''}`;
  const isPattern = (p: string) => isGlob(p) && !known.has(p);
  if (!patterns.some(isPattern)) {
    const unknown = patterns.filter((p) => !known.has(p));
    if (unknown.length) throw new BadInputError(`${flag}: unknown task id(s): ${unknown.join(', ')} (${listing})`);
    return patterns;
  }
  const tests = patterns.map((p) => ({ p, test: isPattern(p) ? globMatcher(p, flag) : (id: string) => id === p, glob: isPattern(p) }));
  for (const { p, test, glob } of tests) {
    if (!ids.some(test)) throw new BadInputError(`${flag}: ${glob ? 'pattern' : 'task id'} '${p}' matches no task (${listing})`);
  }
  return ids.filter((id) => tests.some(({ test }) => test(id)));
}

/**
 * The tasks a `--tasks` flag names, for every command that takes one (`run`, `validate`, `lint`):
 * {@link selectTaskIds} over the dataset's tasks; undefined means every task.
 * @throws BadInputError naming `--tasks` (see {@link selectTaskIds}).
 */
export function selectTasksFlag(loaded: LoadedDomain<any>, tasksFlag: string | undefined): Task[] {
  const picked = selectTaskIds(loaded.tasks.map((t) => t.id), tasksFlag, { flag: '--tasks', owner: 'the dataset', unset: 'run every task' });
  if (!picked) return loaded.tasks;
  const byId = new Map(loaded.tasks.map((t) => [t.id, t]));
  return picked.map((id) => byId.get(id)!);
}
