/**
 * The text report of an optimise run (stdout): split, pre-flight estimate, one row per decided
 * candidate, the run decision, the released candidate's reasons, per-edit ablation and diff,
 * the canary, the cases escalated as not prompt-fixable (only when there are any), budget use
 * and usage per role.
 */
import { counted, table } from './output.js';
import type { OptimizeResult } from '../optimizer/run.js';
import { ablationLines, type AblationReport } from '../optimizer/ablation.js';
import { failingSummary } from '../optimizer/escalation.js';

const cut = (s: string, n = 110) => ([...s].length > n ? `${[...s].slice(0, n - 1).join('')}…` : s);

/** Renders the report. `outDir` names where records were written (null: not written). */
export function optimizeReport(name: string, suiteId: string, r: OptimizeResult, outDir: string | null): string {
  const out: string[] = [`Optimize ${name}: suite ${suiteId}, stable ${r.stable.sha256.slice(0, 12)}`, ''];
  out.push(`Split: feedback ${r.splits.feedback.join(', ') || '-'}; gate ${r.splits.gate.join(', ')}; sealed ${r.splits.sealed.join(', ') || '-'}`);
  out.push(`Pre-flight: ${r.preflight.fixed_rollouts} stable rollouts + up to ${r.preflight.per_proposal_rollouts} per gated proposal; ${r.preflight.gated_proposals_fit} gated proposal(s) fit; minimality pass up to ${r.preflight.ablation_rollouts} more`);
  if (r.preflight.warning) out.push(`Warning: ${r.preflight.warning}`);
  out.push('');
  if (r.candidates.length) {
    out.push(table([['candidate', 'round', 'stage', 'decision', '+tokens', 'reason'], ...r.candidates.map((c) => [c.version, c.round, c.stage, c.decision, c.added_tokens, cut(c.reasons[0] ?? '')])]));
  } else {
    out.push('No candidate was decided.');
  }
  out.push('', `Decision: ${r.decision} (${r.stopReason})`);
  const released = r.candidates.find((c) => c.decision === 'release_to_canary');
  const rec = released && r.releases.find((x) => x.sha256 === released.release_sha256);
  if (rec) {
    out.push(`Release record sha256 ${rec.sha256}${outDir ? ` in ${outDir}/releases/` : ''}`);
    for (const reason of rec.reasons) out.push(`  ${reason}`);
    const ablation = rec.statistics.ablation as AblationReport | undefined;
    if (ablation) {
      out.push('', `Ablation (leave one edit out, ${ablation.trials} trials on ${ablation.cases} gate cases):`);
      for (const line of ablationLines(ablation)) out.push(`  ${line}`);
    }
    out.push('', rec.diff.trimEnd());
  }
  if (r.canary) out.push('', `Canary: ${r.canary.decision.decision} — ${r.canary.decision.reason}`);
  if (r.escalations.length) {
    out.push('', 'Not prompt-fixable (advice only; nothing applied, the decision is unchanged):');
    for (const e of r.escalations) {
      out.push(`  ${e.case_id}: ${counted(e.attempts, 'attempt')} (${counted(e.rollouts, 'rollout')}, all failed; stable failed ${e.stable.failures}/${e.stable.rollouts})`);
      out.push(`    failing: ${failingSummary(e.failing)}`);
      out.push(`    recommendation: ${e.recommendation}`);
    }
  }
  const u = r.budget.use;
  const c = r.budget.caps;
  out.push(
    '',
    `Budget: rollouts ${u.rollouts}/${c.max_rollouts} (${r.freshRollouts} run now), judge calls ${u.judge_calls}/${c.max_judge_calls}, proposer calls ${u.proposer_calls}/${c.max_proposer_calls}, ` +
      `tokens ${u.tokens}${c.max_tokens ? `/${c.max_tokens}` : ''}, cost ${u.cost_usd === null ? 'n/a (not reported by the provider)' : `$${u.cost_usd.toFixed(4)}`}`,
  );
  const rows: (string | number)[][] = [['role', 'calls', 'prompt', 'completion', 'total', 'cost_usd']];
  for (const [role, x] of Object.entries(u.by_role)) rows.push([role, x!.calls, x!.prompt_tokens, x!.completion_tokens, x!.total_tokens, x!.provider_reported_cost_usd ?? 'n/a']);
  out.push(table(rows));
  return out.join('\n') + '\n';
}
