/**
 * The replay user: gives back a recorded trajectory's user turns in order. A user message holding a
 * stop token (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`) ends the conversation with
 * that message, as the LLM user simulator's would; when the recording has no further user turn
 * the customer stops without one, as a scripted customer does. In dual control (tau2 telecom) a
 * user message carrying `tool_calls` is the customer acting on their own device: it is replayed as
 * those calls (requestor `user`), which run again in the fresh environment.
 */
import type { ChatMessage, ToolCall } from '../spec/messages.js';
import { contentText } from '../spec/content.js';
import { detectSignal, type User, type UserTurn } from './user.js';

/** One recorded user turn: a message, or the customer's own tool calls. */
type RecordedTurn = { text: string } | { calls: ToolCall[] };

/** The user turns of a trajectory, in order (the customer's tool calls as their own turns). */
export function recordedUserTurns(messages: readonly ChatMessage[]): RecordedTurn[] {
  return messages.flatMap((m): RecordedTurn[] => {
    if (m.role !== 'user') return [];
    const calls = (m as { tool_calls?: ToolCall[] }).tool_calls;
    if (calls?.length) return [{ calls: calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } })) }];
    return [{ text: contentText(m.content) }];
  });
}

/** Replays the user turns of `messages`, one per `respond`. */
export class ReplayUser implements User {
  private readonly turns: RecordedTurn[];
  private next = 0;

  /** @param messages the recorded trajectory (chat-completions messages). */
  constructor(messages: readonly ChatMessage[]) {
    this.turns = recordedUserTurns(messages);
  }

  async respond(): Promise<UserTurn> {
    const turn = this.turns[this.next++];
    if (turn === undefined) return { kind: 'stop', signal: 'stop', text: null };
    if ('calls' in turn) return { kind: 'tool_calls', calls: structuredClone(turn.calls) };
    const signal = detectSignal(turn.text);
    return signal ? { kind: 'stop', signal, text: turn.text } : { kind: 'message', text: turn.text };
  }

  /** User turns not replayed (the episode ended before them). */
  remaining(): number {
    return Math.max(0, this.turns.length - this.next);
  }
}
