/**
 * A queue worker (`servicegym worker --queue redis://…`): pulls jobs from BullMQ — episodes of
 * `run --queue` and rollouts of `optimize --queue` (the kinds in `JOB_KINDS`) — runs each with its
 * own copy of the data (loaded once per process per dataset) and returns the result on the run's
 * results queue. Before a run's first job it compares its harness, dataset and surface with the
 * run's manifest; on a mismatch it puts the job back untouched and stops (exit 2), so a wrong
 * worker never produces results.
 *
 * Leases: a job is locked for `leaseSeconds` and the lock is renewed while the episode runs; a
 * worker that dies (SIGKILL, lost machine) stops renewing, and after the lease expires another
 * worker runs the episode again. The producer stores each episode once (by episode id), so a
 * re-run never duplicates it.
 */
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { BadInputError } from '../spec/errors.js';
import { readManifest } from './jobs.js';
import { redisConnection } from './redis-url.js';
import { RedisRateLimiter } from './rate-limit.js';
import type { JobKind, KindContext, WorkerDeps } from './job-kinds.js';
import { episodeKind } from './episode-jobs.js';
import { rolloutKind } from './rollout-jobs.js';

/** The job kinds a worker runs, by BullMQ job name. */
const JOB_KINDS: Readonly<Record<string, JobKind<any, any, KindContext>>> = { episode: episodeKind, rollout: rolloutKind };

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
  const contexts = new Map<string, Promise<KindContext>>();
  let refusal: string | undefined;
  let resolveStopped!: (code: number) => void;
  const stopped = new Promise<number>((r) => (resolveStopped = r));

  const deps: WorkerDeps = {
    results: (name) => {
      const queue = new Queue(name, { connection: redis });
      return { send: async (jobId, message) => void (await queue.add('result', message, { jobId, removeOnComplete: true, removeOnFail: false })), close: () => queue.close() };
    },
    limiter: (rate) => (rate ? new RedisRateLimiter(redis, opts.queueName, rate) : undefined),
    baseUrl: opts.baseUrl,
    env: opts.env ?? process.env,
  };
  const contextOf = (kind: JobKind<any, any, KindContext>, m: { run_id: string; results_queue: string }): Promise<KindContext> => {
    let ctx = contexts.get(m.run_id);
    if (!ctx) contexts.set(m.run_id, (ctx = kind.context(m, deps)));
    return ctx;
  };

  const processor = async (job: Job<{ run_id: string }>, token?: string) => {
    const data = job.data;
    const kind = JOB_KINDS[job.name];
    let m: ({ run_id: string; results_queue: string } & Record<string, unknown>) | undefined;
    let ctx: KindContext;
    try {
      if (refusal) throw new BadInputError(refusal);
      if (!kind) throw new BadInputError(`run ${data.run_id} sent a '${job.name}' job; this worker runs ${Object.keys(JOB_KINDS).join(' and ')} jobs`);
      m = (await readManifest(redis, opts.queueName, data.run_id)) as typeof m;
      if (!m) throw new BadInputError(`run ${data.run_id} has no manifest on queue ${opts.queueName} (was it started by 'servicegym run --queue' or 'servicegym optimize --queue'?)`);
      ctx = await contextOf(kind, m);
    } catch (e) {
      if (!(e instanceof BadInputError)) throw e;
      // Put the job back untouched for a worker that can run it, and stop taking jobs.
      refusal ??= e.message;
      await job.moveToDelayed(Date.now() + 1000, token);
      void shutdown(2);
      throw new DelayedError();
    }
    const label = kind.label(data);
    log(`${job.name} ${label} of run ${data.run_id} started`);
    const { message, outcome } = await kind.run(data, job.id!, m, ctx);
    await ctx.results.send(job.id!, message);
    log(`${job.name} ${label} of run ${data.run_id} finished: ${outcome}`);
    return { outcome };
  };

  const worker = new Worker<{ run_id: string }>(opts.queueName, processor, {
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
