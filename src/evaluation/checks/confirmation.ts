/** servicegym `confirmation_before_write`: the user said yes to the agent's last summary before each write. */
import { quote } from '../evidence.js';
import { describeCall, textOf, type LoggedCall } from '../trace-index.js';
import type { CheckResult } from '../types.js';
import { compileRegex, type CheckContext, type CheckOf } from './context.js';

/**
 * `confirmation_before_write`: for each write call of the agent — a tool-log entry flagged
 * `mutating` (a write tool that succeeded), or, when `tools` is given, any call of those tools —
 * some user message after the agent's last text message before the call, and before the call,
 * matches `confirm` (case-insensitive). No write calls ⇒ pass.
 * Evidence: per write, the confirming message (`#3 cancel_order confirmed by message 6 "Yes"`),
 * or the unconfirmed writes and the agent message they should have followed.
 */
export function checkConfirmationBeforeWrite(check: CheckOf<'confirmation_before_write'>, ctx: CheckContext): CheckResult {
  const re = compileRegex(ctx, check.id, check.confirm, 'i');
  const msgs = ctx.trace.messages;
  const isWrite = (c: LoggedCall) =>
    c.entry.requestor === 'assistant' && (check.tools ? check.tools.includes(c.entry.name) : c.entry.mutating);
  const writes = ctx.calls.filter(isWrite);
  if (writes.length === 0) return { id: check.id, kind: check.kind, verdict: 'pass', evidence: 'no write calls' };
  const confirmed: string[] = [];
  const unconfirmed: string[] = [];
  for (const w of writes) {
    const at = w.message ?? -1;
    let lastText = -1;
    for (let i = at - 1; i >= 0; i--) {
      if (msgs[i].role === 'assistant' && textOf(msgs[i]) !== '') {
        lastText = i;
        break;
      }
    }
    let yes = -1;
    for (let i = at - 1; i > lastText; i--) {
      if (msgs[i].role === 'user' && re.test(textOf(msgs[i]))) {
        yes = i;
        break;
      }
    }
    const after = lastText < 0 ? 'the start of the conversation' : `agent message ${lastText}`;
    if (at >= 0 && yes >= 0) confirmed.push(`${describeCall(w)} confirmed by message ${yes} ${quote(textOf(msgs[yes]))}`);
    else unconfirmed.push(`${describeCall(w)} (no confirming user message after ${after})`);
  }
  if (unconfirmed.length === 0) return { id: check.id, kind: check.kind, verdict: 'pass', evidence: confirmed.join('; ') };
  return { id: check.id, kind: check.kind, verdict: 'fail', evidence: `unconfirmed write(s): ${unconfirmed.join('; ')}` };
}
