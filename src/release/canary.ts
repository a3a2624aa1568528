/**
 * Canary rules, applied to canary episodes in arrival order (pure; the episodes may come from
 * real traffic or from the optimiser's simulated canary):
 *
 * - rollback at once on any critical violation;
 * - rollback when a sequential test finds a resolution drop against stable: Wald's SPRT on the
 *   canary's success rate, H0: p = p0 (stable's rate) against H1: p = p0 − drop, α = β = 0.05
 *   by default (it accepts H1 when the log-likelihood ratio reaches ln((1−β)/α) = ln 19);
 * - promote once at least `minEpisodes` episodes have run and the SPRT accepted H0;
 * - otherwise continue (at `maxEpisodes` the canary stays undecided: more traffic is needed).
 * Invalid episodes (infrastructure faults) are skipped. Rates are clamped into [0.001, 0.999].
 */
import { sprt, type SprtResult } from '../optimizer/stats.js';

/** One canary episode. */
export interface CanaryEpisode {
  id: string;
  valid: boolean;
  success: boolean;
  critical: boolean;
}

export interface CanaryParams {
  /** Stable's resolution rate on the same traffic. */
  p0: number;
  /** The drop to detect (absolute). */
  drop: number;
  alpha: number;
  beta: number;
  minEpisodes: number;
  maxEpisodes: number;
}

export interface CanaryDecision {
  decision: 'promote' | 'rollback' | 'continue';
  reason: string;
  /** Valid episodes read up to the decision. */
  episodes: number;
  sprt: SprtResult;
  p0: number;
  p1: number;
}

const clamp = (x: number) => Math.min(0.999, Math.max(0.001, x));

/** Applies the canary rules; see the module doc. */
export function canaryDecision(episodes: readonly CanaryEpisode[], params: CanaryParams): CanaryDecision {
  const p0 = clamp(params.p0);
  const p1 = clamp(params.p0 - params.drop);
  const valid = episodes.filter((e) => e.valid).slice(0, params.maxEpisodes);
  const test = (xs: readonly CanaryEpisode[]) => sprt(xs.map((e) => e.success), { p0, p1: p1 === p0 ? p0 - 0.0005 : p1, alpha: params.alpha, beta: params.beta });
  const crit = valid.findIndex((e) => e.critical);
  const full = test(crit >= 0 ? valid.slice(0, crit) : valid);
  if (full.decision === 'accept_h1') {
    return { decision: 'rollback', reason: `resolution drop: SPRT accepted H1 (p = ${p1.toFixed(3)} against stable's ${p0.toFixed(3)}) after ${full.n} episodes, ${full.successes} resolved (LLR ${full.llr.toFixed(3)} ≥ ${full.upper.toFixed(3)})`, episodes: full.n, sprt: full, p0, p1 };
  }
  if (crit >= 0) {
    return { decision: 'rollback', reason: `critical violation in canary episode ${valid[crit].id} (episode ${crit + 1})`, episodes: crit + 1, sprt: full, p0, p1 };
  }
  if (full.decision === 'accept_h0' && valid.length >= params.minEpisodes) {
    return { decision: 'promote', reason: `${valid.length} canary episodes without a critical violation; SPRT accepted H0 (no drop of ${params.drop} from ${p0.toFixed(3)}) after ${full.n}`, episodes: valid.length, sprt: full, p0, p1 };
  }
  const why = full.decision === 'accept_h0' ? `only ${valid.length} of ${params.minEpisodes} episodes` : `SPRT undecided after ${full.n} episodes`;
  return { decision: 'continue', reason: `canary continues: ${why}`, episodes: valid.length, sprt: full, p0, p1 };
}
