/**
 * A scripted user: rules first, then ordered replies, then stop.
 *
 * Each turn: if the agent's latest message matches a rule's `when`, the user says that rule's
 * text (a `once` rule fires at most once; the first matching rule wins); otherwise the next
 * ordered reply; when the replies are used up, the user stops without a further message
 * (`user_stop`, nothing appended). A text containing the stop token (or `###TRANSFER###`,
 * `###OUT-OF-SCOPE###`) is sent as the user's last message and ends the episode.
 *
 * `new ScriptedUser([text])` is the seed campaign's single-message customer: it opens the
 * conversation and stops at the agent's first text reply.
 */
import { detectSignal, USER_SIGNAL_TOKENS, type User, type UserTurn, type Utterance } from './user.js';

/** A reply triggered by the agent's latest message. */
export interface UserRule {
  /** Tested against the agent's latest text message. */
  when: RegExp;
  /** What the user says when it matches. */
  say: string;
  /** Fire at most once; default false (fires every time it matches). */
  once?: boolean;
}

/** Scripted-user options. */
export interface ScriptedUserOptions {
  rules?: UserRule[];
  /** A text containing this ends the conversation (`stop` signal); default `###STOP###`. */
  stopToken?: string;
}

/** Rules, then ordered replies, then stop; see the module doc. */
export class ScriptedUser implements User {
  private next = 0;
  private readonly spent = new Set<UserRule>();

  /**
   * @param replies ordered replies, the opening message first
   * @throws Error when there are neither replies nor rules
   */
  constructor(
    private readonly replies: string[],
    private readonly opts: ScriptedUserOptions = {},
  ) {
    if (replies.length === 0 && !opts.rules?.length) throw new Error('ScriptedUser needs an opening message or a rule');
  }

  async respond(transcript: readonly Utterance[]): Promise<UserTurn> {
    const text = this.pick(transcript);
    if (text === null) return { kind: 'stop', signal: 'stop', text: null };
    const token = this.opts.stopToken ?? USER_SIGNAL_TOKENS.stop;
    const signal = text.includes(token) ? 'stop' : detectSignal(text);
    return signal ? { kind: 'stop', signal, text } : { kind: 'message', text };
  }

  private pick(transcript: readonly Utterance[]): string | null {
    const last = transcript[transcript.length - 1];
    if (last?.from === 'agent') {
      const rule = this.opts.rules?.find((r) => {
        r.when.lastIndex = 0; // a /g or /y regex keeps state between tests
        return !this.spent.has(r) && r.when.test(last.text);
      });
      if (rule) {
        if (rule.once) this.spent.add(rule);
        return rule.say;
      }
    }
    return this.next < this.replies.length ? this.replies[this.next++] : null;
  }
}
