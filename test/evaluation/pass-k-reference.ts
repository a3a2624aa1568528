/**
 * The straightforward pass^k and bootstrap code as it was before the faster implementation in
 * src/evaluation/pass-k.ts and pass-k-ci.ts (per-k binomials, one array per resample, a closure per
 * statistic): the tests check that the fast code gives exactly these numbers on random inputs.
 */
import { Rng } from '../../src/util/rng.js';
import { binomial, isSuccess, type TrialRewards } from '../../src/evaluation/pass-k.js';

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
function toNumber(r: Ratio): number {
  const { num, den } = reduce(r);
  if (num === 0n) return 0;
  const shift = BigInt(Math.max(0, Math.max(num.toString(2).length, den.toString(2).length) - 1000));
  return Number(num >> shift) / Number(den >> shift);
}
function taskRatio(n: number, c: number, k: number): Ratio {
  if (k > c) return { num: 0n, den: 1n };
  if (c === n) return { num: 1n, den: 1n };
  return reduce({ num: binomial(c, k), den: binomial(n, k) });
}
const entries = (trials: TrialRewards): [string, readonly (number | null)[]][] =>
  trials instanceof Map ? [...trials.entries()] : Object.entries(trials as Record<string, readonly (number | null)[]>);

export function refTaskPassHatK(n: number, c: number, k: number): number {
  return toNumber(taskRatio(n, c, k));
}

export function refPassHatK(trials: TrialRewards, k: number): number {
  const list = entries(trials);
  let sum: Ratio = { num: 0n, den: 1n };
  for (const [, rewards] of list) {
    const r = taskRatio(rewards.length, rewards.filter(isSuccess).length, k);
    sum = reduce({ num: sum.num * r.den + r.num * sum.den, den: sum.den * r.den });
  }
  return toNumber({ num: sum.num, den: sum.den * BigInt(list.length) });
}

export function refPassHatKCurve(trials: TrialRewards): { k: number; value: number }[] {
  const cap = Math.min(...entries(trials).map(([, r]) => r.length));
  return Array.from({ length: cap }, (_, i) => ({ k: i + 1, value: refPassHatK(trials, i + 1) }));
}

type Opts = { seed: number; resamples: number; level: number };
const sortedEntries = (trials: TrialRewards) => entries(trials).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
function quantile(xs: ArrayLike<number>, q: number): number {
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  return xs[lo] + (h - lo) * ((xs[Math.min(lo + 1, xs.length - 1)] ?? xs[lo]) - xs[lo]);
}
function drawIndices(n: number, o: Opts): number[][] {
  const rng = new Rng(o.seed);
  const out: number[][] = [];
  for (let b = 0; b < o.resamples; b++) {
    const idx = new Array<number>(n);
    for (let i = 0; i < n; i++) idx[i] = Math.floor(rng.next() * n);
    out.push(idx);
  }
  return out;
}
function bootstrap(n: number, stat: (idx: number[]) => number, o: Opts, samples = drawIndices(n, o)): { low: number; high: number } {
  const draws = Float64Array.from(samples, stat).sort();
  const tail = (1 - o.level) / 2;
  return { low: quantile(draws, tail), high: quantile(draws, 1 - tail) };
}
const clean = (x: number) => Math.round(x * 1e12) / 1e12;

export function refPassHatKIntervals(trials: TrialRewards, opts: Partial<Opts> = {}) {
  const o = { seed: 0, resamples: 2000, level: 0.95, ...opts };
  const list = sortedEntries(trials);
  const cap = Math.min(...list.map(([, r]) => r.length));
  const out: { k: number; value: number; low: number; high: number }[] = [];
  let samples: number[][] | undefined;
  for (let k = 1; k <= cap; k++) {
    const perTask = list.map(([, r]) => refTaskPassHatK(r.length, r.filter(isSuccess).length, k));
    const value = refPassHatK(new Map(list), k);
    const alike = perTask.every((p) => p === perTask[0]);
    const { low, high } = alike ? { low: perTask[0], high: perTask[0] } : bootstrap(perTask.length, (idx) => idx.reduce((s, i) => s + perTask[i], 0) / idx.length, o, (samples ??= drawIndices(list.length, o)));
    out.push({ k, value, low: clean(Math.min(low, value)), high: clean(Math.max(high, value)) });
  }
  return out;
}

/** The previous compareTrialSets' interval part: the paired bootstrap of the pass^1 difference. */
export function refCompareInterval(a: TrialRewards, b: TrialRewards, opts: Partial<Opts> = {}): { delta: number; low: number; high: number } {
  const o = { seed: 0, resamples: 2000, level: 0.95, ...opts };
  const mb = new Map(sortedEntries(b));
  const common = sortedEntries(a).filter(([id, r]) => mb.has(id) && r.length > 0 && mb.get(id)!.length > 0);
  const rate = (r: readonly (number | null)[]) => r.filter(isSuccess).length / r.length;
  const da = common.map(([, r]) => rate(r));
  const db = common.map(([id]) => rate(mb.get(id)!));
  const meanOf = (xs: number[], idx?: number[]) => (idx ? idx.reduce((s, i) => s + xs[i], 0) / idx.length : xs.reduce((s, x) => s + x, 0) / xs.length);
  const diffs = db.map((x, i) => x - da[i]);
  const delta = meanOf(diffs);
  const { low, high } = bootstrap(diffs.length, (idx) => meanOf(diffs, idx), o);
  return { delta: clean(delta), low: clean(Math.min(low, delta)), high: clean(Math.max(high, delta)) };
}
