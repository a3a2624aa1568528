/**
 * A queue worker (`servicegym worker --queue redis://…`): pulls episode jobs from BullMQ, runs
 * each with its own copy of the domain data (loaded once per process per dataset) and returns the
 * finished episode on the run's results queue. Before a run's first episode it compares its
 * harness and dataset with the run's manifest; on a mismatch it puts the job back untouched and
 * stops (exit 2), so a wrong worker never produces episodes.
 *
 * Leases: a job is locked for `leaseSeconds` and the lock is renewed while the episode runs; a
 * worker that dies (SIGKILL, lost machine) stops renewing, and after the lease expires another
 * worker runs the episode again. The producer stores each episode once (by episode id), so a
 * re-run never duplicates it.
 */
import os from 'node:os';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { loadDomain } from '../domains/index.js';
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import type { ChatModel } from '../models/chat-model.js';
import { resolveLiveModelConfig } from '../models/config.js';
import { createModel } from '../models/providers.js';
import { RunStore } from '../store/store.js';
import { runDomainTasks } from '../run/task-run.js';
import type { Surface } from '../spec/surface.js';
import type { ImageDelivery } from '../agents/llm-agent.js';
import { surfaceWithOptions } from '../surfaces/index.js';
import { datasetFingerprint, harnessPin, mismatch, readManifest, redisConnection, surfaceFingerprint, type EpisodeJob, type EpisodeResultMessage, type ModelPin, type RunManifest } from './jobs.js';
import { RateLimitedModel, RedisRateLimiter } from './rate-limit.js';

/** Options of {@link startWorker}. */
export interface WorkerOptions {
  /** `redis://host:port[/db]`. */
  url: string;
  queueName: string;
  /** Episodes at once in this process (≥ 1). */
  concurrency: number;
  /** Lock lease in seconds (default 30): how long a dead worker's episode waits before another worker re-runs it. */
  leaseSeconds?: number;
  /** Overrides the manifest's model base URL (e.g. a gateway close to this machine). */
  baseUrl?: string;
  /** Progress lines (episode started / finished, refusals). */
  log?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

/** A running worker. */
export interface QueueWorker {
  /** Resolves when the worker has stopped: 0 after {@link close}, 2 after it refused a run (mismatch, missing key). */
  readonly stopped: Promise<number>;
  /** Finishes running episodes, then stops. */
  close(): Promise<void>;
}

interface RunContext {
  loaded: LoadedDomain<any>;
  /** The run's surface (undefined: the dataset's own, else api). */
  surface?: Surface;
  agentModel?: ChatModel;
  userModel?: ChatModel;
  judge?: ChatModel;
  results: Queue;
}

/** Loaded domains of this process, by dataset (domain, folder, variant, solo). */
const domainCache = new Map<string, LoadedDomain<any>>();

function loadedOf(m: RunManifest): LoadedDomain<any> {
  const d = m.dataset;
  const key = JSON.stringify([d.domain, d.data_dir, d.policy_variant, d.solo]);
  let loaded = domainCache.get(key);
  if (!loaded) {
    loaded = loadDomain(d.domain, { dataDir: d.data_dir ?? undefined, policy: d.policy_variant ?? undefined, solo: d.solo });
    domainCache.set(key, loaded);
  }
  return loaded;
}

function modelOf(pin: ModelPin | null, opts: WorkerOptions, limiter: RedisRateLimiter | undefined): ChatModel | undefined {
  if (!pin) return undefined;
  const flags = { model: pin.model, baseUrl: opts.baseUrl ?? pin.base_url ?? undefined, provider: pin.provider ?? undefined, timeout: pin.timeout ?? undefined, maxRetries: pin.max_retries ?? undefined, maxRetryAfter: pin.max_retry_after ?? undefined, callDeadline: pin.call_deadline ?? undefined, bodyTimeout: pin.body_timeout ?? undefined };
  const model = createModel('openai-compatible', { config: resolveLiveModelConfig(flags, opts.env ?? process.env) });
  return limiter ? new RateLimitedModel(model, limiter) : model;
}

/** Runs one episode job to its result message (the rows a store would hold). */
async function runJob(job: EpisodeJob, jobId: string, m: RunManifest, ctx: RunContext): Promise<EpisodeResultMessage> {
  if ((job.prompt_sha256 ?? null) !== (m.prompt_sha256 ?? null)) throw new BadInputError(`episode ${job.task_id}#${job.trial} of run ${job.run_id} asks for prompt ${String(job.prompt_sha256 ?? null).slice(0, 12)}, the run's manifest has ${String(m.prompt_sha256 ?? null).slice(0, 12)}`);
  const task = ctx.loaded.tasks.find((t) => t.id === job.task_id);
  if (!task) throw new BadInputError(`task '${job.task_id}' of run ${job.run_id} is not in this worker's dataset`);
  const mem = RunStore.open(':memory:');
  try {
    const res = await runDomainTasks({
      loaded: ctx.loaded, tasks: [task], trials: m.trials, concurrency: 1, agent: m.agent.kind, user: m.user.kind,
      agentModel: ctx.agentModel, userModel: ctx.userModel, judge: ctx.judge, judgeVotes: m.judge_votes, temperature: m.temperature,
      personas: m.personas ?? undefined, strict: m.strict, store: mem, settings: m.max_steps ? { maxSteps: m.max_steps } : undefined, runId: jobId, only: [{ taskId: job.task_id, trial: job.trial }],
      surface: ctx.surface, ...(m.image_delivery ? { imageDelivery: m.image_delivery as ImageDelivery } : {}), ...(m.system_prompt ? { systemPrompt: m.system_prompt } : {}),
    });
    const [episode] = mem.episodes(jobId);
    if (!episode) throw new Error(`episode ${job.task_id}#${job.trial} produced no record`);
    const { run_id: _r, ...row } = episode;
    const receipts = mem.receipts(jobId).map(({ run_id: _x, seq: _s, ...r }) => r);
    return { run_id: job.run_id, job_id: jobId, episode: row, receipts, ...(res.stopped ? { stopped: res.stopped } : {}), worker: `${os.hostname()}:${process.pid}` };
  } finally {
    mem.close();
  }
}

/**
 * Starts a worker on queue `queueName`. It runs until {@link QueueWorker.close}, or until it refuses
 * a run whose harness or dataset differ from its own (or whose models it cannot build, e.g. no key).
 */
export function startWorker(opts: WorkerOptions): QueueWorker {
  if (!(Number.isInteger(opts.concurrency) && opts.concurrency >= 1)) throw new BadInputError(`-j/--concurrency must be a whole number >= 1, got '${opts.concurrency}'`);
  const lease = Math.round((opts.leaseSeconds ?? 30) * 1000);
  if (!(lease >= 500)) throw new BadInputError(`--lease must be at least 0.5 seconds, got '${opts.leaseSeconds}'`);
  const log = opts.log ?? (() => {});
  const redis: Redis = redisConnection(opts.url);
  const contexts = new Map<string, Promise<RunContext>>();
  let refusal: string | undefined;
  let resolveStopped!: (code: number) => void;
  const stopped = new Promise<number>((r) => (resolveStopped = r));

  const contextOf = (m: RunManifest): Promise<RunContext> => {
    let ctx = contexts.get(m.run_id);
    if (!ctx) {
      ctx = (async () => {
        const loaded = loadedOf(m);
        const surface = m.surface ? surfaceWithOptions(m.surface.name, m.surface.options) : undefined;
        const why = mismatch(m, { harness: harnessPin(), fingerprint: datasetFingerprint(loaded), ...(m.surface ? { surface: surfaceFingerprint(loaded, surface!, m.surface.options) } : {}) });
        if (why) throw new BadInputError(`refusing run ${m.run_id}: ${why}`);
        const limiter = m.rate_limit_per_minute ? new RedisRateLimiter(redis, opts.queueName, m.rate_limit_per_minute) : undefined;
        const results = new Queue(m.results_queue, { connection: redis });
        return { loaded, surface, agentModel: modelOf(m.agent.model, opts, limiter), userModel: modelOf(m.user.model, opts, limiter), judge: modelOf(m.judge, opts, limiter) ?? undefined, results };
      })();
      contexts.set(m.run_id, ctx);
    }
    return ctx;
  };

  const processor = async (job: Job<EpisodeJob>, token?: string) => {
    const data = job.data;
    const label = `${data.task_id}#${data.trial}${data.persona ? ` (${data.persona})` : ''}`;
    let m: RunManifest | undefined;
    let ctx: RunContext;
    try {
      if (refusal) throw new BadInputError(refusal);
      m = await readManifest(redis, opts.queueName, data.run_id);
      if (!m) throw new BadInputError(`run ${data.run_id} has no manifest on queue ${opts.queueName} (was it started by 'servicegym run --queue'?)`);
      ctx = await contextOf(m);
    } catch (e) {
      if (!(e instanceof BadInputError)) throw e;
      // Put the episode back untouched for a worker that can run it, and stop taking jobs.
      refusal ??= e.message;
      await job.moveToDelayed(Date.now() + 1000, token);
      void shutdown(2);
      throw new DelayedError();
    }
    log(`episode ${label} of run ${data.run_id} started`);
    const result = await runJob(data, job.id!, m, ctx);
    await ctx.results.add('result', result, { jobId: job.id, removeOnComplete: true, removeOnFail: false });
    log(`episode ${label} of run ${data.run_id} finished: ${result.episode.termination}`);
    return { termination: result.episode.termination };
  };

  const worker = new Worker<EpisodeJob>(opts.queueName, processor, {
    connection: redis, concurrency: opts.concurrency, lockDuration: lease, stalledInterval: lease, maxStalledCount: 50,
    removeOnComplete: { age: 24 * 3600 }, removeOnFail: { age: 7 * 24 * 3600 },
  });
  worker.on('error', (e) => log(`queue error: ${e.message}`));
  let closing: Promise<void> | undefined;
  async function shutdown(code: number): Promise<void> {
    closing ??= (async () => {
      await worker.close();
      for (const ctx of contexts.values()) await ctx.then((c) => c.results.close(), () => {});
      await redis.quit().catch(() => {});
      if (refusal) log(`stopped: ${refusal}`);
      resolveStopped(code);
    })();
    return closing;
  }
  return { stopped, close: () => shutdown(0) };
}
