/**
 * The optimise run's record (`record.json`, and the store's `runs.record` for kind `optimize`):
 * split, pre-flight estimate, candidates and their decisions, `not_prompt_fixable[]` (escalated
 * feedback cases with a recommendation, advice only: `escalation.ts`), `releases[]` (the lifecycle entries
 * `servicegym prompts` and the viewer read), the full hashed release records, budget and usage.
 * Also the store write: the run row plus one episode row per rollout this run used.
 */
import type { RunStore } from '../store/store.js';
import { canonicalHash } from '../util/canonical.js';
import type { OptimizeConfig } from './config.js';
import type { OptimizeResult } from './run.js';
import type { RolloutBook } from './rollout-book.js';
import type { Rollout } from './suite.js';
import { writeEpisodeLogs } from '../store/run-log.js';
import { RUN_LOG_SCHEMA, type EpisodeRunLog, type RunLogMessage } from '../spec/run-log.js';
import { versionOf } from '../release/lifecycle.js';

/** The record object (JSON). */
export function buildRunRecord(config: OptimizeConfig, identity: string, suite: { id: string; stableSource: string; surface: string }, r: OptimizeResult): Record<string, unknown> {
  const u = r.budget.use;
  return {
    schema: 'servicegym.optimize/1',
    name: config.name,
    suite: { id: suite.id, stable_source: suite.stableSource, stable_sha256: r.stable.sha256, surface: suite.surface },
    identity,
    seed: config.seed,
    splits: r.splits,
    preflight: r.preflight,
    decision: r.decision,
    stop_reason: r.stopReason,
    budget_stopped: r.budgetStopped,
    candidates: r.candidates.map(({ text: _t, ...c }) => c),
    not_prompt_fixable: r.escalations,
    releases: r.entries,
    canary: r.canary ? { decision: r.canary.decision.decision, reason: r.canary.decision.reason, episodes: r.canary.decision.episodes, release_sha256: r.canary.record?.sha256 ?? null } : null,
    release_records: r.releases,
    budget: { caps: config.budget, used: { rollouts: u.rollouts, judge_calls: u.judge_calls, proposer_calls: u.proposer_calls, tokens: u.tokens, cost_usd: u.cost_usd } },
    usage: { by_role: u.by_role },
    models: r.pins,
  };
}

/**
 * Deterministic run id: `optimize-<name>-<12 hex of the record hash>`, without the lifecycle
 * entries (they carry dates), the `not_prompt_fixable` advice (it depends on
 * `search.escalate_after`, which is not part of the run identity) and `run_id` itself (the
 * record carries its id so that later canary decisions find the run in the store).
 */
export function optimizeRunId(name: string, record: Record<string, unknown>): string {
  const { releases: _r, not_prompt_fixable: _n, run_id: _i, ...stable } = record;
  return `optimize-${name}-${canonicalHash(stable).slice(0, 12)}`;
}

/**
 * The run-log record of one rollout (evaluation kind `rollout`: learning-signal dimensions and
 * critical violations). Rollouts keep their trajectory, seed and prompt hash, not their tool log
 * or state, so `tool_calls`, `action_log` and `final_state` are empty. `surface`: the suite's
 * surface (`Suite.surface`), the one the rollout ran on.
 */
export function rolloutEpisodeLog(r: Rollout, episodeId: string, label: string, domain: string | null, suite: string, pins: Record<string, string | null>, surface: string): EpisodeRunLog {
  const usage = JSON.parse(JSON.stringify(r.usage)) as EpisodeRunLog['usage'];
  return {
    schema: RUN_LOG_SCHEMA,
    episode_id: episodeId,
    trial: r.trial,
    label,
    persona: null,
    task: { id: r.case_id, sha256: null },
    domain: domain ?? 'none',
    dataset: { kind: 'campaign', source: suite },
    surface,
    agent: { kind: 'llm', model: pins.agent ?? null, provider: null, prompt_sha256: r.prompt_sha256, temperature: null },
    user: pins.user ? { kind: 'llm', model: pins.user, provider: null, prompt_sha256: null, temperature: null } : null,
    judge: pins.judge ? { kind: 'llm', model: pins.judge, provider: null, prompt_sha256: null, temperature: null } : null,
    seeds: { episode: r.seed, now: null, id_seed: '' },
    messages: JSON.parse(JSON.stringify(r.messages)) as RunLogMessage[],
    tool_calls: [],
    action_log: [],
    initial_state: { ref: { kind: 'task', task_id: r.case_id }, hash: null },
    final_state: null,
    termination: { reason: r.termination, user_signal: null, failure: null, transfer: null, infra_error: r.infra_error ?? null },
    evaluation: { kind: 'rollout', success: r.success, valid: r.valid, critical: [...r.critical], dimensions: JSON.parse(JSON.stringify(r.dimensions)) },
    evaluation_error: null,
    usage,
    timings: { model_seconds: 0, elapsed_seconds: null },
  };
}

/** Saves the run and its rollouts (episodes labelled by prompt version). Returns the run id. */
export function saveOptimizeRun(store: RunStore, record: Record<string, unknown>, book: RolloutBook, createdAt: string, domain: string | null): string {
  const id = optimizeRunId(String(record.name), record);
  store.saveRun({
    id,
    kind: 'optimize',
    name: String(record.name),
    domain,
    created_at: createdAt,
    summary: { decision: record.decision, stop_reason: record.stop_reason, candidates: (record.candidates as unknown[]).length, budget: record.budget },
    record,
  });
  const pins = (record.models ?? {}) as Record<string, string | null>;
  const surface = (record.suite as { surface?: string } | undefined)?.surface;
  if (!surface) throw new Error('the optimise record names no suite surface (buildRunRecord sets it)');
  const records = [...book.byPrompt].flatMap(([sha, m]) => [...m].map(([key, r]) => rolloutEpisodeLog(r, `${versionOf(sha)}/${key}`, versionOf(sha), domain, String(record.name), pins, surface)));
  writeEpisodeLogs(store, id, records);
  return id;
}
