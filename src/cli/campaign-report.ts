/**
 * The human-readable report of a campaign: the label | holdout | boundary table, the gate checks
 * and decision, the patch as a unified diff, and usage per role.
 */
import type { CampaignOutcome } from '../optimizer/seed-campaign.js';
import { frac, table } from './output.js';

/** Text report for stdout. */
export function campaignReport(o: CampaignOutcome, record: Record<string, any>, header: string): string {
  const evals = [o.initial, ...(o.candidateEval ? [o.candidateEval] : []), ...o.controls];
  const out: string[] = [header, ''];
  out.push(table([['label', 'holdout', 'boundary'], ...evals.map((e) => [e.row_label, frac(e.holdout), frac(e.boundary)])]));
  out.push('', 'Release gate (seed rules):');
  for (const [k, v] of Object.entries(o.gate.checks)) out.push(`  ${v ? 'PASS' : 'FAIL'}  ${k}`);
  out.push(`Decision: ${o.gate.decision}`);
  const pm = record.prompt_metrics;
  out.push(
    `Prompt characters: ${pm.initial_characters} -> ${pm.candidate_characters} (growth ${pm.growth_characters})` +
      o.controls.map((c) => `, ${c.key} ${pm[`${c.key}_characters`]}`).join(''),
  );
  const fixed: string[] = pm.boundary_fixed_case_ids;
  out.push(`Boundary fixed: ${fixed.length ? fixed.join(', ') : 'none'}; regressions: ${pm.introduced_regressions}`);
  out.push('', o.patch?.ok ? 'Patch:' : `Patch rejected: ${o.patch?.reason ?? 'no patch proposed'}`);
  if (o.diff) out.push(o.diff.trimEnd());
  out.push('', 'Usage:');
  const rows: (string | number)[][] = [['role', 'calls', 'prompt', 'completion', 'total', 'latency_s', 'cost_usd']];
  for (const [role, u] of Object.entries(o.usage.byRole)) {
    rows.push([role, u!.calls, u!.prompt_tokens, u!.completion_tokens, u!.total_tokens, u!.latency_seconds.toFixed(2), u!.provider_reported_cost_usd ?? 'n/a']);
  }
  const t = record.usage;
  rows.push(['total', o.receipts.length, t.prompt_tokens, t.completion_tokens, t.total_tokens, '', t.provider_reported_cost_usd ?? 'n/a']);
  out.push(table(rows));
  out.push(`(${t.cost_qualification})`);
  return out.join('\n') + '\n';
}
