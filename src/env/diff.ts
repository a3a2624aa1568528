/**
 * Per-field state diff, for reports and the viewer: which field changed, from what, to what.
 */
import microdiff from 'microdiff';

/** One changed field; `path` is a dotted JSON path such as `reservations.ABC123.seat`. */
export interface FieldDiff {
  path: string;
  type: 'added' | 'removed' | 'changed';
  before?: unknown;
  after?: unknown;
}

/** Differences from `before` to `after`, in a deterministic (path-sorted) order. */
export function diffState(before: unknown, after: unknown): FieldDiff[] {
  if (typeof before !== 'object' || typeof after !== 'object' || !before || !after) {
    return before === after ? [] : [{ path: '', type: 'changed', before, after }];
  }
  const rows = microdiff(before as Record<string, unknown>, after as Record<string, unknown>).map((d): FieldDiff => {
    const path = d.path.map(String).join('.');
    if (d.type === 'CREATE') return { path, type: 'added', after: d.value };
    if (d.type === 'REMOVE') return { path, type: 'removed', before: d.oldValue };
    return { path, type: 'changed', before: d.oldValue, after: d.value };
  });
  return rows.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
