/**
 * Where each back-end action of an episode sits. The action log holds every back-end operation
 * (agent's and user's) in order, each with its cause: the index of the message whose tool call
 * caused it and that call's id. The ordering and confirmation checks need the message positions.
 */
import type { ActionLogEntry } from '../spec/action-log.js';
import { contentText } from '../spec/content.js';
import type { ChatMessage } from '../spec/messages.js';
import type { CallMatch } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';
import { canonicalEqual } from '../util/canonical.js';
import { json } from './evidence.js';
import type { EpisodeTrace } from './types.js';

/** One back-end action with its position in the action log and in the message list. */
export interface LoggedCall {
  /** The action's `seq` (0-based index in the action log); evidence names actions as `#step`. */
  step: number;
  entry: ActionLogEntry;
  /** Index of the message whose tool call caused the action; null when it has no cause (harness actions). */
  message: number | null;
  /** The causing tool call's id; null when none is recorded. */
  toolCallId: string | null;
}

/**
 * The action log with message positions, from each action's `cause`. Throws
 * {@link BadInputError} when a cause names a message the trajectory does not have, or a tool call
 * id that message does not carry (the trace is inconsistent).
 */
export function indexActions(trace: Pick<EpisodeTrace, 'messages' | 'actionLog'>): LoggedCall[] {
  return trace.actionLog.map((entry, step) => {
    const cause = entry.cause;
    if (!cause) return { step, entry, message: null, toolCallId: null };
    const m = trace.messages[cause.message_index];
    if (!m) {
      throw new BadInputError(`trace: action #${step} (${entry.name}) names message ${cause.message_index}, but the trajectory has ${trace.messages.length} messages`);
    }
    const id = cause.tool_call_id;
    // the agent's tool calls, or the customer's own (a `user` message carrying `tool_calls`, dual control)
    const calls = m.role === 'assistant' || m.role === 'user' ? ((m as { tool_calls?: { id: string }[] }).tool_calls ?? []) : [];
    if (id !== undefined && !calls.some((tc) => tc.id === id)) {
      throw new BadInputError(`trace: action #${step} (${entry.name}) names tool call ${id}, which message ${cause.message_index} does not carry`);
    }
    return { step, entry, message: cause.message_index, toolCallId: id ?? null };
  });
}

/** The former name of {@link indexActions}. */
export const indexToolCalls = indexActions;

/** True for a plain JSON object (not an array, not null). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** JSON deep equality up to object key order; `undefined` (absent) equals only `undefined`. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || b === undefined) return a === b;
  return canonicalEqual(a, b);
}

/**
 * Whether a logged call matches a servicegym {@link CallMatch}: same tool name, and every listed
 * argument present in the call and JSON-equal to it (other arguments ignored), and the pattern's
 * side (`requestor`) when it names one. A call whose arguments were not a JSON object matches only a
 * name-only pattern.
 */
export function matchesCall(entry: Pick<ActionLogEntry, 'name' | 'arguments'> & { requestor?: ActionLogEntry['requestor'] }, match: CallMatch): boolean {
  if (entry.name !== match.name) return false;
  if (match.requestor !== undefined && entry.requestor !== match.requestor) return false;
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
  const side = m.requestor ? ` (${m.requestor})` : '';
  return m.arguments && Object.keys(m.arguments).length > 0 ? `${m.name} ${json(m.arguments)}${side}` : `${m.name}${side}`;
}

/** The text of a message (`''` when it has none, e.g. an assistant message with only tool calls; text parts joined). */
export function textOf(m: ChatMessage): string {
  return contentText(m.content);
}
