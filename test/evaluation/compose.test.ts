import { describe, expect, it } from 'vitest';
import { evaluateTask } from '../../src/evaluation/compose.js';
import type { EpisodeTrace, TerminationReason } from '../../src/evaluation/types.js';
import { buildTrace, miniLoaded, miniTask, type MiniState, type Turn } from '../support/mini-domain.js';

const GOLD = { actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } }] };

const goodTurns: Turn[] = [
  { user: "Hi, I'm ada@example.com. Please cancel order O1." },
  { calls: [['find_account', { email: 'ada@example.com' }]] },
  { agent: 'Order O1 totals $1,234.50. Shall I cancel it?' },
  { user: 'Yes, go ahead.' },
  { calls: [['cancel_order', { order_id: 'O1', reason: 'no longer needed' }]] },
  { agent: 'Done: order O1 is cancelled and $1,234.50 was refunded.' },
];
/** Verified, but wrote without asking. */
const unconfirmedTurns: Turn[] = [
  { user: "Hi, I'm ada@example.com. Please cancel order O1." },
  { calls: [['find_account', { email: 'ada@example.com' }]] },
  { calls: [['cancel_order', { order_id: 'O1', reason: 'no longer needed' }]] },
  { agent: 'Order O1 is cancelled.' },
];
const good = async (termination: TerminationReason = 'user_stop') => (await buildTrace(goodTurns, { termination }));

const servicegym = {
  checks: [
    { id: 'verified_first', kind: 'order', first: { name: 'find_account' }, then: { name: 'cancel_order' }, require: true },
    { id: 'confirmed', kind: 'confirmation_before_write' },
    { id: 'orders_right', kind: 'db_gold', paths: ['/orders'] },
    { id: 'address_untouched', kind: 'unchanged', paths: ['/accounts/A1/address'] },
  ],
  partial_credit: [
    { id: 'verify', weight: 30, description: 'Verified the account before cancelling', checks: ['verified_first'] },
    { id: 'confirm', weight: 30, description: 'Asked before cancelling', checks: ['confirmed'] },
    { id: 'outcome', weight: 40, description: 'Order O1 cancelled', checks: ['orders_right'] },
  ],
  zero_if_failed: ['address_untouched'],
};

const evaluate = (task: ReturnType<typeof miniTask>, trace: EpisodeTrace<MiniState>) => evaluateTask({ loaded: miniLoaded, task, trace });

describe('tau2 reward', () => {
  const task = miniTask({ id: 'r1', evaluation_criteria: { ...GOLD, communicate_info: ['1234.50'], reward_basis: ['DB', 'COMMUNICATE', 'ACTION'] } });

  it('is the product of the basis components, all components reported', async () => {
    const e = await evaluate(task, (await good()));
    expect(e.reward).toBe(1);
    expect(e.reward_basis).toEqual(['DB', 'COMMUNICATE', 'ACTION']);
    expect(e.reward_breakdown).toEqual({ DB: 1, ENV_ASSERTION: 1, COMMUNICATE: 1, NL_ASSERTION: 1, ACTION: 1 });
    expect(e.checks.map((c) => [c.id, c.verdict])).toEqual([
      ['tau2_db', 'pass'], ['tau2_env_assertion', 'pass'], ['tau2_communicate', 'pass'], ['tau2_nl_assertion', 'pass'], ['tau2_action', 'pass'],
    ]);
    expect(e.partial).toBe(1);
    expect(e.not_judged).toBe(false);
    expect(e.db_diff).toEqual([]);
  });

  it('is 0 when one basis component fails, while non-basis components do not count', async () => {
    const silent = (await buildTrace([goodTurns[0], goodTurns[1], goodTurns[4]]));
    const e = await evaluate(task, silent);
    expect(e.reward).toBe(0);
    expect(e.reward_breakdown.COMMUNICATE).toBe(0);
    expect(e.partial).toBeCloseTo(2 / 3, 12);
    const dbOnly = miniTask({ id: 'r1b', evaluation_criteria: { ...GOLD, communicate_info: ['1234.50'], reward_basis: ['DB'] } });
    expect((await evaluate(dbOnly, silent)).reward).toBe(1);
  });

  it('is 0 on premature termination, with components still computed as diagnostics', async () => {
    for (const t of ['max_steps', 'too_many_errors', 'agent_error', 'user_error', 'transfer'] as const) {
      const e = await evaluate(task, (await good(t)));
      expect(e.termination).toBe(t);
      expect(e.reward).toBe(0);
      expect(e.partial).toBe(0);
      expect(e.reward_breakdown).toEqual({ DB: 1, ENV_ASSERTION: 1, COMMUNICATE: 1, NL_ASSERTION: 1, ACTION: 1 });
    }
    expect((await evaluate(task, (await good('agent_stop')))).reward).toBe(1);
  });

  it('reports the gold-vs-episode diff', async () => {
    const e = await evaluate(task, (await buildTrace([{ calls: [['cancel_order', { order_id: 'O3', reason: 'x' }]] }])));
    expect(e.reward).toBe(0);
    expect(e.db_diff.map((d) => `${d.path} ${JSON.stringify(d.before)}→${JSON.stringify(d.after)}`)).toEqual([
      '/orders/O1/status "cancelled"→"pending"',
      '/orders/O3/status "pending"→"cancelled"',
      '/accounts/A1/balance 1234.5→0',
      '/accounts/A2/balance 10→109.99',
    ]);
  });

  it('gives 1 to a task without evaluation criteria (tau2)', async () => {
    const e = await evaluate(miniTask({ id: 'r0' }), (await buildTrace([{ agent: 'Hello' }])));
    expect([e.reward, e.partial, e.reward_basis]).toEqual([1, 1, []]);
  });
});

describe('partial credit', () => {
  const task = miniTask({ id: 'p1', evaluation_criteria: GOLD, servicegym });

  it('sums the weights of rubric items whose checks all pass', async () => {
    expect((await evaluate(task, (await good()))).partial).toBe(1);
    const e = await evaluate(task, (await buildTrace(unconfirmedTurns)));
    expect(e.partial).toBe(0.7);
    // the reward is tau2's, independent of the rubric: DB passes, COMMUNICATE is vacuous
    expect(e.reward).toBe(1);
    expect(e.rubric.map((r) => [r.id, r.verdict])).toEqual([['verify', 'pass'], ['confirm', 'fail'], ['outcome', 'pass']]);
  });

  it('is 0 when a zero_if_failed check fails, whatever the rubric says', async () => {
    const trace = (await buildTrace([
      ...goodTurns,
      { agent: 'Shall I also move your address to Dallas 75201?' },
      { user: 'Yes please.' },
      { calls: [['update_address', { account_id: 'A1', city: 'Dallas', zip: '75201' }]] },
    ]));
    const e = await evaluate(task, trace);
    expect(e.rubric.map((r) => r.verdict)).toEqual(['pass', 'pass', 'pass']);
    expect(e.checks.find((c) => c.id === 'address_untouched')!.verdict).toBe('fail');
    expect(e.partial).toBe(0);
    expect(e.reward).toBe(0);
  });

  it('is 0 on premature termination', async () => {
    expect((await evaluate(task, (await good('max_steps')))).partial).toBe(0);
  });

  it('produces the full evaluation record', async () => {
    const e = await evaluate(task, (await buildTrace(unconfirmedTurns)));
    expect(e).toEqual({
      task_id: 'p1',
      termination: 'user_stop',
      reward: 1,
      reward_breakdown: { DB: 1, ENV_ASSERTION: 1, COMMUNICATE: 1, NL_ASSERTION: 1, ACTION: 1 },
      reward_basis: ['DB', 'COMMUNICATE'],
      partial: 0.7,
      not_judged: false,
      checks: [
        { id: 'tau2_db', kind: 'DB', verdict: 'pass', evidence: "final state equals the gold replay's", diff: [] },
        { id: 'tau2_env_assertion', kind: 'ENV_ASSERTION', verdict: 'pass', evidence: 'no env assertions' },
        { id: 'tau2_communicate', kind: 'COMMUNICATE', verdict: 'pass', evidence: 'nothing to communicate' },
        { id: 'tau2_nl_assertion', kind: 'NL_ASSERTION', verdict: 'pass', evidence: 'no nl assertions' },
        { id: 'tau2_action', kind: 'ACTION', verdict: 'pass', evidence: '1/1 gold actions matched: a1 → #1' },
        { id: 'verified_first', kind: 'order', verdict: 'pass', evidence: '1 cancel_order call(s) after find_account at #0' },
        {
          id: 'confirmed', kind: 'confirmation_before_write', verdict: 'fail',
          evidence: 'unconfirmed write(s): #1 cancel_order {"order_id":"O1","reason":"no longer needed"} (no agent request before it)',
        },
        { id: 'orders_right', kind: 'db_gold', verdict: 'pass', evidence: "final state equals the gold replay's under /orders", diff: [] },
        { id: 'address_untouched', kind: 'unchanged', verdict: 'pass', evidence: 'unchanged: /accounts/A1/address', diff: [] },
      ],
      rubric: [
        { id: 'verify', weight: 30, description: 'Verified the account before cancelling', verdict: 'pass', checks: ['verified_first'] },
        { id: 'confirm', weight: 30, description: 'Asked before cancelling', verdict: 'fail', checks: ['confirmed'] },
        { id: 'outcome', weight: 40, description: 'Order O1 cancelled', verdict: 'pass', checks: ['orders_right'] },
      ],
      db_diff: [],
      receipts: [],
    });
  });
});

describe('not judged', () => {
  const withNl = {
    ...servicegym,
    checks: [...servicegym.checks, { id: 'polite', kind: 'nl', assertion: 'The agent is polite.' }],
    partial_credit: [
      { id: 'verify', weight: 30, description: 'v', checks: ['verified_first'] },
      { id: 'confirm', weight: 30, description: 'c', checks: ['confirmed'] },
      { id: 'outcome', weight: 20, description: 'o', checks: ['orders_right'] },
      { id: 'tone', weight: 20, description: 't', checks: ['polite'] },
    ],
  };

  it('without a judge: nl check not judged, partial excludes it, reward null with NL_ASSERTION in the basis', async () => {
    const task = miniTask({
      id: 'n1',
      evaluation_criteria: { ...GOLD, nl_assertions: ['The agent states the refund amount.'], reward_basis: ['DB', 'NL_ASSERTION'] },
      servicegym: withNl,
    });
    const e = await evaluate(task, (await good()));
    expect(e.reward).toBeNull();
    expect(e.not_judged).toBe(true);
    expect(e.partial).toBe(0.8);
    expect(e.reward_breakdown).toEqual({ DB: 1, ENV_ASSERTION: 1, COMMUNICATE: 1, NL_ASSERTION: null, ACTION: 1 });
    expect(e.rubric.find((r) => r.id === 'tone')!.verdict).toBe('not_judged');
    expect(e.checks.find((c) => c.id === 'tau2_nl_assertion')).toEqual({
      id: 'tau2_nl_assertion', kind: 'NL_ASSERTION', verdict: 'not_judged', evidence: '[not judged] "The agent states the refund amount.": no judge model given',
    });
    expect(e.checks.find((c) => c.id === 'polite')).toEqual({ id: 'polite', kind: 'nl', verdict: 'not_judged', evidence: '"The agent is polite.": no judge model given' });
    expect(e.receipts).toEqual([]);
  });

  it('a failed basis component still makes the reward 0', async () => {
    const task = miniTask({ id: 'n2', evaluation_criteria: { ...GOLD, nl_assertions: ['x'], reward_basis: ['DB', 'NL_ASSERTION'] } });
    const e = await evaluate(task, (await buildTrace([{ agent: 'I did nothing.' }])));
    expect(e.reward).toBe(0);
    expect(e.not_judged).toBe(true);
    expect(e.partial).toBe(0); // plain task: mean of DB 0 and NL (not judged, counts 0)
  });

  it('plain tasks: partial is the mean of the basis components, not-judged ones counting 0', async () => {
    const task = miniTask({ id: 'n3', evaluation_criteria: { ...GOLD, nl_assertions: ['x'], reward_basis: ['DB', 'NL_ASSERTION'] } });
    const e = await evaluate(task, (await good()));
    expect([e.reward, e.partial, e.not_judged]).toEqual([null, 0.5, true]);
  });

  it('NL assertions outside the basis are not sent to the judge and do not mark the result', async () => {
    const task = miniTask({ id: 'n4', evaluation_criteria: { ...GOLD, nl_assertions: ['x', 'y'] } });
    const e = await evaluate(task, (await good()));
    expect([e.reward, e.partial, e.not_judged]).toEqual([1, 1, false]);
    expect(e.checks.find((c) => c.id === 'tau2_nl_assertion')!.evidence).toBe('2 assertion(s) not sent to the judge: NL_ASSERTION is not in reward_basis');
    expect(e.reward_breakdown.NL_ASSERTION).toBeNull();
  });

  it('an unsupported env assertion in the basis makes the reward null', async () => {
    const task = miniTask({
      id: 'n5',
      evaluation_criteria: { env_assertions: [{ env_type: 'user', func_name: 'assert_roaming', arguments: {} }], reward_basis: ['ENV_ASSERTION'] },
    });
    const e = await evaluate(task, (await good()));
    expect([e.reward, e.not_judged, e.reward_breakdown.ENV_ASSERTION]).toEqual([null, true, null]);
  });
});
