/**
 * The LLM judge of transcript rules (issue 10): a transcript rule (`transcript` check) decides
 * deterministically by its patterns; when the run has a judge model and the rule states its
 * `assertion` (true iff the rule passes), the judge decides instead, by the majority of `votes`
 * independent calls (role `llm_judge`, JSON output; vote k is sent with `seed` k and, for more than
 * one vote, temperature 1). The result names the mode that decided it (`decided_by`), and reports
 * the agreement: how many votes were with the majority, and whether the patterns agreed. An
 * unreadable or tied vote leaves the rule to its patterns. The prompt wording is servicegym's own.
 */
import type { ChatMessage } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel, ChatRequestInput } from '../models/chat-model.js';
import { parseNlJudgeReply, renderTranscript } from './nl.js';
import type { CheckResult } from './types.js';

/** The judge's system prompt for transcript rules. Changing it invalidates recorded judge cassettes. */
export const RULE_JUDGE_SYSTEM = [
  "You check a recorded customer-service conversation against rules about what the agent said.",
  'You get the conversation and a numbered list of statements, each true exactly when one rule is kept.',
  'Decide for each statement separately whether the agent\'s words make it true; read paraphrases, negations and promises by their meaning, not by keywords.',
  'Answer with one JSON object and nothing else:',
  '{"results": [{"id": <statement number>, "met": <true or false>, "reason": "<one short sentence>"}]}',
  'with exactly one entry per statement.',
].join('\n');

/** A rule sent to the judge. */
export interface JudgedRule {
  id: string;
  assertion: string;
}

/** The judge's votes on one rule (readable ones only) with its reasons. */
export interface RuleVotes {
  votes: boolean[];
  reasons: string[];
}

/** Vote `vote` (0-based) of `votes` on `rules`: system prompt, transcript, numbered statements. */
export function buildRuleJudgeRequest(messages: readonly ChatMessage[], rules: readonly JudgedRule[], vote: number, votes: number): ChatRequestInput {
  const list = rules.map((r, i) => `${i + 1}. ${r.assertion}`).join('\n');
  return {
    messages: [
      { role: 'system', content: RULE_JUDGE_SYSTEM },
      { role: 'user', content: `Conversation:\n${renderTranscript(messages)}\n\nStatements:\n${list}` },
    ],
    temperature: votes > 1 ? 1 : 0,
    seed: vote,
    response_format: { type: 'json_object' },
  } as ChatRequestInput;
}

/**
 * Asks `judge` `votes` times (sequentially, so receipts keep their order) about every rule. No
 * rules ⇒ no call. Provider and replay errors propagate.
 */
export async function judgeTranscriptRules(
  judge: ChatModel,
  messages: readonly ChatMessage[],
  rules: readonly JudgedRule[],
  votes: number,
): Promise<{ byRule: Map<string, RuleVotes>; receipts: Receipt[] }> {
  const byRule = new Map<string, RuleVotes>(rules.map((r) => [r.id, { votes: [], reasons: [] }]));
  const receipts: Receipt[] = [];
  if (rules.length === 0) return { byRule, receipts };
  const assertions = rules.map((r) => r.assertion);
  for (let v = 0; v < votes; v++) {
    const call = await judge.complete(buildRuleJudgeRequest(messages, rules, v, votes), 'llm_judge');
    receipts.push(call.receipt);
    const verdicts = parseNlJudgeReply(call.response.choices[0]?.message.content ?? '', assertions);
    verdicts.forEach((verdict, i) => {
      if (verdict.verdict === 'not_judged') return;
      const rv = byRule.get(rules[i].id)!;
      rv.votes.push(verdict.verdict === 'pass');
      rv.reasons.push(verdict.reason);
    });
  }
  return { byRule, receipts };
}

/**
 * A transcript rule's result with the judge's votes applied: the majority decides
 * (`decided_by: 'judge'`) when there is one; otherwise the patterns' result stands
 * (`decided_by: 'pattern'`). Evidence gains `judge: 3/3 votes met (patterns agree) — <reason>`.
 */
export function applyRuleVotes(pattern: CheckResult, rv: RuleVotes | undefined, asked: number): CheckResult {
  if (!rv) return { ...pattern, decided_by: 'pattern' };
  const met = rv.votes.filter(Boolean).length;
  const notMet = rv.votes.length - met;
  if (rv.votes.length === 0 || met === notMet) {
    const why = rv.votes.length === 0 ? 'no readable vote' : `tied ${met}-${notMet}`;
    return { ...pattern, decided_by: 'pattern', evidence: `${pattern.evidence}; judge: ${why} of ${asked}, patterns decide` };
  }
  const verdict = met > notMet ? 'pass' : 'fail';
  const majority = Math.max(met, notMet);
  const agrees = pattern.verdict === verdict;
  const reason = rv.reasons[rv.votes.findIndex((v) => v === (verdict === 'pass'))] ?? '';
  return {
    ...pattern,
    verdict,
    decided_by: 'judge',
    agreement: { votes: rv.votes.length, majority, pattern_agrees: agrees },
    evidence: `judge: ${majority}/${rv.votes.length} votes ${verdict === 'pass' ? 'met' : 'not met'} (patterns ${agrees ? 'agree' : `disagree: ${pattern.verdict}`})${reason ? ` — ${reason}` : ''}; patterns: ${pattern.evidence}`,
  };
}
