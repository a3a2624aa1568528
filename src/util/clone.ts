/**
 * Deep copy of JSON-shaped data (what domain DB records are): the same result as `structuredClone`
 * for plain objects, arrays and primitives, several times faster on the small records a tool
 * writes (no serialisation round trip). Keys keep their order; a `__proto__` key stays a plain key.
 * Anything else inside (a Date, a Map, a class instance, an array with extra properties) is copied
 * with `structuredClone`, so the result never differs from it.
 */
export function clonePlain<T>(value: T): T {
  return copy(value) as T;
}

function copy(v: unknown): unknown {
  if (typeof v === 'function' || typeof v === 'symbol') return structuredClone(v); // throws, as structuredClone does
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    if (Object.getPrototypeOf(v) !== Array.prototype) return structuredClone(v);
    const n = v.length;
    const out = new Array<unknown>(n);
    let own = 0;
    for (let i = 0; i < n; i++) {
      if (!(i in v)) return structuredClone(v); // a hole
      out[i] = copy(v[i]);
      own++;
    }
    // Extra (non-index) own properties: structuredClone keeps them.
    if (Object.keys(v).length !== own) return structuredClone(v);
    return out;
  }
  const proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return structuredClone(v);
  const out: Record<string, unknown> = {}; // structuredClone gives a null-prototype object Object.prototype too
  for (const k of Object.keys(v)) {
    const x = copy((v as Record<string, unknown>)[k]);
    if (k === '__proto__') Object.defineProperty(out, k, { value: x, enumerable: true, writable: true, configurable: true });
    else out[k] = x;
  }
  return out;
}
