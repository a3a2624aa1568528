/**
 * Canonical JSON (RFC 8785 / JCS: sorted keys, ES number form) for request matching and
 * state hashing, plus the first-difference locator used in replay-miss messages.
 */
import { createHash } from 'node:crypto';
import { canonicalize } from 'json-canonicalize';

/** Canonical JSON string of `value`: equal for values equal up to object key order. */
export function canonicalJson(value: unknown): string {
  return canonicalize(value);
}

/** Hex sha256 of a string (UTF-8). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Hex sha256 of the canonical JSON of `value`. */
export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

function pathJoin(base: string, seg: string | number): string {
  if (typeof seg === 'number') return `${base}[${seg}]`;
  if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(seg)) return `${base}[${JSON.stringify(seg)}]`;
  return base === '' ? seg : `${base}.${seg}`;
}

/**
 * The first JSON path (e.g. `messages[0].content`) at which `a` and `b` differ, ignoring object
 * key order; `undefined` when they are equal. Object keys are visited in sorted order, arrays by
 * index, so the answer is deterministic. The root path is `''` (an empty string).
 */
export function firstDifference(a: unknown, b: unknown, base = ''): string | undefined {
  if (a === b) return undefined;
  const ta = Array.isArray(a) ? 'array' : a === null ? 'null' : typeof a;
  const tb = Array.isArray(b) ? 'array' : b === null ? 'null' : typeof b;
  if (ta !== tb) return base || '$';
  if (ta === 'array') {
    const xa = a as unknown[];
    const xb = b as unknown[];
    const n = Math.min(xa.length, xb.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(xa[i], xb[i], pathJoin(base, i));
      if (d !== undefined) return d;
    }
    return xa.length === xb.length ? undefined : pathJoin(base, n);
  }
  if (ta === 'object') {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    const keys = [...new Set([...Object.keys(oa), ...Object.keys(ob)])].sort();
    for (const k of keys) {
      const d = firstDifference(oa[k], ob[k], pathJoin(base, k));
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return base || '$';
}

/** Number of leaf values on which `a` and `b` differ (a rough distance for "closest request"). */
export function jsonDistance(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    let d = Math.abs(a.length - b.length);
    for (let i = 0; i < Math.min(a.length, b.length); i++) d += jsonDistance(a[i], b[i]);
    return d;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const oa = a as Record<string, unknown>;
    const ob = b as Record<string, unknown>;
    let d = 0;
    for (const k of new Set([...Object.keys(oa), ...Object.keys(ob)])) d += jsonDistance(oa[k], ob[k]);
    return d;
  }
  return 1;
}
