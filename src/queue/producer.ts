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
import type { Task } from '../spec/task.js';
import type { EpisodeRow, ReceiptRow, RunStore } from '../store/store.js';
import { ReceiptUnpacker } from './packed-receipts.js';
import { redisReady } from './redis-url.js';
import { claimRun } from './run-owner.js';
import { episodeJobId, redisConnection, resultsQueueName, writeManifest, type EpisodeJob, type EpisodeResultMessage, type RunManifest } from './jobs.js';

/** Options of {@link runOnQueue}. */
export interface QueueRunOptions {
  url: string;
  queueName: string;
  /** The run's manifest without `results_queue` (set here). */
  manifest: Omit<RunManifest, 'results_queue'>;
  store: RunStore;
  /** The episodes of this run (task, trial, persona), in run order. */
  episodes: readonly { task: Task; trial: number; persona: string | null }[];
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
/** How long a batch of results gathers before it is written, in ms. */
const BATCH_MS = 10;

/**
 * Results stored in batches: the episodes (and their receipts) added within {@link BATCH_MS} are
 * written together — the receipts in one transaction, then the episodes in one — and each
 * {@link add} resolves once its episode is committed (rejects with the write's error: nothing of
 * the batch's receipts is written then, and none of its episodes).
 */
class StoreBatch {
  private receipts: ReceiptRow[] = [];
  private episodes: EpisodeRow[] = [];
  private written: Promise<void> | undefined;

  constructor(private readonly store: RunStore) {}

  add(receipts: ReceiptRow[], episode: EpisodeRow): Promise<void> {
    this.receipts.push(...receipts);
    this.episodes.push(episode);
    this.written ??= new Promise<void>((resolve, reject) =>
      setTimeout(() => {
        const { receipts: rs, episodes: es } = this;
        this.receipts = [];
        this.episodes = [];
        this.written = undefined;
        try {
          if (rs.length) this.store.appendReceipts(rs);
          this.store.appendEpisodes(es);
          resolve();
        } catch (err) {
          reject(err as Error);
        }
      }, BATCH_MS),
    );
    return this.written;
  }
}

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

/** The run's jobs in run order, and the episode id of each job id (the jobs not yet stored). */
function jobsOf(opts: QueueRunOptions): { jobs: { id: string; data: EpisodeJob }[]; pending: Map<string, string> } {
  const pending = new Map<string, string>();
  const prompt = opts.manifest.prompt_sha256 ?? null;
  const jobs = opts.episodes.map(({ task, trial, persona }) => {
    const data: EpisodeJob = { run_id: opts.manifest.run_id, task_id: task.id, trial, persona, candidate: null, ...(prompt ? { prompt_sha256: prompt } : {}) };
    const id = episodeJobId(data);
    pending.set(id, `${task.id}#${trial}`);
    return { id, data };
  });
  return { jobs, pending };
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
  // Episodes given are the ones to (re-)run: a stored infrastructure failure is replaced once.
  const storedIds = new Set<string>();
  const { jobs, pending } = jobsOf(opts);
  const total = jobs.length;
  let stored = 0;
  let duplicates = 0;
  let stopped: string | undefined;
  let halted: { reason: string; notStarted: number } | undefined;
  let seq = opts.store.receiptCount(runId);
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

  const unpacker = new ReceiptUnpacker();
  const batch = new StoreBatch(opts.store);
  const store = async (msg: EpisodeResultMessage) => {
    const episodeId = msg.episode.episode_id;
    if (msg.run_id !== runId || !pending.has(msg.job_id) || storedIds.has(episodeId)) {
      duplicates++;
      return;
    }
    storedIds.add(episodeId);
    // Stored before its result job completes: a result leaves Redis only once its episode is committed.
    await batch.add(unpacker.unpack(msg.receipts).map((r) => ({ ...r, run_id: runId, seq: seq++ })), { ...msg.episode, run_id: runId });
    pending.delete(msg.job_id);
    stored++;
    const refused = msg.stopped !== undefined && stopped === undefined;
    if (msg.stopped) stopped ??= msg.stopped;
    opts.onStored?.(stored, total, msg);
    if (haltNow() || refused) await stopEnqueueing();
    if (pending.size === 0) finish();
  };

  await writeManifest(redis, opts.queueName, manifest);
  const results = new Worker<EpisodeResultMessage>(manifest.results_queue, async (job: Job<EpisodeResultMessage>) => store(job.data), { connection: redis, concurrency: RESULTS_AT_ONCE, removeOnComplete: { count: 0 }, removeOnFail: { age: 24 * 3600 } });
  results.on('failed', (job, err) => fail(new Error(`storing episode ${job?.data.episode.episode_id ?? '?'} failed: ${err.message}`)));
  // A job that failed on the workers after all its attempts ends the run (its reason names the bug).
  const watch = setInterval(() => {
    void queue.getFailed(0, 200).then((failed) => {
      const mine = failed.find((j) => j.id && pending.has(j.id));
      if (mine) fail(new Error(`episode ${pending.get(mine.id!)} of run ${runId} failed on a worker after ${mine.attemptsMade} attempts: ${mine.failedReason}; fix the cause and continue with --resume ${runId}`));
    }, () => {});
  }, 2000);
  try {
    if (haltNow()) {
      halted!.notStarted = pending.size;
      pending.clear();
    }
    for (let i = 0; i < jobs.length && !halted && !stopped; i += ADD_CHUNK) {
      await serial(async () => {
        const chunk = jobs.slice(i, i + ADD_CHUNK).filter((j) => pending.has(j.id));
        if (!halted && !stopped && chunk.length) await enqueue(queue, chunk);
      });
    }
    if (pending.size === 0) finish();
    await done;
  } finally {
    clearInterval(watch);
    await results.close();
    await queue.close();
    await claim.release();
    await redis.quit().catch(() => {});
  }
  return { stored, duplicates, ...(stopped ? { stopped } : {}), ...(halted ? { halted } : {}) };
}
