/**
 * The confirm-then-stop guard (tau2-notes §7 item 10): tau2's user simulator often confirms a
 * write and emits `###STOP###` in the same message, so the episode ends before the agent has
 * performed the write, and the DB check scores the agent a failure for the simulator's slip.
 *
 * The guard: when the agent's latest message asked the customer to approve an action and the
 * simulator's reply both confirms it and carries the stop token, the stop token is removed and the
 * reply is sent as an ordinary message; the episode stays open until the agent reports the
 * outcome, and on a later turn the simulator may stop. Both tests use the confirmation classifier
 * (src/evaluation/confirmation/classify.ts), so the guard never fires on a closing offer (agent
 * "Anything else?", customer "No, thanks, bye ###STOP###") or on a refusal ("No, that's not okay").
 */
import { classifyAgentRequest, classifyReply } from '../evaluation/confirmation/classify.js';
import { USER_SIGNAL_TOKENS } from './user.js';

/** Replacement patterns for the guard's tests (each replaces the classifier for its test). */
export interface ConfirmGuardOptions {
  /** Matches an agent message that asks for confirmation of an action. */
  asks?: RegExp;
  /** Matches a user reply that confirms. */
  confirms?: RegExp;
  /** Matches a reply that refuses (overrides `confirms`). */
  refuses?: RegExp;
}

/**
 * The reply with the stop token removed (trimmed) when the guard applies, or null when it does
 * not: `agentText` must be a confirmation request (not a closing offer), `userText` must carry
 * `###STOP###` and be an explicit yes, and something must remain once the token is removed.
 */
export function guardConfirmThenStop(agentText: string | undefined, userText: string, opts: ConfirmGuardOptions = {}): string | null {
  const token = USER_SIGNAL_TOKENS.stop;
  if (agentText === undefined || !userText.includes(token)) return null;
  const rest = userText.split(token).join(' ').replace(/[ \t]+/g, ' ').trim();
  if (!rest) return null;
  const asks = opts.asks ? opts.asks.test(agentText) : classifyAgentRequest(agentText) === 'confirmation';
  if (!asks) return null;
  if (opts.refuses?.test(rest)) return null;
  const confirms = opts.confirms ? opts.confirms.test(rest) : classifyReply(rest).label === 'yes';
  return confirms ? rest : null;
}
