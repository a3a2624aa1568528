/**
 * A scripted agent: a fixed list of turns, for tests and for the hand-written "faulty agents"
 * of seed tasks. Write scripts with the step builders:
 *
 * ```ts
 * new ScriptedAgent([
 *   call('get_user_details', { user_id: 'mia_lee_301' }),
 *   say('Basic economy tickets cannot be changed. ###STOP###'),
 * ]);
 * ```
 *
 * A step may also be a function of the trajectory so far (e.g. to reuse an id a tool returned).
 * When the script runs out the agent stops (`###STOP###`, an `agent_stop`), unless
 * `onExhausted: 'throw'`.
 */
import type { AssistantMessage, ChatMessage, ToolCall } from '../spec/messages.js';
import { AGENT_STOP_TOKEN, type Agent, type AgentTurn } from './agent.js';

/** One tool call of a step. `arguments`: an object is JSON-encoded; a string is sent as is (malformed-JSON tests). */
export interface ScriptedCall {
  name: string;
  arguments: unknown;
}

/** A scripted turn: text for the customer, tool calls (in order), or a raw assistant message. */
export type ScriptStep =
  | { kind: 'say'; text: string }
  | { kind: 'call'; calls: ScriptedCall[] }
  | { kind: 'raw'; message: Omit<AssistantMessage, 'role'> };

/** A step, or a function computing it from the trajectory so far (system message first). */
export type ScriptEntry = ScriptStep | ((messages: readonly ChatMessage[]) => ScriptStep);

/** A text turn. */
export const say = (text: string): ScriptStep => ({ kind: 'say', text });
/** A turn with one tool call; `args` defaults to `{}`. */
export const call = (name: string, args: unknown = {}): ScriptStep => ({ kind: 'call', calls: [{ name, arguments: args }] });
/** A turn with several tool calls, executed in order. */
export const calls = (...list: [name: string, args?: unknown][]): ScriptStep => ({
  kind: 'call',
  calls: list.map(([name, args]) => ({ name, arguments: args ?? {} })),
});
/** The agent ends the conversation: `text` should contain `###STOP###` (the default). */
export const stop = (text: string = AGENT_STOP_TOKEN): ScriptStep => say(text);
/** A raw assistant message (e.g. empty, or text plus tool calls) for protocol-violation tests. */
export const raw = (message: Omit<AssistantMessage, 'role'>): ScriptStep => ({ kind: 'raw', message });

/** Scripted-agent options. */
export interface ScriptedAgentOptions {
  /** `messages[0]` of the trajectory; default `Scripted agent.` */
  systemPrompt?: string;
  /** Tool-call ids are `${idPrefix}${n}`, n counting from 1 per agent; default `call_`. */
  idPrefix?: string;
  /** What happens after the last step: `stop` (say `###STOP###`, default) or `throw`. */
  onExhausted?: 'stop' | 'throw';
}

/** Plays its script, one entry per turn; see the module doc. */
export class ScriptedAgent implements Agent {
  private next = 0;
  private ids = 0;

  constructor(
    private readonly script: ScriptEntry[],
    private readonly opts: ScriptedAgentOptions = {},
  ) {}

  systemPrompt(): string {
    return this.opts.systemPrompt ?? 'Scripted agent.';
  }

  /** The next scripted turn; after the last one `###STOP###` (or an Error with `onExhausted: 'throw'`). */
  async step(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const entry = this.script[this.next++];
    if (entry === undefined) {
      if (this.opts.onExhausted === 'throw') throw new Error(`scripted agent: script of ${this.script.length} steps exhausted`);
      return { message: { role: 'assistant', content: AGENT_STOP_TOKEN } };
    }
    const step = typeof entry === 'function' ? entry(messages) : entry;
    return { message: this.render(step) };
  }

  private render(step: ScriptStep): AssistantMessage {
    if (step.kind === 'say') return { role: 'assistant', content: step.text };
    if (step.kind === 'raw') return { role: 'assistant', ...step.message };
    return { role: 'assistant', content: null, tool_calls: step.calls.map((c) => this.toolCall(c)) };
  }

  private toolCall(c: ScriptedCall): ToolCall {
    return {
      id: `${this.opts.idPrefix ?? 'call_'}${++this.ids}`,
      type: 'function',
      function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments ?? {}) },
    };
  }
}
