/**
 * Canary rules, applied to canary episodes in arrival order (pure; the episodes may come from
 * real traffic or from the optimiser's simulated canary):
 *
 * - rollback on any critical violation, wherever it is in the episodes given (also on an
 *   episode marked invalid, and past `maxEpisodes`);
 * - rollback when a sequential test finds a resolution drop against stable. The steps are Wald's
 *   SPRT steps on the canary's success rate (H0: p = p0, stable's rate; H1: p = p0 − drop;
 *   α = β = 0.05 by default), summed as Page's CUSUM (restarted at 0, so an early good run cannot
 *   hide a later collapse); it alarms at ln((1−β)/α) = ln 19;
 * - promote once at least `minEpisodes` valid episodes were read and the SPRT statistic over all
 *   of them is at or below its H0 boundary ln(β/(1−α)), never on an early crossing alone;
 * - otherwise continue (more traffic is needed).
 * At most `maxEpisodes` valid episodes are read for the drop test. Invalid episodes
 * (infrastructure faults) are skipped by it. Rates are clamped into [0.001, 0.999].
 */
import { sprt, type SprtResult } from './sprt.js';

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
  const p1 = clamp(params.p0 - params.drop) === p0 ? p0 - 0.0005 : clamp(params.p0 - params.drop);
  const sprtParams = { p0, p1, alpha: params.alpha, beta: params.beta };
  // Episodes in serving order, up to the first `maxEpisodes` valid ones.
  const read: CanaryEpisode[] = [];
  let validCount = 0;
  for (const e of episodes) {
    if (e.valid && validCount === params.maxEpisodes) break;
    read.push(e);
    if (e.valid) validCount++;
  }
  // A critical violation rolls back wherever it is, also on an episode lost to a fault.
  const crit = episodes.findIndex((e) => e.critical);
  // The drop monitor: Page's CUSUM of the SPRT steps (a restarted SPRT), so a canary that starts
  // well and then collapses is still caught.
  const step = (x: boolean) => (x ? Math.log(p1 / p0) : Math.log((1 - p1) / (1 - p0)));
  const upper = Math.log((1 - params.beta) / params.alpha);
  let cusum = 0;
  let alarm = -1;
  let seen = 0;
  const valid = read.filter((e) => e.valid);
  for (const e of valid) {
    seen++;
    cusum = Math.max(0, cusum + step(e.success));
    if (cusum >= upper) {
      alarm = seen;
      break;
    }
  }
  const validBefore = (i: number) => episodes.slice(0, i).filter((e) => e.valid).length;
  if (crit >= 0 && (alarm < 0 || validBefore(crit + 1) <= alarm)) {
    const full = sprt(episodes.slice(0, crit).filter((e) => e.valid).map((e) => e.success), sprtParams);
    return { decision: 'rollback', reason: `critical violation in canary episode ${episodes[crit].id} (episode ${crit + 1})`, episodes: validBefore(crit + 1), sprt: full, p0, p1 };
  }
  if (alarm >= 0) {
    const window = valid.slice(0, alarm);
    const full = sprt(window.map((e) => e.success), sprtParams);
    const resolved = window.filter((e) => e.success).length;
    return { decision: 'rollback', reason: `resolution drop: the sequential test (SPRT steps, restarted at 0) reached ${upper.toFixed(3)} after ${alarm} episodes, ${resolved} resolved (H1 p = ${p1.toFixed(3)} against stable's ${p0.toFixed(3)})`, episodes: alarm, sprt: full, p0, p1 };
  }
  // Promotion needs the whole window, not an early crossing: the SPRT's log-likelihood ratio over
  // every episode read must lie at or below its H0 boundary.
  const whole = wholeWindow(valid.map((e) => e.success), sprtParams);
  if (valid.length >= params.minEpisodes && whole.llr <= whole.lower) {
    return { decision: 'promote', reason: `${valid.length} canary episodes without a critical violation or a drop of ${params.drop} from ${p0.toFixed(3)} (${whole.successes} resolved; LLR ${whole.llr.toFixed(3)} ≤ ${whole.lower.toFixed(3)})`, episodes: valid.length, sprt: whole, p0, p1 };
  }
  const none = episodes.length > 0 && valid.length === 0 ? ' (every episode given is marked invalid)' : '';
  const why = valid.length < params.minEpisodes ? `only ${valid.length} of ${params.minEpisodes} episodes${none}` : `no evidence yet against a drop after ${valid.length} episodes (LLR ${whole.llr.toFixed(3)} > ${whole.lower.toFixed(3)})`;
  return { decision: 'continue', reason: `canary continues: ${why}`, episodes: valid.length, sprt: whole, p0, p1 };
}

/** The SPRT statistic over every observation (no stopping), with its boundaries. */
function wholeWindow(observations: readonly boolean[], params: { p0: number; p1: number; alpha: number; beta: number }): SprtResult {
  const upper = Math.log((1 - params.beta) / params.alpha);
  const lower = Math.log(params.beta / (1 - params.alpha));
  const successes = observations.filter(Boolean).length;
  const llr = successes * Math.log(params.p1 / params.p0) + (observations.length - successes) * Math.log((1 - params.p1) / (1 - params.p0));
  return { n: observations.length, successes, llr, upper, lower, decision: llr >= upper ? 'accept_h1' : llr <= lower ? 'accept_h0' : 'continue' };
}
