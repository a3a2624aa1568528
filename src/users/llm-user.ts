/**
 * The LLM user simulator: a model plays the customer of a task's user scenario.
 *
 * Each turn is one model call (role `user_simulator` for receipts and usage) with
 * `[system prompt, …conversation with roles flipped]`: the agent's messages are sent as `user`,
 * the customer's own earlier messages as `assistant`. The conversation is rebuilt from the public
 * transcript every turn, so the simulator sees what the agent actually received (e.g. a reply
 * whose stop token the guard removed). When the transcript does not open with an agent message
 * (no canned greeting), an opening cue is sent first as a `user` message.
 *
 * The reply's tokens end the conversation (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`,
 * see {@link UserSignal}), except when the confirm-then-stop guard applies
 * (see {@link guardConfirmThenStop}), which is on by default.
 */
import type { ChatMessage, ModelRole, WireTool } from '../spec/messages.js';
import type { UserScenario } from '../spec/task.js';
import { systemMessage, type ChatModel } from '../models/chat-model.js';
import { detectSignal, type User, type UserTurn, type Utterance } from './user.js';
import { userSystemPrompt } from './user-prompt.js';
import { guardConfirmThenStop, type ConfirmGuardOptions } from './confirm-guard.js';

/** Added to the prompt when the customer has device tools (servicegym's wording of tau2's tool guidelines). */
export const USER_DEVICE_GUIDELINES = [
  'You can act on your own phone with the tools you have been given; the agent cannot touch your phone.',
  '- When the agent asks you to check or change something on your phone, do it with a tool call: one action per turn, either a tool call or a message, never both.',
  '- Base everything you say about your phone on the results of your tool calls; never claim a result you have not seen.',
  '- The agent cannot see your tool calls or their results: tell the agent what you did and what you found.',
].join('\n');

/** Sent as the first `user` message when the agent has not spoken first. */
export const DEFAULT_OPENING_CUE = '(The chat has opened. Write your first message to the agent.)';

/** Simulator options; only `model` and `scenario` are required. */
export interface LLMUserSimulatorOptions {
  model: ChatModel;
  /** The task's user scenario, or plain instructions. */
  scenario: UserScenario | string;
  /** Persona modifiers appended to the prompt (see {@link userSystemPrompt}). */
  modifiers?: string[];
  /** Replaces the whole generated system prompt (scenario and modifiers are then unused). */
  systemPrompt?: string;
  /** Sampling temperature; not sent when unset (tau2 uses 0). */
  temperature?: number;
  /** Sampling seed; not sent when unset. */
  seed?: number;
  /** Role for receipts and usage; default `user_simulator`. */
  role?: ModelRole;
  /** The confirm-then-stop guard's patterns, or `false` to turn it off. Default: on, default patterns. */
  confirmGuard?: ConfirmGuardOptions | false;
  /** See {@link DEFAULT_OPENING_CUE}. */
  openingCue?: string;
  /**
   * Tools the customer may call on their own device (tau2 telecom's user tools); sent with every
   * request. A reply with tool calls becomes a `tool_calls` turn; the results come back as
   * `tool` utterances, sent to the model as its own tool calls and their results.
   */
  tools?: WireTool[];
}

/** An utterance as the simulator's model sees it: the agent's as `user`, its own as `assistant` (a device tool call and its result as two messages). */
function flip(u: Utterance): ChatMessage[] {
  if (u.from === 'tool' && u.toolCall) {
    return [
      { role: 'assistant', content: null, tool_calls: [u.toolCall] },
      { role: 'tool', tool_call_id: u.toolCall.id, content: u.text },
    ];
  }
  return [u.from === 'agent' ? { role: 'user', content: u.text } : { role: 'assistant', content: u.text }];
}

/** The model-backed customer; see the module doc. The constructor does no I/O. */
export class LLMUserSimulator implements User {
  private readonly prompt: string;

  constructor(private readonly opts: LLMUserSimulatorOptions) {
    const base = opts.systemPrompt ?? userSystemPrompt(opts.scenario, opts.modifiers ?? []);
    this.prompt = opts.tools?.length && !opts.systemPrompt ? `${base}\n\n${USER_DEVICE_GUIDELINES}` : base;
  }

  /** The simulator's system prompt. */
  systemPrompt(): string {
    return this.prompt;
  }

  /**
   * The simulator's request messages for a transcript (system first, roles flipped). The message
   * objects are made once per utterance and reused on later turns (a message, once sent, is not
   * changed; see `ChatModel.complete`), so a conversation's earlier messages are not serialized or
   * hashed again; an utterance whose fields changed gets fresh ones.
   */
  messagesFor(transcript: readonly Utterance[]): ChatMessage[] {
    const out: ChatMessage[] = [(this.systemMessage ??= systemMessage(this.prompt))];
    if (transcript[0]?.from !== 'agent') out.push((this.cueMessage ??= { role: 'user', content: this.opts.openingCue ?? DEFAULT_OPENING_CUE }));
    for (const u of transcript) {
      let made = this.flipped.get(u);
      if (!made || made.from !== u.from || made.text !== u.text || made.toolCall !== u.toolCall) {
        made = { from: u.from, text: u.text, toolCall: u.toolCall, messages: flip(u) };
        this.flipped.set(u, made);
      }
      out.push(...made.messages);
    }
    return out;
  }

  private systemMessage: ChatMessage | undefined;
  private cueMessage: ChatMessage | undefined;
  /** Per utterance: the fields its messages were made from, and the messages. */
  private readonly flipped = new WeakMap<Utterance, Pick<Utterance, 'from' | 'text' | 'toolCall'> & { messages: ChatMessage[] }>();

  /** One model call; throws the model's errors (ProviderError, ReplayMissError). */
  async respond(transcript: readonly Utterance[]): Promise<UserTurn> {
    const request: Record<string, unknown> = { messages: this.messagesFor(transcript) };
    if (this.opts.temperature !== undefined) request.temperature = this.opts.temperature;
    if (this.opts.seed !== undefined) request.seed = this.opts.seed;
    if (this.opts.tools?.length) request.tools = this.opts.tools;
    const call = await this.opts.model.complete(request as never, this.opts.role ?? 'user_simulator');
    const calls = call.response.choices[0].message.tool_calls ?? [];
    if (calls.length > 0) return { kind: 'tool_calls', calls, call };
    const text = call.response.choices[0].message.content ?? '';
    const signal = detectSignal(text);
    if (signal === 'stop' && this.opts.confirmGuard !== false) {
      const last = transcript[transcript.length - 1];
      const kept = guardConfirmThenStop(last?.from === 'agent' ? last.text : undefined, text, this.opts.confirmGuard ?? {});
      if (kept !== null) {
        return { kind: 'message', text: kept, call, note: 'confirm-then-stop guard: the stop token was removed from a reply confirming an action; the conversation continues until the agent reports the outcome' };
      }
    }
    return signal ? { kind: 'stop', signal, text, call } : { kind: 'message', text, call };
  }
}
