/**
 * A small model description for telecom records, mirroring tau2's pydantic models: field order
 * (tool outputs print fields in model order), defaults for fields a file leaves out, and the
 * coercions pydantic applies on load (ints in float fields stay numbers but print as floats;
 * `date` fields print as `YYYY-MM-DD`, `datetime` fields as Python's `str()`,
 * `YYYY-MM-DD HH:MM:SS`). Records are held in that printed shape, so Python's `json.dumps`
 * of a model dump is {@link pyDumps} with the model's {@link PyTypeTree}.
 */
import { BadInputError } from '../../spec/errors.js';
import type { PyTypeTree } from '../../util/pyjson.js';

/** One field's type. */
export type FieldKind =
  | 'str'
  | 'float'
  | 'int'
  | 'bool'
  | 'date'
  | 'datetime'
  | { enum: readonly string[] }
  | { model: Model }
  | { list: FieldKind }
  | { dict: FieldKind };

/** One field: name, type, whether it may be null, and its default (absent: required). */
export interface Field {
  name: string;
  kind: FieldKind;
  nullable?: boolean;
  /** The default when the field is missing; a function for fresh containers. */
  default?: unknown | (() => unknown);
}

/** A model: its fields in declaration order. */
export interface Model {
  name: string;
  fields: readonly Field[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function coerceDate(v: unknown, withTime: boolean, where: string): string {
  if (typeof v !== 'string') throw new BadInputError(`expected a date string, got ${JSON.stringify(v)}`, { path: where });
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2})?))?$/.exec(v);
  if (!m) throw new BadInputError(`expected an ISO date${withTime ? ' or date-time' : ''}, got '${v}'`, { path: where });
  if (!withTime) {
    if (m[2]) throw new BadInputError(`expected a date without a time, got '${v}'`, { path: where });
    return m[1];
  }
  const time = m[2] ? (m[2].length === 5 ? `${m[2]}:00` : m[2]) : '00:00:00';
  return `${m[1]} ${time}`;
}

/** Coerces one value to `kind` (pydantic's lax mode for the kinds used here); throws BadInputError at `where`. */
export function coerceValue(kind: FieldKind, v: unknown, where: string): unknown {
  const bad = (what: string): never => {
    throw new BadInputError(`expected ${what}, got ${JSON.stringify(v)}`, { path: where });
  };
  if (kind === 'str') return typeof v === 'string' ? v : bad('a string');
  if (kind === 'float' || kind === 'int') {
    if (typeof v !== 'number' || !Number.isFinite(v)) return bad('a number');
    if (kind === 'int' && !Number.isInteger(v)) return bad('an integer');
    return v;
  }
  if (kind === 'bool') return typeof v === 'boolean' ? v : bad('true or false');
  if (kind === 'date' || kind === 'datetime') return coerceDate(v, kind === 'datetime', where);
  if ('enum' in kind) return typeof v === 'string' && kind.enum.includes(v) ? v : bad(`one of ${kind.enum.join(', ')}`);
  if ('model' in kind) return coerceModel(kind.model, v, where);
  if ('list' in kind) return Array.isArray(v) ? v.map((x, i) => coerceValue(kind.list, x, `${where}[${i}]`)) : bad('a list');
  if (!isRecord(v)) return bad('a table');
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = coerceValue(kind.dict, x, `${where}.${k}`);
  return out;
}

/**
 * A record in the model's printed shape: fields in model order, defaults filled, values coerced.
 * Unknown fields are refused (tau2's models forbid extras). Throws BadInputError naming the path.
 */
export function coerceModel(model: Model, v: unknown, where: string): Record<string, unknown> {
  if (!isRecord(v)) throw new BadInputError(`expected a ${model.name} table`, { path: where });
  const known = new Set(model.fields.map((f) => f.name));
  for (const k of Object.keys(v)) if (!known.has(k)) throw new BadInputError(`unknown field '${k}' in ${model.name}`, { path: `${where}.${k}` });
  const out: Record<string, unknown> = {};
  for (const f of model.fields) {
    const at = `${where}.${f.name}`;
    if (!Object.prototype.hasOwnProperty.call(v, f.name)) {
      if (!('default' in f)) throw new BadInputError(`missing required field '${f.name}' of ${model.name}`, { path: at });
      const d = typeof f.default === 'function' ? (f.default as () => unknown)() : f.default;
      // a nested model's default is itself a record with defaults (pydantic default_factory)
      out[f.name] = typeof f.kind === 'object' && 'model' in f.kind && isRecord(d) ? coerceModel(f.kind.model, d, at) : d;
      continue;
    }
    const x = v[f.name];
    out[f.name] = x === null && f.nullable ? null : coerceValue(f.kind, x, at);
  }
  return out;
}

/** Where the model's dump holds Python floats (for {@link pyDumps}). */
export function typeTreeOf(kind: FieldKind | Model): PyTypeTree | undefined {
  if (typeof kind === 'object' && 'fields' in kind) {
    const tree: Record<string, PyTypeTree> = {};
    for (const f of kind.fields) {
      const t = typeTreeOf(f.kind);
      if (t !== undefined) tree[f.name] = t;
    }
    return Object.keys(tree).length ? tree : undefined;
  }
  if (kind === 'float') return 'float';
  if (typeof kind !== 'object') return undefined;
  if ('model' in kind) return typeTreeOf(kind.model);
  if ('list' in kind) {
    const t = typeTreeOf(kind.list);
    return t === undefined ? undefined : [t];
  }
  if ('dict' in kind) {
    const t = typeTreeOf(kind.dict);
    return t === undefined ? undefined : { '*': t };
  }
  return undefined;
}
