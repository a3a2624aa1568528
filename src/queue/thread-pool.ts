/**
 * `servicegym run --threads N`: a run's episodes execute on N worker threads of this process
 * (thread-worker.ts) while the main thread is the run's one store writer (results-writer.ts), as
 * the producer of `run --queue` is. One thread saturates at a few hundred model calls a second
 * (HTTP client, orchestration, receipts, evaluation, GC); spread over threads, the CPU work of
 * episodes runs on several cores. Threads cost CPU of their own (each loads its modules and the
 * domain; results are structured-cloned to the main thread): they pay off only with cores to
 * spare — on 2 cores shared with a local model server they measured slower than one thread.
 *
 * Pull-based: each thread runs up to ceil(j/N) episodes at once (and all threads together at most
 * j) and gets the next job, in run order, when one of its episodes finishes. A thread that crashes
 * or exits mid-run is replaced; the episodes it was running go first to the next free thread and
 * are stored once (first copy wins). An episode whose thread died, or whose job threw, on
 * {@link MAX_ATTEMPTS} attempts fails the run with an error naming it; nothing hangs.
 *
 * `--rate-limit` (the manifest's `rate_limit_per_minute`): the main thread holds the one limiter
 * ({@link LocalRateLimiter}) and each thread asks it for a slot before every model call, so the
 * rate holds across all threads, as Redis makes it hold across a queue's workers.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { BadInputError } from '../spec/errors.js';
import type { RunStore } from '../store/store.js';
import type { EpisodeResultMessage, RunManifest } from './jobs.js';
import type { QueueRunResult } from './producer.js';
import { episodeJobsOf, ResultsWriter, type EpisodeJobEntry, type RunEpisodeRef } from './results-writer.js';
import type { FromThread, ThreadWorkerData, ToThread } from './thread-worker.js';
import { LocalRateLimiter, type CallRateLimiter } from '../models/rate-limit.js';
import { shellArg } from '../util/shell-arg.js';

/** Attempts of one episode (its thread died, or its job threw) before the run fails. */
export const MAX_ATTEMPTS = 3;

/** Options of {@link runOnThreads}. */
export interface ThreadRunOptions {
  /** Worker threads (>= 1). */
  threads: number;
  /** Episodes at once over all threads (`-j`, >= 1). */
  concurrency: number;
  /** The run's manifest (as `run --queue` writes it, without a results queue). */
  manifest: Omit<RunManifest, 'results_queue'>;
  store: RunStore;
  /** The episodes of this run (task, trial, persona), in run order. */
  episodes: readonly RunEpisodeRef[];
  /** Called after each episode is stored: stored count this attempt, expected count this attempt, and the episode. */
  onStored?: (done: number, total: number, msg: EpisodeResultMessage) => void;
  /**
   * A run-wide stop (`run --max-cost`), asked after each stored episode: once it gives a reason no
   * episode starts any more, the running ones finish and are stored. With it, a thread's next
   * episode starts once the previous one is stored (so the stop sees its cost); without it, at once.
   */
  halt?: () => string | undefined;
  /** The thread entry module (default: thread-worker beside this module, bundled or from sources). */
  entry?: URL;
  /** The limiter of every thread's model calls (default: a {@link LocalRateLimiter} at the manifest's `rate_limit_per_minute`, none when it is null). */
  limiter?: CallRateLimiter;
}

/** A thread of a running pool, as {@link threadObservers} see it. */
export interface PoolThread {
  /** Slot 0..N-1 (a replacement thread takes its predecessor's slot). */
  readonly index: number;
  readonly worker: Worker;
  /** Episodes this thread is running now. */
  inFlight(): number;
}

/** Told of every thread a pool starts (diagnostics; tests stop one through `worker.terminate()`). */
export const threadObservers = new Set<(thread: PoolThread) => void>();

/** The thread entry beside this module: `.ts` when running from sources, else the built (or bundled) `.js`. */
function defaultEntry(): URL {
  const here = import.meta.url;
  return new URL(`./thread-worker.${here.endsWith('.ts') ? 'ts' : 'js'}`, here);
}

/**
 * Starts a thread on `entry`. A `.ts` entry (sources, in tests) is loaded through tsx, registered
 * in the thread first: Node 20 does not apply `--import` loaders given in a worker's execArgv.
 */
function startThread(entry: URL, workerData: ThreadWorkerData): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData });
  // require.resolve gives the package's CommonJS build; its ES module build sits beside it.
  const api = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const code = `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(code, { eval: true, workerData });
}

interface Slot extends PoolThread {
  ready: boolean;
  alive: boolean;
  running: Map<string, EpisodeJobEntry>;
}

/** One run on a pool of threads; {@link done} settles when every episode is stored (or the run failed). */
class ThreadRun {
  readonly done: Promise<void>;
  readonly writer: ResultsWriter;
  halted: { reason: string; notStarted: number } | undefined;
  private finish!: () => void;
  private fail!: (e: Error) => void;
  private failed = false;
  private readonly slots: Slot[] = [];
  private readonly waiting: EpisodeJobEntry[];
  private readonly attempts = new Map<string, number>();
  private readonly writes = new Set<Promise<unknown>>();
  private readonly perThread: number;
  private readonly entry: URL;
  private readonly manifest: RunManifest;
  private readonly limiter: CallRateLimiter | undefined;
  private replacements = 0;

  constructor(private readonly opts: ThreadRunOptions) {
    this.done = new Promise<void>((res, rej) => ((this.finish = res), (this.fail = rej)));
    this.manifest = { ...opts.manifest, results_queue: 'main-thread' };
    const { jobs, pending } = episodeJobsOf(opts.manifest.run_id, opts.manifest.prompt_sha256 ?? null, opts.episodes);
    this.waiting = jobs;
    this.writer = new ResultsWriter(opts.store, opts.manifest.run_id, pending, jobs.length, opts.onStored);
    this.perThread = Math.ceil(opts.concurrency / opts.threads);
    this.entry = opts.entry ?? defaultEntry();
    const rate = opts.manifest.rate_limit_per_minute;
    this.limiter = opts.limiter ?? (rate ? new LocalRateLimiter(rate) : undefined);
  }

  private get pending(): Map<string, string> {
    return this.writer.pending;
  }

  start(): void {
    if (this.haltNow()) this.stopStarting();
    if (this.pending.size === 0) return this.finish();
    // Threads past -j would load the run's domain and models and never get an episode.
    for (let i = 0; i < Math.min(this.opts.threads, this.opts.concurrency, this.waiting.length); i++) this.spawn(i);
  }

  private spawn(index: number): void {
    const worker = startThread(this.entry, { manifest: this.manifest });
    const slot: Slot = { index, worker, ready: false, alive: true, running: new Map(), inFlight: () => slot.running.size };
    this.slots[index] = slot;
    let error: Error | undefined;
    worker.on('message', (msg: FromThread) => this.onMessage(slot, msg));
    worker.on('error', (e) => (error = e));
    worker.on('exit', (code) => this.onExit(slot, error?.message ?? `exit code ${code}`));
    for (const observe of threadObservers) observe(slot);
  }

  private onMessage(slot: Slot, msg: FromThread): void {
    if (this.failed) return;
    if (msg.t === 'ready') {
      slot.ready = true;
      this.dispatch();
    } else if (msg.t === 'slot') {
      const grant = (at: number) => slot.alive && slot.worker.postMessage({ t: 'slot', n: msg.n, at } satisfies ToThread);
      if (!this.limiter) grant(Date.now());
      else void this.limiter.acquire(msg.provider).then(grant);
    } else if (msg.t === 'refused') this.abort(new BadInputError(`a thread refused run ${this.manifest.run_id}: ${msg.message}`));
    else if (msg.t === 'failed') {
      const job = slot.running.get(msg.id);
      slot.running.delete(msg.id);
      if (job) this.retry(job, `its job failed: ${msg.error}`);
      this.dispatch();
    } else if (msg.t === 'result') {
      slot.running.delete(msg.id);
      const write = this.writer.write(msg.message).then((outcome) => {
        if (outcome !== 'duplicate' && (this.haltNow() || outcome === 'refused')) this.stopStarting();
        if (this.opts.halt) this.dispatch();
        if (this.pending.size === 0) this.finish();
      }, (e: Error) => this.abort(new Error(`storing episode ${msg.message.episode.episode_id} failed: ${e.message}`)));
      this.writes.add(write);
      void write.finally(() => this.writes.delete(write));
      if (!this.opts.halt) this.dispatch();
    }
  }

  /** A thread exited (crashed, terminated, or its module failed to load): its episodes run again elsewhere. */
  private onExit(slot: Slot, why: string): void {
    slot.alive = false;
    if (this.failed || this.pending.size === 0) return;
    const cut = [...slot.running.values()];
    slot.running.clear();
    for (const job of cut.reverse()) this.retry(job, `its thread ${slot.index} exited (${why})`);
    if (this.failed) return;
    // A replacement per slot while work is left; a thread that cannot start at all stops the run.
    if (!slot.ready && cut.length === 0 && !this.slots.some((s) => s.alive && s.ready)) {
      return this.abort(new Error(`the threads of run ${this.manifest.run_id} could not start: ${why}`));
    }
    if (this.replacements < this.opts.threads * MAX_ATTEMPTS) {
      this.replacements++;
      this.spawn(slot.index);
    } else if (!this.slots.some((s) => s.alive)) {
      return this.abort(new Error(`every thread of run ${this.manifest.run_id} exited (last: ${why}); continue with --resume ${shellArg(this.manifest.run_id)}`));
    }
    this.dispatch();
  }

  /** Puts `job` first in line again, or fails the run after {@link MAX_ATTEMPTS} attempts. */
  private retry(job: EpisodeJobEntry, why: string): void {
    if (!this.pending.has(job.id)) return;
    const n = (this.attempts.get(job.id) ?? 1) + 1;
    this.attempts.set(job.id, n);
    if (n > MAX_ATTEMPTS) {
      const runId = this.manifest.run_id;
      return this.abort(new Error(`episode ${this.pending.get(job.id)} of run ${runId} did not finish in ${MAX_ATTEMPTS} attempts: ${why}; fix the cause and continue with --resume ${shellArg(runId)}`));
    }
    this.waiting.unshift(job);
  }

  /** Sends waiting jobs to the ready threads with the fewest episodes running, up to each one's share and `-j` in all. */
  private dispatch(): void {
    let running = this.slots.reduce((n, s) => n + s.running.size, 0);
    while (this.waiting.length && running < this.opts.concurrency && !this.failed) {
      let best: Slot | undefined;
      for (const s of this.slots) if (s?.alive && s.ready && s.running.size < this.perThread && (!best || s.running.size < best.running.size)) best = s;
      if (!best) return;
      const job = this.waiting.shift()!;
      if (!this.pending.has(job.id)) continue;
      best.running.set(job.id, job);
      best.worker.postMessage({ t: 'job', id: job.id, data: job.data } satisfies ToThread);
      running++;
    }
  }

  private haltNow(): boolean {
    const reason = this.halted ? undefined : this.opts.halt?.();
    if (reason !== undefined) this.halted = { reason, notStarted: 0 };
    return reason !== undefined;
  }

  /** No episode starts any more (a halt or a refused credential): the waiting ones leave the run. */
  private stopStarting(): void {
    for (const job of this.waiting.splice(0)) {
      if (!this.pending.delete(job.id)) continue;
      if (this.halted) this.halted.notStarted++;
    }
  }

  private abort(e: Error): void {
    if (this.failed) return;
    this.failed = true;
    this.fail(e);
  }

  /** Ends every thread and waits for the writes under way. */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s?.worker.terminate()));
    await Promise.allSettled([...this.writes]);
  }
}

/**
 * Runs the episodes on `threads` worker threads of this process and stores them as they return.
 * Resolves once every episode is stored (after a halt or a refused credential: every started
 * one); rejects with BadInputError when a thread refuses the run (its dataset, surface or
 * harness differ, or a model cannot be built), and with an Error naming the episode when one did
 * not finish in {@link MAX_ATTEMPTS} attempts (the stored episodes stay; `--resume` continues).
 */
export async function runOnThreads(opts: ThreadRunOptions): Promise<QueueRunResult> {
  if (!(Number.isInteger(opts.threads) && opts.threads >= 1)) throw new BadInputError(`--threads must be a whole number >= 1, got '${opts.threads}'`);
  if (!(Number.isInteger(opts.concurrency) && opts.concurrency >= 1)) throw new BadInputError(`-j/--concurrency must be a whole number >= 1, got '${opts.concurrency}'`);
  const m = opts.manifest;
  if (!m.agent.model || !m.user.model) throw new BadInputError('--threads needs the agent and the user simulator on live OpenAI-compatible endpoints (each thread builds its own clients from the run\'s model settings)');
  const run = new ThreadRun(opts);
  try {
    run.start();
    await run.done;
  } finally {
    await run.close();
  }
  const { stored, duplicates, stopped } = run.writer;
  return { stored, duplicates, ...(stopped ? { stopped } : {}), ...(run.halted ? { halted: run.halted } : {}) };
}
