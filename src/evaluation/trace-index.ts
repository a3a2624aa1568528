/**
 * Where each tool call of an episode sits. The tool log holds every executed call (agent's and
 * user's) in order; the agent's calls also appear, in the same order, as `tool_calls` of
 * assistant messages. Aligning the two gives each logged call its message position, which the
 * ordering and confirmation checks need.
 */
import type { ChatMessage } from '../spec/messages.js';
import type { CallMatch } from '../spec/task.js';
import type { ToolLogEntry } from '../env/environment.js';
import { BadInputError } from '../spec/errors.js';
import { canonicalJson } from '../util/canonical.js';
import { json } from './evidence.js';
import type { EpisodeTrace } from './types.js';

/** One executed call with its position in the tool log and in the message list. */
export interface LoggedCall {
  /** 0-based index in the tool log; evidence names calls as `#step`. */
  step: number;
  entry: ToolLogEntry;
  /** Index of the assistant message carrying the call; null for user-side calls. */
  message: number | null;
  /** The call's id in that message; null for user-side calls. */
  toolCallId: string | null;
}

/**
 * Aligns the tool log with the assistant messages' tool calls: the k-th assistant-requested log
 * entry is the k-th tool call in message order. Trailing calls of the messages without a log
 * entry (never executed because the episode ended) are ignored.
 * Throws {@link BadInputError} when a name differs at some position, or when the log holds more
 * assistant calls than the messages do (the trace is inconsistent).
 */
export function indexToolCalls(trace: Pick<EpisodeTrace, 'messages' | 'toolLog'>): LoggedCall[] {
  const calls: LoggedCall[] = trace.toolLog.map((entry, step) => ({ step, entry, message: null, toolCallId: null }));
  const agentCalls = calls.filter((c) => c.entry.requestor === 'assistant');
  let k = 0;
  trace.messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    for (const tc of m.tool_calls ?? []) {
      const c = agentCalls[k++];
      if (!c) return;
      if (c.entry.name !== tc.function.name) {
        throw new BadInputError(
          `trace: tool call ${tc.id} (${tc.function.name}) in message ${i} does not match tool log entry #${c.step} (${c.entry.name})`,
        );
      }
      c.message = i;
      c.toolCallId = tc.id;
    }
  });
  if (k < agentCalls.length) {
    const c = agentCalls[k];
    throw new BadInputError(`trace: tool log entry #${c.step} (${c.entry.name}) has no tool call in the messages`);
  }
  return calls;
}

/** True for a plain JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON deep equality up to object key order; `undefined` (absent) equals only `undefined`. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}

/**
 * Whether a logged call matches a servicegym {@link CallMatch}: same tool name, and every listed
 * argument present in the call and JSON-equal to it (other arguments ignored). A call whose
 * arguments were not a JSON object matches only a name-only pattern.
 */
export function matchesCall(entry: ToolLogEntry, match: CallMatch): boolean {
  if (entry.name !== match.name) return false;
  const want = Object.entries(match.arguments ?? {});
  if (want.length === 0) return true;
  if (!isRecord(entry.arguments)) return false;
  const args = entry.arguments;
  return want.every(([k, v]) => Object.prototype.hasOwnProperty.call(args, k) && jsonEqual(args[k], v));
}

/** A logged call for evidence: `#3 cancel_order {"order_id":"O1"}`. */
export function describeCall(c: LoggedCall): string {
  return `#${c.step} ${c.entry.name} ${json(c.entry.arguments)}`;
}

/** A call pattern for evidence: `cancel_order {"order_id":"O1"}`, or just the name. */
export function describeMatch(m: CallMatch): string {
  return m.arguments && Object.keys(m.arguments).length > 0 ? `${m.name} ${json(m.arguments)}` : m.name;
}

/** The text of a message (`''` when it has none, e.g. an assistant message with only tool calls). */
export function textOf(m: ChatMessage): string {
  return typeof m.content === 'string' ? m.content : '';
}
