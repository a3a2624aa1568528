/**
 * The LLM agent: a system prompt, the domain's tools, one model call per step.
 */
import type { AssistantMessage, ChatMessage, ModelRole, WireTool } from '../spec/messages.js';
import type { ChatModel, ModelCallResult } from '../models/chat-model.js';

export interface LLMAgentOptions {
  model: ChatModel;
  /** System prompt (instructions, and the policy where the domain has one). */
  systemPrompt: string;
  tools: WireTool[];
  /** Sampling temperature sent with every request (0–2). */
  temperature?: number;
  /** Role for receipts and usage; `task_agent` by default. */
  role?: ModelRole;
}

/** An agent step: the assistant message exactly as the model returned it, and the call record. */
export interface AgentStep {
  message: AssistantMessage;
  call: ModelCallResult;
}

export class LLMAgent {
  constructor(private readonly opts: LLMAgentOptions) {}

  /** The system message that opens every trajectory of this agent. */
  systemMessage(): ChatMessage {
    return { role: 'system', content: this.opts.systemPrompt };
  }

  /**
   * One model call on the trajectory so far (`messages` starts with the system message).
   * The returned assistant message keeps provider extras (e.g. `reasoning_content`) so the next
   * request carries it back unchanged. Throws the model's errors (ProviderError, ReplayMissError).
   */
  async step(messages: ChatMessage[]): Promise<AgentStep> {
    const request: Record<string, unknown> = { messages };
    if (this.opts.tools.length) request.tools = this.opts.tools;
    if (this.opts.temperature !== undefined) request.temperature = this.opts.temperature;
    const call = await this.opts.model.complete(request as never, this.opts.role ?? 'task_agent');
    const message = call.response.choices[0].message;
    return { message, call };
  }
}
