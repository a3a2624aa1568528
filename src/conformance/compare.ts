/**
 * Comparisons used by conformance: where two strings first differ, and per-field diffs compared
 * as multisets (order-insensitive; values compared as canonical JSON, so `198.0` from a Python
 * reference equals `198`).
 */
import type { FieldDiff } from '../spec/state.js';
import { canonicalJson } from '../util/canonical.js';

/** Index of the first differing character (the shorter length when one is a prefix); -1 if equal. */
export function firstDifferingChar(a: string, b: string): number {
  if (a === b) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return n;
}

/** Up to `width` characters of `s` around index `at`, with ellipses where cut. */
export function excerptAt(s: string, at: number, width = 60): string {
  const start = Math.max(0, at - Math.floor(width / 3));
  const end = Math.min(s.length, start + width);
  return (start > 0 ? '…' : '') + s.slice(start, end) + (end < s.length ? '…' : '');
}

/** Result of comparing two diffs as multisets. */
export interface DiffComparison {
  ok: boolean;
  /** Expected entries the run did not produce. */
  missing: FieldDiff[];
  /** Entries the run produced that were not expected. */
  extra: FieldDiff[];
}

const key = (d: FieldDiff) => canonicalJson({ path: d.path, op: d.op, before: d.before ?? null, after: d.after ?? null });

/** Compares `got` with `expected` ignoring order (duplicates counted). */
export function compareDiffs(expected: FieldDiff[], got: FieldDiff[]): DiffComparison {
  const pending = new Map<string, FieldDiff[]>();
  for (const d of expected) {
    const k = key(d);
    pending.set(k, [...(pending.get(k) ?? []), d]);
  }
  const extra: FieldDiff[] = [];
  for (const d of got) {
    const list = pending.get(key(d));
    if (list?.length) list.pop();
    else extra.push(d);
  }
  const missing = [...pending.values()].flat();
  return { ok: missing.length === 0 && extra.length === 0, missing, extra };
}
