/** servicegym `db_gold` and `unchanged`: state comparisons against the gold replay or the start state. */
import { describeDiffs } from '../evidence.js';
import { at, compareStates, pointerSegments } from '../db.js';
import { CowDb } from '../../env/cow-db.js';
import { canonicalJson } from '../../util/canonical.js';
import type { CheckResult } from '../types.js';
import type { CheckContext, CheckOf } from './context.js';
import type { StateOps } from '../../spec/state.js';

/**
 * `db_gold`: the episode's final state equals the gold replay's, over the whole state or only
 * under `paths` (JSON pointers). Evidence: the differing fields as `gold …, episode …`.
 */
export function checkDbGold<S>(check: CheckOf<'db_gold'>, ctx: CheckContext<S>): CheckResult {
  const cmp = compareStates(ctx.ops, ctx.gold.finalState, ctx.trace.finalState, check.paths);
  const scope = check.paths ? ` under ${check.paths.join(', ')}` : '';
  const base = { id: check.id, kind: check.kind, diff: cmp.diff };
  if (cmp.equal) return { ...base, verdict: 'pass', evidence: `final state equals the gold replay's${scope}` };
  return {
    ...base,
    verdict: 'fail',
    evidence: `${cmp.diff.length} field(s) differ from the gold replay${scope}: ${describeDiffs(cmp.diff, ['gold', 'episode'])}`,
  };
}

/**
 * `unchanged` (forbidden writes): nothing under `paths` differs between the start state and the
 * final state. Evidence names each changed field with its value before and after.
 */
export function checkUnchanged<S>(check: CheckOf<'unchanged'>, ctx: CheckContext<S>): CheckResult {
  const cmp = compareStates(ctx.ops, ctx.initialState, ctx.trace.finalState, check.paths);
  const scope = check.paths.join(', ');
  const base = { id: check.id, kind: check.kind, diff: cmp.diff };
  if (cmp.equal) return { ...base, verdict: 'pass', evidence: `unchanged: ${scope}` };
  return { ...base, verdict: 'fail', evidence: `${cmp.diff.length} field(s) changed under ${scope}: ${describeDiffs(cmp.diff, ['before', 'after'])}` };
}

/**
 * The value at a JSON pointer of a state: through the domain's plain view when its StateOps has one
 * (`ops.view`), else a copy-on-write table DB or a plain JSON value.
 */
export function stateValueAt(state: unknown, pointer: string, ops?: StateOps<any>): unknown {
  const segs = pointerSegments(pointer);
  if (ops?.view) return at(ops.view(state), segs);
  if (state instanceof CowDb) {
    if (segs.length === 0) return state.materialize();
    if (segs.length === 1) return state.materialize()[segs[0]];
    return at(state.get(segs[0], segs[1]), segs.slice(2));
  }
  return at(state, segs);
}

/**
 * `field_in`: the final value at `path` equals (deep, key order ignored) one of `values` — for
 * rules with several allowed outcomes, such as "refund to the original method or an existing gift
 * card" (seed T05). Evidence names the value found.
 */
export function checkFieldIn<S>(check: CheckOf<'field_in'>, ctx: CheckContext<S>): CheckResult {
  const value = stateValueAt(ctx.trace.finalState, check.path, ctx.ops);
  const ok = value !== undefined && check.values.some((v) => canonicalJson(v) === canonicalJson(value));
  const shown = value === undefined ? 'absent' : JSON.stringify(value);
  return {
    id: check.id,
    kind: check.kind,
    verdict: ok ? 'pass' : 'fail',
    evidence: `${check.path} is ${shown}; allowed: ${check.values.map((v) => JSON.stringify(v)).join(', ')}`,
  };
}

/**
 * `state_count`: counts the entries under `path` in the final state whose fields match `where` and
 * none of `where_not` (deep equality, key order ignored); the count must lie in [min, max].
 * Evidence names the count and the matching keys.
 */
export function checkStateCount<S>(check: CheckOf<'state_count'>, ctx: CheckContext<S>): CheckResult {
  const value = stateValueAt(ctx.trace.finalState, check.path, ctx.ops);
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : value && typeof value === 'object' ? Object.entries(value) : [];
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  const hits = entries.filter(([, v]) => {
    const rec = (v ?? {}) as Record<string, unknown>;
    return Object.entries(check.where).every(([k, want]) => same(rec[k], want)) && Object.entries(check.where_not).every(([k, not]) => !same(rec[k], not));
  });
  const n = hits.length;
  const ok = n >= check.min && (check.max === undefined || n <= check.max);
  const range = check.max === undefined ? `at least ${check.min}` : `${check.min}..${check.max}`;
  return { id: check.id, kind: check.kind, verdict: ok ? 'pass' : 'fail', evidence: `${n} entr${n === 1 ? 'y' : 'ies'} under ${check.path} match (allowed ${range})${n ? `: ${hits.map(([k]) => k).join(', ')}` : ''}` };
}
