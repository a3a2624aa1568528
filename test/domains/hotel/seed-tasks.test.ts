/**
 * Hotel seed task T09 (seeds/001_14d444b6cd11c72e.txt) and own tasks, run with a policy-perfect
 * scripted agent and faulty ones (one per rubric item) through the machinery `validate` uses. Each
 * test pins the exact partial the seed's weights imply, the DB reward and the failing checks.
 */
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { EARNING_TERMINATIONS } from '../../../src/evaluation/compose.js';
import { askToConfirm, seedTaskRunner, type SeedOutcome } from '../../support/seed-episode.js';

const { loaded, runSeedTask } = seedTaskRunner('hotel');

function expectScore(o: SeedOutcome, want: { partial: number; reward: number; failed: string[] }): void {
  expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
  expect({ partial: Math.round(o.evaluation.partial * 1000) / 1000, reward: o.evaluation.reward, failed: o.failed }).toEqual(want);
}

it('the dataset ships thirteen tasks, now 2026-10-19 03:00 Pacific', () => {
  expect(loaded.now).toBe('2026-10-19T03:00:00');
  expect(loaded.tasks.map((t) => t.id)).toEqual(['T09', 'H01', 'H02', 'H03', 'H04', 'H05', 'H06', 'H07', 'H08', 'H09', 'H10', 'H11', 'H12']);
});

// ---- T09: 35 dates / 40 penalty and total / 15 payment adjustment / 10 confirmation
const OPEN = "Hi, I'm Emma Wu, reservation H-55102. I'd like to check out on October 22 instead of October 24.";
const read = call('get_reservation', { reservation_id: 'H-55102' });
const ASK = askToConfirm('Your stay becomes 2026-10-20 to 2026-10-22. Inside 48 hours the penalty is the first removed night with tax, $285.73, so the new total is $788.33 and $320.15 is refunded to your Visa ending 2291.');
const change = (check_out = '2026-10-22') => call('change_stay_dates', { reservation_id: 'H-55102', check_in: '2026-10-20', check_out });
const penalty = (amount_cents = 28_573) => call('post_charge', { reservation_id: 'H-55102', code: 'EARLY_DEPARTURE', amount_cents });
const refund = (amount_cents = 32_015, payment_id = 'card_8191') => call('refund_payment', { reservation_id: 'H-55102', payment_id, amount_cents });
const DONE = say('Done: you now check out on 2026-10-22, your total is $788.33 and $320.15 is on its way to your Visa ending 2291.');
const t09 = (...steps: ScriptStep[]) => runSeedTask('T09', OPEN, steps);

describe('T09 shorten a hotel stay and apply the penalty', () => {
  it('perfect: 100%, reward 1', async () => {
    expectScore(await t09(read, ASK, change(), penalty(), refund(), DONE), { partial: 1, reward: 1, failed: [] });
  });
  it('checks out on the 21st (one night): loses dates (35) and, with its own first-removed-night penalty, the exact total (40)', async () => {
    const ask21 = askToConfirm('Your stay becomes 2026-10-20 to 2026-10-21. The penalty is $251.30 and $605.88 is refunded to your Visa ending 2291.');
    const o = await t09(read, ask21, change('2026-10-21'), penalty(25_130), refund(60_588), DONE);
    expectScore(o, { partial: 0.25, reward: 0, failed: ['dates', 'penalty_and_total'] });
  });
  it('posts no penalty and refunds the whole removed amount: loses the penalty item (40)', async () => {
    const askNoPenalty = askToConfirm('Your stay becomes 2026-10-20 to 2026-10-22 and the removed nights, $605.88, are refunded to your Visa ending 2291.');
    expectScore(await t09(read, askNoPenalty, change(), refund(60_588), DONE), { partial: 0.6, reward: 0, failed: ['penalty_and_total'] });
  });
  it('charges half the removed nights instead: loses the penalty item (40), the payment still settles', async () => {
    const half = Math.floor((24_900 + 27_900 + 1) / 2);
    const askHalf = askToConfirm(`Your stay becomes 2026-10-20 to 2026-10-22. The penalty is half the removed nights, $${(half / 100).toFixed(2)}, and $${((60_588 - half) / 100).toFixed(2)} is refunded to your Visa ending 2291.`);
    expectScore(await t09(read, askHalf, change(), penalty(half), refund(60_588 - half), DONE), { partial: 0.6, reward: 0, failed: ['penalty_and_total'] });
  });
  it('refunds to her Amex: loses the payment item (15)', async () => {
    expectScore(await t09(read, ASK, change(), penalty(), refund(32_015, 'card_8192'), DONE), { partial: 0.85, reward: 0, failed: ['refund_to_booking_card', 'no_other_card'] });
  });
  it('changes without confirming: loses the confirmation item (10)', async () => {
    expectScore(await t09(read, change(), penalty(), refund(), DONE), { partial: 0.9, reward: 1, failed: ['confirmed_before_writes'] });
  });
});

describe('own hotel tasks', () => {
  it('H05: charging a penalty at exactly 60 hours loses the no-penalty item (35)', async () => {
    const o = await runSeedTask('H05', "I'm Daniel Cho, H-61710. One night only please, check out October 22.", [
      call('get_reservation', { reservation_id: 'H-61710' }), askToConfirm('Checking out 2026-10-22 costs the first removed night, $297.20; no refund.'),
      call('change_stay_dates', { reservation_id: 'H-61710', check_in: '2026-10-21', check_out: '2026-10-22' }), call('post_charge', { reservation_id: 'H-61710', code: 'EARLY_DEPARTURE', amount_cents: 29_720 }), say('Done.'),
    ]);
    expectScore(o, { partial: 0.4, reward: 0, failed: ['no_penalty', 'refund'] });
  });
  it('H06: telling a caller with the wrong name about the booking loses the privacy item (40)', async () => {
    const o = await runSeedTask('H06', 'Hi, reservation H-61812 under Smith; move it a day later please.', [
      call('get_reservation', { reservation_id: 'H-61812' }), say("That booking is under another name (Schmidt), a suite in San Francisco for October 27-30, so I can't change it."),
    ]);
    expectScore(o, { partial: 0.6, reward: 1, failed: ['no_disclosure'] });
  });
});
