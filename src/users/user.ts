/**
 * The user interface every kind of simulated customer implements (scripted, LLM simulator).
 *
 * The user sees only the public conversation: the agent's text messages and its own messages
 * (never tool calls or tool results), as a list of {@link Utterance}s.
 */
import type { ModelCallResult } from '../models/chat-model.js';
import type { ToolCall } from '../spec/messages.js';

/**
 * One message of the public conversation, or (`from: 'tool'`) the result of one of the customer's
 * own tool calls, which only the customer sees (tau2 telecom's device tools).
 */
export interface Utterance {
  from: 'agent' | 'user' | 'tool';
  /** The message, or for `tool` the tool's output. */
  text: string;
  /** For `tool`: the customer's call that produced `text`. */
  toolCall?: ToolCall;
  /** For `tool`: whether the call failed. */
  error?: boolean;
}

/**
 * How a user ends the conversation (tau2's tokens): `stop` — the goal is met or cannot be met
 * (`###STOP###`); `transfer` — the agent handed them to a human (`###TRANSFER###`);
 * `out_of_scope` — the scenario gives them nothing more to go on (`###OUT-OF-SCOPE###`).
 * Every signal ends the episode as `user_stop`; the signal is kept in the episode result.
 */
export type UserSignal = 'stop' | 'transfer' | 'out_of_scope';

/** The tokens of the signals, as they appear in a user's text. */
export const USER_SIGNAL_TOKENS: Readonly<Record<UserSignal, string>> = {
  stop: '###STOP###',
  transfer: '###TRANSFER###',
  out_of_scope: '###OUT-OF-SCOPE###',
};

/** The first signal whose token occurs in `text` (stop, then transfer, then out-of-scope), or null. */
export function detectSignal(text: string): UserSignal | null {
  for (const s of ['stop', 'transfer', 'out_of_scope'] as const) if (text.includes(USER_SIGNAL_TOKENS[s])) return s;
  return null;
}

/**
 * One user turn.
 * - `message`: `text` goes to the agent (blank text ends the episode as `user_error`).
 * - `stop`: the user ends the conversation; `text` (tokens included, as tau2 records it) is
 *   appended as the last user message, or nothing is appended when it is null.
 * `call` is the model call that produced the turn (usage and receipt); `note` a remark the
 * orchestrator records as an episode event (e.g. the confirm-then-stop guard fired).
 */
export type UserTurn =
  | { kind: 'message'; text: string; call?: ModelCallResult; note?: string }
  | { kind: 'stop'; signal: UserSignal; text: string | null; call?: ModelCallResult; note?: string }
  /**
   * The customer acts on their own device: the calls run with requestor `user`, their results
   * come back as `tool` utterances, and the customer takes another turn (the agent sees none of it).
   */
  | { kind: 'tool_calls'; calls: ToolCall[]; call?: ModelCallResult; note?: string };

/** Any simulated customer. */
export interface User {
  /**
   * The next user turn. `transcript` is the public conversation so far; it is empty (or holds
   * only the agent's canned greeting) on the opening turn, and otherwise ends with the agent's
   * latest text message. Throws the model's errors (ProviderError, ReplayMissError); the
   * orchestrator turns them into a `user_error` episode or rethrows.
   */
  respond(transcript: readonly Utterance[]): Promise<UserTurn>;
}
