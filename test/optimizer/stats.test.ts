/**
 * The gate's statistics against exact values: the sign test (2/0 → 0.25, 5/0 → 0.03125), the
 * non-inferiority bound, Wald's SPRT boundaries (α = β = 0.05 → ln 19) and pass^k.
 */
import { describe, expect, it } from 'vitest';
import { netNewFailures, nonInferiorityBound, passKCurve, signTestP } from '../../src/optimizer/stats.js';
import { sprt } from '../../src/release/sprt.js';

describe('exact one-sided sign test', () => {
  it('gives the exact tail probabilities', () => {
    expect(signTestP(2, 0)).toBe(0.25);
    expect(signTestP(5, 0)).toBe(0.03125);
    expect(signTestP(7, 0)).toBe(0.0078125);
    expect(signTestP(3, 1)).toBe(5 / 16);
    expect(signTestP(10, 2)).toBe(79 / 4096);
    expect(signTestP(0, 3)).toBe(1);
    expect(signTestP(0, 0)).toBe(1);
  });
  it('stays finite for thousands of pairs and rejects bad counts', () => {
    expect(signTestP(1500, 1500)).toBeGreaterThan(0.49);
    expect(signTestP(1500, 1500)).toBeLessThan(0.52);
    expect(() => signTestP(-1, 0)).toThrow(RangeError);
    expect(() => signTestP(1.5, 0)).toThrow(RangeError);
  });
});

describe('holdout non-inferiority', () => {
  it('counts new failures and new successes over pairs', () => {
    const pairs = [
      { parent: true, candidate: false },
      { parent: true, candidate: false },
      { parent: false, candidate: true },
      { parent: true, candidate: true },
      { parent: false, candidate: false },
    ];
    expect(netNewFailures(pairs)).toEqual({ new_failures: 2, new_successes: 1, net: 1 });
  });
  it('bounds net new failures by ceil(margin x pairs)', () => {
    expect(nonInferiorityBound(16, 0.05)).toBe(1);
    expect(nonInferiorityBound(20, 0.05)).toBe(1);
    expect(nonInferiorityBound(21, 0.05)).toBe(2);
    expect(nonInferiorityBound(40, 0.05)).toBe(2);
    expect(nonInferiorityBound(5, 0.05)).toBe(1);
    expect(nonInferiorityBound(0, 0.05)).toBe(0);
    expect(() => nonInferiorityBound(10, 1.5)).toThrow(RangeError);
  });
});

describe('SPRT (alpha = beta = 0.05)', () => {
  const params = { p0: 0.8, p1: 0.7, alpha: 0.05, beta: 0.05 };
  it('has boundaries ±ln 19', () => {
    const r = sprt([], params);
    expect(r.upper).toBeCloseTo(Math.log(19), 12);
    expect(r.lower).toBeCloseTo(-Math.log(19), 12);
    expect(r.decision).toBe('continue');
  });
  it('accepts H1 (a drop) after 8 straight failures: 8 ln(0.3/0.2) = 3.24 ≥ 2.944 > 7 ln 1.5', () => {
    const r = sprt(Array(20).fill(false), params);
    expect(r).toMatchObject({ decision: 'accept_h1', n: 8, successes: 0 });
    expect(r.llr).toBeCloseTo(8 * Math.log(1.5), 12);
  });
  it('accepts H0 after 23 straight successes: 23 ln(7/8) = -3.07 ≤ -2.944 < 22 ln(7/8)', () => {
    expect(sprt(Array(40).fill(true), params)).toMatchObject({ decision: 'accept_h0', n: 23, successes: 23 });
  });
  it('rejects rates outside (0, 1) and p0 = p1', () => {
    expect(() => sprt([], { ...params, p1: 0 })).toThrow(RangeError);
    expect(() => sprt([], { ...params, p1: 0.8 })).toThrow(RangeError);
  });
});

describe('pass^k', () => {
  it('is C(c,k)/C(n,k) averaged over cases, null beyond the trial count', () => {
    const curve = passKCurve(new Map([['a', [true, true, false, false]], ['b', [true, true, true, true]]]));
    expect(curve).toEqual({ 'pass^1': 0.75, 'pass^2': (1 / 6 + 1) / 2, 'pass^4': 0.5, 'pass^8': null });
    expect(passKCurve(new Map())).toEqual({ 'pass^1': null, 'pass^2': null, 'pass^4': null, 'pass^8': null });
  });
});
