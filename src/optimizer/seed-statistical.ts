/**
 * The seed campaign's evidence judged by the statistical gate (`servicegym replay <dir> --gate
 * statistical`): each case is one pair (the stable prompt's and the candidate's single trial),
 * every case is a gate case, and the default gate parameters apply. With one trial per case the
 * seed's boundary 0/5 → 2/5 is 2 improvements and 0 worsenings, sign test p = 0.25, and the gate
 * answers `insufficient_evidence` (it needs 4 valid trials per case), never `reject`.
 */
import type { CampaignOutcome } from './seed-campaign.js';
import type { CaseEpisode } from '../campaign/evaluate.js';
import { criticalWrites } from './campaign-suite.js';
import { OptimizeConfigSchema, gateParams } from './config.js';
import { evaluateGate, type GatePair, type GateParams, type GateResult, type Outcome } from './gate.js';

/** The gate parameters of a config with every default. */
export const DEFAULT_GATE_PARAMS: GateParams = gateParams(OptimizeConfigSchema.shape.gate.parse({}));

export interface SeedGateVerdict {
  decision: 'release_to_canary' | 'reject' | 'insufficient_evidence';
  reasons: string[];
  result: GateResult | null;
}

/** A campaign case's outcome as the gate reads it (a write on a dispute or must-escalate case is critical). */
function outcome(e: CaseEpisode): Outcome {
  const r = e.result;
  const critical = criticalWrites(r, e.toolLog).length > 0;
  return { valid: true, success: r.correct && !critical, critical };
}

/** Judges a campaign outcome with the statistical gate; see the module doc. */
export function seedStatisticalGate(o: CampaignOutcome, params: GateParams = DEFAULT_GATE_PARAMS): SeedGateVerdict {
  if (!o.candidateEval) {
    return { decision: 'reject', reasons: [`no candidate to gate: ${o.patch?.reason ?? 'no patch was proposed'}`], result: null };
  }
  const after = new Map(o.candidateEval.episodes.map((e) => [e.result.id, e]));
  const pairs: GatePair[] = o.initial.episodes.map((e) => ({
    case_id: e.result.id,
    group: e.result.group,
    trial: 0,
    seed: 0,
    parent: outcome(e),
    candidate: after.has(e.result.id) ? outcome(after.get(e.result.id)!) : { valid: false, success: false, critical: false },
  }));
  const result = evaluateGate(pairs, params, { index: 1, final: true, alpha: params.alpha, remainingBoundaryPairs: 0 });
  const decision = result.verdict === 'pass' ? 'release_to_canary' : result.verdict === 'reject' ? 'reject' : 'insufficient_evidence';
  const reasons = decision === 'release_to_canary' ? [...result.reasons, 'the campaign has no sealed cases: no confirmation'] : result.reasons;
  return { decision, reasons, result };
}

/** The text block printed under the seed report. */
export function seedStatisticalText(v: SeedGateVerdict): string {
  const out = ['', 'Release gate (statistical, same evidence):'];
  for (const c of v.result?.checks ?? []) out.push(`  ${c.passed === null ? 'n/a ' : c.passed ? 'PASS' : 'FAIL'}  ${c.name}: ${c.detail}`);
  out.push(`Decision (statistical gate): ${v.decision}`);
  for (const r of v.reasons) out.push(`  because ${r}`);
  return out.join('\n') + '\n';
}
