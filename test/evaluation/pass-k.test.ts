import { describe, expect, it } from 'vitest';
import { binomial, isSuccess, maxK, passHatK, passHatKCurve, taskPassHatK } from '../../src/evaluation/pass-k.js';

describe('pass^k', () => {
  it('per task is C(c,k)/C(n,k), exactly', () => {
    expect([1, 2, 3, 4].map((k) => taskPassHatK(4, 2, k))).toEqual([1 / 2, 1 / 6, 0, 0]);
    expect([1, 2, 3, 4].map((k) => taskPassHatK(4, 3, k))).toEqual([3 / 4, 1 / 2, 1 / 4, 0]);
    expect([1, 2, 3, 4].map((k) => taskPassHatK(4, 4, k))).toEqual([1, 1, 1, 1]);
    expect(taskPassHatK(5, 0, 1)).toBe(0);
    expect(taskPassHatK(10, 7, 3)).toBe(35 / 120);
  });

  it('averages over tasks, success meaning reward 1 ± 1e-6 (null is a failure)', () => {
    const trials = { a: [1, 0, 1, 0], b: [1, 1, 1, 0.9999995], c: [0, null, 1 - 2e-6, 0] };
    // a: c=2, b: c=4, c: c=0
    expect(passHatK(trials, 1)).toBe((1 / 2 + 1 + 0) / 3);
    expect(passHatK(trials, 2)).toBe((1 / 6 + 1) / 3); // = 7/18
    expect(passHatK(trials, 2)).toBe(7 / 18);
    expect(passHatKCurve(trials)).toEqual([
      { k: 1, value: 1 / 2 },
      { k: 2, value: 7 / 18 },
      { k: 3, value: 1 / 3 },
      { k: 4, value: 1 / 3 },
    ]);
    expect(passHatK(new Map([['x', [1, 0, 0]]]), 1)).toBe(1 / 3);
  });

  it('caps k at the smallest trial count', () => {
    const trials = { a: [1, 1, 0, 1], b: [1, 0] };
    expect(maxK(trials)).toBe(2);
    expect(passHatKCurve(trials).map((p) => p.k)).toEqual([1, 2]);
    // a: n=4,c=3 → 1/2 at k=2; b: n=2,c=1 → 0
    expect(passHatK(trials, 2)).toBe(1 / 4);
    expect(() => passHatK(trials, 3)).toThrow(RangeError);
    expect(() => passHatK({}, 1)).toThrow('pass^k: no tasks');
    expect(() => taskPassHatK(3, 4, 1)).toThrow(RangeError);
    expect(() => taskPassHatK(3, 1, 0)).toThrow(RangeError);
  });

  it('uses exact binomials', () => {
    expect(binomial(4, 2)).toBe(6n);
    expect(binomial(2, 3)).toBe(0n);
    expect(binomial(100, 50)).toBe(100891344545564193334812497256n);
    expect(taskPassHatK(100, 99, 50)).toBe(1 / 2);
    expect(isSuccess(1 - 1e-6)).toBe(true);
    expect(isSuccess(1 - 1.1e-6)).toBe(false);
    expect(isSuccess(null)).toBe(false);
  });
});
