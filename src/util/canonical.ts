/**
 * Canonical JSON (RFC 8785 / JCS: sorted keys, ES number form) for request matching and
 * state hashing, plus the first-difference locator used in replay-miss messages.
 */
import { createHash } from 'node:crypto';

/**
 * Canonical JSON string of `value`: equal for values equal up to object key order. The text
 * `canonicalize` of json-canonicalize 3 writes (RFC 8785 key order and number form; object keys
 * whose value is `undefined` left out, `undefined` array elements as `null`, objects with a
 * `toJSON` as `JSON.stringify` writes them), without its per-property path strings. Throws on a
 * non-finite number and on a cycle (an object inside itself; an object shared by two places is
 * written twice).
 */
export function canonicalJson(value: unknown): string {
  return canonical(value, []);
}

/** {@link canonicalJson} of `v`; `open`: the arrays and objects being written around it (for cycles). */
function canonical(v: unknown, open: object[]): string {
  if (v === null || typeof v !== 'object' || (v as { toJSON?: unknown }).toJSON != null) {
    if (typeof v === 'number' && !Number.isFinite(v)) throw new Error(`Non-finite number (${v}) is not permitted in JSON (RFC 8785 §3.2.2.3)`);
    return String(JSON.stringify(v));
  }
  if (open.includes(v)) throw new Error('Circular reference detected');
  open.push(v);
  let out: string;
  if (Array.isArray(v)) {
    out = '[';
    let next = false;
    v.forEach((el: unknown) => {
      out += (next ? ',' : '') + canonical(el === undefined ? null : el, open);
      next = true;
    });
    out += ']';
  } else {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    out = '{';
    for (let i = 0; i < keys.length; i++) out += (i ? ',' : '') + JSON.stringify(keys[i]) + ':' + canonical(o[keys[i]], open);
    out += '}';
  }
  open.pop();
  return out;
}

/**
 * Whether `canonicalJson(a) === canonicalJson(b)`, decided on the values without writing them
 * when both are plain JSON, else by comparing the two texts. Where {@link canonicalJson} would
 * throw (a non-finite number, a cycle) it throws too, unless the answer is found first (a value
 * is equal to itself; values of different shapes differ).
 */
export function canonicalEqual(a: unknown, b: unknown): boolean {
  return sameJson(a, b, 0) ?? canonicalJson(a) === canonicalJson(b);
}

/** {@link canonicalEqual} for plain JSON; undefined when a value is not (undefined, toJSON, non-finite, a sparse array, or deeper than 64). */
function sameJson(a: unknown, b: unknown, depth: number): boolean | undefined {
  if (a === b && typeof a !== 'number') return true;
  const ta = typeof a;
  const tb = typeof b;
  const plain = (t: string, v: unknown) =>
    t === 'string' || t === 'boolean' || (t === 'number' && Number.isFinite(v)) || (t === 'object' && (v === null || (v as { toJSON?: unknown }).toJSON == null));
  if (!plain(ta, a) || !plain(tb, b) || depth > 64) return undefined;
  if (ta === 'number' && tb === 'number') return a === b; // -0 and 0 both write "0"
  if (ta !== 'object' || tb !== 'object' || a === null || b === null) return false; // different types (equal primitives returned above)
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const y = b as unknown[];
    for (let i = 0; i < a.length; i++) if (!(i in a) || a[i] === undefined) return undefined;
    for (let i = 0; i < y.length; i++) if (!(i in y) || y[i] === undefined) return undefined;
    if (a.length !== y.length) return false;
    let same = true;
    for (let i = 0; i < a.length; i++) {
      const r = sameJson(a[i], y[i], depth + 1);
      if (r === undefined) return undefined;
      same &&= r;
    }
    return same;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const kx = Object.keys(x);
  const ky = Object.keys(y);
  if (kx.some((k) => x[k] === undefined) || ky.some((k) => y[k] === undefined)) return undefined;
  if (kx.length !== ky.length || !kx.every((k) => Object.prototype.hasOwnProperty.call(y, k))) return false;
  let same = true;
  for (const k of kx) {
    const r = sameJson(x[k], y[k], depth + 1);
    if (r === undefined) return undefined;
    same &&= r;
  }
  return same;
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
