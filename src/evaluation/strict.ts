/**
 * Strict evaluation (issue 10, item 5): verdicts that do not depend on which reward components
 * a dataset happens to count.
 *
 * - ACTION joins every reward basis: each gold action must be matched by a real tool call (tau2's
 *   ACTION rule). A transfer the gold requires is therefore a `transfer_to_human_agents` call, not
 *   a sentence. Gold actions that fail in the gold replay itself (a lookup of an id that does not
 *   exist, a write the data cannot satisfy) are not required: they record the annotator's path,
 *   not behaviour the task asks for.
 * - An agent that tells the customer it is transferring them without a successful transfer call
 *   is flagged (`transfer_claimed_without_call`) and its strict reward is 0: the customer waits
 *   for a human who never comes.
 * - Tasks whose gold contradicts their own scenario are listed per dataset with a reason
 *   ({@link KnownBadTask}); callers exclude them or report them apart ({@link partitionKnownBad}).
 *
 * tau2-compatible scoring (the default) is unchanged: strict only ever adds requirements.
 */
import type { ChatMessage } from '../spec/messages.js';
import type { KnownBadTask } from '../spec/domain.js';
import type { RewardBasis, Task } from '../spec/task.js';
import { quote } from './evidence.js';
import type { LoggedCall } from './trace-index.js';
import type { CheckResult } from './types.js';

export type { KnownBadTask } from '../spec/domain.js';

/** Strict-mode settings; `strict: true` means all defaults. */
export interface StrictOptions {
  /** Tools whose successful call is a transfer to a human (default `transfer_to_human_agents`). */
  transferTools?: readonly string[];
}

/** The evaluation option: off (tau2-compatible), on, or on with settings. */
export type StrictSetting = boolean | StrictOptions | undefined;

/** The flag an episode gets when the agent says it transfers without calling a transfer tool. */
export const TRANSFER_CLAIM_FLAG = 'transfer_claimed_without_call';

/** Default transfer tools (tau2's generic tool). */
export const STRICT_TRANSFER_TOOLS: readonly string[] = ['transfer_to_human_agents'];

/** Resolved strict settings, or null when strict is off. */
export function resolveStrict(s: StrictSetting): Required<StrictOptions> | null {
  if (!s) return null;
  const o = s === true ? {} : s;
  return { transferTools: o.transferTools ?? STRICT_TRANSFER_TOOLS };
}

/** `basis` with ACTION appended when absent (order otherwise kept). */
export function strictBasis(basis: readonly RewardBasis[]): RewardBasis[] {
  return basis.includes('ACTION') ? [...basis] : [...basis, 'ACTION'];
}

// A first-person statement that a hand-over is happening or done ("I'm transferring you to a
// human agent", "I have transferred your case", "You are being connected to a specialist",
// "Transferring you now"), not an offer, a question, a refusal or a condition.
const HUMAN = String.raw`(?:human|live|real|senior)?\s*(?:agent|representative|rep|specialist|supervisor|colleague|team|person|department|someone)`;
const CLAIMS: readonly RegExp[] = [
  new RegExp(String.raw`\b(?:i|we)(?:'m| am|'ll| will| have|'ve| are|'re)?\s+(?:now\s+|just\s+|going to\s+|about to\s+)*(?:transferr?(?:ing|ed)?|connect(?:ing|ed)?|escalat(?:ing|ed)|hand(?:ing|ed)?\s+(?:you|this|your\s+\w+)\s+(?:over|off))\b[^.!?\n]{0,80}?\b(?:to|with)\b[^.!?\n]{0,40}?${HUMAN}\b`, 'i'),
  new RegExp(String.raw`\byou(?:'re| are| will be|'ll be)\s+(?:now\s+)?being\s+(?:transferred|connected)\b`, 'i'),
  new RegExp(String.raw`(?:^|[.!\n]\s*)(?:transferring|connecting)\s+you\b`, 'i'),
  new RegExp(String.raw`\b(?:i|we)(?:'ve| have)\s+(?:transferred\s+you\b|escalated\s+(?:you|your\s+\w+)\b)`, 'i'),
];
const NOT_A_CLAIM = /\b(?:can(?:'|no)t|cannot|unable|not able|won't|will not|would you like|do you want|shall i|should i|if you|could|can i|happy to|no need)\b/i;

/**
 * The sentence of `text` that claims a transfer is happening or has happened, or null. Questions,
 * offers ("would you like me to transfer you?"), refusals ("I can't transfer you") and
 * conditions ("if you prefer, I can connect you") are not claims.
 */
export function transferClaim(text: string): string | null {
  for (const sentence of text.split(/(?<=[.!?\n])\s+/)) {
    if (sentence.trim().endsWith('?') || NOT_A_CLAIM.test(sentence)) continue;
    if (CLAIMS.some((re) => re.test(sentence))) return sentence.trim();
  }
  return null;
}

/**
 * Strict check `strict_transfer_claim`: fails when some assistant text claims a transfer
 * ({@link transferClaim}) and no successful call of a transfer tool was made; evidence quotes the
 * claim and its message index. Passes otherwise (also when a real transfer call exists).
 */
export function transferClaimCheck(messages: readonly ChatMessage[], calls: readonly LoggedCall[], transferTools: readonly string[]): CheckResult {
  const base = { id: 'strict_transfer_claim', kind: 'STRICT' };
  const real = calls.find((c) => transferTools.includes(c.entry.name) && !c.entry.error);
  let claim: { at: number; text: string } | null = null;
  messages.forEach((m, i) => {
    if (claim || m.role !== 'assistant' || typeof m.content !== 'string') return;
    const s = transferClaim(m.content);
    if (s) claim = { at: i, text: s };
  });
  if (!claim) return { ...base, verdict: 'pass', evidence: real ? `transfer call #${real.step}` : 'no transfer claimed' };
  const c = claim as { at: number; text: string };
  if (real) return { ...base, verdict: 'pass', evidence: `transfer claimed at message ${c.at} and made by call #${real.step}` };
  return { ...base, verdict: 'fail', evidence: `message ${c.at} says ${quote(c.text)} but no ${transferTools.join('/')} call succeeded` };
}

/**
 * Splits `tasks` into those to score and the known-bad ones (with their reasons, in task order).
 * Ids in `knownBad` that are not among `tasks`, and stale entries, are ignored.
 */
export function partitionKnownBad(tasks: readonly Task[], knownBad: readonly KnownBadTask[] | undefined): { kept: Task[]; excluded: (KnownBadTask & { task: Task })[] } {
  const reasons = new Map((knownBad ?? []).filter((k) => !k.stale).map((k) => [k.id, k]));
  const kept: Task[] = [];
  const excluded: (KnownBadTask & { task: Task })[] = [];
  for (const t of tasks) {
    const k = reasons.get(t.id);
    if (k) excluded.push({ ...k, task: t });
    else kept.push(t);
  }
  return { kept, excluded };
}
