/**
 * Python text formatting the telecom outputs rely on: `f"{x:.2f}"`, `str(float)`, and `repr()`
 * of the small dicts and lists tau2 interpolates into messages.
 */
import { pyFloatRepr } from '../../util/pyjson.js';

/**
 * Python's `f"{x:.{digits}f}"`: the exact binary value rounded half to even (JavaScript's
 * `toFixed` rounds exact ties away from zero).
 */
export function pyFixed(x: number, digits = 2): string {
  const s = x.toFixed(digits);
  if (!Number.isFinite(x)) return s;
  const exact = Math.abs(x).toFixed(Math.min(100, digits + 60));
  const tail = exact.slice(exact.indexOf('.') + 1 + digits);
  if (!/^50*$/.test(tail)) return s;
  // An exact tie: round half to even.
  let down = exact.slice(0, exact.indexOf('.') + 1 + digits);
  if (down.endsWith('.')) down = down.slice(0, -1);
  const lastDown = Number(down[down.length - 1]);
  const chosen = lastDown % 2 === 0 ? down : Math.abs(x).toFixed(digits);
  return x < 0 ? `-${chosen}` : chosen;
}

/** Python's `str(x)` for a value Python holds as a float. */
export const pyFloatStr = (x: number): string => pyFloatRepr(x);

/** Python's `repr(str)`: single quotes unless the text holds a `'` and no `"`. */
export function pyStrRepr(s: string): string {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return out + q;
}

/** A Python enum member as `repr()` prints it: `<Class.NAME: 'value'>`. */
export class PyEnumMember {
  constructor(
    readonly cls: string,
    readonly member: string,
    readonly value: string,
  ) {}
}

/** Python's `repr()` of str, None, bool, numbers (ints; floats via {@link pyFloatStr}), lists, dicts and enum members. */
export function pyRepr(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v instanceof PyEnumMember) return `<${v.cls}.${v.member}: ${pyStrRepr(v.value)}>`;
  if (typeof v === 'string') return pyStrRepr(v);
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(', ')}]`;
  return `{${Object.entries(v as Record<string, unknown>)
    .map(([k, x]) => `${pyStrRepr(k)}: ${pyRepr(x)}`)
    .join(', ')}}`;
}
