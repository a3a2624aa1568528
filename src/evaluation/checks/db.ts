/** servicegym `db_gold` and `unchanged`: state comparisons against the gold replay or the start state. */
import { describeDiffs } from '../evidence.js';
import { compareStates } from '../db.js';
import type { CheckResult } from '../types.js';
import type { CheckContext, CheckOf } from './context.js';

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
