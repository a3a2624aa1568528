/**
 * What a queue worker can run, by BullMQ job name: each kind builds a run's context once (loading
 * its data and checking it against the run's manifest: a mismatch is a BadInputError, and the
 * worker then refuses the run) and turns one job into the result message the run's one writer
 * stores. Kinds: `episode` (`servicegym run --queue`, in worker.ts) and `rollout`
 * (`servicegym optimize --queue`, in rollout-jobs.ts).
 */
import { loadDomainAsync } from '../domains/catalog.js';
import type { LoadedDomain } from '../spec/domain.js';
import type { ChatModel } from '../models/chat-model.js';
import { resolveLiveModelConfig } from '../models/config.js';
import { createModel } from '../models/providers.js';
import type { ModelPin } from './jobs.js';
import { RateLimitedModel, type CallRateLimiter } from '../models/rate-limit.js';

/**
 * Where a worker hands a run's results to the run's one writer: the run's BullMQ results queue
 * (`servicegym worker`), or the main thread of a `run --threads` process.
 */
export interface ResultSink {
  /** Hands over the result message of job `jobId`; resolves once the transport holds it. */
  send(jobId: string, message: unknown): Promise<void>;
  /** Releases the transport (called once by the worker when it stops). */
  close(): Promise<void>;
}

/** What a kind's context needs from the worker. */
export interface WorkerDeps {
  /** The sink of results named `name` (a run's results queue on BullMQ; closed by the worker). */
  results(name: string): ResultSink;
  /** The shared per-provider limiter at `callsPerMinute` (Redis on a queue, the main thread's for a thread), or undefined for null (unlimited). */
  limiter(callsPerMinute: number | null): CallRateLimiter | undefined;
  /** Overrides the manifest's base URL (`worker --base-url`). */
  baseUrl?: string;
  env: NodeJS.ProcessEnv;
}

/** A run's context: at least the sink its results go to. */
export interface KindContext {
  results: ResultSink;
}

/** One kind of job. `M`: its run manifest, `J`: its job data, `C`: its run context. */
export interface JobKind<M extends { run_id: string; results_queue: string }, J, C extends KindContext> {
  /** Loads the run's data and models; throws BadInputError when this worker must refuse the run. */
  context(manifest: M, deps: WorkerDeps): Promise<C>;
  /** Runs one job; resolves to the result message and a one-word outcome for the log. */
  run(job: J, jobId: string, manifest: M, ctx: C): Promise<{ message: unknown; outcome: string }>;
  /** How the log names a job, e.g. `T01#0 (vague)`. */
  label(job: J): string;
}

/**
 * A live model from a manifest's pin; the key comes from this worker's environment. With a
 * limiter, every call first takes a slot of the shared rate.
 */
export function modelFromPin(pin: ModelPin | null, deps: WorkerDeps, limiter: CallRateLimiter | undefined): ChatModel | undefined {
  if (!pin) return undefined;
  const flags = { model: pin.model, baseUrl: deps.baseUrl ?? pin.base_url ?? undefined, provider: pin.provider ?? undefined, timeout: pin.timeout ?? undefined, maxRetries: pin.max_retries ?? undefined, maxRetryAfter: pin.max_retry_after ?? undefined, callDeadline: pin.call_deadline ?? undefined, bodyTimeout: pin.body_timeout ?? undefined };
  const model = createModel('openai-compatible', { config: resolveLiveModelConfig(flags, deps.env) });
  return limiter ? new RateLimitedModel(model, limiter) : model;
}

/** Loaded domains of this process, by dataset (domain, folder, variant, solo): each loads once. */
const domainCache = new Map<string, Promise<LoadedDomain<any>>>();

/**
 * The dataset a manifest names, loaded once per process (importing that domain alone). Rejects
 * with BadInputError for an unknown domain or a bad folder; a failed load is tried again next time.
 */
export function loadDataset(d: { domain: string; data_dir: string | null; policy_variant?: string | null; solo?: boolean }): Promise<LoadedDomain<any>> {
  const key = JSON.stringify([d.domain, d.data_dir, d.policy_variant ?? null, d.solo === true]);
  let loaded = domainCache.get(key);
  if (!loaded) {
    loaded = loadDomainAsync(d.domain, { dataDir: d.data_dir ?? undefined, policy: d.policy_variant ?? undefined, solo: d.solo === true });
    domainCache.set(key, loaded);
    loaded.catch(() => domainCache.delete(key));
  }
  return loaded;
}
