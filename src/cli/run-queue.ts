/**
 * `servicegym run --queue redis://…` and `servicegym run --threads N`: the run's episodes go to
 * BullMQ workers (`servicegym worker`; src/queue/producer.ts) or to N worker threads of this
 * process (src/queue/thread-pool.ts), with the same manifest, and this process (its main thread)
 * stores them as they return; the report is read back from the store, so it is the same as a
 * single-process run of the same episodes. BullMQ and Redis are loaded only for --queue.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { RunStore } from '../store/store.js';
import type { FinishedEpisode } from '../run/run-tasks.js';
import type { DomainEpisodeRecord } from '../run/task-run.js';
import { reportRowOfStored, type EpisodeReportRow } from '../run/report-rows.js';
import type { RunSummary } from '../run/summary.js';
import type { UsageByRole } from '../models/usage.js';
import type { Surface } from '../spec/surface.js';
import { sha256Hex } from '../util/canonical.js';
import { checkQueueName, datasetFingerprint, harnessPin, surfaceFingerprint, type EpisodeResultMessage, type ModelPin, type RunManifest } from '../queue/jobs.js';
import { reportedCost } from './run-progress.js';
import { runEpisodes, type RunEpisode } from '../queue/shard.js';
import { RunReportBuilder, storedRunReport } from '../queue/run-result.js';
import { parseRateLimit } from '../models/rate-limit.js';
import type { EpisodeRunLog } from '../spec/run-log.js';

/** What `run` knows when it hands the episodes to the queue. */
export interface QueuedRunInput {
  flags: Record<string, any>;
  loaded: LoadedDomain<any>;
  tasks: Task[];
  trials: number;
  personas?: string[];
  strict: boolean;
  temperature: number;
  judgeVotes: number;
  runId: string;
  store: RunStore;
  /** Episodes already stored (not run again). */
  finished: readonly FinishedEpisode[];
  /** A shard's episodes (default: all of the run's). */
  only?: readonly RunEpisode[];
  /** `--max-steps`, or null. */
  maxSteps: number | null;
  /** The run's surface and its `--surface-option`s (`surface.name` names it to the workers). */
  surface: Surface;
  surfaceOptions: Record<string, string>;
  /** `--screenshots`: how a model agent receives tool-result images. */
  imageDelivery: string;
  /** The agent's system prompt (`--prompt-file`, `{{policy}}` filled in), or null for the dataset's own. */
  systemPrompt: string | null;
  /** The run-wide stop (`--max-cost`), asked after each stored episode: see `QueueRunOptions.halt`. */
  halt?: () => string | undefined;
  /** After each stored episode: how many this attempt stored, which, and its provider-reported cost in USD (null: none reported). */
  onStored?: (done: number, label: string, costUsd: number | null, row: EpisodeReportRow) => void;
  /** Without `flags.queue`: the worker threads of this process (`--threads`, >= 1), running `-j` episodes at once in all. */
  threads?: number;
}

function modelPin(flags: Record<string, any>, model: string): ModelPin {
  const s = (v: unknown) => (v === undefined || v === null ? null : String(v));
  return { model, base_url: s(flags.baseUrl), provider: s(flags.provider), timeout: s(flags.timeout), max_retries: s(flags.maxRetries), max_retry_after: s(flags.maxRetryAfter), call_deadline: s(flags.callDeadline), body_timeout: s(flags.bodyTimeout) };
}

/** The run's manifest: what every worker (or thread) builds the run's episodes from. */
function manifestOf(input: QueuedRunInput, rate: number | null): Omit<RunManifest, 'results_queue'> {
  const { flags } = input;
  return {
    run_id: input.runId,
    harness: harnessPin(),
    dataset: { domain: String(flags.domain), data_dir: flags.dataDir ?? null, policy_variant: flags.policyVariant ?? null, solo: flags.solo === true, fingerprint: datasetFingerprint(input.loaded) },
    agent: { kind: 'llm', model: modelPin(flags, flags.agentModel) },
    user: { kind: 'llm', model: modelPin(flags, flags.userModel) },
    judge: flags.judgeModel ? modelPin(flags, flags.judgeModel) : null,
    judge_votes: input.judgeVotes,
    temperature: input.temperature,
    trials: input.trials,
    personas: input.personas ?? null,
    strict: input.strict,
    max_steps: input.maxSteps,
    rate_limit_per_minute: rate,
    system_prompt: input.systemPrompt,
    prompt_sha256: input.systemPrompt === null ? null : sha256Hex(input.systemPrompt),
    surface: { name: input.surface.name, options: input.surfaceOptions, fingerprint: surfaceFingerprint(input.loaded, input.surface, input.surfaceOptions) },
    image_delivery: input.imageDelivery,
  };
}

/** Runs the episodes on the queue (`flags.queue`) or on threads and reports the stored run; `records` is empty (the episodes were run elsewhere). */
export async function runQueued(input: QueuedRunInput): Promise<{ summary: RunSummary; usage: UsageByRole; stopped?: string; halted?: { reason: string; notStarted: number }; rows: EpisodeReportRow[]; records: DomainEpisodeRecord[] }> {
  const { flags } = input;
  const onQueue = flags.queue !== undefined;
  const queueName = onQueue ? checkQueueName(String(flags.queueName ?? 'servicegym')) : '';
  // The same rate on the queue (Redis, across workers) and on threads (the main thread's limiter).
  const rate = parseRateLimit(flags.rateLimit) ?? null;
  const done = new Set(input.finished.map((f) => `${f.taskId}\u0000${f.trial}`));
  const episodes = (input.only ?? runEpisodes(input.tasks, input.trials, input.personas)).filter((e) => !done.has(`${e.taskId}\u0000${e.trial}`));
  // A new run's report is built from the episodes as they are stored; a resumed run's is read back from the store.
  const built = flags.resume === undefined ? new RunReportBuilder() : undefined;
  const common = {
    store: input.store,
    episodes,
    manifest: manifestOf(input, rate),
    halt: input.halt,
    onStored: (n: number, _total: number, msg: EpisodeResultMessage) => {
      const e = msg.episode;
      const stored = { runId: input.runId, episodeId: e.episode_id, reward: e.reward, partial: e.partial, record: e.result as EpisodeRunLog };
      const row = built ? built.add(stored) : reportRowOfStored(stored);
      const usage = (msg.episode.result as { usage?: UsageByRole } | null)?.usage;
      input.onStored?.(n, `${msg.episode.episode_id}${msg.episode.label !== 'llm' ? ` (${msg.episode.label})` : ''} ${msg.episode.termination}`, reportedCost(usage), row);
    },
  };
  const res = onQueue
    ? await (await import('../queue/producer.js')).runOnQueue({ ...common, url: String(flags.queue), queueName })
    : await (await import('../queue/thread-pool.js')).runOnThreads({ ...common, threads: input.threads ?? 1, concurrency: Number(flags.concurrency) });
  const taskOrder = input.tasks.map((t) => t.id);
  const report = built ? built.report(taskOrder) : storedRunReport(input.store, input.runId, taskOrder);
  const fresh = new Set(episodes.map((e) => `${e.taskId}\u0000${e.trial}`));
  const rows = report.rows.filter((r) => fresh.has(`${r.taskId}\u0000${r.trial}`));
  return { summary: report.summary, usage: report.usage, rows, records: [], ...(res.stopped ? { stopped: res.stopped } : {}), ...(res.halted ? { halted: res.halted } : {}) };
}
