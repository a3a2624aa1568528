/**
 * The canary's statistics: Wald's sequential probability ratio test for a Bernoulli success
 * rate, a pure function on observations (no I/O, no randomness). It lives with the canary rules
 * that read it, so release/ depends on nothing above it.
 *
 * Exact values (tests): with α = β = 0.05 it stops at |LLR| ≥ ln 19 ≈ 2.944.
 */

/** SPRT settings: H0 rate p0 against H1 rate p1, error rates α (false H1) and β (false H0). */
export interface SprtParams {
  p0: number;
  p1: number;
  alpha: number;
  beta: number;
}

/** Where an SPRT stands after some observations. */
export interface SprtResult {
  /** Observations read (all of them, or up to the decision). */
  n: number;
  successes: number;
  /** Log-likelihood ratio ln(L(H1) / L(H0)) after `n` observations. */
  llr: number;
  /** Accept H1 when llr ≥ upper = ln((1 − β) / α). */
  upper: number;
  /** Accept H0 when llr ≤ lower = ln(β / (1 − α)). */
  lower: number;
  decision: 'accept_h0' | 'accept_h1' | 'continue';
}

/**
 * Wald's SPRT for a Bernoulli success rate, stopping at the first boundary crossing.
 * Each success adds ln(p1/p0), each failure ln((1−p1)/(1−p0)). Throws RangeError unless
 * 0 < p0, p1 < 1, p0 ≠ p1 and 0 < α, β < 1.
 */
export function sprt(observations: readonly boolean[], params: SprtParams): SprtResult {
  const { p0, p1, alpha, beta } = params;
  for (const [name, v] of [['p0', p0], ['p1', p1], ['alpha', alpha], ['beta', beta]] as const) {
    if (!(v > 0 && v < 1)) throw new RangeError(`SPRT: ${name} must lie strictly between 0 and 1, got ${v}`);
  }
  if (p0 === p1) throw new RangeError('SPRT: p0 and p1 must differ');
  const upper = Math.log((1 - beta) / alpha);
  const lower = Math.log(beta / (1 - alpha));
  const win = Math.log(p1 / p0);
  const loss = Math.log((1 - p1) / (1 - p0));
  let llr = 0;
  let n = 0;
  let successes = 0;
  for (const x of observations) {
    n++;
    if (x) successes++;
    llr += x ? win : loss;
    if (llr >= upper) return { n, successes, llr, upper, lower, decision: 'accept_h1' };
    if (llr <= lower) return { n, successes, llr, upper, lower, decision: 'accept_h0' };
  }
  return { n, successes, llr, upper, lower, decision: 'continue' };
}
