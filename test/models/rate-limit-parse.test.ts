/**
 * `--rate-limit` values: a rate so low that its interval between calls is longer than a Node timer
 * can wait (2^31-1 ms) is refused, since such a timer fires after 1 ms and the limit would not hold.
 */
import { describe, expect, it } from 'vitest';
import { parseRateLimit } from '../../src/models/rate-limit.js';
import { BadInputError } from '../../src/spec/errors.js';

describe('parseRateLimit', () => {
  it('takes rates whose interval a timer holds, refuses lower ones with the flag named', () => {
    expect(parseRateLimit('60')).toBe(60);
    expect(parseRateLimit('0.5')).toBe(0.5);
    expect(parseRateLimit('0.0001')).toBe(0.0001);
    expect(parseRateLimit(undefined)).toBeUndefined();
    expect(() => parseRateLimit('0.00001')).toThrow(BadInputError);
    expect(() => parseRateLimit('0.00001')).toThrow(/--rate-limit must be at least 0\.000028 calls per minute .*got '0\.00001'/);
    expect(() => parseRateLimit('0')).toThrow(/> 0/);
  });
});
