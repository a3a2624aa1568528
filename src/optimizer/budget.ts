/**
 * Budget: hard caps on agent rollouts, judge calls, proposer calls, tokens and provider-reported
 * cost, checked before work starts at a candidate boundary (a candidate is never left half
 * evaluated), and the pre-flight estimate of how many gated proposals fit.
 *
 * Rollouts count once per run (a rollout served from this run's journal on resume counts, as it
 * was paid for; one served from the cross-run cache file does not). Tokens, judge calls and cost
 * of work not yet done are projected from the averages so far.
 */
import type { UsageByRole } from '../models/usage.js';
import { mergeUsage } from '../run/run-tasks.js';
import type { OptimizeConfig } from './config.js';
import type { Splits } from './splits.js';

export type BudgetCaps = OptimizeConfig['budget'];

/** What the run has spent. */
export interface BudgetUse {
  rollouts: number;
  judge_calls: number;
  proposer_calls: number;
  tokens: number;
  /** Provider-reported USD, null when no call reported a cost. */
  cost_usd: number | null;
  by_role: UsageByRole;
}

/** Work about to start. */
export interface BudgetNeed {
  rollouts: number;
  proposerCalls: number;
}

/** Accumulates spending and answers "does this fit?". */
export class BudgetMeter {
  private rolloutTokens = 0;
  private proposerTokens = 0;
  private rolloutCost = 0;
  readonly use: BudgetUse = { rollouts: 0, judge_calls: 0, proposer_calls: 0, tokens: 0, cost_usd: null, by_role: {} };

  constructor(readonly caps: BudgetCaps) {}

  private addUsage(u: UsageByRole): { tokens: number; cost: number | null } {
    this.use.by_role = mergeUsage([this.use.by_role, u]);
    let tokens = 0;
    let cost: number | null = null;
    for (const r of Object.values(u)) {
      tokens += r!.total_tokens;
      if (r!.provider_reported_cost_usd !== null) cost = (cost ?? 0) + r!.provider_reported_cost_usd;
    }
    this.use.tokens += tokens;
    if (cost !== null) this.use.cost_usd = (this.use.cost_usd ?? 0) + cost;
    return { tokens, cost };
  }

  /** Counts one rollout of this run. */
  addRollout(usage: UsageByRole): void {
    this.use.rollouts++;
    this.use.judge_calls += usage.llm_judge?.calls ?? 0;
    const { tokens, cost } = this.addUsage(usage);
    this.rolloutTokens += tokens;
    this.rolloutCost += cost ?? 0;
  }

  /** Counts one proposer call. */
  addProposer(usage: UsageByRole): void {
    this.use.proposer_calls++;
    this.proposerTokens += this.addUsage(usage).tokens;
  }

  /** Null when `need` fits every cap; otherwise the message naming the first cap it breaks. */
  check(need: BudgetNeed): string | null {
    const u = this.use;
    const c = this.caps;
    const perRollout = (x: number) => (u.rollouts ? x / u.rollouts : 0);
    const perProposal = u.proposer_calls ? this.proposerTokens / u.proposer_calls : 0;
    const over = (what: string, used: number, next: number, cap: number) =>
      `budget: ${what} cap ${cap} would be exceeded (${round(used)} used, the next step needs up to ${round(next)}); stopped at a candidate boundary`;
    if (u.rollouts + need.rollouts > c.max_rollouts) return over('max_rollouts', u.rollouts, need.rollouts, c.max_rollouts);
    if (u.proposer_calls + need.proposerCalls > c.max_proposer_calls) return over('max_proposer_calls', u.proposer_calls, need.proposerCalls, c.max_proposer_calls);
    const judge = need.rollouts * perRollout(u.judge_calls);
    if (u.judge_calls + judge > c.max_judge_calls) return over('max_judge_calls', u.judge_calls, judge, c.max_judge_calls);
    const tokens = need.rollouts * perRollout(this.rolloutTokens) + need.proposerCalls * perProposal;
    if (c.max_tokens !== null && u.tokens + tokens > c.max_tokens) return over('max_tokens', u.tokens, tokens, c.max_tokens);
    const cost = need.rollouts * perRollout(this.rolloutCost);
    if (c.max_cost_usd !== null && (u.cost_usd ?? 0) + cost > c.max_cost_usd) return over('max_cost_usd', u.cost_usd ?? 0, cost, c.max_cost_usd);
    return null;
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The pre-flight estimate. */
export interface Preflight {
  /** Rollouts of the stable prompt: feedback, gate (look 2) and sealed trials. */
  fixed_rollouts: number;
  /** Worst case per gated proposal: screen + gate (look 2) + sealed trials of the candidate. */
  per_proposal_rollouts: number;
  /** How many proposals can be gated within the rollout and proposer-call caps. */
  gated_proposals_fit: number;
  /** Rollouts of a run that gates three proposals. */
  three_proposals_rollouts: number;
  /**
   * Worst case of the minimality pass on a releasable candidate (each of `max_edits` edits left
   * out, on the gate cases, `trials.ablation` trials); it runs only when it fits the budget left.
   */
  ablation_rollouts: number;
  warning: string | null;
}

/** The pre-flight estimate for a config and split; warns when fewer than three gated proposals fit. */
export function preflightEstimate(config: OptimizeConfig, splits: Splits): Preflight {
  const t = config.trials;
  const fixed = splits.feedback.length * t.feedback + splits.gate.length * t.look2 + splits.sealed.length * t.sealed;
  const per = splits.feedback.length * t.screen + splits.gate.length * t.look2 + splits.sealed.length * t.sealed;
  const byRollouts = Math.max(0, Math.floor((config.budget.max_rollouts - fixed) / Math.max(1, per)));
  const fit = Math.min(byRollouts, config.budget.max_proposer_calls);
  const three = fixed + 3 * per;
  const warning =
    fit < 3
      ? `pre-flight: only ${fit} gated proposal(s) fit the budget (stable prompt ${fixed} rollouts, up to ${per} per proposal, ` +
        `max_rollouts ${config.budget.max_rollouts}, max_proposer_calls ${config.budget.max_proposer_calls}); three need ${three} rollouts and 3 proposer calls`
      : null;
  const ablation = config.search.max_edits * splits.gate.length * t.ablation;
  return { fixed_rollouts: fixed, per_proposal_rollouts: per, gated_proposals_fit: fit, three_proposals_rollouts: three, ablation_rollouts: ablation, warning };
}
