import { describe, expect, it } from 'vitest';
import { compareTrialSets, fisherExact, minTasksForNoise, noiseVerdict, passHatK, passHatKIntervals } from '../../src/evaluation/index.js';

const tasks = (rows: Record<string, number[]>) => new Map(Object.entries(rows));

describe('pass^k with a bootstrap interval over tasks', () => {
  const run = tasks({ a: [1, 1, 1, 1], b: [1, 0, 1, 1], c: [0, 0, 0, 0], d: [1, 1, 0, 1], e: [1, 1, 1, 1], f: [0, 1, 0, 0] });

  it('keeps the exact pass^k as the value and brackets it', () => {
    const ci = passHatKIntervals(run, { seed: 7 });
    expect(ci.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    for (const p of ci) {
      expect(p.value).toBe(passHatK(run, p.k));
      expect(p.low).toBeLessThanOrEqual(p.value);
      expect(p.high).toBeGreaterThanOrEqual(p.value);
      expect(p.low).toBeGreaterThanOrEqual(0);
      expect(p.high).toBeLessThanOrEqual(1);
    }
    expect(ci[0].high - ci[0].low).toBeGreaterThan(0.2); // six tasks: a wide interval
  });

  it('gives the recorded intervals (every k resamples the same tasks; all-failed and all-passed tasks take the short path)', () => {
    const six = new Map(Object.entries({ a: [1, 1, 1, 1, 1, 1], b: [1, 0, 1, 1, 1, 0], c: [0, 0, 0, 0, 0, 0], d: [1, 1, 0, 1, 1, 1], e: [1, 1, 1, 1, 1, 1], f: [0, 1, 0, 0, null, 1] }));
    expect(passHatKIntervals(six, { seed: 3 })).toEqual([
      { k: 1, value: 0.6388888888888888, low: 0.333333333333, high: 0.916666666667 },
      { k: 2, value: 0.5222222222222223, low: 0.2, high: 0.844444444444 },
      { k: 3, value: 0.45, low: 0.116666666667, high: 0.833333333333 },
      { k: 4, value: 0.4, low: 0.066666666667, high: 0.777777777778 },
      { k: 5, value: 0.3611111111111111, low: 0.027777777778, high: 0.722222222222 },
      { k: 6, value: 0.3333333333333333, low: 0, high: 0.666666666667 },
    ]);
    expect(passHatKIntervals(tasks({ a: [0, 0, 0], b: [0, 0, 0] }))).toEqual([1, 2, 3].map((k) => ({ k, value: 0, low: 0, high: 0 })));
  });

  it('is deterministic: same rewards and seed, same interval, whatever the task order', () => {
    const shuffled = new Map([...run.entries()].reverse());
    expect(passHatKIntervals(shuffled, { seed: 7 })).toEqual(passHatKIntervals(run, { seed: 7 }));
    expect(passHatKIntervals(run, { seed: 7 })).toEqual(passHatKIntervals(run, { seed: 7 }));
    expect(passHatKIntervals(run, { seed: 8 })[0]).not.toEqual(passHatKIntervals(run, { seed: 7 })[0]);
  });

  it('has no spread when every task agrees, and narrows with more tasks', () => {
    expect(passHatKIntervals(tasks({ a: [1, 1], b: [1, 1] }))).toEqual([{ k: 1, value: 1, low: 1, high: 1 }, { k: 2, value: 1, low: 1, high: 1 }]);
    const many = new Map([...Array(200).keys()].map((i) => [`t${i}`, [i % 2, i % 2]]));
    const w = passHatKIntervals(many)[0];
    expect(w.value).toBe(0.5);
    expect(w.high - w.low).toBeLessThan(0.16);
    expect(w.high - w.low).toBeGreaterThan(0.08);
  });

  it('rejects bad settings', () => {
    expect(() => passHatKIntervals(new Map())).toThrow(RangeError);
    expect(() => passHatKIntervals(run, { level: 1 })).toThrow(/level/);
    expect(() => passHatKIntervals(run, { resamples: 0 })).toThrow(/resamples/);
  });
});

describe('comparing two runs against run-to-run noise', () => {
  it('Fisher exact two-sided p-values', () => {
    expect(fisherExact(3, 3, 0, 3)).toBeCloseTo(0.1, 10);
    expect(fisherExact(4, 4, 0, 4)).toBeCloseTo(2 / 70, 10);
    expect(fisherExact(1, 1, 0, 1)).toBeCloseTo(1, 10);
    expect(fisherExact(2, 4, 2, 4)).toBeCloseTo(1, 10);
  });

  it('one trial per task: every flip is within noise; a consistent large shift over many tasks is beyond it', () => {
    const a = tasks({ x: [1], y: [0], z: [1] });
    const b = tasks({ x: [0], y: [1], z: [1], only_b: [1] });
    const c = compareTrialSets(a, b);
    expect(c.tasks).toBe(3);
    expect(c.per_task.map((t) => [t.task, t.delta, t.beyond_noise])).toEqual([['x', -1, false], ['y', 1, false], ['z', 0, false]]);
    expect(c.beyond_noise).toBe(false);

    const before = new Map([...Array(40).keys()].map((i) => [`t${i}`, [0, 0, 0, 0, 0]]));
    const after = new Map([...Array(40).keys()].map((i) => [`t${i}`, i < 30 ? [1, 1, 1, 1, 1] : [0, 0, 0, 0, 0]]));
    const d = compareTrialSets(before, after, { seed: 3 });
    expect(d.delta).toBe(0.75);
    expect(d.beyond_noise).toBe(true);
    expect(d.low).toBeGreaterThan(0.5);
    expect(d.per_task.filter((t) => t.beyond_noise)).toHaveLength(30); // 0/5 vs 5/5: p = 0.0079
    expect(compareTrialSets(before, after, { seed: 3 })).toEqual(d);
  });

  it('identical runs differ by nothing', () => {
    const r = tasks({ a: [1, 0, 1], b: [0, 0, 1] });
    const c = compareTrialSets(r, r);
    expect([c.delta, c.low, c.high, c.beyond_noise]).toEqual([0, 0, 0, false]);
  });
});

describe('minTasksForNoise / noiseVerdict: too few tasks to tell noise from a difference', () => {
  it('is the smallest n whose all-same-direction sign test is below 1 − level: 6 at 95%, 5 at 90%, 8 at 99%', () => {
    expect(minTasksForNoise(0.95)).toBe(6);
    expect(minTasksForNoise(0.9)).toBe(5);
    expect(minTasksForNoise(0.99)).toBe(8);
    expect(() => minTasksForNoise(1)).toThrow('bootstrap: level must be in (0, 1), got 1');
    expect(noiseVerdict(5, -1, -1, 0.95)).toBe('too_few_tasks');
    expect(noiseVerdict(6, -1, -1, 0.95)).toBe('beyond');
    expect(noiseVerdict(6, -0.5, 0.25, 0.95)).toBe('within');
    expect(noiseVerdict(5, 0.1, 0.2, 0.9)).toBe('beyond');
  });

  it('compareTrialSets on one task (2/2 → 0/2) says too few tasks, whatever its zero-width interval', () => {
    const c = compareTrialSets({ t1: [1, 1] }, { t1: [0, 0] });
    expect({ ...c, per_task: undefined }).toEqual({ tasks: 1, a: 1, b: 0, delta: -1, low: -1, high: -1, level: 0.95, beyond_noise: false, verdict: 'too_few_tasks', min_tasks: 6, per_task: undefined });
    expect(c.per_task[0]).toMatchObject({ delta: -1, p: 0.333333333333, beyond_noise: false });
    const six = compareTrialSets(Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`t${i}`, [1, 1]])), Object.fromEntries([1, 2, 3, 4, 5, 6].map((i) => [`t${i}`, [0, 0]])));
    expect([six.verdict, six.beyond_noise, six.low, six.high]).toEqual(['beyond', true, -1, -1]);
  });
});
