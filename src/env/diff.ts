/**
 * Per-field state diff, for reports, conformance and the viewer: which field changed, from what,
 * to what. The format is tau2's reference format: `{path, op, before, after}` with `path` a JSON
 * pointer (`/reservations/XEHM4B/status`) and `op` one of `add | remove | replace`.
 */
import microdiff from 'microdiff';
import type { FieldDiff } from '../spec/state.js';

export type { FieldDiff };

/** Escapes one JSON-pointer segment (`~` → `~0`, `/` → `~1`). */
export function pointerSegment(seg: string | number): string {
  return String(seg).replace(/~/g, '~0').replace(/\//g, '~1');
}

/** JSON pointer of a path given as segments. */
export function jsonPointer(segs: readonly (string | number)[]): string {
  return segs.map((s) => '/' + pointerSegment(s)).join('');
}

/**
 * Differences from `before` to `after` (array elements compared by index), prefixed with
 * `prefix` segments. Order: the traversal order of the two values.
 */
export function diffState(before: unknown, after: unknown, prefix: readonly (string | number)[] = []): FieldDiff[] {
  const isObj = (v: unknown) => typeof v === 'object' && v !== null;
  if (!isObj(before) || !isObj(after) || Array.isArray(before) !== Array.isArray(after)) {
    if (before === after) return [];
    if (before === undefined) return [{ path: jsonPointer(prefix), op: 'add', before: null, after }];
    if (after === undefined) return [{ path: jsonPointer(prefix), op: 'remove', before, after: null }];
    return [{ path: jsonPointer(prefix), op: 'replace', before, after }];
  }
  return microdiff(before as Record<string, unknown>, after as Record<string, unknown>).map((d): FieldDiff => {
    const path = jsonPointer([...prefix, ...d.path]);
    if (d.type === 'CREATE') return { path, op: 'add', before: null, after: d.value };
    if (d.type === 'REMOVE') return { path, op: 'remove', before: d.oldValue, after: null };
    return { path, op: 'replace', before: d.oldValue, after: d.value };
  });
}
