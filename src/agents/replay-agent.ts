/**
 * The replay agent: gives back a recorded trajectory's assistant messages in order, so that a
 * conversation that happened elsewhere (another harness, a production log, a tau2 results file)
 * is re-executed in a fresh environment and scored exactly as a live episode would be
 * (`servicegym evaluate`, `servicegym import tau2-results`). Its system prompt is the recorded
 * one. The canned greeting is not an agent turn: see {@link splitGreeting}.
 */
import type { AssistantMessage, ChatMessage } from '../spec/messages.js';
import type { Agent, AgentTurn } from './agent.js';

/**
 * The recorded greeting (an assistant text message without tool calls before any user message),
 * if the trajectory opens with one, and the index of the first message after it. The orchestrator
 * sends the greeting itself, so it must not be replayed as an agent turn.
 */
export function splitGreeting(messages: readonly ChatMessage[]): { greeting: string | null; rest: number } {
  const i = messages.findIndex((m) => m.role !== 'system');
  const m = i >= 0 ? messages[i] : undefined;
  if (m?.role === 'assistant' && !(m.tool_calls?.length) && typeof m.content === 'string') return { greeting: m.content, rest: i + 1 };
  return { greeting: null, rest: i < 0 ? messages.length : i };
}

/** Thrown when the episode asks for more assistant turns than the trajectory recorded. */
export class TrajectoryExhaustedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrajectoryExhaustedError';
  }
}

/**
 * Index of the first user text message that directly follows another one (the customer wrote
 * twice before the agent answered), or -1. The replay gives the agent a turn after every user
 * message, so such a recording runs out of assistant turns before its end.
 */
export function consecutiveUserMessage(messages: readonly ChatMessage[]): number {
  const text = (m: ChatMessage | undefined) => m?.role === 'user' && !((m as { tool_calls?: unknown[] }).tool_calls?.length);
  return messages.findIndex((m, i) => i > 0 && text(m) && text(messages[i - 1]));
}

/** Replays the assistant messages of `messages` (after the greeting), one per `step`. */
export class ReplayAgent implements Agent {
  private readonly turns: AssistantMessage[];
  private readonly system: string;
  private readonly doubled: number;
  private next = 0;

  /** @param messages the recorded trajectory (OpenAI chat messages, system first if recorded). */
  constructor(messages: readonly ChatMessage[]) {
    const first = messages[0];
    this.system = first?.role === 'system' ? first.content : '';
    const { rest } = splitGreeting(messages);
    this.turns = messages.slice(rest).filter((m): m is AssistantMessage => m.role === 'assistant');
    this.doubled = consecutiveUserMessage(messages);
  }

  systemPrompt(): string {
    return this.system;
  }

  /** The next recorded assistant message (a copy); throws {@link TrajectoryExhaustedError} past the last. */
  async step(): Promise<AgentTurn> {
    const m = this.turns[this.next++];
    if (!m) {
      const why = this.doubled < 0 ? '' : `: messages[${this.doubled - 1}] and messages[${this.doubled}] are two user messages in a row, and the replay gives the agent a turn after each user message (join them into one to replay the recording)`;
      throw new TrajectoryExhaustedError(`the trajectory records ${this.turns.length} assistant message(s); the episode asked for another${why}`);
    }
    return { message: structuredClone(m) };
  }

  /** Assistant messages not replayed (the episode ended before them). */
  remaining(): number {
    return Math.max(0, this.turns.length - this.next);
  }
}
