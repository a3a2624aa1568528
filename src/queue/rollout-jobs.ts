/**
 * Optimiser rollouts on the queue (`servicegym optimize --queue redis://…`): what travels through
 * Redis, and the `rollout` job kind workers run. The optimiser writes one {@link RolloutManifest}
 * per run (how to build its suite, the suite's fingerprint, the models) and enqueues each rollout
 * (candidate prompt × case × trial) as a {@link RolloutJob} carrying the prompt by content; the
 * job id comes from (run, case, trial, persona, candidate, seed), so enqueueing is idempotent. A
 * worker builds the suite from its own copy of the data, refuses the run when its fingerprint
 * differs, runs the rollout with the suite's own `runRollout` and returns it; the optimiser stays
 * the one writer of its journal and records.
 *
 * Suites are built from a {@link SuiteSpec} through {@link SUITE_KINDS} (one entry per suite kind
 * of the optimise config: `tasks`, `campaign`).
 */
import os from 'node:os';
import { BadInputError } from '../spec/errors.js';
import { loadSurface } from '../surfaces/catalog.js';
import { agentToolsOf } from '../orchestrator/build.js';
import { loadCampaign } from '../campaign/load.js';
import { TaskSuite } from '../optimizer/task-suite.js';
import type { Rollout, Suite, SuiteModels } from '../optimizer/suite.js';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import { datasetFingerprint, harnessPin, type HarnessPin, type ModelPin } from './jobs.js';
import { loadDataset, modelFromPin, type JobKind, type KindContext } from './job-kinds.js';

/** How a worker builds a run's suite: the optimise config's `suite`, with paths resolved by the optimiser. */
export type SuiteSpec =
  | { kind: 'tasks'; domain: string; data_dir: string | null; tasks: string[] | null; boundary: string[] | null; variants: string[] | null; strict: boolean; surface: string | null }
  | { kind: 'campaign'; dir: string };

/** Everything a worker needs to run an optimise run's rollouts; stored once per run in Redis. */
export interface RolloutManifest {
  kind: 'rollouts';
  run_id: string;
  harness: HarnessPin;
  suite: SuiteSpec;
  /** {@link suiteFingerprint} of the optimiser's suite: a worker whose own differs refuses the run. */
  suite_fingerprint: string;
  agent: ModelPin;
  user: ModelPin | null;
  judge: ModelPin | null;
  /** Sampling temperature of agent, user simulator and judge rollouts. */
  temperature: number;
  /** Model calls per minute per provider, across all workers (null: unlimited). */
  rate_limit_per_minute: number | null;
  /** BullMQ queue the workers return rollouts on. */
  results_queue: string;
}

/** One rollout to run: the prompt by content, its sha256 as the candidate. */
export interface RolloutJob {
  run_id: string;
  case_id: string;
  trial: number;
  seed: number;
  /** The case's user persona (a task suite's variant case `<task>~<persona>`), else null. */
  persona: string | null;
  /** sha256 of `prompt`. */
  candidate: string;
  prompt: string;
}

/** A finished rollout as a worker returns it. */
export interface RolloutResultMessage {
  run_id: string;
  job_id: string;
  rollout: Rollout;
  worker: string;
}

/**
 * The BullMQ job id of a rollout: `ro-` + the first 40 hex digits of the sha256 of the canonical
 * JSON of (run, case, trial, persona, candidate, seed). The seed tells the trial streams (gate,
 * sealed, canary) of one trial index apart.
 */
export function rolloutJobId(job: Omit<RolloutJob, 'prompt'>): string {
  return `ro-${canonicalHash([job.run_id, job.case_id, job.trial, job.persona, job.candidate, job.seed]).slice(0, 40)}`;
}

/** A suite built from its spec, and its fingerprint. */
export interface BuiltSuite {
  suite: Suite;
  fingerprint: string;
}

/**
 * The fingerprint of a suite: sha256 over its id, harness version, surface, cases and the
 * kind's own data (`data`): what a rollout's scoring depends on besides the prompt and models.
 */
export function suiteFingerprint(suite: Suite, data: unknown): string {
  return canonicalHash({ id: suite.id, harness: suite.harnessVersion, surface: suite.surface, cases: suite.cases, data });
}

async function tasksSuite(spec: Extract<SuiteSpec, { kind: 'tasks' }>): Promise<BuiltSuite> {
  const loaded = await loadDataset({ domain: spec.domain, data_dir: spec.data_dir });
  const surface = spec.surface === null ? undefined : await loadSurface(spec.surface);
  if (loaded.surface) await loadSurface(loaded.surface); // the dataset's own, which the suite looks up synchronously
  const suite = new TaskSuite(loaded, { tasks: spec.tasks ?? undefined, boundary: spec.boundary ?? undefined, variants: spec.variants ?? undefined, strict: spec.strict, surface });
  const tools = surface ? agentToolsOf(loaded, surface) : null;
  return { suite, fingerprint: suiteFingerprint(suite, { dataset: datasetFingerprint(loaded), tools }) };
}

async function campaignSuite(spec: Extract<SuiteSpec, { kind: 'campaign' }>): Promise<BuiltSuite> {
  const c = loadCampaign(spec.dir);
  const { CampaignSuite } = await import('../optimizer/campaign-suite.js'); // the campaign domains load only for campaign suites
  const suite = new CampaignSuite(c);
  const data = { spec: c.spec, cases: c.cases, stable: c.stable.text, judge: c.judgeTemplate, coding: [c.codingSystem, c.codingUserTemplate] };
  return { suite, fingerprint: suiteFingerprint(suite, data) };
}

/** Suite builders by the config's suite kind. Each rejects with BadInputError when its data cannot be loaded. */
export const SUITE_KINDS: Readonly<Record<SuiteSpec['kind'], (spec: any) => Promise<BuiltSuite>>> = { tasks: tasksSuite, campaign: campaignSuite };

/** Builds the suite of `spec` (BadInputError for an unknown kind). */
export async function buildSuiteOf(spec: SuiteSpec): Promise<BuiltSuite> {
  const make = SUITE_KINDS[spec.kind];
  if (!make) throw new BadInputError(`unknown suite kind '${(spec as { kind: string }).kind}' (known: ${Object.keys(SUITE_KINDS).join(', ')})`);
  return make(spec);
}

/** Why a worker must not run an optimise run's rollouts, or undefined when it may. */
export function rolloutMismatch(m: RolloutManifest, own: { harness: HarnessPin; fingerprint: string }): string | undefined {
  if (m.harness.name !== own.harness.name || m.harness.version !== own.harness.version) {
    return `the run was started with ${m.harness.name} ${m.harness.version}, this worker is ${own.harness.name} ${own.harness.version}`;
  }
  if (m.suite_fingerprint !== own.fingerprint) {
    const where = m.suite.kind === 'tasks' ? `${m.suite.domain} tasks${m.suite.data_dir ? ` (${m.suite.data_dir})` : ''}` : `campaign ${m.suite.dir}`;
    return `this worker's suite (${where}) differs from the run's (fingerprint ${own.fingerprint.slice(0, 12)} vs ${m.suite_fingerprint.slice(0, 12)})`;
  }
  return undefined;
}

interface RolloutContext extends KindContext {
  suite: Suite;
  models: SuiteModels;
}

/** The `rollout` kind. */
export const rolloutKind: JobKind<RolloutManifest, RolloutJob, RolloutContext> = {
  async context(m, deps) {
    if (m.kind !== 'rollouts') throw new BadInputError(`run ${m.run_id} is not an optimise run (its manifest is for '${String(m.kind ?? 'episode')}' jobs)`);
    const built = await buildSuiteOf(m.suite);
    const why = rolloutMismatch(m, { harness: harnessPin(), fingerprint: built.fingerprint });
    if (why) throw new BadInputError(`refusing run ${m.run_id}: ${why}`);
    const limiter = deps.limiter(m.rate_limit_per_minute);
    const agent = modelFromPin(m.agent, deps, limiter)!;
    const models: SuiteModels = { agent, user: modelFromPin(m.user, deps, limiter), judge: modelFromPin(m.judge, deps, limiter), temperature: m.temperature };
    return { suite: built.suite, models, results: deps.results(m.results_queue) };
  },
  async run(job, jobId, _m, ctx) {
    if (sha256Hex(job.prompt) !== job.candidate) throw new BadInputError(`rollout ${job.case_id}#${job.trial} of run ${job.run_id}: the prompt does not match its sha256 ${job.candidate.slice(0, 12)}`);
    const rollout = await ctx.suite.runRollout({ prompt: job.prompt, caseId: job.case_id, trial: job.trial, seed: job.seed }, ctx.models);
    const message: RolloutResultMessage = { run_id: job.run_id, job_id: jobId, rollout, worker: `${os.hostname()}:${process.pid}` };
    return { message, outcome: rollout.valid ? (rollout.success ? 'success' : 'failure') : 'invalid' };
  },
  label: (job) => `${job.case_id}#${job.trial} of ${job.candidate.slice(0, 12)}`,
};
