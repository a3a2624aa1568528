/**
 * Distributed runs on BullMQ: what travels through Redis. A run's producer (`servicegym run
 * --queue redis://…`) writes one {@link RunManifest} per run and enqueues each episode as an
 * {@link EpisodeJob} whose job id is derived from (run, task, trial, persona, candidate), so
 * enqueueing twice is a no-op. Workers (`servicegym worker`) return each finished episode on the
 * run's results queue as an {@link EpisodeResultMessage}; the producer is the one writer of the
 * store. Credentials never travel: each worker uses its own key from its environment.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import type { EpisodeRow } from '../store/store.js';
import type { PackedReceipts } from './packed-receipts.js';
import type { Surface } from '../spec/surface.js';
import { agentToolsOf } from '../orchestrator/build.js';

/** Default BullMQ queue name of episode jobs (`--queue-name`). */
export const DEFAULT_QUEUE_NAME = 'servicegym';

/** The code that runs episodes; a worker whose harness differs from the producer's refuses the run. */
export interface HarnessPin {
  name: string;
  version: string;
}

/** The dataset a run uses; a worker whose own copy has another fingerprint refuses the run. */
export interface DatasetPin {
  domain: string;
  /** The tau2 folder (`--data-dir`), or null for servicegym's own dataset. */
  data_dir: string | null;
  policy_variant: string | null;
  solo: boolean;
  /** sha256 of the canonical JSON of the domain name, mode, policy, tasks and the start state's hash. */
  fingerprint: string;
}

/** Non-secret model settings a worker builds its models from (its key comes from its own environment). */
export interface ModelPin {
  model: string;
  base_url: string | null;
  provider: string | null;
  timeout: string | null;
  max_retries: string | null;
  max_retry_after: string | null;
  call_deadline: string | null;
  body_timeout: string | null;
}

/** Everything a worker needs to run a run's episodes; stored once per run in Redis. */
export interface RunManifest {
  run_id: string;
  harness: HarnessPin;
  dataset: DatasetPin;
  /** Registry kinds (`src/agents`, `src/users`), e.g. `llm`. */
  agent: { kind: string; model: ModelPin | null };
  user: { kind: string; model: ModelPin | null };
  judge: ModelPin | null;
  judge_votes: number;
  temperature: number;
  trials: number;
  personas: string[] | null;
  strict: boolean;
  /** Most steps of an episode (`--max-steps`); null: the default. */
  max_steps: number | null;
  /** Model calls per minute per provider, across all workers (null: unlimited). */
  rate_limit_per_minute: number | null;
  /**
   * The agent's raw system prompt by content (`run --prompt-file`, `{{policy}}` already filled in
   * by the producer), or null for the dataset's own prompt; `prompt_sha256` is its sha256 (hex).
   */
  system_prompt?: string | null;
  prompt_sha256?: string | null;
  /** How the agent reaches the back-end (`run --surface`/`--surface-option`); absent: the dataset's own surface, else api. */
  surface?: SurfacePin;
  /** How a model agent receives tool-result images (`run --screenshots`): `tool_result` or `user_message`. */
  image_delivery?: string;
  /** BullMQ queue the workers return results on. */
  results_queue: string;
}

/**
 * The surface a run's episodes use: its registry name (`src/surfaces/index.ts`), its options and
 * the fingerprint of what the agent sees on it for the run's domain ({@link surfaceFingerprint}).
 */
export interface SurfacePin {
  name: string;
  options: Record<string, string>;
  fingerprint: string;
}

/** One episode to run. `candidate` names a prompt candidate (optimiser rollouts); null in plain runs. */
export interface EpisodeJob {
  run_id: string;
  task_id: string;
  trial: number;
  persona: string | null;
  candidate: string | null;
  /** sha256 of the run's system prompt (the manifest carries its content); absent or null: the dataset's own prompt. */
  prompt_sha256?: string | null;
}

/** A finished episode as a worker returns it: the store rows it would have written itself. */
export interface EpisodeResultMessage {
  run_id: string;
  job_id: string;
  episode: Omit<EpisodeRow, 'run_id'>;
  /** The episode's model receipts, packed (src/queue/packed-receipts.ts; the producer numbers them). */
  receipts: PackedReceipts;
  /** Set when the provider refused the credential on that worker. */
  stopped?: string;
  worker: string;
}

/**
 * The BullMQ job id of an episode: `ep-` + the first 40 hex digits of the sha256 of the canonical
 * JSON of (run, task, trial, persona, candidate), plus the prompt's sha256 when the run has its own
 * system prompt. Same episode, same id, so enqueueing is idempotent.
 */
export function episodeJobId(job: EpisodeJob): string {
  const parts: unknown[] = [job.run_id, job.task_id, job.trial, job.persona, job.candidate];
  if (job.prompt_sha256) parts.push(job.prompt_sha256);
  return `ep-${canonicalHash(parts).slice(0, 40)}`;
}

/** A queue name BullMQ accepts (no `:`); throws BadInputError otherwise. */
export function checkQueueName(name: string): string {
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new BadInputError(`--queue-name must use letters, digits, '.', '_' and '-' only, got '${name}'`);
  return name;
}

/** The results queue of a run on queue `name`. */
export function resultsQueueName(name: string, runId: string): string {
  return `${name}-results-${runId.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}

function manifestKey(queueName: string, runId: string): string {
  return `servicegym:manifest:${queueName}:${runId}`;
}

let harnessCache: HarnessPin | undefined;

/** This installation's harness pin: the package name and version (package.json). */
export function harnessPin(): HarnessPin {
  if (!harnessCache) {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'package.json');
    const pkg = JSON.parse(fs.readFileSync(file, 'utf8')) as { name: string; version: string };
    harnessCache = { name: pkg.name, version: pkg.version };
  }
  return harnessCache;
}

const fingerprints = new WeakMap<LoadedDomain<any>, string>();

/**
 * The dataset fingerprint of a loaded domain (cached per loaded domain): sha256 over the domain
 * name, dataset mode, policy text, tasks (canonical JSON) and the start state's hash.
 */
export function datasetFingerprint(loaded: LoadedDomain<any>): string {
  let fp = fingerprints.get(loaded);
  if (!fp) {
    const init = loaded.domain.initialState();
    const stateHash = loaded.domain.state ? loaded.domain.state.hash(init) : canonicalHash(init);
    fp = sha256Hex(JSON.stringify([loaded.domain.name, loaded.mode, sha256Hex(loaded.policy), canonicalHash(loaded.tasks), stateHash]));
    fingerprints.set(loaded, fp);
  }
  return fp;
}

/** Stores a run's manifest (kept 30 days): a {@link RunManifest}, or an optimise run's (`rollout-jobs.ts`). */
export async function writeManifest(redis: Redis, queueName: string, manifest: { run_id: string }): Promise<void> {
  await redis.set(manifestKey(queueName, manifest.run_id), JSON.stringify(manifest), 'EX', 30 * 24 * 3600);
}

/** The run's manifest, or undefined when the producer wrote none (or it expired). */
export async function readManifest(redis: Redis, queueName: string, runId: string): Promise<RunManifest | undefined> {
  const text = await redis.get(manifestKey(queueName, runId));
  return text ? (JSON.parse(text) as RunManifest) : undefined;
}

/**
 * The fingerprint of a surface for a domain: sha256 over the surface's name, its options and the
 * agent's tools on it (names, descriptions, schemas), so a worker whose surface shows the agent
 * something else refuses the run.
 */
export function surfaceFingerprint(loaded: LoadedDomain<any>, surface: Surface, options: Record<string, string>): string {
  return canonicalHash({ surface: surface.name, options, tools: agentToolsOf(loaded, surface) });
}

/**
 * Why a worker must not run a run's episodes (its harness, its dataset or its surface differ from
 * the producer's, or the prompt's content does not match its hash), or undefined when it may.
 * `own.surface` is this worker's fingerprint of the manifest's surface (absent: not checked).
 */
export function mismatch(manifest: RunManifest, own: { harness: HarnessPin; fingerprint: string; surface?: string }): string | undefined {
  if (manifest.harness.name !== own.harness.name || manifest.harness.version !== own.harness.version) {
    return `the run was started with ${manifest.harness.name} ${manifest.harness.version}, this worker is ${own.harness.name} ${own.harness.version}`;
  }
  if (manifest.dataset.fingerprint !== own.fingerprint) {
    return `this worker's ${manifest.dataset.domain} dataset${manifest.dataset.data_dir ? ` (${manifest.dataset.data_dir})` : ''} differs from the run's (fingerprint ${own.fingerprint.slice(0, 12)} vs ${manifest.dataset.fingerprint.slice(0, 12)})`;
  }
  if (manifest.surface && own.surface !== undefined && manifest.surface.fingerprint !== own.surface) {
    return `this worker's ${manifest.surface.name} surface shows the agent other tools than the run's (fingerprint ${own.surface.slice(0, 12)} vs ${manifest.surface.fingerprint.slice(0, 12)})`;
  }
  const prompt = manifest.system_prompt ?? null;
  if ((prompt === null) !== ((manifest.prompt_sha256 ?? null) === null) || (prompt !== null && sha256Hex(prompt) !== manifest.prompt_sha256)) {
    return `the run's system prompt does not match its sha256 (${String(manifest.prompt_sha256 ?? null).slice(0, 12)})`;
  }
  return undefined;
}
