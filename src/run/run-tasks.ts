/**
 * Runs tasks × trials: each (task, trial) pair is one episode with a fresh environment, agent
 * and user; episodes run concurrently (at most `concurrency` at a time, p-limit); each finished
 * episode is evaluated and streamed to `onEpisode`; the run ends with a summary.
 *
 * - Resume: pairs listed in `finished` are not run again; when they carry their scores they
 *   count in the summary.
 * - Failures: an agent or user exception inside an episode (provider failure after retries,
 *   replay miss, bug) is recorded as an `agent_error` / `user_error` episode with `infraError`
 *   set, and the run goes on — except malformed agent output (after its retry), which is the
 *   agent's failure: scored, reward 0 (see `isInfrastructureFailure`); an exception while setting an episode up (making the environment,
 *   agent or user) is recorded the same way (`agent_error`, empty trajectory); a `harness_error`
 *   episode (a tool's code threw) gets `harnessError` and is left out of scores the same way; an
 *   evaluator exception is recorded as `evaluationError`. Only a failing `onEpisode` (e.g. the store)
 *   stops the run: no further episode starts, and `runTasks` rejects with that error once the
 *   running ones have finished.
 * - Determinism: scheduling is trial-major (every task's trial 0, then trial 1, …); `records`
 *   come back in task order then trial order whatever the completion order. Nothing here reads
 *   a clock.
 */
import pLimit from 'p-limit';
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { Receipt } from '../spec/receipt.js';
import { BadInputError, HarnessError } from '../spec/errors.js';
import { Environment } from '../env/environment.js';
import { mergeRetries, type UsageByRole, type UsageTracker } from '../models/usage.js';
import type { TerminationReason } from '../evaluation/types.js';
import { DEFAULT_REPLAY_ENV, taskInitialState, type ReplayEnvOptions } from '../evaluation/initial-state.js';
import type { Agent } from '../agents/agent.js';
import type { User } from '../users/user.js';
import { isInfrastructureFailure, runEpisode, type EpisodeResult } from '../orchestrator/episode.js';
import type { EpisodeSettings } from '../orchestrator/settings.js';
import { compareEpisodeKeys, episodeOutcome, summarizeRun, type EpisodeOutcome, type RunSummary } from './summary.js';

/** What the summary reads from an evaluation (`TaskEvaluation` fits). */
export interface EvaluationLike {
  reward: number | null;
  partial: number;
}

/** Identifies an episode of a run; `trial` counts from 0. */
export interface EpisodeKey {
  taskId: string;
  trial: number;
}

/** A pair finished in an earlier attempt; with `reward` it also counts in the summary. */
export interface FinishedEpisode extends EpisodeKey {
  termination?: TerminationReason;
  reward?: number | null;
  partial?: number | null;
  infraError?: boolean;
  /** The evaluator threw on it (it then counts as an evaluation error, not as not judged). */
  evaluationError?: boolean;
  /** It ended as `harness_error` (left out of scores, like an infrastructure error). */
  harnessError?: boolean;
  /** Its usage per role, so a resumed run's usage covers the whole run. */
  usage?: UsageByRole;
}

/** One finished episode of a run, as streamed to `onEpisode`. */
export interface EpisodeRecord<E extends EvaluationLike = EvaluationLike, S = any> extends EpisodeKey {
  episode: EpisodeResult<S>;
  /** Null when the evaluator threw (see `evaluationError`). */
  evaluation: E | null;
  evaluationError?: string;
  /** Set when the episode failed for infrastructure reasons; it is then left out of the summary's scores. */
  infraError?: string;
  /**
   * Set when the episode ended as `harness_error` (a tool's code threw, a surface failed): a bug in
   * the harness, never the agent's failure; left out of the summary's scores like an
   * infrastructure error, and reported as a harness error.
   */
  harnessError?: string;
  /**
   * Wall seconds from building the episode's parties and environment to its end (the evaluation
   * excluded), to the millisecond; a report of how long the surface took, never an input to a score.
   */
  elapsedSeconds?: number;
}

/** `S` is the domain's state type (inferred from `loaded`). */
export interface RunTasksOptions<E extends EvaluationLike, S = any> {
  loaded: LoadedDomain<S>;
  tasks: readonly Task[];
  /** Trials per task (≥ 1). */
  trials: number;
  /** Trials of one task when tasks differ (e.g. a task with its own persona set); default `trials`. */
  trialsOf?(task: Task): number;
  /** Most episodes in flight at once (≥ 1). */
  concurrency: number;
  makeAgent(task: Task, trial: number): Agent;
  makeUser(task: Task, trial: number): User;
  evaluate(task: Task, episode: EpisodeResult<S>, trial: number): E | Promise<E>;
  /** Called once per finished episode, in completion order, one call at a time (awaited). */
  onEpisode?(record: EpisodeRecord<E, S>): void | Promise<void>;
  /** Pairs not to run again. */
  finished?: readonly FinishedEpisode[];
  /**
   * When given, only these pairs run (a shard of the run, or one queued episode); the others are
   * neither run nor counted as skipped.
   */
  only?: readonly EpisodeKey[];
  /** Episode settings (defaults: tau2's, with the canned greeting); `modelErrors` is always `end` here. */
  episode?: EpisodeSettings;
  /**
   * "now" and id seed of each episode's environment; default {@link DEFAULT_REPLAY_ENV}. Give the
   * evaluator the same, so the gold replay starts from the same state.
   */
  env?: ReplayEnvOptions;
  /** Overrides the environment (not yet opened): default a fresh Environment at `taskInitialState(domain, task, env)`. */
  makeEnvironment?(task: Task, trial: number): Environment<S> | Promise<Environment<S>>;
  /** A shared tracker that also receives every call's usage (e.g. a session-wide one). */
  usage?: UsageTracker;
  onReceipt?(receipt: Receipt, key: EpisodeKey): void;
  /**
   * Asked before each episode starts; when it gives a reason (e.g. a cost budget reached), that
   * episode and every later one are not started, the running ones finish, and the result's
   * `halted` says why. Not-started pairs are simply absent (a resume runs them).
   */
  halt?(): string | undefined;
  /**
   * Whether the result keeps every finished episode in `records` (default true). With false, an
   * episode leaves memory once `onEpisode` has had it (e.g. streamed it to the store): the run
   * keeps only its scores and usage for the summary, and `records` comes back empty — for runs of
   * thousands of long episodes, whose trajectories and receipts would otherwise all stay in memory.
   */
  keepRecords?: boolean;
}

/** What `runTasks` resolves to. */
export interface RunResult<E extends EvaluationLike, S = any> {
  /** This run's episodes, in task order then trial order (empty with `keepRecords: false`). */
  records: EpisodeRecord<E, S>[];
  /** Pairs skipped because they were finished. */
  skipped: number;
  summary: RunSummary;
  /** Usage of this run's episodes per role. */
  usage: UsageByRole;
  /** Set when the provider refused the credential (401/403): its message; later episodes were not started. */
  stopped?: string;
  /** Set when `halt` stopped the run: its reason, and how many episodes were not started. */
  halted?: { reason: string; notStarted: number };
}

function validate<E extends EvaluationLike, S>(opts: RunTasksOptions<E, S>): void {
  if (!(Number.isInteger(opts.trials) && opts.trials >= 1)) throw new BadInputError(`trials must be a whole number >= 1, got ${opts.trials}`);
  if (!(Number.isInteger(opts.concurrency) && opts.concurrency >= 1)) throw new BadInputError(`concurrency must be a whole number >= 1, got ${opts.concurrency}`);
  const seen = new Set<string>();
  for (const t of opts.tasks) {
    if (seen.has(t.id)) throw new BadInputError(`task id '${t.id}' occurs more than once; runs key episodes by task id`);
    seen.add(t.id);
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Sums per-role usage (costs: null unless some call reported one). */
export function mergeUsage(parts: readonly UsageByRole[]): UsageByRole {
  const out: UsageByRole = {};
  for (const part of parts) {
    for (const [role, u] of Object.entries(part) as [keyof UsageByRole, NonNullable<UsageByRole[keyof UsageByRole]>][]) {
      const r = (out[role] ??= { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, latency_seconds: 0, provider_reported_cost_usd: null, provider_reported_cost_observations: 0 });
      r.calls += u.calls;
      r.prompt_tokens += u.prompt_tokens;
      r.completion_tokens += u.completion_tokens;
      r.total_tokens += u.total_tokens;
      r.latency_seconds = Math.round((r.latency_seconds + u.latency_seconds) * 1e6) / 1e6;
      r.provider_reported_cost_observations += u.provider_reported_cost_observations;
      if (u.provider_reported_cost_usd !== null) r.provider_reported_cost_usd = (r.provider_reported_cost_usd ?? 0) + u.provider_reported_cost_usd;
      mergeRetries(r, u);
    }
  }
  return out;
}

/** An `agent_error` episode (`harness_error` for a HarnessError) for a failure before the conversation started. */
function setupFailure<S>(e: unknown): EpisodeResult<S> {
  const message = `episode setup failed: ${errorText(e)}`;
  const harness = e instanceof HarnessError;
  return {
    messages: [], toolLog: [], actionLog: [], termination: harness ? 'harness_error' : 'agent_error', finalState: null as S, receipts: [], usage: {},
    finalText: '', steps: 0, agentTurns: 0, events: [], failure: { by: harness ? 'harness' : 'agent', kind: harness ? 'harness' : 'internal', message },
  };
}

/** What a run keeps of a finished episode: its outcome and usage for the summary, and the record itself unless told not to. */
interface Finished<E extends EvaluationLike, S> {
  outcome: EpisodeOutcome;
  usage: UsageByRole;
  rec?: EpisodeRecord<E, S>;
}

/** Runs the episodes; see the module doc. Rejects only for invalid options or a failing `onEpisode`. */
export async function runTasks<E extends EvaluationLike, S = any>(opts: RunTasksOptions<E, S>): Promise<RunResult<E, S>> {
  validate(opts);
  const envOpts = opts.env ?? DEFAULT_REPLAY_ENV;
  const done = new Set((opts.finished ?? []).map((f) => `${f.taskId}\u0000${f.trial}`));
  const only = opts.only ? new Set(opts.only.map((k) => `${k.taskId}\u0000${k.trial}`)) : undefined;
  const limit = pLimit(opts.concurrency);
  const makeEnv =
    opts.makeEnvironment ??
    (async (task: Task) => new Environment<S>(opts.loaded.domain, { now: envOpts.now, idSeed: envOpts.idSeed, state: await taskInitialState(opts.loaded.domain, task, envOpts) }));

  let sink: Promise<void> = Promise.resolve();
  let sinkError: { error: unknown } | null = null;
  const emit = async (rec: EpisodeRecord<E, S>) => {
    if (!opts.onEpisode) return;
    const p = sink.then(() => opts.onEpisode!(rec));
    sink = p.catch(() => {});
    try {
      await p;
    } catch (error) {
      sinkError ??= { error };
    }
  };

  // A refused credential (401/403) ends the run: the remaining episodes would only fail the same way.
  let stopped: string | undefined;
  let halted: { reason: string; notStarted: number } | undefined;
  const keep = opts.keepRecords ?? true;
  const runOne = async (task: Task, trial: number): Promise<Finished<E, S> | null> => {
    if (sinkError || stopped) return null;
    const reason = halted?.reason ?? opts.halt?.();
    if (reason !== undefined) {
      halted = { reason, notStarted: (halted?.notStarted ?? 0) + 1 };
      return null;
    }
    const key = { taskId: task.id, trial };
    let episode: EpisodeResult<S>;
    const started = performance.now();
    try {
      const agent = opts.makeAgent(task, trial);
      const user = opts.makeUser(task, trial);
      episode = await runEpisode<S>({
        ...opts.episode,
        agent,
        user,
        env: await makeEnv(task, trial),
        modelErrors: 'end',
        usage: opts.usage,
        onReceipt: opts.onReceipt ? (r) => opts.onReceipt!(r, key) : undefined,
      });
    } catch (e) {
      episode = setupFailure<S>(e);
    }
    const rec: EpisodeRecord<E, S> = { ...key, episode, evaluation: null, elapsedSeconds: Math.round(performance.now() - started) / 1000 };
    if (episode.termination === 'harness_error') rec.harnessError = episode.failure?.message ?? 'harness error';
    else if (episode.failure && isInfrastructureFailure(episode.failure)) rec.infraError = episode.failure.message;
    if (episode.failure?.fatal) stopped ??= episode.failure.message;
    try {
      rec.evaluation = await opts.evaluate(task, episode, trial);
    } catch (e) {
      rec.evaluationError = errorText(e);
    }
    await emit(rec);
    return { outcome: episodeOutcome({ ...rec, termination: rec.episode.termination }), usage: episode.usage, ...(keep ? { rec } : {}) };
  };

  const jobs: { order: number; promise: Promise<Finished<E, S> | null> }[] = [];
  let skipped = 0;
  const trialsOf = (task: Task) => opts.trialsOf?.(task) ?? opts.trials;
  const most = Math.max(opts.trials, ...opts.tasks.map(trialsOf));
  for (let trial = 0; trial < most; trial++) {
    opts.tasks.forEach((task, i) => {
      if (trial >= trialsOf(task)) return;
      if (only && !only.has(`${task.id}\u0000${trial}`)) return;
      if (done.has(`${task.id}\u0000${trial}`)) return void skipped++;
      jobs.push({ order: i * most + trial, promise: limit(() => runOne(task, trial)) });
    });
  }
  const settled = await Promise.all(jobs.map(async (j) => ({ order: j.order, done: await j.promise })));
  if (sinkError) throw (sinkError as { error: unknown }).error;
  const finished = settled.sort((a, b) => a.order - b.order).flatMap((s) => (s.done ? [s.done] : []));
  const records = finished.flatMap((f) => (f.rec ? [f.rec] : []));
  const outcomes: EpisodeOutcome[] = finished.map((f) => f.outcome);
  for (const f of opts.finished ?? []) {
    if (f.reward === undefined || !f.termination) continue;
    outcomes.push({ taskId: f.taskId, trial: f.trial, termination: f.termination, reward: f.reward, partial: f.partial ?? null, infraError: f.infraError ?? false, harnessError: f.harnessError ?? false, evaluationError: f.evaluationError ?? false });
  }
  // Usage summed in the canonical episode order (costs and latencies are floats), kept and fresh alike.
  const usageParts = [...(opts.finished ?? []).flatMap((f) => (f.usage ? [{ ...f, usage: f.usage }] : [])), ...finished.map((f) => ({ ...f.outcome, usage: f.usage }))];
  return { records, skipped, summary: summarizeRun(outcomes), usage: mergeUsage(usageParts.sort(compareEpisodeKeys).map((p) => p.usage)), ...(stopped ? { stopped } : {}), ...(halted ? { halted } : {}) };
}
