/**
 * Small shared pieces of the evaluator: the result of a tau2 reward component and the helpers
 * that render evidence strings (quoted text, JSON values, field diffs) the same way everywhere.
 */
import type { FieldDiff } from '../spec/state.js';
import { canonicalJson } from '../util/canonical.js';
import type { CheckResult } from './types.js';

/** A tau2 reward component: its score (1, 0, or null when it could not be judged) and its check row. */
export interface ComponentResult {
  score: number | null;
  check: CheckResult;
}

/** Longest excerpt (characters) quoted in evidence before it is cut with `…`. */
export const QUOTE_MAX = 80;

/** A JSON-quoted excerpt of `text`, cut to `max` characters (`"abc…"`). */
export function quote(text: string, max = QUOTE_MAX): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

/** Canonical JSON of a value for evidence (sorted keys), `undefined` shown as `(absent)`, cut to `max`. */
export function json(value: unknown, max = 120): string {
  if (value === undefined) return '(absent)';
  const s = canonicalJson(value);
  return s.length > max ? `${s.slice(0, max)}…` : s;
}

/**
 * One field difference as evidence, naming which side is which:
 * `/orders/O1/status: gold "cancelled", episode "pending"` (labels default to before/after).
 */
export function describeDiff(d: FieldDiff, labels: [string, string] = ['before', 'after']): string {
  const [a, b] = labels;
  if (d.op === 'add') return `${d.path}: ${a} (absent), ${b} ${json(d.after)}`;
  if (d.op === 'remove') return `${d.path}: ${a} ${json(d.before)}, ${b} (absent)`;
  return `${d.path}: ${a} ${json(d.before)}, ${b} ${json(d.after)}`;
}

/** The first `max` diffs described and joined with `; `, plus `; … and N more` when cut. */
export function describeDiffs(diffs: readonly FieldDiff[], labels: [string, string], max = 5): string {
  const shown = diffs.slice(0, max).map((d) => describeDiff(d, labels)).join('; ');
  return diffs.length > max ? `${shown}; … and ${diffs.length - max} more` : shown;
}

/** Verdict of a group: `fail` if any fails, else `not_judged` if any is not judged, else `pass`. */
export function combineVerdicts(verdicts: readonly CheckResult['verdict'][]): CheckResult['verdict'] {
  if (verdicts.includes('fail')) return 'fail';
  if (verdicts.includes('not_judged')) return 'not_judged';
  return 'pass';
}

/** tau2 score of a verdict: pass 1, fail 0, not judged null. */
export function verdictScore(v: CheckResult['verdict']): number | null {
  return v === 'pass' ? 1 : v === 'fail' ? 0 : null;
}
