/**
 * The optimiser's rollouts on BullMQ workers: a {@link RolloutRunner} (src/optimizer/rollout-runner.ts)
 * that enqueues each rollout as an idempotent `rollout` job (src/queue/rollout-jobs.ts) and resolves
 * it when a worker returns it. The optimiser stays the one writer: it journals, caches and scores
 * what comes back exactly as it does rollouts run in its own process.
 *
 * Idempotence and resume: a job still queued or running is awaited, not added again; a finished
 * job whose rollout the optimiser never journalled (it died first) is taken from the results that
 * arrived meanwhile, else run again. A rollout returned twice (a worker that lost its lease finished
 * anyway) resolves once. A job that failed on the workers after its attempts rejects its rollout,
 * which ends the optimise run as a rollout that throws does in one process.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RolloutRunner } from '../optimizer/rollout-runner.js';
import type { Rollout, RolloutRequest } from '../optimizer/suite.js';
import { sha256Hex } from '../util/canonical.js';
import { resultsQueueName, writeManifest } from './jobs.js';
import { removeResultsQueue } from './results-queue.js';
import { redisConnection, redisReady } from './redis-url.js';
import { claimRun, type RunClaim } from './run-owner.js';
import { rolloutJobId, type RolloutJob, type RolloutManifest, type RolloutResultMessage } from './rollout-jobs.js';

/** Options of {@link QueueRolloutRunner.open}. */
export interface QueueRolloutOptions {
  url: string;
  queueName: string;
  /** The run's manifest without `results_queue` (set here). */
  manifest: Omit<RolloutManifest, 'results_queue'>;
  /** The persona of a case (a variant case of a task suite), else null; part of the job id. */
  personaOf?: (caseId: string) => string | null;
}

interface Waiting {
  resolve: (r: Rollout) => void;
  reject: (e: Error) => void;
  label: string;
}

/** Job states in which no worker has started the job. */
const NOT_STARTED = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);

/** See the module doc. Open with {@link QueueRolloutRunner.open}; {@link close} when the run ends. */
export class QueueRolloutRunner implements RolloutRunner {
  /** Every rollout is enqueued at once: the workers' own `-j` sets the pace. */
  readonly concurrency = Number.POSITIVE_INFINITY;
  private readonly waiting = new Map<string, Waiting>();
  /** Rollouts that arrived before this process asked for them (a resumed run's jobs finished meanwhile). */
  private readonly early = new Map<string, Rollout>();
  private readonly watch: NodeJS.Timeout;

  private constructor(
    private readonly o: QueueRolloutOptions,
    private readonly redis: Redis,
    private readonly queue: Queue<RolloutJob>,
    private readonly results: Worker<RolloutResultMessage>,
    private readonly claim: RunClaim,
  ) {
    results.on('failed', (job, err) => this.failAll(new Error(`taking rollout ${job?.data.rollout.case_id ?? '?'} off the results queue failed: ${err.message}`)));
    // A job that failed on the workers after its attempts rejects its rollout (its reason names the bug).
    this.watch = setInterval(() => {
      void this.queue.getFailed(0, 200).then((failed) => {
        for (const j of failed) {
          const w = j.id ? this.waiting.get(j.id) : undefined;
          if (!w) continue;
          this.waiting.delete(j.id!);
          w.reject(new Error(`rollout ${w.label} of run ${o.manifest.run_id} failed on a worker after ${j.attemptsMade} attempts: ${j.failedReason}`));
        }
      }, () => {});
    }, 2000);
  }

  /**
   * Claims the run (its one storing process on this Redis, src/queue/run-owner.ts), writes its
   * manifest and starts listening for its rollouts. The claim is released by {@link close}.
   * @throws BadInputError for a malformed URL, a Redis not reachable within 10 s, or a run another
   *   live process already stores through this Redis (a second optimiser would take part of the
   *   rollouts off the run's results queue, and both would wait forever for the rest).
   */
  static async open(o: QueueRolloutOptions): Promise<QueueRolloutRunner> {
    const redis = redisConnection(o.url);
    // A Redis that is down is an error now, before the manifest, not a run that waits forever.
    await redisReady(redis, o.url);
    const claim = await claimRun(redis, o.queueName, o.manifest.run_id, undefined, '`servicegym optimize` of the same config with --resume').catch(async (err: unknown) => {
      await redis.quit().catch(() => {});
      throw err;
    });
    const manifest: RolloutManifest = { ...o.manifest, results_queue: resultsQueueName(o.queueName, o.manifest.run_id) };
    await writeManifest(redis, o.queueName, manifest).catch(async (err: unknown) => {
      await claim.release();
      await redis.quit().catch(() => {});
      throw err;
    });
    const queue = new Queue<RolloutJob>(o.queueName, { connection: redis });
    let runner: QueueRolloutRunner | undefined;
    const early: RolloutResultMessage[] = [];
    const results = new Worker<RolloutResultMessage>(manifest.results_queue, async (job: Job<RolloutResultMessage>) => (runner ? runner.take(job.data) : early.push(job.data)), {
      connection: redis, concurrency: 1, removeOnComplete: { count: 0 }, removeOnFail: { age: 24 * 3600 },
    });
    runner = new QueueRolloutRunner(o, redis, queue, results, claim);
    for (const msg of early) runner.take(msg);
    return runner;
  }

  /** Runs one rollout on the workers; see {@link RolloutRunner.run}. */
  async run(req: RolloutRequest): Promise<Rollout> {
    const data: RolloutJob = { run_id: this.o.manifest.run_id, case_id: req.caseId, trial: req.trial, seed: req.seed, persona: this.o.personaOf?.(req.caseId) ?? null, candidate: sha256Hex(req.prompt), prompt: req.prompt };
    const id = rolloutJobId(data);
    const ready = this.early.get(id);
    if (ready) {
      this.early.delete(id);
      return ready;
    }
    const result = new Promise<Rollout>((resolve, reject) => this.waiting.set(id, { resolve, reject, label: `${req.caseId}#${req.trial}` }));
    const state = await this.queue.getJobState(id);
    if (state === 'completed' || state === 'failed') await this.queue.remove(id);
    if (state === 'completed' || state === 'failed' || state === 'unknown') {
      await this.queue.add('rollout', data, { jobId: id, attempts: 3, backoff: { type: 'fixed', delay: 1000 } });
    }
    return result;
  }

  /** Resolves the rollout a worker returned (once; later copies are dropped). */
  private take(msg: RolloutResultMessage): void {
    if (msg.run_id !== this.o.manifest.run_id) return;
    const w = this.waiting.get(msg.job_id);
    if (w) {
      this.waiting.delete(msg.job_id);
      w.resolve(msg.rollout);
    } else this.early.set(msg.job_id, msg.rollout);
  }

  private failAll(e: Error): void {
    for (const [id, w] of this.waiting) {
      this.waiting.delete(id);
      w.reject(e);
    }
  }

  /**
   * Stops listening: jobs of this run no worker has started are taken off the queue (a run that
   * ended early, e.g. after a failed rollout, leaves no work behind), running ones finish on their
   * workers and their rollouts wait on the results queue for a resume. `finished`: the
   * optimisation ended with its decision (every rollout it needs is in its journal), so the run's
   * results queue is removed from Redis too (`results-queue.ts`).
   */
  async close(opts: { finished?: boolean } = {}): Promise<void> {
    clearInterval(this.watch);
    for (const id of [...this.waiting.keys()]) {
      const state = await this.queue.getJobState(id).catch(() => 'unknown');
      if (NOT_STARTED.has(state)) await this.queue.remove(id).catch(() => 0);
    }
    this.failAll(new Error(`the rollout runner of run ${this.o.manifest.run_id} was closed`));
    await this.results.close();
    if (opts.finished) await removeResultsQueue(resultsQueueName(this.o.queueName, this.o.manifest.run_id), this.redis);
    await this.queue.close();
    await this.claim.release();
    await this.redis.quit().catch(() => {});
  }
}
