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
import { versionOf } from '../release/lifecycle.js';

/** The record object (JSON). */
export function buildRunRecord(config: OptimizeConfig, identity: string, suite: { id: string; stableSource: string }, r: OptimizeResult): Record<string, unknown> {
  const u = r.budget.use;
  return {
    schema: 'servicegym.optimize/1',
    name: config.name,
    suite: { id: suite.id, stable_source: suite.stableSource, stable_sha256: r.stable.sha256 },
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
  const rows = [...book.byPrompt].flatMap(([sha, m]) =>
    [...m].map(([key, r]) => ({
      run_id: id,
      episode_id: `${versionOf(sha)}/${key}`,
      task_id: r.case_id,
      trial: r.trial,
      label: versionOf(sha),
      reward: r.valid ? (r.success ? 1 : 0) : null,
      partial: null,
      termination: r.termination,
      result: { messages: r.messages, dimensions: r.dimensions, critical: r.critical, valid: r.valid, infra_error: r.infra_error ?? null, seed: r.seed },
    })),
  );
  store.appendEpisodes(rows);
  return id;
}
