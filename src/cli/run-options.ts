/**
 * The options of `servicegym run` beyond the model and dataset flags (issue 18, item 10): a
 * config file with the same keys as the flags (`--config`, read by src/cli/config-file.ts, with
 * the models required: {@link applyRunConfig}), task selection with globs, `--limit`,
 * `--sample N --seed S`, `--max-steps`, `--prompt-file`, `--max-cost`, `--name` and `--tag`,
 * `-o FILE` and `--fail-under`.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import { selectTasksFlag } from '../run/select-tasks.js';
import { Rng } from '../util/rng.js';
import { sha256Hex } from '../util/canonical.js';
import { readTextFile } from '../util/json-file.js';
import { writableResultsFormat } from '../run/results-export.js';
import { refuseOverwrite, storeFiles } from '../util/same-file.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { applyConfigFileChecked, missingRequired } from './config-file.js';

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

/** The options `run` cannot start without: a flag each, or its key in the `--config` file. */
const RUN_REQUIRED = ['agent-model', 'user-model'] as const;

/**
 * `run`'s config: {@link applyConfigFileChecked} with `checks` and the models required
 * ({@link RUN_REQUIRED}), so that every missing model is named at once, together with the config
 * file's other problems. With `--resume` (a flag or in the file) the models are not required
 * here: the stored run gives them (src/cli/run-stored-settings.ts; {@link requireModels} after).
 * @throws BadInputError for an unknown key, a wrong type or a value outside an option's choices
 *   (file + JSON path), or missing models.
 */
export async function applyRunConfig(cmd: Command, flags: Record<string, any>, checks: Readonly<Record<string, (flags: Record<string, any>) => unknown>> = {}): Promise<void> {
  await applyConfigFileChecked(cmd, flags, checks, (f) => (f.resume !== undefined ? [] : RUN_REQUIRED));
}

/**
 * Refuses a run without its models after a resumed run's stored settings were taken (a stored
 * run that names none): `--agent-model and --user-model are required …`, as for a new run.
 * @throws BadInputError naming the missing flags.
 */
export function requireModels(flags: Record<string, any>): void {
  const missing = missingRequired(flags, RUN_REQUIRED, undefined, new Set());
  if (missing) throw missing;
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
