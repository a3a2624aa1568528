/**
 * The entry of a worker thread of `servicegym run --threads N` (started by thread-pool.ts, never
 * imported): loads the run's domain, surface and models once from the run's manifest (the
 * `episode` job kind, as a queue worker does, checking the harness, dataset and surface
 * fingerprints), then runs the episode jobs the main thread sends, each to its result message,
 * which goes back to the main thread: the run's one store writer.
 *
 * Messages (see {@link ToThread} and {@link FromThread}): the main thread sends `job`; this thread
 * answers `ready` once loaded (or `refused` with the reason of a BadInputError: a mismatched
 * dataset, a missing key), and per job `result` or `failed` (the job threw; an error inside an
 * episode — a tool error, a provider error — is an episode outcome in its result, not a failure).
 * With `--rate-limit`, each model call first asks the main thread for its provider's next slot
 * (`slot` with a request number) and waits for the main thread's `slot` with the same number: one
 * limiter, in the main thread, spaces the calls of all threads.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BadInputError } from '../spec/errors.js';
import type { EpisodeJob, EpisodeResultMessage, RunManifest } from './jobs.js';
import type { KindContext, ResultSink, WorkerDeps } from './job-kinds.js';
import { episodeKind } from './episode-jobs.js';
import type { CallRateLimiter } from '../models/rate-limit.js';

/** The thread's side of the main thread's rate limiter: each acquire is a numbered request answered by the main thread. */
class MainThreadLimiter implements CallRateLimiter {
  private n = 0;
  private readonly waiting = new Map<number, (at: number) => void>();

  constructor(private readonly post: (msg: FromThread) => void) {}

  acquire(provider: string): Promise<number> {
    const n = this.n++;
    return new Promise((resolve) => {
      this.waiting.set(n, resolve);
      this.post({ t: 'slot', n, provider });
    });
  }

  /** The main thread granted request `n` its slot at `at` (ms). */
  granted(n: number, at: number): void {
    this.waiting.get(n)?.(at);
    this.waiting.delete(n);
  }
}

/** What a thread is started with (`workerData`). */
export interface ThreadWorkerData {
  manifest: RunManifest;
}

/** A message of the main thread to a worker thread: one episode job to run, or the slot granted to call request `n`. */
export type ToThread = { t: 'job'; id: string; data: EpisodeJob } | { t: 'slot'; n: number; at: number };

/** A message of a worker thread to the main thread. */
export type FromThread =
  | { t: 'ready' }
  | { t: 'slot'; n: number; provider: string }
  | { t: 'refused'; message: string }
  | { t: 'result'; id: string; message: EpisodeResultMessage }
  | { t: 'failed'; id: string; error: string };

/** Loads the run's context and serves jobs on `port` until the main thread ends this thread. */
async function serve(port: NonNullable<typeof parentPort>, data: ThreadWorkerData): Promise<void> {
  const post = (msg: FromThread) => port.postMessage(msg);
  const sink: ResultSink = {
    send: async (id, message) => post({ t: 'result', id, message: message as EpisodeResultMessage }),
    close: async () => {},
  };
  const limiter = new MainThreadLimiter(post);
  const deps: WorkerDeps = { results: () => sink, limiter: (rate) => (rate ? limiter : undefined), env: process.env };
  let ctx: KindContext;
  try {
    ctx = await episodeKind.context(data.manifest, deps);
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    post({ t: 'refused', message: e.message });
    return;
  }
  const run = async ({ id, data: job }: Extract<ToThread, { t: 'job' }>) => {
    try {
      const { message } = await episodeKind.run(job, id, data.manifest, ctx as never);
      await ctx.results.send(id, message);
    } catch (e) {
      post({ t: 'failed', id, error: e instanceof Error ? e.message : String(e) });
    }
  };
  port.on('message', (msg: ToThread) => {
    if (msg?.t === 'job') void run(msg);
    else if (msg?.t === 'slot') limiter.granted(msg.n, msg.at);
  });
  post({ t: 'ready' });
}

if (parentPort) await serve(parentPort, workerData as ThreadWorkerData);
