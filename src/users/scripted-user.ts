/**
 * A scripted user: ordered replies, then stop. With one reply it is the seed experiment's
 * single-message customer: it opens the conversation and stops at the agent's first text reply.
 */
export interface UserTurn {
  /** The user's next message, or `null` when the user ends the conversation. */
  message: string | null;
}

/** Interface every user (scripted, LLM simulator) implements. */
export interface User {
  /** The opening message. */
  first(): string;
  /** The reply to the agent's text message. */
  reply(agentText: string): UserTurn;
}

export class ScriptedUser implements User {
  private next = 1;
  /** @param replies opening message first; must not be empty */
  constructor(private readonly replies: string[]) {
    if (replies.length === 0) throw new Error('ScriptedUser needs at least an opening message');
  }
  first(): string {
    return this.replies[0];
  }
  reply(): UserTurn {
    if (this.next >= this.replies.length) return { message: null };
    return { message: this.replies[this.next++] };
  }
}
