/**
 * What `servicegym run` checks and builds before it touches the store (src/cli/run-command.ts):
 * the `--config` file applied, the domain loaded, every flag checked, the tasks selected and the
 * models made. A bad flag is refused here, so that it never leaves an empty run in the store.
 */
import type { Command } from 'commander';
import { loadDomainAsync } from '../domains/catalog.js';
import { strictTaskSelection } from '../run/task-run.js';
import { resolveLiveModelConfig } from '../models/config.js';
import { createModel } from '../models/providers.js';
import type { ChatModel } from '../models/chat-model.js';
import type { LoadedDomain } from '../spec/domain.js';
import type { Surface } from '../spec/surface.js';
import type { Task } from '../spec/task.js';
import type { KnownBadTask } from '../evaluation/strict.js';
import { BadInputError } from '../spec/errors.js';
import { parsePersonas } from '../users/personas.js';
import { LocalRateLimiter, parseRateLimit, RateLimitedModel } from '../models/rate-limit.js';
import { progressLogger } from './output.js';
import { surfaceFromFlags, tasksOnSurface } from './surface-flags.js';
import { applyRunConfig, parseRunExtras, requireModels, selectRunTasks, type RunExtras } from './run-options.js';
import { takeStoredSettings, type TakenSettings } from './run-stored-settings.js';
import { checkConcurrency, checkJudgeVotes, checkScreenshots, checkTemperature, checkThreads, checkTrials, FLAG_CHECKS } from './flag-checks.js';
import { withDefaultDomainHint } from './domain-hint.js';

/** A run's checked flags and what they name: the input of every later step of `run`. */
export interface RunPlan {
  /** A progress line on stderr (`servicegym: …`), silent with `-q`. */
  log: (line: string) => void;
  loaded: LoadedDomain<any>;
  /** `--strict`. */
  strict: boolean;
  /** The options of src/cli/run-options.ts (`--max-steps`, `--prompt-file`, `--max-cost`, `-o` …). */
  extras: RunExtras;
  surface: Surface;
  /** The tasks the run plays, in dataset order (after `--tasks`, `--sample`, `--limit`, `--strict` and the surface). */
  tasks: Task[];
  /** The dataset's known-bad tasks `--strict` left out (empty without it). */
  excluded: KnownBadTask[];
  /** `--trials`, 1 to MAX_TRIALS. */
  trials: number;
  /** `--threads`, 1 to maxThreads(). */
  threads: number;
  temperature: number;
  /** `--personas` parsed, or undefined without the flag. */
  personas: string[] | undefined;
  agentModel: ChatModel;
  userModel: ChatModel;
  /** The `--judge-model`, or undefined without the flag. */
  judge: ChatModel | undefined;
  /** `--judge-votes`, at least 1. */
  judgeVotes: number;
  /** The base URL the models are called at (the flag's, the environment's or the default). */
  baseUrl: string;
  /** With `--resume`: the settings taken from the stored run (src/cli/run-stored-settings.ts); else none. */
  stored: TakenSettings;
}

/**
 * `--threads n` checked: a whole number from 1 to maxThreads() (src/cli/flag-checks.ts). Above 1
 * it is refused with --queue (workers run the episodes then) and on a surface that drives a
 * browser (one per process, on its main thread).
 * @throws BadInputError naming the flag and why.
 */
export function threadCount(flags: Record<string, any>, surface: { name: string; browser?: boolean }): number {
  const n = checkThreads(flags.threads);
  if (n > 1 && flags.queue !== undefined) throw new BadInputError(`--threads ${n} runs the episodes on threads of this process and --queue on queue workers; give one of them`);
  if (n > 1 && surface.browser) throw new BadInputError(`--threads ${n}: the ${surface.name} surface drives a browser, which runs on the main thread only; run it without --threads`);
  return n;
}

/**
 * The plan of `run` from its parsed `flags` (commander's camelCase option values) and `cmd`:
 * applies the `--config` file (with the checks of FLAG_CHECKS), with `--resume` takes the
 * settings not given from the stored run (src/cli/run-stored-settings.ts; reads the store), loads
 * the domain (with the default-domain hint), checks `--screenshots`, `--trials`, `-j`, `--queue`'s URL, `--threads`,
 * `--temperature`, `--personas`, `--rate-limit` and `--judge-votes` in that order, and makes the
 * agent's, user simulator's and judge's models (rate-limited together by one limiter when the
 * run's episodes run in this thread). Writes to no store.
 * @throws BadInputError naming the flag, file or task at fault (the first one found, in the order above).
 */
export async function planRun(flags: Record<string, any>, cmd: Command): Promise<RunPlan> {
  await applyRunConfig(cmd, flags, FLAG_CHECKS);
  const stored = takeStoredSettings(cmd, flags);
  requireModels(flags);
  const log = progressLogger(flags.quiet);
  const loaded = await withDefaultDomainHint(cmd, flags as { domain: string }, () => loadDomainAsync(flags.domain, { dataDir: flags.dataDir, policy: flags.policyVariant, solo: flags.solo === true }));
  const strict = flags.strict === true;
  const extras = parseRunExtras(flags, loaded.policy);
  const surface = await surfaceFromFlags(flags, loaded);
  checkScreenshots(flags.screenshots);
  const { tasks: selected, excluded } = strictTaskSelection(loaded, selectRunTasks(loaded, flags.tasks, extras), strict);
  // A resumed run's ids were chosen by the stored --sample/--seed/--limit: its summary keeps them.
  if (stored.selection) Object.assign(extras, stored.selection);
  const tasks = tasksOnSurface(loaded, selected, surface, flags.tasks !== undefined);
  // Checked before the store is touched: a bad count must not leave an empty run behind.
  // Bounded: the run's episode list is built up front, so a count like 1e11 would exhaust memory.
  const trials = checkTrials(flags.trials);
  checkConcurrency(flags.concurrency);
  if (flags.queue !== undefined) (await import('../queue/redis-url.js')).checkRedisUrl(String(flags.queue));
  const threads = threadCount(flags, surface);
  const temperature = checkTemperature(flags.temperature);
  const personas = flags.personas !== undefined ? parsePersonas(flags.personas) : undefined;
  const live = liveModels(flags, threads);
  const agentModel = live(flags.agentModel);
  const userModel = live(flags.userModel);
  const judge = flags.judgeModel ? live(flags.judgeModel) : undefined;
  const judgeVotes = checkJudgeVotes(flags.judgeVotes);
  const baseUrl = resolveLiveModelConfig({ ...flags, model: agentModel.model }).baseURL;
  return { log, loaded, strict, extras, surface, tasks, excluded, trials, threads, temperature, personas, agentModel, userModel, judge, judgeVotes, baseUrl, stored };
}

/**
 * The maker of the run's live models (OpenAI-compatible, configured from the flags and the
 * environment): with `--rate-limit` and the episodes in this thread, every model it makes shares
 * one limiter (threads and queue workers take the rate from the run's manifest instead).
 * @throws BadInputError for a bad `--rate-limit`; the made function throws for a bad model configuration.
 */
function liveModels(flags: Record<string, any>, threads: number): (model: string) => ChatModel {
  const rateLimit = parseRateLimit(flags.rateLimit);
  // In this thread: one limiter for every call (threads and queue workers take the rate from the run's manifest).
  const limiter = rateLimit !== undefined && flags.queue === undefined && threads === 1 ? new LocalRateLimiter(rateLimit) : undefined;
  return (model: string) => {
    const m = createModel('openai-compatible', { config: resolveLiveModelConfig({ ...flags, model }) });
    return limiter ? new RateLimitedModel(m, limiter) : m;
  };
}
