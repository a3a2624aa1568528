/**
 * servicegym `confirmation_before_write`: before each write the agent listed the action's details
 * and the customer answered with an explicit yes (policies 1.2: "list the action details and
 * obtain explicit confirmation").
 */
import { classifyReply, type ReplyLabel } from '../confirmation/classify.js';
import { missingDetails } from '../confirmation/details.js';
import { quote } from '../evidence.js';
import { textOf } from '../trace-index.js';
import type { ChatMessage } from '../../spec/messages.js';
import type { CheckResult } from '../types.js';
import { compileRegex, type CheckContext, type CheckOf } from './context.js';
import { agentWrites, type WriteAction } from './writes.js';

/** The confirmation exchange before one write: the agent's request and the customer's answer. */
interface Exchange {
  /** Index of the agent's last text message before the write (-1: none). */
  request: number;
  /** The agent's text messages since the previous write's exchange, which must name the write. */
  requestText: string;
  /** The customer's last message between the request and the write (-1: none). */
  reply: number;
}

function lastTextBefore(msgs: readonly ChatMessage[], role: 'assistant' | 'user', from: number, to: number): number {
  for (let i = to - 1; i > from; i--) if (msgs[i].role === role && textOf(msgs[i]) !== '') return i;
  return -1;
}

/** The exchange before `w`; `prevMessages` are the messages of the earlier writes. */
function exchangeBefore(msgs: readonly ChatMessage[], at: number, prevMessages: readonly number[]): Exchange {
  const request = lastTextBefore(msgs, 'assistant', -1, at);
  // Consecutive writes after one request share it: the window starts after the last write before the request.
  const start = Math.max(-1, ...prevMessages.filter((m) => m < request));
  const texts: string[] = [];
  for (let i = start + 1; i <= request; i++) if (msgs[i].role === 'assistant' && textOf(msgs[i]) !== '') texts.push(textOf(msgs[i]));
  return { request, requestText: texts.join('\n'), reply: lastTextBefore(msgs, 'user', request, at) };
}

/**
 * `confirmation_before_write`: for each write of the agent ({@link agentWrites}: successful write
 * calls, or every call of `tools`):
 * 1. the customer's last message between the agent's last text message and the write is an
 *    explicit yes — by the classifier (src/evaluation/confirmation/classify.ts), or, when the task
 *    gives `confirm`, by that regex (case-insensitive);
 * 2. unless `details` is false, the agent's text messages since the previous write name the
 *    write's action, identifiers, dates, amounts and payment method
 *    (src/evaluation/confirmation/details.ts).
 * No writes ⇒ pass. Evidence per write: `#4 cancel_reservation {…} confirmed by message 6 "Yes"`,
 * or why not: no reply, the reply's label and cues, or the details the request left out.
 */
export function checkConfirmationBeforeWrite(check: CheckOf<'confirmation_before_write'>, ctx: CheckContext): CheckResult {
  const msgs = ctx.trace.messages;
  const re = check.confirm !== undefined ? compileRegex(ctx, check.id, check.confirm, 'i') : undefined;
  const writes = agentWrites(ctx, check.tools);
  if (writes.length === 0) return { id: check.id, kind: check.kind, verdict: 'pass', evidence: 'no write calls' };
  const confirmed: string[] = [];
  const unconfirmed: string[] = [];
  writes.forEach((w: WriteAction, k) => {
    const at = w.message ?? -1;
    const prev = writes.slice(0, k).flatMap((p) => (p.message === null ? [] : [p.message]));
    const ex = at >= 0 ? exchangeBefore(msgs, at, prev) : { request: -1, requestText: '', reply: -1 };
    const after = ex.request < 0 ? 'the start of the conversation' : `agent message ${ex.request}`;
    if (ex.request < 0) return unconfirmed.push(`${w.label} (no agent request before it)`);
    if (ex.reply < 0) return unconfirmed.push(`${w.label} (no customer reply after ${after})`);
    const replyText = textOf(msgs[ex.reply]);
    const label: ReplyLabel = re ? (re.test(replyText) ? 'yes' : 'unclear') : classifyReply(replyText).label;
    if (label !== 'yes') {
      const cues = re ? `does not match /${re.source}/` : classifyReply(replyText).cues.join(', ') || 'no cues';
      return unconfirmed.push(`${w.label} (reply ${ex.reply} ${quote(replyText)} is ${label}: ${cues})`);
    }
    const missing = check.details ? missingDetails(ex.requestText, w) : [];
    if (missing.length > 0) return unconfirmed.push(`${w.label} (the request up to ${after} does not name: ${missing.join(', ')})`);
    confirmed.push(`${w.label} confirmed by message ${ex.reply} ${quote(replyText)}`);
  });
  if (unconfirmed.length === 0) return { id: check.id, kind: check.kind, verdict: 'pass', evidence: confirmed.join('; ') };
  return { id: check.id, kind: check.kind, verdict: 'fail', evidence: `unconfirmed write(s): ${unconfirmed.join('; ')}` };
}
