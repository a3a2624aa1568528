/**
 * The episode page's score explanation (issue 18, item 8) follows evaluateTask's rules: the reward
 * is the product of the reward-basis components (0 on a premature end, unknown when a component
 * is not judged and none is 0), the partial score the mean of the basis components — or, with a
 * partial-credit rubric, the weights of the items earned — and components outside the basis are
 * diagnostics. Checked on hand-built tau2-shaped evaluations and on a real tau2 retail episode.
 */
import { describe, expect, it } from 'vitest';
import { explainScore } from '../../src/viewer/score-explained.js';
import type { TaskEvaluationRecord } from '../../src/spec/run-log.js';
import { loadDomain } from '../../src/domains/index.js';
import { selectTasks } from '../../src/run/task-run.js';
import { replayTrajectory } from '../../src/run/replay-trajectory.js';
import { HAS_SHARED, needsShared, SHARED } from '../support/paths.js';
import path from 'node:path';

const check = (kind: string, verdict: 'pass' | 'fail' | 'not_judged', evidence: string) => ({ id: `tau2_${kind.toLowerCase()}`, kind, verdict, evidence });

function tau2(over: Partial<TaskEvaluationRecord>): TaskEvaluationRecord {
  return {
    kind: 'task',
    task_id: '7',
    termination: 'user_stop',
    reward: 0,
    reward_breakdown: { DB: 1, ENV_ASSERTION: null, COMMUNICATE: 0, NL_ASSERTION: null, ACTION: 0 },
    reward_basis: ['DB', 'COMMUNICATE'],
    partial: 0.5,
    not_judged: false,
    checks: [check('DB', 'pass', 'final DB equals the gold DB'), check('COMMUNICATE', 'fail', "'10' never said"), check('ACTION', 'fail', 'missing exchange_delivered_order_items')],
    rubric: [],
    db_diff: [],
    ...over,
  } as TaskEvaluationRecord;
}

describe('explainScore', () => {
  it('a zero component in the basis makes the reward 0; the partial is the mean of the basis; ACTION outside it is diagnostic', () => {
    const s = explainScore(tau2({}), 'user_stop');
    expect(s.components.map((c) => [c.name, c.counts, c.value])).toEqual([
      ['DB', true, 1],
      ['ENV_ASSERTION', false, null],
      ['COMMUNICATE', true, 0],
      ['NL_ASSERTION', false, null],
      ['ACTION', false, 0],
    ]);
    expect(s.components.find((c) => c.name === 'ACTION')!.evidence).toBe('missing exchange_delivered_order_items');
    expect(s.reward).toEqual({
      value: 0,
      formula: 'DB 1 × COMMUNICATE 0 = 0',
      why: 'The reward is the product of the components in the reward basis, and COMMUNICATE (the information to communicate) scored 0, so the reward is 0.',
    });
    expect(s.partial.formula).toBe('(DB 1 + COMMUNICATE 0) / 2 = 0.5');
    expect(s.partial.why).toContain('mean of the 2 component(s) in the reward basis');
  });

  it('a not-judged NL assertion leaves the reward unknown and counts 0 in the partial (a lower bound)', () => {
    const s = explainScore(tau2({ reward: null, reward_breakdown: { DB: 1, COMMUNICATE: 1, NL_ASSERTION: null, ACTION: 1 }, reward_basis: ['DB', 'NL_ASSERTION'], not_judged: true }), 'agent_stop');
    expect(s.reward.formula).toBe('DB 1 × NL_ASSERTION not judged = not judged');
    expect(s.reward.why).toContain('NL_ASSERTION needed a judge and was not judged (run with --judge-model to judge it)');
    expect(s.partial.formula).toBe('(DB 1 + NL_ASSERTION 0 (not judged)) / 2 = 0.5');
    expect(s.lower_bound).toBe(true);
  });

  it('a premature end earns nothing whatever the components say; all ones give 1', () => {
    const early = explainScore(tau2({ termination: 'max_steps', reward: 0, partial: 0, reward_breakdown: { DB: 1, COMMUNICATE: 1 } }), 'max_steps');
    expect([early.reward.formula, early.partial.formula]).toEqual(['0 (ended by max_steps)', '0']);
    expect(early.reward.why).toBe('The episode ended by max_steps, not by agent_stop or user_stop, so it earns no reward whatever its components score.');
    const good = explainScore(tau2({ reward: 1, partial: 1, reward_breakdown: { DB: 1, COMMUNICATE: 1 } }), 'user_stop');
    expect([good.reward.formula, good.partial.formula]).toEqual(['DB 1 × COMMUNICATE 1 = 1', '(DB 1 + COMMUNICATE 1) / 2 = 1']);
  });

  it('with a partial-credit rubric, the partial is the weight earned out of 100, and a zero-if-failed check voids it', () => {
    const rubric = [
      { id: 'verified', weight: 30, description: 'identity', verdict: 'pass' as const, checks: ['a'] },
      { id: 'refund', weight: 70, description: 'refund issued', verdict: 'fail' as const, checks: ['b'] },
    ];
    const s = explainScore(tau2({ rubric, partial: 0.3 }), 'user_stop');
    expect(s.partial.formula).toBe('(verified 30) / 100 = 0.3');
    expect(s.partial.why).toBe('The partial score is the weight of the rubric items whose checks all pass, out of 100. Not earned: refund (70, fail).');
    const voided = explainScore(tau2({ rubric, partial: 0 }), 'user_stop');
    expect(voided.partial.formula).toBe('0 (a zero-if-failed check failed; the passed items would give 0.3)');
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('on a tau2 retail task (tau2 data)'), () => {
  it('task 2 done right but its NL assertions not judged: DB counts and scores 1, NL_ASSERTION not judged, COMMUNICATE diagnostic', async () => {
    const loaded = loadDomain('retail', { dataDir: path.join(SHARED, 'peers', 'tau2', 'retail') });
    const [task] = selectTasks(loaded, ['2']);
    // The gold actions as one tool-calling turn each, then a goodbye: replayed and scored as a live episode.
    const calls = (task.evaluation_criteria?.actions ?? []).map((a, i) => ({ role: 'assistant' as const, content: null, tool_calls: [{ id: `c${i}`, type: 'function' as const, function: { name: a.name, arguments: JSON.stringify(a.arguments) } }] }));
    const messages = [{ role: 'system' as const, content: 'policy' }, { role: 'user' as const, content: 'hi' }, ...calls.flatMap((c, i) => [c, { role: 'tool' as const, tool_call_id: `c${i}`, content: '' }]), { role: 'assistant' as const, content: 'Done. 10' }, { role: 'user' as const, content: '###STOP###' }];
    const r = await replayTrajectory({ loaded, task, messages: messages as never });
    const ev = { kind: 'task', ...r.evaluation!, receipts: undefined } as unknown as TaskEvaluationRecord;
    const s = explainScore(ev, r.episode.termination);
    expect(s.components.filter((c) => c.counts).map((c) => [c.name, c.value])).toEqual([['DB', 1], ['NL_ASSERTION', null]]);
    expect(s.components.find((c) => c.name === 'COMMUNICATE')!.counts).toBe(false);
    expect(s.reward.formula).toBe('DB 1 × NL_ASSERTION not judged = not judged');
    expect(s.partial.formula).toBe('(DB 1 + NL_ASSERTION 0 (not judged)) / 2 = 0.5');
  });
});
