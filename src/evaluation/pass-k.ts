/**
 * pass^k (tau2 §1.8, `metrics/agent_metrics.py`): per task with n trials of which c succeeded,
 * pass^k = C(c, k) / C(n, k) — the chance that k trials drawn without replacement all succeed —
 * averaged over tasks. Computed on exact rationals (BigInt) and rounded once to a number.
 */

/** Success threshold: a trial succeeds iff its reward is within this of 1. */
export const SUCCESS_TOLERANCE = 1e-6;

/**
 * Whether a trial succeeded — tau2's `is_successful`: `1 - 1e-6 <= reward <= 1 + 1e-6` (bounds
 * computed as tau2 does, so 1 - 1e-6 itself counts). A null reward (not judged) is not a success.
 */
export function isSuccess(reward: number | null): boolean {
  return reward !== null && 1 - SUCCESS_TOLERANCE <= reward && reward <= 1 + SUCCESS_TOLERANCE;
}

/** The binomial coefficient C(n, k) as an exact BigInt (0 when k > n). Throws RangeError for negative or non-integer arguments. */
export function binomial(n: number, k: number): bigint {
  if (!Number.isInteger(n) || !Number.isInteger(k) || n < 0 || k < 0) throw new RangeError(`binomial(${n}, ${k}): arguments must be non-negative integers`);
  if (k > n) return 0n;
  const kk = Math.min(k, n - k);
  let r = 1n;
  for (let i = 1; i <= kk; i++) r = (r * BigInt(n - kk + i)) / BigInt(i);
  return r;
}

/** An exact fraction num/den (den > 0). */
interface Ratio {
  num: bigint;
  den: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => {
  let [x, y] = [a < 0n ? -a : a, b];
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
};

function reduce(r: Ratio): Ratio {
  const g = gcd(r.num, r.den) || 1n;
  return { num: r.num / g, den: r.den / g };
}

/** The nearest double to num/den (exact for every value a double can hold, e.g. 1/6 → 0.1666…). */
function toNumber(r: Ratio): number {
  const { num, den } = reduce(r);
  if (num === 0n) return 0;
  // Scale so both fit in a double's exponent range, then divide once.
  const shift = BigInt(Math.max(0, Math.max(num.toString(2).length, den.toString(2).length) - 1000));
  return Number(num >> shift) / Number(den >> shift);
}

function taskRatio(n: number, c: number, k: number): Ratio {
  if (!Number.isInteger(c) || c < 0 || c > n) throw new RangeError(`pass^k: successes ${c} must be an integer in [0, ${n}]`);
  if (!Number.isInteger(k) || k < 1 || k > n) throw new RangeError(`pass^k: k = ${k} must be an integer in [1, ${n}] (the trial count)`);
  // What reducing C(c, k) / C(n, k) gives, without computing C(n, k), when every trial failed or succeeded.
  if (k > c) return { num: 0n, den: 1n };
  if (c === n) return { num: 1n, den: 1n };
  return reduce({ num: binomial(c, k), den: binomial(n, k) });
}

/**
 * One task's exact pass^k for every k = 1..n (index k - 1), each reduced: C(c, k) / C(n, k) built
 * step by step as C(c, k) / C(n, k) = C(c, k - 1) / C(n, k - 1) · (c - k + 1) / (n - k + 1), so no
 * binomial is computed (a reduced fraction is unique: the same values as {@link taskRatio}).
 */
function taskRatioCurve(n: number, c: number): Ratio[] {
  taskRatio(n, c, 1); // the same RangeErrors
  const out: Ratio[] = [];
  let r: Ratio = { num: 1n, den: 1n };
  for (let k = 1; k <= n; k++) {
    if (k > c) r = { num: 0n, den: 1n };
    else if (c !== n) r = reduce({ num: r.num * BigInt(c - k + 1), den: r.den * BigInt(n - k + 1) });
    out.push(r);
  }
  return out;
}

/**
 * One task's pass^k for k = 1..n: `[pass^1, pass^2, …]` (index k - 1), each equal to
 * {@link taskPassHatK}(n, c, k), computed in one pass. Throws RangeError unless 1 ≤ n and
 * 0 ≤ c ≤ n (integers).
 */
export function taskPassHatKCurve(n: number, c: number): number[] {
  return taskRatioCurve(n, c).map(toNumber);
}

/**
 * One task's pass^k = C(c, k) / C(n, k) for n trials with c successes.
 * Example: n = 4, c = 2 ⇒ pass^1 = 1/2, pass^2 = 1/6, pass^3 = pass^4 = 0.
 * Throws RangeError unless 1 ≤ k ≤ n and 0 ≤ c ≤ n (integers).
 */
export function taskPassHatK(n: number, c: number, k: number): number {
  return toNumber(taskRatio(n, c, k));
}

/** Per-task trial rewards: task id → one reward per trial (null: not judged, counts as failure). */
export type TrialRewards = ReadonlyMap<string, readonly (number | null)[]> | Readonly<Record<string, readonly (number | null)[]>>;

function entries(trials: TrialRewards): [string, readonly (number | null)[]][] {
  return trials instanceof Map ? [...trials.entries()] : Object.entries(trials as Record<string, readonly (number | null)[]>);
}

/** The largest k pass^k is defined for: the smallest trial count over tasks (tau2 caps k there). Throws RangeError when there are no tasks. */
export function maxK(trials: TrialRewards): number {
  const list = entries(trials);
  if (list.length === 0) throw new RangeError('pass^k: no tasks');
  return Math.min(...list.map(([, r]) => r.length));
}

/**
 * pass^k over tasks: the mean of the per-task C(c, k) / C(n, k), summed exactly and divided once.
 * Tasks may have different trial counts; k must not exceed the smallest ({@link maxK}).
 * Throws RangeError for no tasks or k outside [1, maxK].
 */
export function passHatK(trials: TrialRewards, k: number): number {
  const list = entries(trials);
  const cap = maxK(trials);
  if (!Number.isInteger(k) || k < 1 || k > cap) throw new RangeError(`pass^k: k = ${k} must be an integer in [1, ${cap}] (the smallest trial count)`);
  let sum: Ratio = { num: 0n, den: 1n };
  for (const [, rewards] of list) {
    const r = taskRatio(rewards.length, rewards.filter(isSuccess).length, k);
    sum = reduce({ num: sum.num * r.den + r.num * sum.den, den: sum.den * r.den });
  }
  return toNumber({ num: sum.num, den: sum.den * BigInt(list.length) });
}

/** pass^k for every k from 1 to {@link maxK}: `[{k: 1, value}, …]`. Throws RangeError when there are no tasks or a task has no trials. */
export function passHatKCurve(trials: TrialRewards): { k: number; value: number }[] {
  const cap = maxK(trials);
  if (cap < 1) throw new RangeError('pass^k: a task has no trials');
  // Each task's ratios for every k in one pass (see taskRatioCurve), summed per k as passHatK does.
  const list = entries(trials);
  const curves = list.map(([, rewards]) => taskRatioCurve(rewards.length, rewards.filter(isSuccess).length));
  return Array.from({ length: cap }, (_, i) => {
    let sum: Ratio = { num: 0n, den: 1n };
    for (const curve of curves) {
      const r = curve[i];
      sum = reduce({ num: sum.num * r.den + r.num * sum.den, den: sum.den * r.den });
    }
    return { k: i + 1, value: toNumber({ num: sum.num, den: sum.den * BigInt(list.length) }) };
  });
}
