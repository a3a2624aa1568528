/**
 * `servicegym optimize --dry-run` as a readable report: the frozen split and the pre-flight
 * estimate (`src/optimizer/budget.ts`) as a table of rollouts and proposer calls, with the
 * budget caps. Tokens and cost are not estimated before a call (servicegym keeps no price list);
 * the caps `max_tokens` and `max_cost_usd` stop the run when reached. Warnings end it: too small a
 * budget, and a gate split with which no candidate can pass (a group missing, boundary cases of
 * fewer tasks than `gate.min_cases_improved`). `--json` prints the same as JSON.
 */
import type { OptimizeConfig } from '../optimizer/config.js';
import type { Preflight } from '../optimizer/budget.js';
import { counted, table } from './output.js';

const cap = (x: number | null) => (x === null ? 'none' : String(x));

/** The model calls one rollout makes, per suite kind (a campaign case is judged by its rubric; a task has a simulated customer). */
const ROLLOUT_CALLS: Record<OptimizeConfig['suite']['kind'], string> = {
  campaign: 'agent and rubric-judge calls',
  tasks: 'agent and user-simulator calls (and judge calls where a task has natural-language assertions)',
};

/** The dry-run report; `warnings` (src/optimizer/splits.ts `splitWarnings`) end it, after the pre-flight's own. */
export function dryRunText(cfg: OptimizeConfig, suiteId: string, splits: { feedback: string[]; gate: string[]; sealed: string[] }, p: Preflight, warnings: readonly string[] = []): string {
  const n = splits.feedback.length + splits.gate.length + splits.sealed.length;
  const t = cfg.trials;
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : '-');
  const lines = [
    `optimize ${cfg.name}: dry run (no model called)`,
    `suite ${suiteId}: ${counted(n, 'case')} (feedback ${splits.feedback.length}, gate ${splits.gate.length}, sealed ${splits.sealed.length}; seed ${cfg.seed})`,
    '',
    table([['role', 'cases'], ['feedback', list(splits.feedback)], ['gate', list(splits.gate)], ['sealed', list(splits.sealed)]]),
    '',
    table([
      ['pre-flight estimate', 'rollouts', 'proposer calls', 'how'],
      ['stable prompt', String(p.fixed_rollouts), '0', `feedback ×${t.feedback}, gate ×${t.look2}, sealed ×${t.sealed}`],
      ['each gated proposal (worst case)', String(p.per_proposal_rollouts), '1', `screen ×${t.screen}, gate ×${t.look2}, sealed ×${t.sealed}`],
      ['a run gating three proposals', String(p.three_proposals_rollouts), '3', 'stable + 3 proposals'],
      ['minimality pass (worst case)', String(p.ablation_rollouts), '0', `${cfg.search.max_edits} edits × gate cases × ${t.ablation}`],
    ]),
    '',
    `gated proposals that fit the budget: ${p.gated_proposals_fit}`,
    `budget caps: max_rollouts ${cfg.budget.max_rollouts}, max_proposer_calls ${cfg.budget.max_proposer_calls}, max_judge_calls ${cfg.budget.max_judge_calls}, max_tokens ${cap(cfg.budget.max_tokens)}, max_cost_usd ${cap(cfg.budget.max_cost_usd)}`,
    `tokens and cost: not estimated before a call (no price list); each rollout makes ${ROLLOUT_CALLS[cfg.suite.kind]}, and the run stops at max_tokens or max_cost_usd`,
  ];
  if (p.warning) lines.push(`warning: ${p.warning}`);
  for (const w of warnings) lines.push(`warning: ${w}`);
  return lines.join('\n') + '\n';
}
