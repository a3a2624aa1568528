/**
 * The LLM agent: one model call per turn on the trajectory so far, with the domain's tools.
 *
 * Two ways to give the system prompt:
 * - `policy` (task runs): servicegym's short agent instructions, then the policy inside
 *   `<policy>…</policy>` — the shape tau2's agent prompt has (our own wording);
 * - `systemPrompt` (raw, campaign mode): exactly the given string, nothing added, so replayed
 *   requests equal the recorded ones byte for byte.
 *
 * The request body is `{messages, tools?, temperature?, seed?}`; fields that are not set are not
 * sent. Step limits are the orchestrator's business; malformed tool arguments are the
 * environment's (they come back as an `Error: …` tool message).
 */
import type { ContentPart } from '../spec/content.js';
import type { ChatMessage, ModelRole, WireTool } from '../spec/messages.js';
import type { Domain } from '../spec/domain.js';
import type { ChatModel, ModelCallResult } from '../models/chat-model.js';
import { MalformedResponseError } from '../spec/errors.js';
import { toWireTool } from '../env/wire-tools.js';
import type { Agent, AgentTurn } from './agent.js';

/** servicegym's agent instructions (placed before the `<policy>` block). */
export const DEFAULT_AGENT_INSTRUCTIONS = [
  'You are a customer service agent working for the company described in the policy below.',
  'Help the customer with their request, acting on behalf of the company and strictly within the policy; when the customer asks for something the policy does not allow, explain that and offer only what the policy allows.',
  'Each turn, do exactly one of two things: write one message to the customer, or make a tool call. Never do both in the same turn.',
  'Use only facts the customer told you or that tools returned; never guess ids, amounts or other details.',
  'Tool arguments must be valid JSON that matches the tool\'s parameters.',
].join('\n');

/** The last prompt {@link agentSystemPrompt} made, with what it was made from (a run makes the same one for every episode). */
let lastPrompt: { policy: string; instructions: string; prompt: string } | undefined;

/**
 * The system prompt for `policy` mode: `instructions`, a blank line, then `<policy>\n…\n</policy>`.
 * The same string for the same policy and instructions as last time (one string per run, not per
 * episode: `systemMessage` in src/models/chat-model.ts then finds its message by it at once).
 */
export function agentSystemPrompt(policy: string, instructions: string = DEFAULT_AGENT_INSTRUCTIONS): string {
  if (lastPrompt?.policy === policy && lastPrompt.instructions === instructions) return lastPrompt.prompt;
  lastPrompt = { policy, instructions, prompt: `${instructions}\n\n<policy>\n${policy}\n</policy>` };
  return lastPrompt.prompt;
}

/** The OpenAI `tools[]` entries of the tools the agent (requestor `assistant`) may call. */
export function agentWireTools(domain: Domain<any>): WireTool[] {
  return domain.tools.filter((t) => t.requestor === 'assistant' || domain.soloMode === true).map(toWireTool);
}

interface CommonOptions {
  model: ChatModel;
  /** Tools offered on every request; none ⇒ no `tools` field is sent. */
  tools: WireTool[];
  /** Sampling temperature sent with every request (0–2); not sent when unset. */
  temperature?: number;
  /** Sampling seed sent with every request (tau2 passes one); not sent when unset. */
  seed?: number;
  /** Role for receipts and usage; `task_agent` by default. */
  role?: ModelRole;
  /** Where tool-result images go in the request: the tool message (default) or a user message after the tool messages. */
  imageDelivery?: ImageDelivery;
}

/**
 * How a model receives the images tools answer with (screenshots): `tool_result` keeps them in
 * the tool message; `user_message` leaves the tool message its text and sends the images in a
 * user message right after the run of tool messages (some models only look at user images).
 * The trajectory itself is never changed; only the request is.
 */
export type ImageDelivery = 'tool_result' | 'user_message';

/**
 * The request messages for `delivery` (see {@link ImageDelivery}): for `user_message`, every tool
 * message's image parts move into one user message after its run of tool messages, captioned
 * with the tool call ids; the tool message keeps its text parts (or a pointer to the images).
 */
export function deliverImages(messages: readonly ChatMessage[], delivery: ImageDelivery = 'tool_result'): ChatMessage[] {
  if (delivery === 'tool_result') return [...messages];
  const out: ChatMessage[] = [];
  let pending: ContentPart[] = [];
  const flush = () => {
    if (pending.length) out.push({ role: 'user', content: pending } as ChatMessage);
    pending = [];
  };
  for (const m of messages) {
    if (m.role !== 'tool' || !Array.isArray(m.content) || !m.content.some((p) => p.type === 'image_url')) {
      if (m.role !== 'tool') flush();
      out.push(m);
      continue;
    }
    const images = m.content.filter((p) => p.type === 'image_url');
    const text = m.content.filter((p) => p.type === 'text');
    out.push({ ...m, content: text.length ? text : [{ type: 'text', text: 'The image is in the next user message.' }] });
    pending.push({ type: 'text', text: `Image from tool call ${m.tool_call_id}:` }, ...images);
  }
  flush();
  return out;
}

/**
 * Options: the model, the wire tools and sampling fields, plus exactly one of `systemPrompt`
 * (raw mode) or `policy` (+ optional `instructions`).
 */
export type LLMAgentOptions = CommonOptions &
  (
    | { /** Raw mode: the system prompt is exactly this string. */ systemPrompt: string; policy?: never; instructions?: never }
    | {
        /** Policy mode: the domain policy text (markdown), wrapped in `<policy>` tags. */
        policy: string;
        /** Replaces {@link DEFAULT_AGENT_INSTRUCTIONS}. */
        instructions?: string;
        systemPrompt?: never;
      }
  );

/** The model-backed agent; see the module doc. The constructor does no I/O. */
export class LLMAgent implements Agent {
  private readonly prompt: string;

  constructor(private readonly opts: LLMAgentOptions) {
    this.prompt = opts.systemPrompt !== undefined ? opts.systemPrompt : agentSystemPrompt(opts.policy, opts.instructions);
  }

  systemPrompt(): string {
    return this.prompt;
  }

  /**
   * One model call on the trajectory so far. The assistant message is returned exactly as the
   * model sent it, provider extras (e.g. `reasoning_content`) included, so the next request
   * carries it back unchanged. A malformed answer ({@link MalformedResponseError}) is retried
   * once with the same request; a second one is thrown with both raw bodies (the episode loop
   * counts it as the agent's failure). Throws the model's other errors (ProviderError, ReplayMissError).
   */
  async step(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const request: Record<string, unknown> = { messages: deliverImages(messages, this.opts.imageDelivery) };
    if (this.opts.tools.length) request.tools = this.opts.tools;
    if (this.opts.temperature !== undefined) request.temperature = this.opts.temperature;
    if (this.opts.seed !== undefined) request.seed = this.opts.seed;
    const role = this.opts.role ?? 'task_agent';
    let call: ModelCallResult;
    try {
      call = await this.opts.model.complete(request as never, role);
    } catch (e) {
      if (!(e instanceof MalformedResponseError)) throw e;
      // One retry of the same request; a second malformed answer is the agent's failure.
      try {
        call = await this.opts.model.complete(request as never, role);
      } catch (e2) {
        if (!(e2 instanceof MalformedResponseError)) throw e2;
        throw new MalformedResponseError(`${e2.message} (also on the retry; first: ${e.message})`, [...e.raw, ...e2.raw]);
      }
    }
    return { message: call.response.choices[0].message, call };
  }
}
