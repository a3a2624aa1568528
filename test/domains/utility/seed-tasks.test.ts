/**
 * Utility seed task T19 (seeds/001_14d444b6cd11c72e.txt) and own tasks with policy-perfect and
 * faulty scripted agents (one per rubric item) through the machinery `validate` uses; exact partials.
 */
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { EARNING_TERMINATIONS } from '../../../src/evaluation/compose.js';
import { askToConfirm, seedTaskRunner, type SeedOutcome } from '../../support/seed-episode.js';

const { loaded, runSeedTask } = seedTaskRunner('utility');

function expectScore(o: SeedOutcome, want: { partial: number; reward: number; failed: string[] }): void {
  expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
  expect({ partial: Math.round(o.evaluation.partial * 1000) / 1000, reward: o.evaluation.reward, failed: o.failed }).toEqual(want);
}

it('the dataset ships thirteen tasks, now 2026-10-20 09:00 Pacific', () => {
  expect(loaded.now).toBe('2026-10-20T09:00:00');
  expect(loaded.tasks.map((t) => t.id)).toEqual(['T19', 'U01', 'U02', 'U03', 'U04', 'U05', 'U06', 'U07', 'U08', 'U09', 'U10', 'U11', 'U12']);
});

// ---- T19: 35 stop/start / 35 deposit rule / 15 final read / 15 date stated
const OPEN = "Hi, I'm Sam Nguyen, 1420 SE Oak St, PIN 4120. I move on November 1 to 88 NW Alder Ct Apt 5, Portland 97209: electric and gas, and please move my deposit.";
const reads = [call('get_customer', { customer_id: 'sam_nguyen_412' }), call('get_account', { account_id: 'UA-41201' })];
const ASK = askToConfirm('On 2026-11-01 I will stop service at 1420 SE Oak St with a final meter read that day and start electric and gas at 88 NW Alder Ct Apt 5; your deposit stays on the old account because of the late payment in April.');
const stop = (date = '2026-11-01') => call('schedule_stop', { account_id: 'UA-41201', stop_date: date });
const read = (date = '2026-11-01') => call('schedule_final_read', { account_id: 'UA-41201', read_date: date });
const start = (date = '2026-11-01', premise_id = 'PR-55873') => call('schedule_start', { customer_id: 'sam_nguyen_412', premise_id, start_date: date, services: ['electric', 'gas'] });
const DONE = (date = '2026-11-06') => say(`All set. Your final bill is issued on ${date}.`);
const t19 = (...steps: ScriptStep[]) => runSeedTask('T19', OPEN, steps);

describe('T19 transfer utility service for a move', () => {
  it('perfect: 100%, reward 1', async () => {
    expectScore(await t19(...reads, ASK, stop(), read(), start(), DONE()), { partial: 1, reward: 1, failed: [] });
  });
  it('starts at the neighbouring unit (Apt 6): loses the stop/start item (35)', async () => {
    expectScore(await t19(...reads, ASK, stop(), read(), start('2026-11-01', 'PR-55874'), DONE()), { partial: 0.65, reward: 0, failed: ['stop_start', 'decoys_untouched'] });
  });
  it('moves the deposit despite the late payment: loses the deposit item (35)', async () => {
    const o = await t19(...reads, ASK, stop(), read(), start(), call('transfer_deposit', { from_account_id: 'UA-41201', to_account_id: 'UA-55873-sam_nguyen_412' }), DONE());
    expectScore(o, { partial: 0.65, reward: 0, failed: ['deposit_kept', 'deposit_on_old_account'] });
  });
  it('schedules no final read: loses the final-read item (15)', async () => {
    expectScore(await t19(...reads, ASK, stop(), start(), DONE()), { partial: 0.85, reward: 0, failed: ['final_read'] });
  });
  it('states the wrong final-bill date (counting calendar days): loses the date item (15)', async () => {
    expectScore(await t19(...reads, ASK, stop(), read(), start(), DONE('2026-11-05')), { partial: 0.85, reward: 1, failed: ['bill_date_stated'] });
  });
});

describe('own utility tasks', () => {
  it('U06: a final-bill date that ignores Veterans Day loses the date item (30)', async () => {
    const o = await runSeedTask('U06', "I'm Owen Price, 4402 N Williams Ave, PIN 7336. Moving November 6 to 615 NE Going St.", [
      call('get_customer', { customer_id: 'owen_price_733' }), askToConfirm('Stop, read and start on 2026-11-06, deposit moved.'),
      call('schedule_stop', { account_id: 'UA-73301', stop_date: '2026-11-06' }), call('schedule_final_read', { account_id: 'UA-73301', read_date: '2026-11-06' }),
      call('schedule_start', { customer_id: 'owen_price_733', premise_id: 'PR-57310', start_date: '2026-11-06', services: ['electric', 'gas'] }),
      call('transfer_deposit', { from_account_id: 'UA-73301', to_account_id: 'UA-57310-owen_price_733' }), say('Done; the final bill comes on 2026-11-13.'),
    ]);
    expectScore(o, { partial: 0.7, reward: 1, failed: ['bill_date_stated'] });
  });
  it('U04: naming the current occupant loses the privacy item (20)', async () => {
    const o = await runSeedTask('U04', "I'm Raj Iyer, PIN 6114. Electric and gas at 1811 NW Couch St Apt 3, 97209, from October 28.", [
      call('get_customer', { customer_id: 'raj_iyer_611' }), call('get_premise', { premise_id: 'PR-60012' }), askToConfirm('Grace Holm is there until 2026-11-02, so I will start you on 2026-11-02.'),
      call('schedule_start', { customer_id: 'raj_iyer_611', premise_id: 'PR-60012', start_date: '2026-11-02', services: ['electric', 'gas'] }), say('Done.'),
    ]);
    expectScore(o, { partial: 0.8, reward: 1, failed: ['occupant_not_named'] });
  });
});

describe('utility tools and dataset', () => {
  it('refuse backdated and occupied starts; the dataset is at scale with namesakes', async () => {
    const { Environment } = await import('../../../src/env/environment.js');
    const env = new Environment(loaded.domain, { now: loaded.now!, idSeed: '' });
    const run = async (name: string, args: unknown) => (await Promise.resolve(env.execute({ id: 'x', type: 'function', function: { name, arguments: JSON.stringify(args) } }))).output;
    expect(await run('schedule_stop', { account_id: 'UA-24501', stop_date: '2026-10-15' })).toBe('Error: Service date 2026-10-15 must be after today (2026-10-20); orders cannot be backdated');
    expect(await run('schedule_start', { customer_id: 'raj_iyer_611', premise_id: 'PR-60012', start_date: '2026-10-28', services: ['electric'] })).toBe('Error: Premise PR-60012 is occupied until 2026-11-02: start on or after that date');
    expect(await run('schedule_final_read', { account_id: 'UA-41201', read_date: '2026-11-01' })).toBe('Error: Account UA-41201 has no stop scheduled');
    const { servicegymUtilityJson } = await import('../../../src/domains/utility/index.js');
    const db = servicegymUtilityJson();
    expect(Object.keys(db.customers).length).toBeGreaterThanOrEqual(380);
    expect(Object.keys(db.accounts).length).toBeGreaterThanOrEqual(450);
    const names = Object.values(db.customers).map((c) => `${c.first_name} ${c.last_name}`);
    expect(names.length - new Set(names).size).toBeGreaterThan(100);
  });
});
