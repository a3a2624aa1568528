/**
 * Per-turn timings of an episode for its run-log record (`timings.turns`): each agent and
 * simulated-customer message paired with the model call that produced it, and that call's
 * latency in seconds (the receipt's `elapsed_seconds`, retries included; recorded seconds in a
 * replay). Receipts are matched to messages in order, per role (`task_agent` → assistant,
 * `user_simulator` → user): a call matches the next message of its role that carries the same
 * tool-call ids, or the same text once the customer's control tokens (`###STOP###`, ...) are
 * removed. A call that produced no message (a malformed reply the agent never saw) matches
 * nothing and is left out, as are messages no call produced (scripted customers, a task's opening line).
 */
import type { Receipt } from '../spec/receipt.js';
import type { RunLogMessage } from '../spec/run-log.js';

/** One timed turn: the message's index in `messages`, its role and the seconds its call took. */
export interface TurnTiming {
  message_index: number;
  role: 'assistant' | 'user';
  latency_seconds: number;
}

const ROLE_OF: Partial<Record<Receipt['kind'], 'assistant' | 'user'>> = { task_agent: 'assistant', user_simulator: 'user' };

const plain = (content: unknown): string =>
  (typeof content === 'string' ? content : Array.isArray(content) ? content.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('') : '').replace(/###[A-Z_-]+###/g, '').trim();

const callIds = (m: { tool_calls?: { id?: string }[] | null } | undefined): string => (m?.tool_calls ?? []).map((c) => c.id ?? '').join('\u0000');

function sameTurn(message: RunLogMessage, reply: { content?: unknown; tool_calls?: { id?: string }[] | null }): boolean {
  const ids = callIds(reply);
  if (ids !== '' && ids === callIds(message as never)) return true;
  const text = plain(reply.content);
  return text !== '' && text === plain(message.content);
}

/** The timed turns of `messages` from the episode's `receipts` (see the module doc), in message order. */
export function turnTimings(messages: readonly RunLogMessage[], receipts: readonly Receipt[]): TurnTiming[] {
  const cursor = { assistant: 0, user: 0 };
  const out: TurnTiming[] = [];
  for (const r of receipts) {
    const role = ROLE_OF[r.kind];
    const reply = (r.response as { choices?: { message?: { content?: unknown; tool_calls?: { id?: string }[] | null } }[] } | null)?.choices?.[0]?.message;
    if (!role || !reply) continue;
    for (let i = cursor[role]; i < messages.length; i++) {
      if (messages[i].role !== role || !sameTurn(messages[i], reply)) continue;
      out.push({ message_index: i, role, latency_seconds: Math.round(r.elapsed_seconds * 1e6) / 1e6 });
      cursor[role] = i + 1;
      break;
    }
  }
  return out.sort((a, b) => a.message_index - b.message_index);
}
