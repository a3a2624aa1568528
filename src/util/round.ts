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

/** Whether `value` holds a number that {@link cleanFloat} changes (so that a copy is needed). */
function hasNoise(value: unknown): boolean {
  if (typeof value === 'number') return cleanFloat(value) !== value && !Number.isNaN(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasNoise);
  for (const k in value) if (Object.hasOwn(value, k) && hasNoise((value as Record<string, unknown>)[k])) return true;
  return false;
}

/** The copy {@link cleanFloats} returns for a value known to hold noise. */
function cleanCopy(value: unknown): unknown {
  if (typeof value === 'number') return cleanFloat(value);
  if (Array.isArray(value)) return value.map(cleanCopy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const c = hasNoise(v) ? cleanCopy(v) : v;
    // A key named `__proto__` (JSON.parse makes it an own property) stays data: assignment would set the prototype.
    if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
    else out[k] = c;
  }
  return out;
}

/**
 * `value` (plain JSON data: objects, arrays, strings, numbers, booleans, null) with every number
 * passed through {@link cleanFloat}: the value itself when no number changes (most reports: no
 * copy is made), else a copy that shares the parts without noise. The input is never changed.
 */
export function cleanFloats<T>(value: T): T {
  return hasNoise(value) ? (cleanCopy(value) as T) : value;
}
