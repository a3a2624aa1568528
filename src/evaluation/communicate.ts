/**
 * tau2 COMMUNICATE rule: each required string appears in some assistant text message, compared
 * case-insensitively after deleting commas from the message (not from the string).
 */
import type { ChatMessage } from '../spec/messages.js';
import { quote, type ComponentResult } from './evidence.js';
import type { CheckResult } from './types.js';
import { textOf } from './trace-index.js';

/**
 * Index of the first assistant message with text that communicates `info`
 * (`info.toLowerCase()` is a substring of `content.toLowerCase().replace(/,/g, '')`), or -1.
 * Note tau2's quirk: a string that itself contains a comma can never match.
 */
export function communicatedAt(info: string, messages: readonly ChatMessage[]): number {
  const want = info.toLowerCase();
  return messages.findIndex((m) => {
    if (m.role !== 'assistant') return false;
    const text = textOf(m);
    return text !== '' && text.toLowerCase().replace(/,/g, '').includes(want);
  });
}

/**
 * The communicate rule as a check row: pass iff every string is communicated (empty list ⇒ pass).
 * Evidence: `"refund" in message 5` per string, or `not communicated: "O2"` first when any is missing.
 */
export function communicateCheck(id: string, kind: string, info: readonly string[], messages: readonly ChatMessage[]): CheckResult {
  if (info.length === 0) return { id, kind, verdict: 'pass', evidence: 'nothing to communicate' };
  const at = info.map((s) => ({ s, i: communicatedAt(s, messages) }));
  const missing = at.filter((x) => x.i < 0).map((x) => quote(x.s));
  const found = at.filter((x) => x.i >= 0).map((x) => `${quote(x.s)} in message ${x.i}`);
  if (missing.length === 0) return { id, kind, verdict: 'pass', evidence: `communicated: ${found.join('; ')}` };
  const rest = found.length ? `; communicated: ${found.join('; ')}` : '';
  return { id, kind, verdict: 'fail', evidence: `not communicated: ${missing.join(', ')}${rest}` };
}

/** tau2 COMMUNICATE component for `communicate_info` (null/empty ⇒ 1). */
export function communicateComponent(info: readonly string[] | null | undefined, messages: readonly ChatMessage[]): ComponentResult {
  const check = communicateCheck('tau2_communicate', 'COMMUNICATE', info ?? [], messages);
  return { score: check.verdict === 'pass' ? 1 : 0, check };
}
