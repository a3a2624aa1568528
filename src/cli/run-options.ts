/**
 * The options of `servicegym run` beyond the model and dataset flags (issue 18, item 10): a
 * config file with the same keys as the flags, task selection with globs, `--limit`,
 * `--sample N --seed S`, `--max-steps`, `--prompt-file`, `--max-cost`, `--name` and `--tag`,
 * `-o FILE` and `--fail-under`.
 *
 * **Config file** (`--config run.json`, also on `validate` with its own flags as keys): a JSON object whose keys are the long flag names without
 * the dashes (`"agent-model"`, `"tasks"`, `"trials"`, `"tag"`, `"surface"`, `"resume"` …): every
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
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import { selectTasksFlag } from '../run/select-tasks.js';

import { Rng } from '../util/rng.js';
import { sha256Hex } from '../util/canonical.js';
import { parseJsonText, readTextFile } from '../util/json-file.js';
import { writableResultsFormat } from '../run/results-export.js';
import { refuseOverwrite, storeFiles } from '../util/same-file.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';

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

/** Adds the options of this module to the `run` command (listed after its own in `--help`). */
export function withRunOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'read flags from a JSON file: keys are the long flag names ("agent-model", "tasks", "trials", ...); flags given here win')
    .option('--limit <n>', 'run only the first n selected tasks (after --sample)')
    .option('--sample <n>', 'run n tasks drawn at random (seeded by --seed) from the selected ones, kept in dataset order')
    .option('--seed <s>', 'seed of --sample', '0')
    .option('--max-steps <n>', 'step limit per episode (messages; tau2 default 200)')
    .option('--prompt-file <file>', "the agent's system prompt from a file; {{policy}} in it is replaced by the domain policy")
    .option('--max-cost <usd>', 'start no new episode once the provider-reported cost reaches this many US dollars (continue with --resume)')
    .option('--name <text>', 'a name for the run (runs list, viewer)')
    .option('--tag <text>', 'a tag for the run (repeatable)', (v: string, acc: string[] = []) => [...acc, v])
    .option('-o, --output <file>', 'also write the per-episode results: .jsonl, .csv or .xml (JUnit)')
    .option('--fail-under <reward>', 'exit 1 when the reward mean is below this (0..1), for CI');
}

/** The camel-case attribute commander gives a long flag. */
const attr = (long: string) => long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The options `run` cannot start without: a flag each, or its key in the `--config` file. */
const RUN_REQUIRED = ['agent-model', 'user-model'] as const;

/**
 * `run`'s config: {@link applyConfigFileChecked} with `checks` and the models required
 * ({@link RUN_REQUIRED}), so that every missing model is named at once, together with the config
 * file's other problems.
 * @throws BadInputError for an unknown key, a wrong type or a value outside an option's choices
 *   (file + JSON path), or missing models.
 */
export async function applyRunConfig(cmd: Command, flags: Record<string, any>, checks: Readonly<Record<string, (flags: Record<string, any>) => unknown>> = {}): Promise<void> {
  await applyConfigFileChecked(cmd, flags, checks, RUN_REQUIRED);
}

/**
 * The one problem of the `required` options (long names without the dashes) that neither a flag
 * nor the config file set, naming them all, e.g. `--agent-model and --user-model are required
 * (flags, or "agent-model" and "user-model" in the --config file)`; null when none is missing.
 * With a config file the problem carries its name. `skip` holds keys already reported as wrong.
 */
function missingRequired(flags: Record<string, any>, required: readonly string[], file: string | undefined, skip: ReadonlySet<string>): BadInputError | null {
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
 * the key and type errors, instead of one per attempt. `required` (long names without the dashes)
 * are the options the command cannot run without: the ones neither a flag nor the file set are
 * named together, after the file's other problems (with or without a config file).
 * @throws BadInputError listing every problem of the file, one line each.
 */
export async function applyConfigFileChecked(cmd: Command, flags: Record<string, any>, checks: Readonly<Record<string, (flags: Record<string, any>) => unknown>>, required: readonly string[] = []): Promise<void> {
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
  const missing = missingRequired(flags, required, read?.file, new Set(problems.map((p) => p.path?.replace(/^\$\./, '') ?? '')));
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

/** The parsed options of this module. */
export interface RunExtras {
  limit: number | null;
  sample: number | null;
  seed: number;
  maxSteps: number | null;
  /** The system prompt from `--prompt-file` with `{{policy}}` filled in; null without the flag. */
  systemPrompt: string | null;
  promptFile: string | null;
  maxCostUsd: number | null;
  name: string | null;
  tags: string[];
  output: string | null;
  failUnder: number | null;
}

function whole(flag: string, raw: unknown, min: number): number | null {
  if (raw === undefined || raw === null) return null;
  const s = String(raw);
  if (!/^\d+$/.test(s) || Number(s) < min) throw new BadInputError(`${flag} must be a whole number >= ${min}, got '${s}'`);
  return Number(s);
}

function decimal(flag: string, raw: unknown, ok: (x: number) => boolean, what: string): number | null {
  if (raw === undefined || raw === null) return null;
  const s = String(raw).trim();
  const x = /^\d+(\.\d+)?$|^\.\d+$/.test(s) ? Number(s) : NaN;
  if (!ok(x)) throw new BadInputError(`${flag} must be ${what}, got '${raw}'`);
  return x;
}

/**
 * Parses and checks this module's flags; reads `--prompt-file` (UTF-8) and fills `{{policy}}`
 * with `policy`. Throws BadInputError naming the flag.
 */
export function parseRunExtras(flags: Record<string, any>, policy: string): RunExtras {
  const seedText = String(flags.seed ?? '0');
  if (!/^-?\d+$/.test(seedText)) throw new BadInputError(`--seed must be a whole number, got '${seedText}'`);
  const promptFile = flags.promptFile === undefined ? null : String(flags.promptFile);
  let systemPrompt: string | null = null;
  if (promptFile !== null) {
    const text = readTextFile(promptFile);
    if (text.trim() === '') throw new BadInputError('the prompt file is empty; expected the agent\'s system prompt', { file: promptFile });
    systemPrompt = text.split('{{policy}}').join(policy);
  }
  const name = flags.name === undefined ? null : String(flags.name).trim();
  if (name === '') throw new BadInputError('--name must not be empty');
  const tags: string[] = (flags.tag ?? []).map((t: string) => String(t).trim());
  const bad = tags.find((t) => t === '' || t.includes(','));
  if (bad !== undefined) throw new BadInputError(`--tag must be a non-empty text without commas (repeat --tag for several), got '${bad}'`);
  const output = flags.output === undefined ? null : String(flags.output);
  if (output !== null) writableResultsFormat(output);
  if (output !== null) refuseOverwrite(output, '-o/--output', [...storeFiles(String(flags.db ?? DEFAULT_STORE_PATH)), ...(promptFile !== null ? [{ file: promptFile, what: 'the prompt file' }] : [])]);
  return {
    limit: whole('--limit', flags.limit, 1),
    sample: whole('--sample', flags.sample, 1),
    seed: Number(seedText),
    maxSteps: whole('--max-steps', flags.maxSteps, 1),
    systemPrompt,
    promptFile,
    maxCostUsd: decimal('--max-cost', flags.maxCost, (x) => x > 0, 'a positive number of US dollars'),
    name,
    tags: [...new Set(tags)],
    output,
    failUnder: decimal('--fail-under', flags.failUnder, (x) => x >= 0 && x <= 1, 'a reward from 0 to 1'),
  };
}

/**
 * The tasks a run plays, from `--tasks` ({@link selectTasksFlag}: comma-separated ids or globs
 * such as `T0*` or `1?`, as `validate` and `lint` take them; default all), then `--sample n`
 * (seeded by `--seed`, kept in dataset order), then `--limit n` (the first n). Throws
 * BadInputError for an unknown id, a pattern matching no task, or a sample larger than the
 * selection.
 */
export function selectRunTasks(loaded: LoadedDomain<any>, tasksFlag: string | undefined, extras: Pick<RunExtras, 'limit' | 'sample' | 'seed'>): Task[] {
  let tasks = selectTasksFlag(loaded, tasksFlag);
  if (extras.sample !== null) {
    if (extras.sample > tasks.length) throw new BadInputError(`--sample ${extras.sample} is more than the ${tasks.length} selected tasks`);
    const picked = new Set(new Rng(extras.seed).shuffle(tasks.map((t) => t.id)).slice(0, extras.sample));
    tasks = tasks.filter((t) => picked.has(t.id));
  }
  if (extras.limit !== null) tasks = tasks.slice(0, extras.limit);
  return tasks;
}

/**
 * What the run's stored config gains from these options (the `name` and `tags` the runs list
 * shows; the prompt file's name and SHA-256; the step and cost limits; the selection's seed).
 */
export function runExtrasMeta(x: RunExtras): Record<string, unknown> {
  return {
    name: x.name,
    tags: x.tags,
    max_steps: x.maxSteps,
    prompt_file: x.promptFile === null ? null : path.basename(x.promptFile),
    prompt_sha256: x.systemPrompt === null ? null : sha256Hex(x.systemPrompt),
    max_cost_usd: x.maxCostUsd,
    ...(x.sample !== null ? { sample: x.sample, seed: x.seed } : {}),
    ...(x.limit !== null ? { limit: x.limit } : {}),
  };
}
