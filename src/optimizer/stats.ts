/**
 * The gate's statistics, as pure functions on counts (no I/O, no randomness):
 *
 * - {@link signTestP}: exact one-sided binomial sign test on discordant pairs;
 * - {@link netNewFailures} and {@link nonInferiorityBound}: the holdout non-inferiority rule;
 * - {@link passKCurve}: pass^k per prompt, reusing the evaluator's exact estimator.
 *
 * Exact values (tests): sign test with 2 improvements and 0 worsenings p = 0.25, with 5 and 0
 * p = 0.03125. (The canary's sequential test lives with the canary rules: `release/sprt.ts`.)
 */
import { binomial, passHatK } from '../evaluation/pass-k.js';

/**
 * Exact one-sided sign test (McNemar's exact test on discordant pairs): the chance, under
 * "no effect" (each discordant pair is an improvement with probability 1/2), of at least
 * `improved` improvements among `improved + worsened` discordant pairs:
 * p = Σ_{i ≥ improved} C(n, i) / 2^n. With no discordant pair, p = 1.
 * Throws RangeError for negative or non-integer counts.
 */
export function signTestP(improved: number, worsened: number): number {
  for (const x of [improved, worsened]) {
    if (!Number.isInteger(x) || x < 0) throw new RangeError(`sign test: counts must be non-negative integers, got ${improved}, ${worsened}`);
  }
  const n = improved + worsened;
  if (n === 0) return 1;
  let tail = 0n;
  // C(n, i+1) = C(n, i) (n − i) / (i + 1), exact in integers.
  for (let i = improved, c = binomial(n, improved); i <= n; c = (c * BigInt(n - i)) / BigInt(i + 1), i++) tail += c;
  // tail / 2^n; both scaled down together past a double's exponent range.
  const shift = Math.max(0, n - 1000);
  return Number(tail >> BigInt(shift)) / 2 ** (n - shift);
}

/** One paired comparison: did the parent and the candidate succeed on the same case and trial seed? */
export interface PairedSuccess {
  parent: boolean;
  candidate: boolean;
}

/** Discordant counts of paired outcomes. */
export interface NetChange {
  /** Pairs the parent passed and the candidate failed. */
  new_failures: number;
  /** Pairs the parent failed and the candidate passed. */
  new_successes: number;
  /** new_failures − new_successes (negative: the candidate fixed more than it broke). */
  net: number;
}

/** Counts new failures and new successes over paired outcomes. */
export function netNewFailures(pairs: readonly PairedSuccess[]): NetChange {
  let f = 0;
  let s = 0;
  for (const p of pairs) {
    if (p.parent && !p.candidate) f++;
    else if (!p.parent && p.candidate) s++;
  }
  return { new_failures: f, new_successes: s, net: f - s };
}

/**
 * The most net new failures a non-inferior candidate may show on `pairs` paired rollouts:
 * ⌈margin × pairs⌉ (margin 0.05: 1 up to 20 pairs, 2 up to 40). 0 pairs ⇒ 0.
 * Throws RangeError for a margin outside [0, 1].
 */
export function nonInferiorityBound(pairs: number, margin: number): number {
  if (!(margin >= 0 && margin <= 1)) throw new RangeError(`non-inferiority margin must lie in [0, 1], got ${margin}`);
  return Math.max(0, Math.ceil(margin * pairs - 1e-9));
}

/** The k values reported: pass^1, pass^2, pass^4, pass^8. */
export const PASS_K_VALUES = [1, 2, 4, 8] as const;

/**
 * pass^k over cases (tau2's unbiased C(c,k)/C(n,k), averaged over cases) for k ∈ {1, 2, 4, 8}.
 * A k larger than the smallest per-case trial count is `null` (undefined, never printed as 0);
 * no cases ⇒ every value null. `successes` maps case id → one boolean per trial.
 */
export function passKCurve(successes: ReadonlyMap<string, readonly boolean[]>): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  const rewards = new Map([...successes].map(([id, xs]) => [id, xs.map((x) => (x ? 1 : 0))]));
  const cap = rewards.size === 0 ? 0 : Math.min(...[...rewards.values()].map((r) => r.length));
  for (const k of PASS_K_VALUES) out[`pass^${k}`] = k <= cap ? passHatK(rewards, k) : null;
  return out;
}
