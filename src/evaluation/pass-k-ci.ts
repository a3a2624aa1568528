/**
 * Noise-aware pass^k (issue 10, item 8). tau2's maintainers measured 10–55% of tasks flipping
 * verdict between identical runs, so a pass^k or a run-to-run difference means little without
 * its spread.
 *
 * - {@link passHatKIntervals}: pass^k with a percentile bootstrap interval over tasks (tasks are
 *   resampled with replacement, each keeping its own trials), seeded and deterministic: the same
 *   rewards and seed give the same interval on every machine (tasks are ordered by id first).
 * - {@link compareTrialSets}: run B against run A on their common tasks — a paired bootstrap
 *   interval of the pass^1 difference (significant when it excludes 0) and, per task, a two-sided
 *   Fisher exact test of A's successes against B's (beyond noise when p < α). With one trial per
 *   task no single task can differ beyond noise; that is the honest answer. With fewer common tasks
 *   than {@link minTasksForNoise} the bootstrap over tasks cannot tell noise from a difference, and
 *   the verdict says so (`too_few_tasks`) whatever its interval.
 *
 * Pure: no clock, no I/O, no Node APIs (the viewer runs it in the browser too).
 */
import { Rng } from '../util/rng.js';
import { isSuccess, passHatKCurve, taskPassHatKCurve, type TrialRewards } from './pass-k.js';
import { cleanFloat } from '../util/round.js';

/** Bootstrap settings: `seed` (default 0), `resamples` (default 2000), `level` (default 0.95). */
export interface BootstrapOptions {
  seed?: number;
  resamples?: number;
  level?: number;
}

/** pass^k with its bootstrap interval; `low`/`high` equal `value` when there is one task. */
export interface PassHatKInterval {
  k: number;
  value: number;
  low: number;
  high: number;
}

const DEFAULTS = { seed: 0, resamples: 2000, level: 0.95 };

function settings(o: BootstrapOptions = {}): Required<BootstrapOptions> {
  const s = { ...DEFAULTS, ...o };
  if (!(Number.isInteger(s.resamples) && s.resamples >= 1)) throw new RangeError(`bootstrap: resamples must be a whole number >= 1, got ${s.resamples}`);
  if (!(s.level > 0 && s.level < 1)) throw new RangeError(`bootstrap: level must be in (0, 1), got ${s.level}`);
  return s;
}

function sortedEntries(trials: TrialRewards): [string, readonly (number | null)[]][] {
  const list = trials instanceof Map ? [...trials.entries()] : Object.entries(trials as Record<string, readonly (number | null)[]>);
  return list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

/** The `q`-quantile of sorted `xs` (linear interpolation between order statistics). */
function quantile(xs: ArrayLike<number>, q: number): number {
  const h = (xs.length - 1) * q;
  const lo = Math.floor(h);
  return xs[lo] + (h - lo) * ((xs[Math.min(lo + 1, xs.length - 1)] ?? xs[lo]) - xs[lo]);
}

/**
 * The `resamples` bootstrap draws of `n` indices (from a fresh generator seeded with `seed`), in
 * one array: draw b is `[b * n, (b + 1) * n)`.
 */
function drawIndices(n: number, o: Required<BootstrapOptions>): Int32Array {
  const rng = new Rng(o.seed);
  const out = new Int32Array(o.resamples * n);
  for (let j = 0; j < out.length; j++) out[j] = Math.floor(rng.next() * n);
  return out;
}

/**
 * Percentile interval of the mean of `values` over bootstrap draws of their indices (`samples`:
 * {@link drawIndices} of `values.length`, shared by every statistic over the same n and seed).
 * Each draw's mean is summed in draw order from 0 and divided by n.
 */
function bootstrap(values: Float64Array, o: Required<BootstrapOptions>, samples: Int32Array = drawIndices(values.length, o)): { low: number; high: number } {
  const n = values.length;
  const draws = new Float64Array(o.resamples);
  for (let b = 0, j = 0; b < draws.length; b++) {
    let s = 0;
    for (const end = j + n; j < end; j++) s += values[samples[j]];
    draws[b] = s / n;
  }
  draws.sort(); // numeric order
  const tail = (1 - o.level) / 2;
  return { low: quantile(draws, tail), high: quantile(draws, 1 - tail) };
}

/** Rates, differences and bounds without float noise (the reported-number rounding). */
const clean = cleanFloat;

/**
 * pass^k for k = 1..(smallest trial count) with a bootstrap interval over tasks. `value` is the
 * exact pass^k (as {@link passHatK}); the interval resamples tasks. Throws RangeError when there
 * are no tasks, a task has no trials, or the options are out of range.
 */
export function passHatKIntervals(trials: TrialRewards, opts?: BootstrapOptions): PassHatKInterval[] {
  const o = settings(opts);
  const list = sortedEntries(trials);
  if (list.length === 0) throw new RangeError('pass^k: no tasks');
  const cap = Math.min(...list.map(([, r]) => r.length));
  if (cap < 1) throw new RangeError('pass^k: a task has no trials');
  const out: PassHatKInterval[] = [];
  const values = passHatKCurve(new Map(list));
  const curves = list.map(([, r]) => taskPassHatKCurve(r.length, r.filter(isSuccess).length));
  let samples: Int32Array | undefined; // every k resamples the same tasks (drawn when first needed)
  let last: { perTask: Float64Array; low: number; high: number } | undefined;
  for (let k = 1; k <= cap; k++) {
    const perTask = Float64Array.from(curves, (c) => c[k - 1]);
    const value = values[k - 1].value;
    // Every task alike (one task, or all passing): every resample's mean is that value, so the interval is exact without drawing.
    const alike = perTask.every((p) => p === perTask[0]);
    // The same per-task values as the previous k (e.g. each task all-passed or all-failed): the same draws give the same interval.
    const same = last !== undefined && last.perTask.every((p, i) => Object.is(p, perTask[i]));
    const { low, high } = alike ? { low: perTask[0], high: perTask[0] } : same ? last! : bootstrap(perTask, o, (samples ??= drawIndices(list.length, o)));
    if (!alike) last = { perTask, low, high };
    out.push({ k, value, low: clean(Math.min(low, value)), high: clean(Math.max(high, value)) });
  }
  return out;
}

/** Two-sided Fisher exact test p-value for successes `a` of `n` against `b` of `m`. */
export function fisherExact(a: number, n: number, b: number, m: number): number {
  const logFact = (x: number) => {
    let s = 0;
    for (let i = 2; i <= x; i++) s += Math.log(i);
    return s;
  };
  const total = a + b;
  const lf = (x: number) => logFact(x);
  const prob = (x: number) => Math.exp(lf(n) + lf(m) + lf(total) + lf(n + m - total) - lf(x) - lf(n - x) - lf(total - x) - lf(m - total + x) - lf(n + m));
  const observed = prob(a);
  let p = 0;
  for (let x = Math.max(0, total - m); x <= Math.min(n, total); x++) {
    const q = prob(x);
    if (q <= observed * (1 + 1e-7)) p += q;
  }
  return Math.min(1, p);
}

/**
 * What a paired bootstrap interval over tasks says of a difference: `beyond` run-to-run noise (it
 * excludes 0), `within` it (it includes 0), or `too_few_tasks` to tell (see {@link minTasksForNoise}).
 */
export type NoiseVerdict = 'beyond' | 'within' | 'too_few_tasks';

/**
 * The fewest common tasks for which a paired bootstrap over tasks at `level` (in (0, 1)) may call a
 * difference beyond noise: the smallest n with 2^(1−n) < 1 − level, i.e. 6 at 95%.
 *
 * Why: the strongest paired evidence n tasks can give is every task moving the same way, and a
 * two-sided sign test puts that at p = 2^(1−n) — 0.0625 for 5 tasks, so fewer than 6 tasks cannot
 * show a difference at 95% however they move. The percentile bootstrap over so few tasks claims it
 * anyway: it excludes 0 whenever every task moved the same way (with n ≤ 3 a resample of one task
 * repeated has probability n^−n ≥ 1/27 > 2.5%, so the interval's ends are the extreme task
 * differences themselves), and one task, or tasks whose differences are all equal, give a
 * zero-width interval. The per-task Fisher tests are unaffected. Throws RangeError for a level
 * outside (0, 1).
 */
export function minTasksForNoise(level: number): number {
  if (!(level > 0 && level < 1)) throw new RangeError(`bootstrap: level must be in (0, 1), got ${level}`);
  let n = 1;
  while (2 ** (1 - n) >= 1 - level) n++;
  return n;
}

/**
 * The verdict on a difference over `tasks` common tasks whose paired bootstrap interval at `level`
 * is [`low`, `high`]: `too_few_tasks` below {@link minTasksForNoise}, else `beyond` when the
 * interval excludes 0, else `within`.
 */
export function noiseVerdict(tasks: number, low: number, high: number, level: number): NoiseVerdict {
  if (tasks < minTasksForNoise(level)) return 'too_few_tasks';
  return low > 0 || high < 0 ? 'beyond' : 'within';
}

/** One task's verdict change between two runs. */
export interface TaskDifference {
  task: string;
  /** Successes and trials in A and in B. */
  a: { passed: number; trials: number };
  b: { passed: number; trials: number };
  /** B's success rate minus A's. */
  delta: number;
  /** Two-sided Fisher exact p-value. */
  p: number;
  /** p < α: the difference exceeds run-to-run noise. */
  beyond_noise: boolean;
}

/** Run B against run A (see the module doc). */
export interface TrialSetComparison {
  /** Tasks present in both runs (the others are not compared). */
  tasks: number;
  /** pass^1 of A and of B over the common tasks, and B − A with its paired bootstrap interval. */
  a: number;
  b: number;
  delta: number;
  low: number;
  high: number;
  level: number;
  /** `verdict` is `beyond`: enough tasks, and the interval excludes 0. */
  beyond_noise: boolean;
  /** Beyond, within or too few tasks to tell ({@link noiseVerdict}). */
  verdict: NoiseVerdict;
  /** The fewest common tasks the verdict needs at `level` ({@link minTasksForNoise}). */
  min_tasks: number;
  per_task: TaskDifference[];
}

/**
 * Compares run B with run A on their common tasks (see the module doc). `alpha` (default 0.05)
 * is the per-task Fisher test's level. Throws RangeError when they share no task.
 */
export function compareTrialSets(a: TrialRewards, b: TrialRewards, opts: BootstrapOptions & { alpha?: number } = {}): TrialSetComparison {
  const o = settings(opts);
  const alpha = opts.alpha ?? 0.05;
  const mb = new Map(sortedEntries(b));
  const common = sortedEntries(a).filter(([id, r]) => mb.has(id) && r.length > 0 && mb.get(id)!.length > 0);
  if (common.length === 0) throw new RangeError('compare: the runs share no task with trials');
  const rate = (r: readonly (number | null)[]) => r.filter(isSuccess).length / r.length;
  const per_task: TaskDifference[] = common.map(([task, ra]) => {
    const rb = mb.get(task)!;
    const pa = ra.filter(isSuccess).length;
    const pb = rb.filter(isSuccess).length;
    const p = fisherExact(pa, ra.length, pb, rb.length);
    return { task, a: { passed: pa, trials: ra.length }, b: { passed: pb, trials: rb.length }, delta: clean(pb / rb.length - pa / ra.length), p: clean(p), beyond_noise: p < alpha };
  });
  const da = common.map(([, r]) => rate(r));
  const db = common.map(([id]) => rate(mb.get(id)!));
  const meanOf = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const diffs = db.map((x, i) => x - da[i]);
  const delta = meanOf(diffs);
  const { low, high } = bootstrap(Float64Array.from(diffs), o);
  const lo = clean(Math.min(low, delta));
  const hi = clean(Math.max(high, delta));
  const verdict = noiseVerdict(common.length, lo, hi, o.level);
  const min_tasks = minTasksForNoise(o.level);
  return { tasks: common.length, a: clean(meanOf(da)), b: clean(meanOf(db)), delta: clean(delta), low: lo, high: hi, level: o.level, beyond_noise: verdict === 'beyond', verdict, min_tasks, per_task };
}
