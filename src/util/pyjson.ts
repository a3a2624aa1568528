/**
 * Python `json.dumps` compatible serialisation.
 *
 * tau2-bench and the seed experiment serialise tool outputs and hash DBs with Python's
 * `json.dumps`; byte-identical outputs need the same rules:
 * - separators `", "` and `": "` (with `indent`, `","` and `": "`);
 * - `ensure_ascii` (default true) escapes every non-ASCII code unit as `\uXXXX`;
 * - floats printed as Python `repr` (`100.0`, `1e-05`, `1e+16`); JS numbers that are integers
 *   print as Python ints unless wrapped in {@link PyFloat};
 * - `None` is `null`; key order is insertion order unless `sortKeys`.
 */

/** Marks a number that Python holds as a float, so that `100` prints as `100.0`. */
export class PyFloat {
  constructor(readonly value: number) {}
}

/**
 * Where a JSON value holds Python floats, mirroring a pydantic model: `'float'` marks a float
 * leaf, an object maps field names (or `'*'` for any key) to subtrees, a one-element array gives
 * the element type. Positions not described print numbers as ints when integral.
 */
export type PyTypeTree = 'float' | { [key: string]: PyTypeTree } | [PyTypeTree];

export interface PyDumpsOptions {
  /** Float positions (see {@link PyTypeTree}). */
  types?: PyTypeTree;
  /** Escape non-ASCII as `\uXXXX` (Python's default: true). */
  ensureAscii?: boolean;
  /** Sort object keys (Python `sort_keys`). */
  sortKeys?: boolean;
  /** Pretty-print with this many spaces (Python `indent`). */
  indent?: number;
}

/** Python `repr(float)` for a finite or non-finite number. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const [mant, expStr] = x.toExponential().split('e');
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  const exp = Number(expStr);
  const decpt = exp + 1;
  let out: string;
  if (decpt <= -4 || decpt > 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    out = `${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  } else if (decpt <= 0) {
    out = `0.${'0'.repeat(-decpt)}${digits}`;
  } else if (decpt >= digits.length) {
    out = `${digits}${'0'.repeat(decpt - digits.length)}.0`;
  } else {
    out = `${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
  }
  return neg ? `-${out}` : out;
}

const NAMED_ESCAPES: Record<string, string> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

/** Printable ASCII other than `"` and `\\`: what both Python encoders print as is. */
const PLAIN = /^[ !#-[\]-~]*$/;

/** Python's JSON string encoding (`encode_basestring_ascii` or `encode_basestring`). */
export function pyString(s: string, ensureAscii = true): string {
  if (PLAIN.test(s)) return `"${s}"`;
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    const code = s.charCodeAt(i);
    const named = NAMED_ESCAPES[ch];
    if (named) out += named;
    else if (code < 0x20 || (ensureAscii && code > 0x7e)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out + '"';
}

function num(x: number): string {
  if (Number.isInteger(x) && Math.abs(x) < 2 ** 53) return String(x);
  return pyFloatRepr(x);
}

/**
 * Serialises `value` exactly as Python's `json.dumps(value, ensure_ascii=…, sort_keys=…, indent=…)`.
 * `undefined` object members are skipped (they do not exist in Python); `Date` values print as
 * `str(datetime)` would not be guessed, so pass strings. Throws TypeError on functions, symbols, bigint.
 */
export function pyDumps(value: unknown, opts: PyDumpsOptions = {}): string {
  const style: DumpStyle = { ensureAscii: opts.ensureAscii ?? true, sortKeys: opts.sortKeys === true, indent: opts.indent, itemSep: opts.indent === undefined ? ', ' : ',' };
  return writePy(value, 0, opts.types, style);
}

/** How {@link pyDumps} writes (its options, resolved once per call). */
interface DumpStyle {
  ensureAscii: boolean;
  sortKeys: boolean;
  indent: number | undefined;
  itemSep: string;
}

/**
 * One value of {@link pyDumps} at nesting `depth` with float positions `t`. A plain loop that
 * appends to one string: tool results are written once each, mostly by code V8 has not optimised
 * yet, where every closure and intermediate array counts.
 */
function writePy(v: unknown, depth: number, t: PyTypeTree | undefined, style: DumpStyle): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof PyFloat) return pyFloatRepr(v.value);
  switch (typeof v) {
    case 'string':
      return pyString(v, style.ensureAscii);
    case 'number':
      return t === 'float' ? pyFloatRepr(v) : num(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      break;
    default:
      throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);
  }
  const nl = style.indent === undefined ? '' : '\n' + ' '.repeat(style.indent * (depth + 1));
  const close = style.indent === undefined ? '' : '\n' + ' '.repeat(style.indent * depth);
  const sep = style.itemSep + nl;
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    const et = Array.isArray(t) ? t[0] : undefined;
    let out = '[' + nl;
    for (let i = 0; i < v.length; i++) out += (i ? sep : '') + writePy(v[i], depth + 1, et, style);
    return out + close + ']';
  }
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (style.sortKeys) keys.sort();
  const tt = t && typeof t === 'object' && !Array.isArray(t) ? t : undefined;
  let out = '';
  for (const k of keys) {
    const x = obj[k];
    if (x === undefined) continue;
    out += (out ? sep : '{' + nl) + pyString(k, style.ensureAscii) + ': ' + writePy(x, depth + 1, tt ? (tt[k] ?? tt['*']) : undefined, style);
  }
  return out ? out + close + '}' : '{}';
}
