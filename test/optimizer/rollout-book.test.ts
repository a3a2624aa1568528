/**
 * The rollout book stops starting rollouts once one has thrown (a bug, a kill, or a model error
 * the campaign suite propagates), so a failed run makes no calls after its failure.
 */
import { describe, expect, it } from 'vitest';
import { RolloutBook } from '../../src/optimizer/rollout-book.js';
import { BudgetMeter } from '../../src/optimizer/budget.js';
import { Journal } from '../../src/optimizer/journal.js';
import { sha256Hex } from '../../src/util/canonical.js';
import type { Rollout, RolloutRequest, Suite } from '../../src/optimizer/suite.js';
import type { ChatModel } from '../../src/models/chat-model.js';

function suite(failOn: string, ran: string[]): Suite {
  const pass = { verdict: 'pass' as const, evidence: 'ok' };
  return {
    id: 'test:book', harnessVersion: 'test/1', stablePrompt: 'p', stableSource: 'test', proposerSystem: '', surface: 'api',
    cases: ['a', 'b', 'c', 'd'].map((id) => ({ id, group: 'holdout' as const, inputs: [] })),
    async runRollout(req: RolloutRequest): Promise<Rollout> {
      ran.push(req.caseId);
      await new Promise((r) => setTimeout(r, 5));
      if (req.caseId === failOn) throw new Error(`provider down at ${req.caseId}`);
      return {
        case_id: req.caseId, trial: req.trial, seed: req.seed, prompt_sha256: sha256Hex(req.prompt), valid: true, success: true, critical: [],
        dimensions: { rule_compliance: pass, task_resolution: pass, compliant_flexibility: pass }, termination: 'user_stop', messages: [], usage: {},
      };
    },
    diagnose: () => [],
  };
}

const book = (s: Suite) =>
  new RolloutBook({
    suite: s, models: { agent: { model: 'm' } as ChatModel, temperature: 0 }, pins: { agent: 'm' }, runSeed: 1,
    journal: Journal.open(null, { resume: false }),
    budget: new BudgetMeter({ max_rollouts: 100, max_judge_calls: 100, max_proposer_calls: 1, max_tokens: null, max_cost_usd: null }), concurrency: 1,
  });

describe('rollout book', () => {
  const specs = ['a', 'b', 'c', 'd'].map((caseId) => ({ caseId, trial: 0, stream: 'trial' as const }));

  it('runs rollouts in spec order with concurrency 1', async () => {
    const ran: string[] = [];
    const rs = await book(suite('none', ran)).get('p', specs);
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
    expect(rs.map((r) => r.case_id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('starts no queued rollout after one threw, and rejects with that error', async () => {
    const ran: string[] = [];
    const b = book(suite('b', ran));
    await expect(b.get('p', specs)).rejects.toThrow('provider down at b');
    await new Promise((r) => setTimeout(r, 50));
    expect(ran).toEqual(['a', 'b']);
    await expect(b.get('q', specs.slice(0, 1))).rejects.toThrow('provider down at b');
    expect(ran).toEqual(['a', 'b']);
  });
});
