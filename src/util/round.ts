/**
 * Reported numbers without float noise. Sums and means of floats carry noise in their last bits
 * (`(0.15 + 0.55) / 2` is `0.35000000000000003`); the reports round such numbers to
 * {@link REPORTED_DECIMALS} decimals, the rounding the rate and difference computations already
 * used (success rates, pass^k intervals, Fisher p-values): it removes the noise and keeps every
 * meaningful digit of a reward, rate, cost in US dollars or duration in seconds. Applied where a
 * number leaves for a reader (JSON on stdout, results files); stored values stay as computed.
 */

/** Decimals a reported number keeps. */
export const REPORTED_DECIMALS = 12;

/**
 * `x` rounded to {@link REPORTED_DECIMALS} decimals (the nearest double to the rounded decimal);
 * integers, non-finite numbers and magnitudes of 1e21 or more are returned as they are.
 */
export function cleanFloat(x: number): number {
  if (Number.isInteger(x) || !Number.isFinite(x) || Math.abs(x) >= 1e21) return x;
  const y = Number(x.toFixed(REPORTED_DECIMALS));
  return y === 0 ? 0 : y; // no -0 from a tiny negative
}

/**
 * A copy of `value` (plain JSON data: objects, arrays, strings, numbers, booleans, null) with every
 * number passed through {@link cleanFloat}; other values are kept as they are.
 */
export function cleanFloats<T>(value: T): T {
  if (typeof value === 'number') return cleanFloat(value) as T;
  if (Array.isArray(value)) return value.map(cleanFloats) as T;
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a key named `__proto__` stays data (assignment would set the prototype).
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cleanFloats(v)])) as T;
}
