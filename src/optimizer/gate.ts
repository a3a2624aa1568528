/**
 * The statistical release gate, lexicographic, on paired rollouts (the parent — the stable
 * prompt — and the candidate on the same case and trial seed):
 *
 * 1. zero new critical violations (a candidate rollout with one where the parent's had none) —
 *    decisive on any evidence: `reject`;
 * 2. enough evidence: at least `minCoverage` of the pairs valid (provider failures are not
 *    scored) and, at the final look, at least `minTrialsPerCase` valid pairs on every gate case —
 *    otherwise `insufficient_evidence`, never a reject;
 * 3. holdout non-inferior: net new failures over holdout pairs ≤ ⌈margin × pairs⌉;
 * 4. boundary improved: exact one-sided sign test on discordant boundary pairs with p < α, and
 *    improvements on at least `minCasesImproved` distinct cases.
 * (5, across candidates: fewer added tokens preferred — the runner's ordering.)
 *
 * Two looks (racing): look 1 at k₁ trials may stop early on a clear win (p < α₁) or a
 * critical violation; look 2 at k₂ trials decides at α₂ = α − α₁ (so the overall false-accept
 * rate stays ≤ α). A single look uses α.
 *
 * The sealed confirmation ({@link evaluateConfirmation}) then checks critical violations and that
 * the boundary effect keeps its sign and at least `confirmFraction` of the gate's effect.
 */
import type { CaseGroup } from './suite.js';
import { netNewFailures, nonInferiorityBound, signTestP } from './stats.js';

/** One rollout's outcome as the gate reads it. */
export interface Outcome {
  valid: boolean;
  success: boolean;
  critical: boolean;
}

/** A parent and a candidate rollout on the same case and trial seed. */
export interface GatePair {
  case_id: string;
  /** For a case variant, the case it was made from (distinct improved cases count bases). */
  base?: string;
  group: CaseGroup;
  trial: number;
  seed: number;
  parent: Outcome;
  candidate: Outcome;
}

/** Gate parameters (defaults in the optimiser config). */
export interface GateParams {
  alpha: number;
  /** Early-stop level of look 1; α₂ = α − α₁ at look 2. */
  alphaLook1: number;
  holdoutMargin: number;
  minCasesImproved: number;
  minTrialsPerCase: number;
  minCoverage: number;
  confirmFraction: number;
}

export type GateVerdict = 'pass' | 'reject' | 'insufficient_evidence' | 'continue';

/** One lexicographic rule: passed, failed, or not decidable (null). */
export interface GateCheck {
  name: 'zero_new_critical_violations' | 'enough_evidence' | 'holdout_non_inferior' | 'boundary_improved' | 'confirmed_on_sealed';
  passed: boolean | null;
  detail: string;
}

/** The numbers behind a verdict (recorded). */
export interface GateStats {
  pairs: number;
  valid_pairs: number;
  coverage: number;
  min_trials_per_case: number;
  new_critical: string[];
  boundary: { pairs: number; improved: number; worsened: number; p_value: number; alpha: number; cases_improved: string[]; bases_improved?: string[]; parent_rate: number | null; candidate_rate: number | null };
  holdout: { pairs: number; new_failures: number; new_successes: number; net: number; bound: number };
}

export interface GateResult {
  verdict: GateVerdict;
  reasons: string[];
  checks: GateCheck[];
  stats: GateStats;
}

/** Which look this is. */
export interface Look {
  /** 1 or 2. */
  index: number;
  /** The last look: `continue` is not an option. */
  final: boolean;
  /** Significance level at this look. */
  alpha: number;
  /** Boundary pairs still to come after this look (for the futility rule); 0 at the final look. */
  remainingBoundaryPairs: number;
}

/** p formatted for people: 0.25, 0.03125, 1.526e-5. */
export function formatP(p: number): string {
  return p >= 1e-4 ? String(Number(p.toPrecision(4))) : p.toExponential(3);
}

const both = (p: GatePair) => p.parent.valid && p.candidate.valid;
const rate = (xs: boolean[]) => (xs.length ? xs.filter(Boolean).length / xs.length : null);

/** Computes the statistics of a set of pairs at level `alpha`. */
export function gateStats(pairs: readonly GatePair[], params: GateParams, alpha: number): GateStats {
  const valid = pairs.filter(both);
  const newCritical = pairs.filter((p) => p.candidate.valid && p.candidate.critical && !(p.parent.valid && p.parent.critical)).map((p) => `${p.case_id}#${p.trial}`);
  const perCase = new Map<string, number>();
  for (const p of pairs) perCase.set(p.case_id, (perCase.get(p.case_id) ?? 0) + (both(p) ? 1 : 0));
  const boundary = valid.filter((p) => p.group === 'boundary');
  const bChange = netNewFailures(boundary.map((p) => ({ parent: p.parent.success, candidate: p.candidate.success })));
  const improvedCases = [...new Set(boundary.map((p) => p.case_id))].filter((id) => {
    const c = netNewFailures(boundary.filter((p) => p.case_id === id).map((p) => ({ parent: p.parent.success, candidate: p.candidate.success })));
    return c.new_successes > c.new_failures;
  });
  const holdout = valid.filter((p) => p.group === 'holdout');
  const hChange = netNewFailures(holdout.map((p) => ({ parent: p.parent.success, candidate: p.candidate.success })));
  return {
    pairs: pairs.length,
    valid_pairs: valid.length,
    coverage: pairs.length ? valid.length / pairs.length : 0,
    min_trials_per_case: perCase.size ? Math.min(...perCase.values()) : 0,
    new_critical: newCritical,
    boundary: {
      pairs: boundary.length,
      improved: bChange.new_successes,
      worsened: bChange.new_failures,
      p_value: signTestP(bChange.new_successes, bChange.new_failures),
      alpha,
      cases_improved: improvedCases,
      // With case variants, a task and its variants are one case for the spread requirement.
      ...(pairs.some((p) => p.base !== undefined) ? { bases_improved: [...new Set(improvedCases.map((id) => pairs.find((p) => p.case_id === id)?.base ?? id))] } : {}),
      parent_rate: rate(boundary.map((p) => p.parent.success)),
      candidate_rate: rate(boundary.map((p) => p.candidate.success)),
    },
    holdout: { pairs: holdout.length, ...hChange, bound: nonInferiorityBound(holdout.length, params.holdoutMargin) },
  };
}

/** The boundary test in one sentence. */
function boundarySentence(s: GateStats, trials: number): string {
  const b = s.boundary;
  return (
    `boundary: ${b.improved} improved, ${b.worsened} worsened over ${b.pairs} paired rollout(s) on ${b.cases_improved.length} improved case(s); ` +
    `exact one-sided sign test p = ${formatP(b.p_value)} (α = ${formatP(b.alpha)}) with ${trials} trial(s) per case`
  );
}

/** Evaluates the gate at one look; see the module doc for the rules and their order. */
export function evaluateGate(pairs: readonly GatePair[], params: GateParams, look: Look): GateResult {
  const s = gateStats(pairs, params, look.alpha);
  const checks: GateCheck[] = [];
  const reasons: string[] = [];
  const b = s.boundary;
  const h = s.holdout;
  const trials = s.min_trials_per_case;

  const critical = s.new_critical.length === 0;
  checks.push({ name: 'zero_new_critical_violations', passed: critical, detail: critical ? 'no new critical violation' : `${s.new_critical.length} new critical violation(s): ${s.new_critical.join(', ')}` });

  const coverageOk = s.coverage >= params.minCoverage;
  const trialsOk = !look.final || trials >= params.minTrialsPerCase;
  const enough = coverageOk && trialsOk && b.pairs > 0;
  const enoughDetail = !coverageOk
    ? `${s.valid_pairs} of ${s.pairs} paired rollouts valid (${(s.coverage * 100).toFixed(0)}% < ${(params.minCoverage * 100).toFixed(0)}%): provider failures are not scored`
    : !trialsOk
      ? `${trials} valid trial(s) per gate case; the gate needs at least ${params.minTrialsPerCase}`
      : b.pairs === 0
        ? 'no valid boundary pair in the gate'
        : `${s.valid_pairs} of ${s.pairs} pairs valid, at least ${trials} per case`;
  checks.push({ name: 'enough_evidence', passed: enough, detail: enoughDetail });

  const nonInferior = h.net <= h.bound;
  checks.push({ name: 'holdout_non_inferior', passed: h.pairs === 0 ? null : nonInferior, detail: h.pairs === 0 ? 'no holdout pair in the gate' : `net new failures ${h.net} (${h.new_failures} new failures, ${h.new_successes} new successes) over ${h.pairs} pairs; bound ${h.bound}` });

  const significant = b.p_value < look.alpha;
  const distinct = b.bases_improved ?? b.cases_improved;
  const spread = distinct.length >= params.minCasesImproved;
  checks.push({ name: 'boundary_improved', passed: significant && spread, detail: `${boundarySentence(s, trials)}; improved cases ${b.cases_improved.join(', ') || 'none'} (${distinct.length}${b.bases_improved ? ' distinct task(s)' : ''} of the ${params.minCasesImproved} needed)` });

  let verdict: GateVerdict;
  if (!critical) {
    verdict = 'reject';
    reasons.push(checks[0].detail);
  } else if (!enough) {
    verdict = look.final || !coverageOk || b.pairs === 0 ? 'insufficient_evidence' : 'continue';
    reasons.push(enoughDetail);
    if (b.pairs > 0) reasons.push(boundarySentence(s, trials) + (significant ? '' : ' — not significant'));
  } else if (!nonInferior && look.final) {
    verdict = 'reject';
    reasons.push(`holdout regressed: ${checks[2].detail}`);
  } else if (significant && spread && nonInferior) {
    verdict = 'pass';
    reasons.push(boundarySentence(s, trials));
  } else if (!look.final) {
    // Futility: even if every remaining boundary pair improved, p could not reach α at the last look.
    const best = signTestP(b.improved + look.remainingBoundaryPairs, b.worsened);
    verdict = best >= params.alpha - params.alphaLook1 ? 'reject' : 'continue';
    reasons.push(verdict === 'reject' ? `futile: even ${look.remainingBoundaryPairs} more improvements would give p = ${formatP(best)}` : `look ${look.index}: not yet decided`);
  } else {
    verdict = 'reject';
    reasons.push(significant ? `improvement on only ${distinct.length} distinct ${b.bases_improved ? 'task(s), variants counted once' : 'case(s)'} (need ${params.minCasesImproved})` : `${boundarySentence(s, trials)} — not significant`);
  }
  return { verdict, reasons, checks, stats: s };
}

/**
 * The sealed confirmation on fresh seeds: no new critical violation; enough valid pairs; and,
 * when sealed boundary cases exist, a positive boundary effect of at least `confirmFraction` ×
 * the gate's effect (effects are success-rate differences, candidate − parent).
 */
export function evaluateConfirmation(pairs: readonly GatePair[], gate: GateStats, params: GateParams): GateResult {
  const s = gateStats(pairs, params, params.alpha);
  const checks: GateCheck[] = [];
  const critical = s.new_critical.length === 0;
  checks.push({ name: 'zero_new_critical_violations', passed: critical, detail: critical ? 'no new critical violation on sealed cases' : `${s.new_critical.length} new critical violation(s) on sealed cases: ${s.new_critical.join(', ')}` });
  const enough = s.coverage >= params.minCoverage && s.pairs > 0;
  checks.push({ name: 'enough_evidence', passed: enough, detail: `${s.valid_pairs} of ${s.pairs} sealed pairs valid` });
  const gateEffect = (gate.boundary.candidate_rate ?? 0) - (gate.boundary.parent_rate ?? 0);
  const effect = s.boundary.pairs ? s.boundary.candidate_rate! - s.boundary.parent_rate! : null;
  const need = params.confirmFraction * gateEffect;
  const confirmed = effect === null || (effect > 0 && effect >= need - 1e-12);
  const detail = effect === null ? 'no sealed boundary case: effect not re-measured' : `sealed boundary effect ${effect.toFixed(3)} vs gate effect ${gateEffect.toFixed(3)} (need > 0 and ≥ ${need.toFixed(3)})`;
  checks.push({ name: 'confirmed_on_sealed', passed: confirmed, detail });
  let verdict: GateVerdict;
  if (!critical) verdict = 'reject';
  else if (!enough) verdict = 'insufficient_evidence';
  else verdict = confirmed ? 'pass' : 'reject';
  const reasons = [checks.find((c) => c.passed === false)?.detail ?? detail];
  return { verdict, reasons, checks, stats: s };
}
