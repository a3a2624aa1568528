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
 */
import { parentPort, workerData } from 'node:worker_threads';
import { BadInputError } from '../spec/errors.js';
import type { EpisodeJob, EpisodeResultMessage, RunManifest } from './jobs.js';
import type { KindContext, ResultSink, WorkerDeps } from './job-kinds.js';
import { episodeKind } from './episode-jobs.js';

/** What a thread is started with (`workerData`). */
export interface ThreadWorkerData {
  manifest: RunManifest;
}

/** A message of the main thread to a worker thread: one episode job to run. */
export type ToThread = { t: 'job'; id: string; data: EpisodeJob };

/** A message of a worker thread to the main thread. */
export type FromThread =
  | { t: 'ready' }
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
  const deps: WorkerDeps = { results: () => sink, limiter: () => undefined, env: process.env };
  let ctx: KindContext;
  try {
    ctx = await episodeKind.context(data.manifest, deps);
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    post({ t: 'refused', message: e.message });
    return;
  }
  const run = async ({ id, data: job }: ToThread) => {
    try {
      const { message } = await episodeKind.run(job, id, data.manifest, ctx as never);
      await ctx.results.send(id, message);
    } catch (e) {
      post({ t: 'failed', id, error: e instanceof Error ? e.message : String(e) });
    }
  };
  port.on('message', (msg: ToThread) => {
    if (msg?.t === 'job') void run(msg);
  });
  post({ t: 'ready' });
}

if (parentPort) await serve(parentPort, workerData as ThreadWorkerData);
