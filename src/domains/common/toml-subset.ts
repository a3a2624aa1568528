/**
 * A reader for the subset of TOML that tau2's telecom DB files use (`db.toml`, `user_db.toml`):
 * `[table]` and `[[array.of.tables]]` headers with dotted bare keys, `key = value` lines with
 * basic strings (`"…"` with the standard escapes), literal strings (`'…'`), integers, floats,
 * booleans, and single-line arrays of those; `#` comments and blank lines. Anything else
 * (inline tables, multi-line strings or arrays, dates as TOML date literals) is refused with a
 * {@link BadInputError} naming the file and the line, never guessed.
 *
 * Values keep TOML's int/float distinction in the result only as JavaScript numbers; callers
 * that need Python's float-ness take it from their schema (see `util/pyjson.ts`).
 */
import { BadInputError } from '../../spec/errors.js';

type Table = Record<string, unknown>;

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

function fail(file: string, line: number, message: string): never {
  throw new BadInputError(message, { file, path: `line ${line}` });
}

function parseKeyPath(raw: string, file: string, line: number): string[] {
  const parts = raw.split('.').map((s) => s.trim());
  for (const p of parts) if (!BARE_KEY.test(p)) fail(file, line, `unsupported TOML key '${raw}' (expected bare keys joined by dots)`);
  return parts;
}

const ESCAPES: Record<string, string> = { b: '\b', t: '\t', n: '\n', f: '\f', r: '\r', '"': '"', '\\': '\\' };

/** Parses one value starting at `s[i]`; returns the value and the index after it. */
function parseValue(s: string, i: number, file: string, line: number): [unknown, number] {
  const c = s[i];
  if (c === '"') {
    let out = '';
    let j = i + 1;
    while (j < s.length && s[j] !== '"') {
      if (s[j] === '\\') {
        const e = s[j + 1];
        if (e === 'u' || e === 'U') {
          const n = e === 'u' ? 4 : 8;
          const hex = s.slice(j + 2, j + 2 + n);
          if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== n) fail(file, line, 'bad unicode escape in TOML string');
          out += String.fromCodePoint(parseInt(hex, 16));
          j += 2 + n;
          continue;
        }
        if (!(e in ESCAPES)) fail(file, line, `bad escape '\\${e}' in TOML string`);
        out += ESCAPES[e];
        j += 2;
        continue;
      }
      out += s[j++];
    }
    if (s[j] !== '"') fail(file, line, 'unterminated TOML string (multi-line strings are not supported)');
    return [out, j + 1];
  }
  if (c === "'") {
    const end = s.indexOf("'", i + 1);
    if (end < 0) fail(file, line, 'unterminated TOML literal string');
    return [s.slice(i + 1, end), end + 1];
  }
  if (c === '[') {
    const arr: unknown[] = [];
    let j = i + 1;
    for (;;) {
      while (s[j] === ' ' || s[j] === '\t') j++;
      if (s[j] === ']') return [arr, j + 1];
      if (j >= s.length) fail(file, line, 'unterminated TOML array (multi-line arrays are not supported)');
      const [v, k] = parseValue(s, j, file, line);
      arr.push(v);
      j = k;
      while (s[j] === ' ' || s[j] === '\t') j++;
      if (s[j] === ',') j++;
      else if (s[j] !== ']') fail(file, line, 'expected , or ] in TOML array');
    }
  }
  const m = /^[^\s,\]#]+/.exec(s.slice(i));
  if (!m) fail(file, line, 'missing TOML value');
  const tok = m[0];
  if (tok === 'true' || tok === 'false') return [tok === 'true', i + tok.length];
  const clean = tok.replace(/_/g, '');
  if (/^[+-]?\d+$/.test(clean)) return [Number(clean), i + tok.length];
  if (/^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(clean)) return [Number(clean), i + tok.length];
  if (/^[+-]?(inf|nan)$/.test(clean)) return [clean.endsWith('inf') ? (clean.startsWith('-') ? -Infinity : Infinity) : NaN, i + tok.length];
  return fail(file, line, `unsupported TOML value '${tok}' (dates and inline tables are not supported)`);
}

function descend(root: Table, keys: string[], file: string, line: number): Table {
  let cur = root;
  for (const k of keys) {
    let next = cur[k];
    if (next === undefined) cur[k] = next = {};
    if (Array.isArray(next)) next = next[next.length - 1];
    if (typeof next !== 'object' || next === null) fail(file, line, `key '${k}' is both a value and a table`);
    cur = next as Table;
  }
  return cur;
}

/**
 * Parses TOML text of the supported subset into plain objects (tables), arrays and scalars.
 * Throws {@link BadInputError} naming `file` and the 1-based line for anything outside it,
 * including a key defined twice.
 */
export function parseTomlSubset(text: string, file: string): Table {
  const root: Table = {};
  let current = root;
  const lines = text.split(/\r?\n/);
  lines.forEach((rawLine, idx) => {
    const line = idx + 1;
    const t = rawLine.trim();
    if (t === '' || t.startsWith('#')) return;
    if (t.startsWith('[[')) {
      const m = /^\[\[([^\]]+)\]\]\s*(#.*)?$/.exec(t);
      if (!m) fail(file, line, 'malformed array-of-tables header');
      const keys = parseKeyPath(m[1].trim(), file, line);
      const parent = descend(root, keys.slice(0, -1), file, line);
      const last = keys[keys.length - 1];
      const arr = (parent[last] ??= []);
      if (!Array.isArray(arr)) fail(file, line, `'${keys.join('.')}' is not an array of tables`);
      const table: Table = {};
      arr.push(table);
      current = table;
      return;
    }
    if (t.startsWith('[')) {
      const m = /^\[([^\]]+)\]\s*(#.*)?$/.exec(t);
      if (!m) fail(file, line, 'malformed table header');
      current = descend(root, parseKeyPath(m[1].trim(), file, line), file, line);
      return;
    }
    const eq = t.indexOf('=');
    if (eq <= 0) fail(file, line, 'expected key = value');
    const keys = parseKeyPath(t.slice(0, eq).trim(), file, line);
    let i = eq + 1;
    while (t[i] === ' ' || t[i] === '\t') i++;
    const [value, end] = parseValue(t, i, file, line);
    const rest = t.slice(end).trim();
    if (rest !== '' && !rest.startsWith('#')) fail(file, line, `unexpected text after value: '${rest}'`);
    const target = descend(current, keys.slice(0, -1), file, line);
    const k = keys[keys.length - 1];
    if (Object.prototype.hasOwnProperty.call(target, k)) fail(file, line, `key '${k}' defined twice`);
    target[k] = value;
  });
  return root;
}
