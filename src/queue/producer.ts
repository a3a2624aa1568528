/**
 * The producer of a distributed run (`servicegym run --queue redis://…`): writes the run's
 * manifest, enqueues every episode not yet stored as an idempotent job, and — as the one writer of
 * the store — stores each episode as workers return it. An episode returned twice (a worker that
 * lost its lease finished anyway, or a re-run after a crash) is stored once: the first copy wins.
 *
 * Resume: the stored episodes are the truth. A resumed producer enqueues the missing ones again
 * (jobs still queued are left alone; a finished job whose result never reached the store is run
 * again) and first drains results that arrived while no producer was listening.
 */
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RunStore } from '../store/store.js';
import { episodeJobsOf, ResultsWriter, type RunEpisodeRef } from './results-writer.js';
import { redisConnection, redisReady } from './redis-url.js';
import { claimRun } from './run-owner.js';
import { resultsQueueName, writeManifest, type EpisodeJob, type EpisodeResultMessage, type RunManifest } from './jobs.js';
import { shellArg } from '../util/shell-arg.js';
import { removeResultsQueue } from './results-queue.js';

/** Options of {@link runOnQueue}. */
export interface QueueRunOptions {
  url: string;
  queueName: string;
  /** The run's manifest without `results_queue` (set here). */
  manifest: Omit<RunManifest, 'results_queue'>;
  store: RunStore;
  /** The episodes of this run (task, trial, persona), in run order. */
  episodes: readonly RunEpisodeRef[];
  /** Called after each episode is stored: stored count this attempt, expected count this attempt, and the episode. */
  onStored?: (done: number, total: number, msg: EpisodeResultMessage) => void;
  /**
   * A run-wide stop (`run --max-cost`), asked before enqueueing and after each stored episode
   * (after `onStored`): once it gives a reason, nothing more is enqueued, the episodes no worker
   * has started are taken off the queue, the running ones finish and are stored, and the result's
   * `halted` says why — as `RunTasksOptions.halt` does in one process.
   */
  halt?: () => string | undefined;
}

/** What {@link runOnQueue} resolves to. */
export interface QueueRunResult {
  /** Episodes stored by this attempt. */
  stored: number;
  /** Duplicate results ignored (an episode returned twice). */
  duplicates: number;
  /** Set when a worker's provider refused the credential (the episodes not started were taken off the queue). */
  stopped?: string;
  /** Set when `halt` stopped the run: its reason, and how many episodes were not started (taken off the queue or never enqueued). */
  halted?: { reason: string; notStarted: number };
}

const ADD_CHUNK = 500;

/** Results taken off the results queue at once: those that arrive together are stored in one batch. */
const RESULTS_AT_ONCE = 64;

/** Job states in which no worker has started the job, so it can be taken off the queue. */
const NOT_STARTED = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);

/** Adds the jobs not already queued; a finished job whose result the store lacks is removed and added again. */
async function enqueue(queue: Queue, jobs: { id: string; data: EpisodeJob }[]): Promise<void> {
  const states = await Promise.all(jobs.map((j) => queue.getJobState(j.id)));
  const stale = jobs.filter((_, i) => states[i] === 'completed' || states[i] === 'failed');
  await Promise.all(stale.map((j) => queue.remove(j.id)));
  await queue.addBulk(jobs.map((j) => ({ name: 'episode', data: j.data, opts: { jobId: j.id, attempts: 3, backoff: { type: 'fixed', delay: 1000 } } })));
}

/**
 * Takes the `pending` jobs no worker has started off the queue (and forgets those never enqueued);
 * returns how many. A job a worker locked meanwhile is not removed (BullMQ refuses to remove a
 * locked job) and stays pending, as do running and finished ones whose results are on the way.
 */
async function cancelNotStarted(queue: Queue, pending: Map<string, string>): Promise<number> {
  let n = 0;
  for (const id of [...pending.keys()]) {
    const state = await queue.getJobState(id);
    if (state === 'unknown' || (NOT_STARTED.has(state) && (await queue.remove(id)) === 1)) {
      pending.delete(id);
      n++;
    }
  }
  return n;
}

/**
 * Every 2 s, looks for a job of this run (`pending`: job id -> episode) that failed on the
 * workers after all its attempts, and ends the run with `fail` naming it and its reason (the
 * bug). Returns the timer, to clear at the end.
 */
function watchFailedJobs(queue: Queue<EpisodeJob>, pending: Map<string, string>, runId: string, fail: (e: Error) => void): NodeJS.Timeout {
  return setInterval(() => {
    void queue.getFailed(0, 200).then((failed) => {
      const mine = failed.find((j) => j.id && pending.has(j.id));
      if (mine) fail(new Error(`episode ${pending.get(mine.id!)} of run ${runId} failed on a worker after ${mine.attemptsMade} attempts: ${mine.failedReason}; fix the cause and continue with --resume ${shellArg(runId)}`));
    }, () => {});
  }, 2000);
}

/**
 * Runs the episodes through workers on `queueName` and stores them as they return. Resolves once
 * every episode of `episodes` is stored (or, after a halt or a refused credential, every episode a
 * worker had started); rejects when an episode job failed on the workers after its attempts (the
 * message names it; the stored episodes stay and `--resume` continues).
 */
export async function runOnQueue(opts: QueueRunOptions): Promise<QueueRunResult> {
  const redis: Redis = redisConnection(opts.url);
  // A Redis that is down is an error now, before any job or manifest, not a run that waits forever.
  await redisReady(redis, opts.url);
  const runId = opts.manifest.run_id;
  // The run's only storing process on this Redis: a second one would split its results and both would wait forever.
  const claim = await claimRun(redis, opts.queueName, runId).catch(async (err: unknown) => {
    await redis.quit().catch(() => {});
    throw err;
  });
  const manifest: RunManifest = { ...opts.manifest, results_queue: resultsQueueName(opts.queueName, runId) };
  const queue = new Queue<EpisodeJob>(opts.queueName, { connection: redis });
  const { jobs, pending } = episodeJobsOf(runId, opts.manifest.prompt_sha256 ?? null, opts.episodes);
  let halted: { reason: string; notStarted: number } | undefined;
  // Every episode stored: the run's results queue is removed from Redis (an unfinished run keeps it for --resume).
  let complete = false;
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((res, rej) => ((finish = res), (fail = rej)));
  // Enqueueing and cancelling take turns, so a cancel never misses a chunk being added.
  let turn: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = turn.then(fn);
    turn = p.catch(() => {});
    return p;
  };
  const haltNow = (): boolean => {
    const reason = halted ? undefined : opts.halt?.();
    if (reason !== undefined) halted = { reason, notStarted: 0 };
    return reason !== undefined;
  };
  const stopEnqueueing = async () => {
    const n = await serial(() => cancelNotStarted(queue, pending));
    if (halted) halted.notStarted += n;
  };

  // Episodes given are the ones to (re-)run: a stored infrastructure failure is replaced once.
  const writer = new ResultsWriter(opts.store, runId, pending, jobs.length, opts.onStored);
  const store = async (msg: EpisodeResultMessage) => {
    // Stored before its result job completes: a result leaves Redis only once its episode is committed.
    const outcome = await writer.write(msg);
    if (outcome === 'duplicate') return;
    if (haltNow() || outcome === 'refused') await stopEnqueueing();
    if (pending.size === 0) finish();
  };

  await writeManifest(redis, opts.queueName, manifest);
  const results = new Worker<EpisodeResultMessage>(manifest.results_queue, async (job: Job<EpisodeResultMessage>) => store(job.data), { connection: redis, concurrency: RESULTS_AT_ONCE, removeOnComplete: { count: 0 }, removeOnFail: { age: 24 * 3600 } });
  results.on('failed', (job, err) => fail(new Error(`storing episode ${job?.data.episode.episode_id ?? '?'} failed: ${err.message}`)));
  const watch = watchFailedJobs(queue, pending, runId, fail);
  try {
    if (haltNow()) {
      halted!.notStarted = pending.size;
      pending.clear();
    }
    for (let i = 0; i < jobs.length && !halted && !writer.stopped; i += ADD_CHUNK) {
      await serial(async () => {
        const chunk = jobs.slice(i, i + ADD_CHUNK).filter((j) => pending.has(j.id));
        if (!halted && !writer.stopped && chunk.length) await enqueue(queue, chunk);
      });
    }
    if (pending.size === 0) finish();
    await done;
    complete = !halted && !writer.stopped;
  } finally {
    clearInterval(watch);
    await results.close();
    if (complete) await removeResultsQueue(manifest.results_queue, redis);
    await queue.close();
    await claim.release();
    await redis.quit().catch(() => {});
  }
  const { stored, duplicates, stopped } = writer;
  return { stored, duplicates, ...(stopped ? { stopped } : {}), ...(halted ? { halted } : {}) };
}

