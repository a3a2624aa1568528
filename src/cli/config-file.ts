/**
 * The `--config` file of `servicegym run` (src/cli/run-options.ts) and `validate`.
 *
 * **Config file** (`--config run.json`, also on `validate` with its own flags as keys): a JSON
 * object whose keys are the long flag names without the dashes (`"agent-model"`, `"tasks"`, `"trials"`, `"tag"`, `"surface"`, `"resume"` …): every
 * option of the command except `config` itself, read from the command's own option list, so a new
 * flag is a config key at once. Values are strings or numbers for a flag with a value, `true` or
 * `false` for a switch such as `"strict"`; a repeatable flag (`tag`, `surface-option`) and the
 * comma lists `tasks` and `personas` also take a list of strings. A flag given on the command
 * line wins over the file. Relative paths (flags whose value is a `<file>`, `<dir>` or `<path>`:
 * `data-dir`, `db`, `prompt-file`, `output`) resolve from the file's folder, as optimise configs
 * do. An unknown key or a value of the wrong type is bad input naming the file and the JSON path,
 * every such problem of the file at once (one line each), together with the values a flag check
 * refuses (`"trials": 0`, `"surface": "fax"`: {@link applyConfigFileChecked}); a value only the
 * command itself can judge (an unknown task id) is reported with the same file and JSON path
 * ({@link configBlame}).
 */
import path from 'node:path';
import type { Command, Option } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { parseJsonText, readTextFile } from '../util/json-file.js';

/** How a config-file key is read: a flag's value, a switch, a comma list, or a repeatable flag. */
type KeyKind = 'value' | 'switch' | 'list' | 'repeat';

/** Flags taking a comma-separated list, which a config file may also give as a JSON list. */
const COMMA_LISTS = new Set(['tasks', 'personas']);

/** One option of the command as a config key. */
interface ConfigKey {
  option: Option;
  kind: KeyKind;
  /** Its value is a file or folder (resolved from the config file's folder). */
  isPath: boolean;
}

/**
 * The config keys of `cmd`: each of its options by long name without the dashes (`--no-store` is
 * `no-store`), except `config`. Derived from the command's own option list.
 */
export function configKeys(cmd: Command): Map<string, ConfigKey> {
  const keys = new Map<string, ConfigKey>();
  for (const option of cmd.options) {
    const key = option.long?.replace(/^--/, '');
    if (!key || key === 'config') continue;
    const kind: KeyKind = option.isBoolean() || option.negate ? 'switch' : option.parseArg || option.variadic ? 'repeat' : COMMA_LISTS.has(key) ? 'list' : 'value';
    keys.set(key, { option, kind, isPath: /<(file|dir|path)>/.test(option.flags) });
  }
  return keys;
}

/** The camel-case attribute commander gives a long flag. */
const attr = (long: string) => long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The one problem of the `required` options (long names without the dashes) that neither a flag
 * nor the config file set, naming them all, e.g. `--agent-model and --user-model are required
 * (flags, or "agent-model" and "user-model" in the --config file)`; null when none is missing.
 * With a config file the problem carries its name. `skip` holds keys already reported as wrong.
 */
export function missingRequired(flags: Record<string, any>, required: readonly string[], file: string | undefined, skip: ReadonlySet<string>): BadInputError | null {
  const missing = required.filter((k) => !flags[attr(k)] && !skip.has(k));
  if (!missing.length) return null;
  const and = (xs: string[]) => (xs.length === 1 ? xs[0] : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  const one = missing.length === 1;
  const text = `${and(missing.map((k) => `--${k}`))} ${one ? 'is' : 'are'} required (${one ? 'a flag' : 'flags'}, or ${and(missing.map((k) => `"${k}"`))} in the --config file)`;
  return new BadInputError(text, file === undefined ? {} : { file });
}

/**
 * Merges the `--config` file (if given) into `flags` for any command that offers `--config`
 * (`run`, `validate`): a key is taken from the file unless its flag was given on the command line
 * (a value taken from the file has the source `config`); keys are the command's own options.
 * Every key is checked before any is refused, so one error reports all of the file's problems.
 * @throws BadInputError for unknown keys, wrong types or values outside an option's choices: one
 *   problem as `FILE at $.key: what was expected`, several as one such line each.
 */
export function applyConfigFile(cmd: Command, flags: Record<string, any>): void {
  const read = readConfigFile(cmd, flags);
  if (read) throwProblems(read.file, read.problems);
}

/**
 * {@link applyConfigFile}, then each value the file gave checked as the command would check it
 * (`checks`, by key: src/cli/flag-checks.ts `FLAG_CHECKS`), so that every value error of the file
 * is reported at once with its JSON path (`FILE at $.trials: --trials must be …`), together with
 * the key and type errors, instead of one per attempt. `required` (long names without the dashes,
 * or a function of the flags after the file is applied giving them)
 * are the options the command cannot run without: the ones neither a flag nor the file set are
 * named together, after the file's other problems (with or without a config file).
 * @throws BadInputError listing every problem of the file, one line each.
 */
export async function applyConfigFileChecked(cmd: Command, flags: Record<string, any>, checks: Readonly<Record<string, (flags: Record<string, any>) => unknown>>, required: readonly string[] | ((flags: Record<string, any>) => readonly string[]) = []): Promise<void> {
  const read = readConfigFile(cmd, flags);
  const problems = read?.problems ?? [];
  for (const [key, at] of read?.taken ?? []) {
    if (!Object.hasOwn(checks, key)) continue;
    try {
      await checks[key](flags);
    } catch (err) {
      if (!(err instanceof BadInputError)) throw err;
      problems.push(err.file === undefined ? new BadInputError(err.message, { file: read!.file, path: at }) : err);
    }
  }
  // In file order, as the key and type problems are; missing options after them.
  const rank = (p: BadInputError) => read!.order.indexOf(p.path ?? '');
  problems.sort((a, b) => rank(a) - rank(b));
  const missing = missingRequired(flags, typeof required === 'function' ? required(flags) : required, read?.file, new Set(problems.map((p) => p.path?.replace(/^\$\./, '') ?? '')));
  if (missing) problems.push(missing);
  throwProblems(read?.file, problems);
}

/** Throws `problems` of `file` as one error: the problem itself, or `N problems in the config file:` and one line each. */
function throwProblems(file: string | undefined, problems: readonly BadInputError[]): void {
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) throw new BadInputError(`${problems.length} problems in the config file:\n${problems.map((p) => `  ${p.message}`).join('\n')}`, { file });
}

/**
 * Reads the `--config` file into `flags` (see {@link applyConfigFile}); null without `--config`.
 * Returns the file, its key and type problems, the keys taken from it with their JSON paths, and
 * every key's JSON path in file order. Throws BadInputError when the file is not a JSON object.
 */
function readConfigFile(cmd: Command, flags: Record<string, any>): { file: string; problems: BadInputError[]; taken: Map<string, string>; order: string[] } | null {
  if (flags.config === undefined) return null;
  const file = String(flags.config);
  const value = parseJsonText(readTextFile(file), file);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new BadInputError('expected a JSON object of flag names and values', { file, path: '$' });
  const dir = path.dirname(path.resolve(file));
  const keys = configKeys(cmd);
  const problems: BadInputError[] = [];
  const taken = new Map<string, string>();
  const order: string[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    const spec = keys.get(key);
    // The key as JSON spells it (escaped), so that a control character or a line break in it cannot break the one-line-per-problem report.
    const shown = JSON.stringify(key).slice(1, -1);
    const at = `$.${shown}`;
    order.push(at);
    if (!spec) {
      problems.push(new BadInputError(`unknown key '${shown}'${key === 'config' ? ' (a config file cannot name another one)' : ''}; expected one of: ${[...keys.keys()].join(', ')}`, { file, path: at }));
      continue;
    }
    const name = spec.option.attributeName();
    if (cmd.getOptionValueSource(name) === 'cli') continue;
    try {
      const read = configValue(spec, v, file, at, spec.isPath ? dir : undefined);
      cmd.setOptionValueWithSource(name, read, 'config');
      flags[name] = read;
      taken.set(key, at);
    } catch (err) {
      if (!(err instanceof BadInputError)) throw err;
      problems.push(err);
    }
  }
  return { file, problems, taken, order };
}

/**
 * `err` located in the config file when it is about a value the file gave: a bad-input error
 * without a file whose message names the key's flag (`--trials must be …`) or quotes the value
 * (`unknown surface 'fax'`) gets the file and the key's JSON path. Anything else is returned as is.
 */
export function configBlame(err: unknown, cmd: Command): unknown {
  const file = cmd.getOptionValue('config');
  if (file === undefined || !(err instanceof BadInputError) || err.file !== undefined) return err;
  const text = err.message;
  for (const [key, { option }] of configKeys(cmd)) {
    const name = option.attributeName();
    if (cmd.getOptionValueSource(name) !== 'config') continue;
    const value = cmd.getOptionValue(name);
    const values = (Array.isArray(value) ? value : [value]).flatMap((x) => (typeof x === 'string' ? [x, ...x.split(',').map((p) => p.trim())] : [])).filter(Boolean);
    const flagNamed = new RegExp(`(^|[^\\w-])--${key}(?![\\w-])`).test(text);
    if (flagNamed || values.some((x) => text.includes(`'${x}'`))) return new BadInputError(text, { file: String(file), path: `$.${key}` });
  }
  return err;
}

/** `action` with its bad-input errors about config-file values located in the file ({@link configBlame}). */
export function withConfigBlame<A extends unknown[]>(action: (...args: A) => Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await action(...args);
    } catch (err) {
      const cmd = args.find((a): a is Command => typeof (a as Command | null)?.getOptionValueSource === 'function');
      throw cmd ? configBlame(err, cmd) : err;
    }
  };
}

/** What a wrong value is, without echoing it (a config may hold a pasted secret in the wrong key). */
function kindOf(x: unknown): string {
  if (x === null) return 'null';
  if (Array.isArray(x)) return x.length ? 'a list' : 'an empty list';
  if (typeof x === 'string') return x === '' ? 'an empty string' : 'a string';
  if (typeof x === 'number') return Number.isFinite(x) ? 'a number' : 'a non-finite number';
  return typeof x === 'object' ? 'an object' : `a ${typeof x}`;
}

function configValue(spec: ConfigKey, v: unknown, file: string, at: string, dir?: string): unknown {
  const fail = (what: string) => new BadInputError(`expected ${what}, got ${kindOf(v)}`, { file, path: at });
  const { kind, option } = spec;
  if (kind === 'switch') {
    if (typeof v !== 'boolean') throw fail('true or false');
    return option.negate ? !v : v;
  }
  const scalar = (x: unknown, where: string) => {
    if (typeof x === 'string' && x !== '') return x;
    if (typeof x === 'number' && Number.isFinite(x)) return String(x);
    throw new BadInputError(`expected a non-empty string or a number, got ${kindOf(x)}`, { file, path: where });
  };
  const checked = (x: string, where: string) => {
    if (option.argChoices && !option.argChoices.includes(x)) throw new BadInputError(`expected one of ${option.argChoices.join(', ')}`, { file, path: where });
    return dir ? path.resolve(dir, x) : x;
  };
  if (kind === 'list' || kind === 'repeat') {
    if (Array.isArray(v) && v.length === 0) throw fail('a non-empty list');
    const list = Array.isArray(v) ? v.map((x, i) => checked(scalar(x, `${at}[${i}]`), `${at}[${i}]`)) : [checked(scalar(v, at), at)];
    if (kind === 'list') return list.join(',');
    // A repeatable flag's own parser gathers the values, as for repeated flags on the command line.
    return option.parseArg ? list.reduce<unknown>((acc, x) => option.parseArg!(x, acc), undefined) : list;
  }
  return checked(scalar(v, at), at);
}
