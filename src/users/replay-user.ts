/**
 * The replay user: gives back a recorded trajectory's user messages in order. A message holding a
 * stop token (`###STOP###`, `###TRANSFER###`, `###OUT-OF-SCOPE###`) ends the conversation with
 * that message, as the LLM user simulator's would; when the recording has no further user message
 * the customer stops without one, as a scripted customer does.
 */
import type { ChatMessage } from '../spec/messages.js';
import { contentText } from '../spec/content.js';
import { detectSignal, type User, type UserTurn } from './user.js';

/** Replays the user messages of `messages`, one per `respond`. */
export class ReplayUser implements User {
  private readonly said: string[];
  private next = 0;

  /** @param messages the recorded trajectory (OpenAI chat messages). */
  constructor(messages: readonly ChatMessage[]) {
    this.said = messages.flatMap((m) => (m.role === 'user' ? [contentText(m.content)] : []));
  }

  async respond(): Promise<UserTurn> {
    const text = this.said[this.next++];
    if (text === undefined) return { kind: 'stop', signal: 'stop', text: null };
    const signal = detectSignal(text);
    return signal ? { kind: 'stop', signal, text } : { kind: 'message', text };
  }

  /** User messages not replayed (the episode ended before them). */
  remaining(): number {
    return Math.max(0, this.said.length - this.next);
  }
}
