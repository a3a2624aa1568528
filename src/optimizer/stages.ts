/**
 * A candidate's evaluation stages after the static checks, each on paired rollouts of the stable
 * prompt (the release parent) and the candidate on the same cases and trial seeds:
 *
 * - screen: feedback cases, `trials.screen` trials — no new critical violation and at least
 *   `gate.screen_min_net` net new successes, else the candidate never reaches the gate;
 * - gate: gate cases in two looks (`trials.look1`, then `trials.look2`), see {@link evaluateGate};
 * - confirm: sealed cases on fresh seeds, `trials.sealed` trials, see {@link evaluateConfirmation}.
 */
import { evaluateConfirmation, evaluateGate, type GatePair, type GateParams, type GateResult } from './gate.js';
import type { OptimizeConfig } from './config.js';
import type { RolloutBook, RolloutSpec } from './rollout-book.js';
import type { Splits } from './splits.js';
import type { CaseGroup, Rollout } from './suite.js';
import type { PairRow } from '../release/record.js';
import { netNewFailures } from './stats.js';

/** What the stages share. */
export interface StageContext {
  config: OptimizeConfig;
  splits: Splits;
  book: RolloutBook;
  stableText: string;
  params: GateParams;
  groupOf: (caseId: string) => CaseGroup;
  /** The case a variant was made from (undefined for suites without variants). */
  baseOf?: (caseId: string) => string | undefined;
}

/** Rollout specs for cases × trials 0..k−1 on one seed stream. */
export function specsFor(caseIds: readonly string[], k: number, stream: RolloutSpec['stream']): RolloutSpec[] {
  return caseIds.flatMap((caseId) => Array.from({ length: k }, (_, trial) => ({ caseId, trial, stream })));
}

/** Paired rollouts as the gate reads them and as the record lists them. */
export interface Paired {
  pairs: GatePair[];
  rows: PairRow[];
}

const row = (r: Rollout) => ({ valid: r.valid, success: r.success, critical: r.critical, ...(r.infra_error ? { infra_error: r.infra_error } : {}) });

/** Runs (or reuses) stable and candidate rollouts on `specs` and pairs them. */
export async function paired(ctx: StageContext, candidate: string, specs: readonly RolloutSpec[]): Promise<Paired> {
  const [ps, cs] = await Promise.all([ctx.book.get(ctx.stableText, specs), ctx.book.get(candidate, specs)]);
  const pairs: GatePair[] = [];
  const rows: PairRow[] = [];
  specs.forEach((s, i) => {
    const p = ps[i];
    const c = cs[i];
    const group = ctx.groupOf(s.caseId);
    const base = ctx.baseOf?.(s.caseId);
    pairs.push({ case_id: s.caseId, ...(base !== undefined ? { base } : {}), group, trial: s.trial, seed: p.seed, parent: { valid: p.valid, success: p.success, critical: p.critical.length > 0 }, candidate: { valid: c.valid, success: c.success, critical: c.critical.length > 0 } });
    rows.push({ case_id: s.caseId, group, trial: s.trial, seed: p.seed, parent: row(p), candidate: row(c) });
  });
  return { pairs, rows };
}

/** The screen's verdict. */
export interface ScreenResult {
  verdict: 'pass' | 'reject' | 'insufficient_evidence';
  reasons: string[];
  rows: PairRow[];
  net_new_successes: number;
}

/** The screen stage (see the module doc). */
export async function screen(ctx: StageContext, candidate: string): Promise<ScreenResult> {
  const { pairs, rows } = await paired(ctx, candidate, specsFor(ctx.splits.feedback, ctx.config.trials.screen, 'trial'));
  const valid = pairs.filter((p) => p.parent.valid && p.candidate.valid);
  const crit = pairs.filter((p) => p.candidate.valid && p.candidate.critical && !p.parent.critical).map((p) => `${p.case_id}#${p.trial}`);
  const change = netNewFailures(valid.map((p) => ({ parent: p.parent.success, candidate: p.candidate.success })));
  const net = change.new_successes - change.new_failures;
  const base = { rows, net_new_successes: net };
  if (crit.length) return { ...base, verdict: 'reject', reasons: [`screen: ${crit.length} new critical violation(s) on feedback cases: ${crit.join(', ')}`] };
  if (pairs.length === 0 || valid.length / pairs.length < ctx.config.gate.min_coverage) {
    return { ...base, verdict: 'insufficient_evidence', reasons: [`screen: ${valid.length} of ${pairs.length} paired rollouts valid (provider failures are not scored)`] };
  }
  if (net < ctx.config.gate.screen_min_net) {
    return { ...base, verdict: 'reject', reasons: [`screen: ${net} net new successes on feedback cases (${change.new_successes} new, ${change.new_failures} lost); at least ${ctx.config.gate.screen_min_net} needed`] };
  }
  return { ...base, verdict: 'pass', reasons: [`screen: ${net} net new successes on feedback cases, no critical violation`] };
}

/** The gate's looks and final verdict. */
export interface GateRun {
  final: GateResult;
  looks: GateResult[];
  rows: PairRow[];
}

/** The gate stage: look 1, then look 2 unless look 1 decided. */
export async function gate(ctx: StageContext, candidate: string): Promise<GateRun> {
  const t = ctx.config.trials;
  const p = ctx.params;
  const boundaryCases = ctx.splits.gate.filter((id) => ctx.groupOf(id) === 'boundary').length;
  const single = t.look1 === t.look2;
  const first = await paired(ctx, candidate, specsFor(ctx.splits.gate, t.look1, 'trial'));
  const look1 = evaluateGate(first.pairs, p, { index: 1, final: single, alpha: single ? p.alpha : p.alphaLook1, remainingBoundaryPairs: boundaryCases * (t.look2 - t.look1) });
  if (look1.verdict !== 'continue') return { final: look1, looks: [look1], rows: first.rows };
  const second = await paired(ctx, candidate, specsFor(ctx.splits.gate, t.look2, 'trial'));
  const look2 = evaluateGate(second.pairs, p, { index: 2, final: true, alpha: p.alpha - p.alphaLook1, remainingBoundaryPairs: 0 });
  return { final: look2, looks: [look1, look2], rows: second.rows };
}

/** The sealed confirmation (passes with a note when the split has no sealed case). */
export async function confirm(ctx: StageContext, candidate: string, gateResult: GateResult): Promise<{ result: GateResult | null; rows: PairRow[] }> {
  if (ctx.splits.sealed.length === 0) return { result: null, rows: [] };
  const { pairs, rows } = await paired(ctx, candidate, specsFor(ctx.splits.sealed, ctx.config.trials.sealed, 'sealed'));
  return { result: evaluateConfirmation(pairs, gateResult.stats, ctx.params), rows };
}
