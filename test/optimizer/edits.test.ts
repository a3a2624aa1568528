/**
 * Clause-addressable prompts and the static edit checks: each failure of an edit (quote not in
 * the cited trajectory, non-unique old_str, copied case token, wrong clause, unknown intent,
 * non-feedback source, read-only policy) is rejected with its reason.
 */
import { describe, expect, it } from 'vitest';
import { clauseMap, estimateTokens, parseClauses } from '../../src/optimizer/clauses.js';
import { caseSpecificTokens, checkPatch, type EditCheckContext } from '../../src/optimizer/edit-checks.js';
import type { ProposedEdit } from '../../src/optimizer/proposer.js';
import type { Rollout } from '../../src/optimizer/suite.js';
import { agentSystemPrompt } from '../../src/agents/llm-agent.js';
import { FIX_OLD_STR, NON_UNIQUE_OLD_STR, STABLE_PROMPT } from '../support/prompt-sensitive-model.js';

const B1 = '我要求全额退款！订单 ABC123。我不管，我就要全退。';
const rollout: Rollout = {
  case_id: 'B1', trial: 2, seed: 7, prompt_sha256: 'x', valid: true, success: false, critical: [], termination: 'transfer', usage: {},
  dimensions: {} as any,
  messages: [
    { role: 'system', content: STABLE_PROMPT },
    { role: 'user', content: B1 },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'transfer_to_human', arguments: '{"reason": "乘客对政策不满"}' } }] },
  ],
};
const ctx = (over: Partial<EditCheckContext> = {}): EditCheckContext => ({
  parentPrompt: STABLE_PROMPT,
  feedbackCaseIds: new Set(['B1', 'H1']),
  trajectories: new Map([['B1#2', rollout]]),
  caseTokens: caseSpecificTokens([{ id: 'B1', group: 'boundary', inputs: [B1] }, { id: 'H1', group: 'holdout', inputs: ['You are Ivan Novak, ivan@example.com, order W123; pay $250.'] }]),
  maxEdits: 3,
  maxAddedChars: 600,
  ...over,
});
const fix: ProposedEdit = {
  old_str: FIX_OLD_STR,
  new_str: '绝不因政策争议而转接，先查政策、解释并提供合规的替代方案。',
  clause: 'S2.4',
  intent: 'clarify-rule',
  source_cases: ['B1'],
  evidence: [{ case_id: 'B1', trial: 2, quote: '"reason": "乘客对政策不满"' }],
};

describe('clauses', () => {
  it('numbers sections by heading and clauses by line; the <policy> block is read-only', () => {
    const cs = parseClauses(STABLE_PROMPT);
    expect(cs.map((c) => c.id)).toEqual(['S0.1', 'S1.h', 'S1.1', 'S1.2', 'S1.3', 'S1.4', 'S1.5', 'S1.6', 'S1.7', 'S2.h', 'S2.1', 'S2.2', 'S2.3', 'S2.4', 'S3.h', 'S3.1', 'S3.2']);
    expect(cs.find((c) => c.id === 'S2.4')!.text).toContain(FIX_OLD_STR);
    expect(clauseMap(cs).split('\n')[0]).toBe(`S0.1: ${STABLE_PROMPT.split('\n')[0]}`);
    const wrapped = parseClauses(agentSystemPrompt('# Policy\n- rule one'));
    expect(wrapped.filter((c) => c.readonly).map((c) => c.text)).toEqual(['<policy>', '# Policy', '- rule one', '</policy>']);
  });
  it('estimates tokens: one per CJK character, one per four other characters', () => {
    expect(estimateTokens('转接人工')).toBe(4);
    expect(estimateTokens('abcdefgh')).toBe(2);
    expect(estimateTokens('转接 ab')).toBe(3);
  });
});

describe('static edit checks', () => {
  it('accepts a grounded edit of the named clause', () => {
    const r = checkPatch([fix], ctx());
    expect(r.ok).toBe(true);
    expect(r.text).toBe(STABLE_PROMPT.replace(FIX_OLD_STR, fix.new_str));
    expect(r.edits).toEqual([{ index: 0, ok: true, reasons: [] }]);
  });
  it('rejects an evidence quote that is not in the cited trajectory', () => {
    const r = checkPatch([{ ...fix, evidence: [{ case_id: 'B1', trial: 2, quote: '乘客说要投诉到民航局' }] }], ctx());
    expect(r.ok).toBe(false);
    expect(r.reason).toBe('edit 0: evidence quote "乘客说要投诉到民航局" does not occur in the trajectory of B1 trial 2');
    expect(r.text).toBe(STABLE_PROMPT);
  });
  it('rejects a quote cited from a trial the proposer never saw', () => {
    expect(checkPatch([{ ...fix, evidence: [{ ...fix.evidence[0], trial: 3 }] }], ctx()).reason).toBe('edit 0: evidence cites B1 trial 3, which has no trajectory the proposer saw');
  });
  it('rejects an old_str that is not unique (with the seed rule)', () => {
    const r = checkPatch([{ ...fix, old_str: NON_UNIQUE_OLD_STR, new_str: '转接人工坐席' }], ctx());
    expect(r.ok).toBe(false);
    expect(r.reason).toBe('edit 0: old_str occurs 3 times; it must be unique');
  });
  it('rejects case-specific tokens copied from feedback cases (ids, amounts, names, e-mails)', () => {
    expect(checkPatch([{ ...fix, new_str: `${fix.new_str}如订单 ABC123。` }], ctx()).reason).toBe("edit 0: new_str copies the case-specific token 'ABC123' from feedback case B1");
    const tokens = [...caseSpecificTokens([{ id: 'H1', group: 'holdout', inputs: ['You are Ivan Novak, ivan@example.com, order W123; pay $250.'] }]).keys()];
    expect(tokens.sort()).toEqual(['250', 'Ivan Novak', 'W123', 'ivan@example.com'].sort());
  });
  it('rejects a wrong clause, an unknown intent, a non-feedback source and a missing quote', () => {
    const r = checkPatch([{ ...fix, clause: 'S2.1', intent: 'rewrite-everything', source_cases: ['B1', 'B9'], evidence: [] }], ctx());
    expect(r.edits[0].reasons).toEqual([
      "intent 'rewrite-everything' is not one of clarify-rule, add-exception-procedure, add-check-before-write, reorder-priority, add-worked-counterexample, delete-contradiction",
      'old_str lies in clause(s) S2.4, not in the named clause S2.1',
      "source case 'B9' is not a feedback case",
      'no evidence quotes',
    ]);
  });
  it('keeps the policy block read-only, and caps edits and growth', () => {
    const prompt = agentSystemPrompt('# Policy\n- Refunds within 30 days only.');
    const ro = checkPatch([{ ...fix, old_str: 'Refunds within 30 days only.', new_str: 'Refunds any time.', clause: 'S0.8' }], ctx({ parentPrompt: prompt }));
    expect(ro.edits[0].reasons).toEqual(['old_str touches read-only policy clause(s) S0.8']);
    expect(checkPatch([fix, fix, fix, fix], ctx()).reason).toBe('the patch has 4 edits; at most 3 are allowed');
    expect(checkPatch([{ ...fix, new_str: `${FIX_OLD_STR}另外请耐心。` }], ctx({ maxAddedChars: 1 })).reason).toBe('the patch adds 6 characters; at most 1 are allowed');
  });
});
