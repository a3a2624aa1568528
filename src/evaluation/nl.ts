/**
 * NL assertions (tau2 NL_ASSERTION, servicegym `nl` checks): one judge call (role `llm_judge`,
 * temperature 0, JSON output) grades every assertion against the transcript. Without a judge,
 * or when the judge's answer cannot be read, an assertion is `not_judged` — never a pass.
 * The prompt wording is servicegym's own (tau2's judge prompt is not reused).
 */
import type { ChatMessage } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel, ChatRequestInput } from '../models/chat-model.js';
import { combineVerdicts, quote, verdictScore, type ComponentResult } from './evidence.js';
import type { CheckResult, Verdict } from './types.js';
import { textOf } from './trace-index.js';
import { parseModelJson } from '../util/json-bounds.js';

/** One assertion's verdict and the judge's reason (or why it was not judged). */
export interface NlVerdict {
  assertion: string;
  verdict: Verdict;
  reason: string;
}

export interface NlJudgement {
  /** One per assertion, in the order given. */
  verdicts: NlVerdict[];
  /** The judge calls made (zero or one). */
  receipts: Receipt[];
}

/** The judge's system prompt. Changing it invalidates recorded judge cassettes. */
export const NL_JUDGE_SYSTEM = [
  'You grade a recorded customer-service conversation between an AI agent and a customer.',
  'You get the conversation and a numbered list of assertions about it.',
  'Decide for each assertion separately whether the conversation shows it to be true.',
  'Judge only from the conversation; an assertion about something the conversation does not show is not met.',
  'Answer with one JSON object and nothing else:',
  '{"results": [{"id": <assertion number>, "met": <true or false>, "reason": "<one short sentence>"}]}',
  'with exactly one entry per assertion.',
].join('\n');

/**
 * The conversation as the judge sees it: one block per message, `role: text`; tool calls as
 * `assistant (tool call): name {arguments}`, tool results as `tool: output`; the system prompt
 * (the agent's policy) is left out.
 */
export function renderTranscript(messages: readonly ChatMessage[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    const text = textOf(m);
    if (m.role === 'assistant') {
      if (text !== '') lines.push(`assistant: ${text}`);
      for (const tc of m.tool_calls ?? []) lines.push(`assistant (tool call): ${tc.function.name} ${tc.function.arguments}`);
    } else {
      lines.push(`${m.role}: ${text}`);
    }
  }
  return lines.join('\n');
}

/** The judge request: system prompt, then the transcript and the numbered assertions; temperature 0, JSON output. */
export function buildNlJudgeRequest(messages: readonly ChatMessage[], assertions: readonly string[]): ChatRequestInput {
  const list = assertions.map((a, i) => `${i + 1}. ${a}`).join('\n');
  const user = `Conversation:\n${renderTranscript(messages)}\n\nAssertions:\n${list}`;
  return {
    messages: [
      { role: 'system', content: NL_JUDGE_SYSTEM },
      { role: 'user', content: user },
    ],
    temperature: 0,
    response_format: { type: 'json_object' },
  };
}

/**
 * Reads the judge's answer `{"results": [{id, met, reason}]}` (code fences tolerated). An
 * assertion without a boolean `met` for its id is `not_judged`; an unreadable answer makes all
 * of them `not_judged`, with the reason quoting the reply.
 */
export function parseNlJudgeReply(text: string, assertions: readonly string[]): NlVerdict[] {
  const body = text.trim().replace(/^```(?:json)?\s*|\s*```$/g, '');
  let results: unknown[];
  try {
    const parsed = parseModelJson(body) as { results?: unknown };
    if (!Array.isArray(parsed?.results)) throw new Error('no "results" array');
    results = parsed.results;
  } catch (e) {
    const reason = `judge reply unreadable (${(e as Error).message}): ${quote(body, 200)}`;
    return assertions.map((assertion) => ({ assertion, verdict: 'not_judged', reason }));
  }
  return assertions.map((assertion, i) => {
    const r = results.find((x) => (x as { id?: unknown })?.id === i + 1) as { met?: unknown; reason?: unknown } | undefined;
    if (typeof r?.met !== 'boolean') return { assertion, verdict: 'not_judged', reason: 'judge gave no verdict for this assertion' };
    return { assertion, verdict: r.met ? 'pass' : 'fail', reason: typeof r.reason === 'string' ? r.reason : '' };
  });
}

/**
 * Judges `assertions` on the transcript with one call of `judge` (role `llm_judge`); no call
 * when the list is empty. No judge ⇒ every verdict `not_judged` ("no judge model given").
 * Provider and replay errors propagate (`ProviderError`, `ReplayMissError`).
 */
export async function judgeNlAssertions(judge: ChatModel | undefined, messages: readonly ChatMessage[], assertions: readonly string[]): Promise<NlJudgement> {
  if (assertions.length === 0) return { verdicts: [], receipts: [] };
  if (!judge) return { verdicts: assertions.map((assertion) => ({ assertion, verdict: 'not_judged', reason: 'no judge model given' })), receipts: [] };
  const call = await judge.complete(buildNlJudgeRequest(messages, assertions), 'llm_judge');
  const text = call.response.choices[0]?.message.content ?? '';
  return { verdicts: parseNlJudgeReply(text, assertions), receipts: [call.receipt] };
}

/** Evidence for a list of verdicts: `[met] "…": reason; [not met] "…": reason; [not judged] "…": reason`. */
export function describeNlVerdicts(verdicts: readonly NlVerdict[]): string {
  const tag = { pass: 'met', fail: 'not met', not_judged: 'not judged' } as const;
  return verdicts.map((v) => `[${tag[v.verdict]}] ${quote(v.assertion)}: ${v.reason}`).join('; ');
}

/**
 * tau2 NL_ASSERTION component: 1 iff every assertion is met, 0 if any is not, null when none
 * failed but some were not judged; no assertions ⇒ 1. `skipped` gives the reason when the
 * assertions were deliberately not sent to the judge.
 */
export function nlComponent(verdicts: readonly NlVerdict[], skipped?: string): ComponentResult {
  const row = (verdict: Verdict, evidence: string): CheckResult => ({ id: 'tau2_nl_assertion', kind: 'NL_ASSERTION', verdict, evidence });
  if (skipped) return { score: null, check: row('not_judged', skipped) };
  if (verdicts.length === 0) return { score: 1, check: row('pass', 'no nl assertions') };
  const verdict = combineVerdicts(verdicts.map((v) => v.verdict));
  return { score: verdictScore(verdict), check: row(verdict, describeNlVerdicts(verdicts)) };
}
