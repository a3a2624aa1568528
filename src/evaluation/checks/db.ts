/** servicegym `db_gold` and `unchanged`: state comparisons against the gold replay or the start state. */
import { describeDiffs } from '../evidence.js';
import { at, compareStates, pointerSegments } from '../db.js';
import { CowDb } from '../../env/cow-db.js';
import { canonicalJson } from '../../util/canonical.js';
import type { CheckResult } from '../types.js';
import type { CheckContext, CheckOf } from './context.js';
import type { StateOps } from '../../spec/state.js';
import { BadInputError } from '../../spec/errors.js';

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
 * The value at a JSON pointer of a state: for a copy-on-write table DB, the value its plain view
 * (its materialization) has there, looked up without materializing more than the one table a
 * `/table` pointer names (a `/table/id/...` pointer reads the one record); else through the
 * domain's plain view when its StateOps has one (`ops.view`), else in the plain JSON value.
 */
export function stateValueAt(state: unknown, pointer: string, ops?: StateOps<any>): unknown {
  const segs = pointerSegments(pointer);
  if (state instanceof CowDb) return cowDbValueAt(state, segs);
  if (ops?.view) return at(ops.view(state), segs);
  return at(state, segs);
}

/** `at(db.materialize(), segs)`, reading only the table or record the pointer names. */
function cowDbValueAt(db: CowDb, segs: readonly string[]): unknown {
  if (segs.length === 0) return db.materialize();
  if (!Object.prototype.hasOwnProperty.call(db.base, segs[0])) return undefined;
  if (segs.length === 1) return db.table(segs[0]);
  return at(db.has(segs[0], segs[1]) ? db.get(segs[0], segs[1]) : undefined, segs.slice(2));
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

/** The compiled `where_match` rules of a check; throws BadInputError naming the check for an invalid regex. */
function matchRules(check: CheckOf<'state_count'>): [string, RegExp][] {
  return Object.entries(check.where_match ?? {}).map(([field, source]) => {
    try {
      return [field, new RegExp(source)];
    } catch (e) {
      throw new BadInputError(`check ${check.id}: where_match.${field} is not a valid regular expression: ${(e as Error).message}`);
    }
  });
}

/**
 * `state_count`: counts the entries under `path` in the final state whose fields match `where` and
 * none of `where_not` (deep equality, key order ignored), and whose `where_match` fields are strings
 * the rule's regular expression finds a match in; the count must lie in [min, max]. Evidence names
 * the count and the matching keys. Throws BadInputError for an invalid regular expression.
 */
export function checkStateCount<S>(check: CheckOf<'state_count'>, ctx: CheckContext<S>): CheckResult {
  const value = stateValueAt(ctx.trace.finalState, check.path, ctx.ops);
  const entries: [string, unknown][] = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : value && typeof value === 'object' ? Object.entries(value) : [];
  const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);
  const rules = matchRules(check);
  const hits = entries.filter(([, v]) => {
    const rec = (v ?? {}) as Record<string, unknown>;
    return (
      Object.entries(check.where).every(([k, want]) => same(rec[k], want)) &&
      Object.entries(check.where_not).every(([k, not]) => !same(rec[k], not)) &&
      rules.every(([k, re]) => typeof rec[k] === 'string' && re.test(rec[k] as string))
    );
  });
  const n = hits.length;
  const ok = n >= check.min && (check.max === undefined || n <= check.max);
  const range = check.max === undefined ? `at least ${check.min}` : `${check.min}..${check.max}`;
  return { id: check.id, kind: check.kind, verdict: ok ? 'pass' : 'fail', evidence: `${n} entr${n === 1 ? 'y' : 'ies'} under ${check.path} match (allowed ${range})${n ? `: ${hits.map(([k]) => k).join(', ')}` : ''}` };
}

/** Multiset difference a − b of JSON values (each element of b cancels one equal element of a). */
function multisetMinus(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(canonicalJson(x), (left.get(canonicalJson(x)) ?? 0) + 1);
  return a.filter((x) => {
    const k = canonicalJson(x);
    const n = left.get(k) ?? 0;
    if (n > 0) {
      left.set(k, n - 1);
      return false;
    }
    return true;
  });
}

function arrayAt(state: unknown, path: string, ops?: StateOps<any>): unknown[] {
  const v = stateValueAt(state, path, ops);
  return Array.isArray(v) ? v : [];
}

/**
 * `db_delta`: the elements the array at `path` gained and lost between the start state and the
 * final state (multisets) include `added` and `removed` — by default the gold replay's own gains
 * and losses — and, with `exact`, nothing else. A missing array counts as empty.
 * Evidence: `/orders/O1/items: expected +0 -1, episode +1 -2; missing: removed {…}`.
 */
export function checkDbDelta<S>(check: CheckOf<'db_delta'>, ctx: CheckContext<S>): CheckResult {
  const start = arrayAt(ctx.initialState, check.path, ctx.ops);
  const gold = arrayAt(ctx.gold.finalState, check.path, ctx.ops);
  const final = arrayAt(ctx.trace.finalState, check.path, ctx.ops);
  const wantAdded = check.added ?? multisetMinus(gold, start);
  const wantRemoved = check.removed ?? multisetMinus(start, gold);
  const gotAdded = multisetMinus(final, start);
  const gotRemoved = multisetMinus(start, final);
  const problems = [
    ...multisetMinus(wantAdded, gotAdded).map((x) => `missing added ${JSON.stringify(x)}`),
    ...multisetMinus(wantRemoved, gotRemoved).map((x) => `missing removed ${JSON.stringify(x)}`),
  ];
  if (check.exact) {
    problems.push(...multisetMinus(gotAdded, wantAdded).map((x) => `extra added ${JSON.stringify(x)}`));
    problems.push(...multisetMinus(gotRemoved, wantRemoved).map((x) => `extra removed ${JSON.stringify(x)}`));
  }
  const counts = `expected +${wantAdded.length} -${wantRemoved.length}, episode +${gotAdded.length} -${gotRemoved.length}`;
  return {
    id: check.id,
    kind: check.kind,
    verdict: problems.length === 0 ? 'pass' : 'fail',
    evidence: `${check.path}: ${counts}${problems.length ? `; ${problems.join('; ')}` : ''}`,
  };
}
