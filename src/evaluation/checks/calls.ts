/** servicegym `tool_calls` (counted calls, decoys) and `order` (a call must come before another). */
import { describeCall, describeMatch, matchesCall } from '../trace-index.js';
import type { CheckResult } from '../types.js';
import type { CheckContext, CheckOf } from './context.js';

/**
 * `tool_calls`: the number of logged calls (agent's and user's, failed ones included) matching
 * `match` (name + argument subset) lies within [min, max] (max absent: unbounded).
 * Evidence: `2 call(s) match get_order (allowed 1..1): #0 get_order {…}, #2 get_order {…}`.
 */
export function checkToolCalls(check: CheckOf<'tool_calls'>, ctx: CheckContext): CheckResult {
  const hits = ctx.calls.filter((c) => matchesCall(c.entry, check.match));
  const n = hits.length;
  const ok = n >= check.min && (check.max === undefined || n <= check.max);
  const range = check.max === undefined ? `at least ${check.min}` : `${check.min}..${check.max}`;
  const list = n ? `: ${hits.map(describeCall).join(', ')}` : '';
  return { id: check.id, kind: check.kind, verdict: ok ? 'pass' : 'fail', evidence: `${n} call(s) match ${describeMatch(check.match)} (allowed ${range})${list}` };
}

/**
 * `order`: every call matching `then` comes after some call matching `first` (action-log order);
 * with `require`, at least one `then` call must occur. Evidence names the out-of-order calls by
 * index (`#3 cancel_order {…}`).
 */
export function checkOrder(check: CheckOf<'order'>, ctx: CheckContext): CheckResult {
  const first = ctx.calls.find((c) => matchesCall(c.entry, check.first));
  const thens = ctx.calls.filter((c) => matchesCall(c.entry, check.then));
  const row = (ok: boolean, evidence: string): CheckResult => ({ id: check.id, kind: check.kind, verdict: ok ? 'pass' : 'fail', evidence });
  const f = describeMatch(check.first);
  const t = describeMatch(check.then);
  if (thens.length === 0) return row(!check.require, check.require ? `no call matches ${t} (required)` : `no call matches ${t}`);
  const early = thens.filter((c) => first === undefined || c.step < first.step);
  if (early.length > 0) {
    const why = first === undefined ? `no call matches ${f}` : `first ${f} at #${first.step}`;
    return row(false, `not preceded by ${f}: ${early.map(describeCall).join(', ')} (${why})`);
  }
  return row(true, `${thens.length} ${t} call(s) after ${f} at #${first!.step}`);
}
