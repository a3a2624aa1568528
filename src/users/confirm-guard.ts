/**
 * The confirm-then-stop guard (tau2-notes §7 item 10): tau2's user simulator often confirms a
 * write and emits `###STOP###` in the same message, so the episode ends before the agent has
 * performed the write, and the DB check scores the agent a failure for the simulator's slip.
 *
 * The guard: when the agent's latest message asked the customer to confirm an action and the
 * simulator's reply both confirms and carries the stop token, the stop token is removed and the
 * reply is sent as an ordinary message; the episode stays open until the agent reports the
 * outcome, and on a later turn the simulator may stop. Both tests are regular expressions
 * (heuristics, replaceable per simulator).
 */
import { USER_SIGNAL_TOKENS } from './user.js';

/** Replacement patterns for the guard's three tests; omitted ones use the defaults below. */
export interface ConfirmGuardOptions {
  /** Matches an agent message that asks for confirmation of an action. */
  asks?: RegExp;
  /** Matches a user reply that confirms. */
  confirms?: RegExp;
  /** Matches a reply that refuses (overrides `confirms`). */
  refuses?: RegExp;
}

/** Default: the agent asks to confirm / proceed / go ahead, or whether it should do something. */
export const DEFAULT_ASKS =
  /\b(confirm|confirmation|proceed|go ahead|shall i|should i|would you like me to|do you want me to|want me to|may i|is that (ok|okay|correct|right|fine))\b|\(\s*yes\s*\/\s*no\s*\)/i;
/** Default: yes-like answers. */
export const DEFAULT_CONFIRMS = /\b(yes|yeah|yep|yup|sure|ok|okay|confirm|confirmed|i confirm|go ahead|proceed|please do|do it|correct|that's right|sounds good)\b/i;
/** Default: a reply that starts with a refusal. */
export const DEFAULT_REFUSES = /^\s*(no|nope|don't|do not|never mind|cancel that)\b/i;

/**
 * The reply with the stop token removed (trimmed) when the guard applies, or null when it does
 * not: `agentText` must ask for confirmation, `userText` must carry `###STOP###` and confirm
 * (and not refuse), and something must remain once the token is removed.
 */
export function guardConfirmThenStop(agentText: string | undefined, userText: string, opts: ConfirmGuardOptions = {}): string | null {
  const token = USER_SIGNAL_TOKENS.stop;
  if (agentText === undefined || !userText.includes(token)) return null;
  const rest = userText.split(token).join(' ').replace(/[ \t]+/g, ' ').trim();
  if (!rest) return null;
  if (!(opts.asks ?? DEFAULT_ASKS).test(agentText)) return null;
  if ((opts.refuses ?? DEFAULT_REFUSES).test(rest)) return null;
  if (!(opts.confirms ?? DEFAULT_CONFIRMS).test(rest)) return null;
  return rest;
}
