/**
 * The agent interface every kind of agent implements (LLM, oracle, scripted). The orchestrator
 * only talks to this interface; it never asks which kind of agent it has.
 */
import type { AssistantMessage, ChatMessage } from '../spec/messages.js';
import type { ModelCallResult } from '../models/chat-model.js';

/**
 * One agent turn: the assistant message to append to the trajectory and, when a model produced
 * it, the call record (the orchestrator accounts its usage and receipt under the receipt's role).
 *
 * A turn is either text for the customer, or tool calls for the environment (tau2's rule: one or
 * the other). A message with neither (no tool calls and blank text) ends the episode as
 * `agent_error`; a message with both is handled per the episode's `mixedMessages` setting.
 */
export interface AgentTurn {
  message: AssistantMessage;
  call?: ModelCallResult;
}

/** Any agent: gives the system prompt and, turn by turn, the next assistant message. */
export interface Agent {
  /**
   * The system prompt that opens the trajectory (`messages[0]`). Agents without a model still
   * give one, so every trajectory has the same shape.
   */
  systemPrompt(): string;
  /**
   * The next turn, given the whole trajectory so far: the system message first, then assistant,
   * user and tool messages in OpenAI chat format. Must not mutate `messages`.
   * Throws the model's errors ({@link ProviderError}, {@link ReplayMissError}); the orchestrator
   * turns them into an `agent_error` episode or rethrows, per its `modelErrors` setting.
   */
  step(messages: readonly ChatMessage[]): Promise<AgentTurn>;
}

/** The text the agent writes to end the conversation itself (tau2's agent stop token). */
export const AGENT_STOP_TOKEN = '###STOP###';
