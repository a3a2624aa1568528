/** servicegym `transcript` (regex rules over one role's messages) and `stated_amount` (a total the agent states). */
import { quote } from '../evidence.js';
import { textOf } from '../trace-index.js';
import type { CheckResult } from '../types.js';
import { compileRegex, showRegex, type CheckContext, type CheckOf } from './context.js';

/** Messages of one role that have text, with their indices. */
function textsOf(ctx: CheckContext, role: 'assistant' | 'user'): { i: number; text: string }[] {
  return ctx.trace.messages.flatMap((m, i) => (m.role === role && textOf(m) !== '' ? [{ i, text: textOf(m) }] : []));
}

/**
 * `transcript`: with `must_match`, some message of `role` matches; with `must_not_match`, none
 * does (regexes with the check's `flags`). Evidence quotes the matching text and names the
 * message: `must_match: message 5 matches "refund"`; `must_not_match: message 7 matches "guarantee"`.
 */
export function checkTranscript(check: CheckOf<'transcript'>, ctx: CheckContext): CheckResult {
  const texts = textsOf(ctx, check.role);
  const parts: string[] = [];
  let ok = true;
  if (check.must_match !== undefined) {
    const re = compileRegex(ctx, check.id, check.must_match, check.flags);
    const hit = texts.map((t) => ({ i: t.i, m: re.exec(t.text) })).find((x) => x.m);
    if (hit) {
      parts.push(`must_match: message ${hit.i} matches ${quote(hit.m![0])}`);
    } else {
      ok = false;
      parts.push(`must_match: no ${check.role} message matches ${showRegex(re)}`);
    }
  }
  if (check.must_not_match !== undefined) {
    const re = compileRegex(ctx, check.id, check.must_not_match, check.flags);
    const hits = texts.flatMap((t) => {
      const m = re.exec(t.text);
      return m ? [`message ${t.i} matches ${quote(m[0])}`] : [];
    });
    if (hits.length) {
      ok = false;
      parts.push(`must_not_match: ${hits.join(', ')}`);
    } else {
      parts.push(`must_not_match: no ${check.role} message matches ${showRegex(re)}`);
    }
  }
  return { id: check.id, kind: check.kind, verdict: ok ? 'pass' : 'fail', evidence: parts.join('; ') || 'no rules' };
}

/** Absolute slack added to `tolerance` so that e.g. 10.005 vs 10 ± 0.005 passes despite float noise. */
const EPS = 1e-9;

/**
 * `stated_amount`: some assistant message contains a number, captured by `pattern`'s first group
 * that matched (whole match if none did), commas stripped, within `equals` ± `tolerance`.
 * Evidence: `message 6 states "1,234.50" (= 1234.5; expected 1234.5 ± 0.005)`, or the amounts
 * stated when none is right.
 */
export function checkStatedAmount(check: CheckOf<'stated_amount'>, ctx: CheckContext): CheckResult {
  const re = compileRegex(ctx, check.id, check.pattern, '');
  const global = new RegExp(re.source, `${re.flags}g`);
  const stated: { i: number; raw: string; value: number }[] = [];
  for (const t of textsOf(ctx, 'assistant')) {
    for (const m of t.text.matchAll(global)) {
      const raw = m.slice(1).find((g) => g !== undefined) ?? m[0];
      const value = Number(raw.replace(/,/g, ''));
      if (raw.trim() !== '' && Number.isFinite(value)) stated.push({ i: t.i, raw, value });
    }
  }
  const want = `${check.equals} ± ${check.tolerance}`;
  const hit = stated.find((s) => Math.abs(s.value - check.equals) <= check.tolerance + EPS);
  const row = (ok: boolean, evidence: string): CheckResult => ({ id: check.id, kind: check.kind, verdict: ok ? 'pass' : 'fail', evidence });
  if (hit) return row(true, `message ${hit.i} states ${quote(hit.raw)} (= ${hit.value}; expected ${want})`);
  const seen = stated.length ? `amounts stated: ${stated.map((s) => `${quote(s.raw)} in message ${s.i}`).join(', ')}` : 'no amounts stated';
  return row(false, `no assistant message states ${want}; ${seen}`);
}
