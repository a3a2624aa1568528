import { describe, expect, it } from 'vitest';
import { compareTrialSets, passHatKCurve, passHatKIntervals, taskPassHatK } from '../../src/evaluation/index.js';
import { taskPassHatKCurve } from '../../src/evaluation/pass-k.js';
import { Rng } from '../../src/util/rng.js';
import { refCompareInterval, refPassHatKCurve, refPassHatKIntervals, refTaskPassHatK } from './pass-k-reference.js';

/** Random per-task rewards: `tasks` tasks of `trials` trials (some tasks longer), rewards 0/1/null/partial, pass rates spread. */
function randomRun(rng: Rng, tasks: number, trials: number): Map<string, (number | null)[]> {
  const run = new Map<string, (number | null)[]>();
  for (let t = 0; t < tasks; t++) {
    const rate = rng.pick([0, 1, rng.next(), rng.next(), 0.5]);
    const n = trials + (rng.chance(0.3) ? rng.int(0, 3) : 0);
    run.set(`task-${rng.int(0, 999)}-${t}`, Array.from({ length: n }, () => (rng.chance(0.05) ? null : rng.chance(0.05) ? 0.5 : rng.chance(rate) ? 1 : 0)));
  }
  return run;
}

describe('the one-pass pass^k and the typed-array bootstrap give exactly the previous numbers', () => {
  it('per-task pass^k curves equal C(c,k)/C(n,k) for every k', () => {
    for (let n = 1; n <= 24; n++) {
      for (let c = 0; c <= n; c++) {
        const curve = taskPassHatKCurve(n, c);
        expect(curve).toHaveLength(n);
        curve.forEach((v, i) => {
          expect(Object.is(v, refTaskPassHatK(n, c, i + 1))).toBe(true);
          expect(Object.is(v, taskPassHatK(n, c, i + 1))).toBe(true);
        });
      }
    }
    expect(taskPassHatKCurve(200, 117).map((v, i) => Object.is(v, refTaskPassHatK(200, 117, i + 1))).every(Boolean)).toBe(true);
    expect(() => taskPassHatKCurve(3, 4)).toThrow(RangeError);
    expect(() => taskPassHatKCurve(0, 0)).toThrow(RangeError);
  });

  it('passHatKCurve and passHatKIntervals on random runs (seeds, levels, resample counts)', () => {
    const rng = new Rng(20261202);
    for (let round = 0; round < 60; round++) {
      const run = randomRun(rng, rng.int(1, 12), rng.int(1, round < 5 ? 60 : 9));
      const opts = round % 3 === 0 ? {} : { seed: rng.int(0, 1e6), resamples: rng.int(1, 700), level: rng.pick([0.8, 0.9, 0.95, 0.99]) };
      expect(JSON.stringify(passHatKCurve(run))).toBe(JSON.stringify(refPassHatKCurve(run)));
      expect(JSON.stringify(passHatKIntervals(run, opts))).toBe(JSON.stringify(refPassHatKIntervals(run, opts)));
    }
  });

  it('a P2-sized run (5 tasks x 200 trials, tasks all-passed, all-failed and mixed) and a many-task run', () => {
    const p2 = new Map<string, number[]>([
      ['T01', Array(200).fill(1)],
      ['T02', Array(200).fill(0)],
      ['T03', Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? 0 : 1))],
      ['T15', Array(200).fill(1)],
      ['T17', Array.from({ length: 200 }, (_, i) => (i % 2))],
    ]);
    expect(JSON.stringify(passHatKIntervals(p2))).toBe(JSON.stringify(refPassHatKIntervals(p2)));
    const many = randomRun(new Rng(5), 300, 4);
    expect(JSON.stringify(passHatKIntervals(many, { seed: 9 }))).toBe(JSON.stringify(refPassHatKIntervals(many, { seed: 9 })));
  });

  it("compareTrialSets' paired interval on random run pairs", () => {
    const rng = new Rng(77);
    for (let round = 0; round < 40; round++) {
      const a = randomRun(rng, rng.int(1, 15), rng.int(1, 6));
      const b = new Map([...a].map(([id, r]) => [id, r.map((x) => (rng.chance(0.3) ? (x === 1 ? 0 : 1) : x))]));
      const opts = { seed: rng.int(0, 1000), resamples: rng.int(1, 500) };
      const got = compareTrialSets(a, b, opts);
      expect(JSON.stringify({ delta: got.delta, low: got.low, high: got.high })).toBe(JSON.stringify(refCompareInterval(a, b, opts)));
    }
  });
});
