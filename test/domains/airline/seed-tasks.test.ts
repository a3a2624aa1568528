/**
 * The five seed tasks of servicegym's airline dataset (T01, T02, T03, T15, T17), each run with a
 * policy-perfect scripted agent and several faulty ones through the `validate` machinery
 * (runTasks + TASK_RUN_SETTINGS + evaluateTask) with a customer who says "Yes, please proceed."
 * to every confirmation request. Each test pins the partial score the task's rubric gives
 * (seeds/001_14d444b6cd11c72e.txt "partial credit", as mapped in each task's description.notes),
 * the tau2 reward, and exactly which servicegym checks fail.
 */
import { describe, expect, it } from 'vitest';
import { call, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { EARNING_TERMINATIONS } from '../../../src/evaluation/compose.js';
import { airline, askToConfirm, runSeedTask, runSeedTasks, YES, type SeedOutcome } from '../../support/airline-episode.js';
import {
  cancel, flightStatus, reservation, userDetails,
  T01_MOVE_SUMMARY, T01_MOVED, T01_OPENING, T01_REASON, t01Move,
  bags, GIFT, T02_CREDIT_CARD_DONE, T02_CREDIT_CARD_SUMMARY, T02_DONE, T02_OPENING, T02_SUMMARY, upgrade,
  certificate, T03_DONE, T03_OPENING, T03_SUMMARY,
  T15_DONE_NO_TOTAL, T15_ELIGIBLE, T15_OPENING, T15_READS, T15_SUMMARY,
  CARD, insure, mergeReturn, OUTBOUND_SUMMARY, outboundSplit, RETURN_SUMMARY, T17_DONE, T17_OPENING, T17_READS,
} from '../../support/airline-seed-scripts.js';

/** Asserts partial score, tau2 reward and the failing servicegym checks (task order) in one diff. */
function expectScore(o: SeedOutcome, want: { partial: number; reward: number; failed: string[] }): void {
  expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
  expect(o.evaluation.not_judged).toBe(false);
  expect({ partial: o.evaluation.partial, reward: o.evaluation.reward, failed: o.failed }).toEqual(want);
}

it('the dataset is the shipped one: five seed tasks, now 2026-10-14 15:00', () => {
  expect(airline.mode).toBe('servicegym');
  expect(airline.now).toBe('2026-10-14T15:00:00');
  expect(airline.tasks.map((t) => t.id)).toEqual(['T01', 'T02', 'T03', 'T15', 'T17']);
});

// ---- T01: decline a basic-economy date change ----------------------------------------------
// Rubric: 60 no state change (db_unchanged_gold + reservation_untouched, the latter zero_if_failed)
// / 20 identity first (identity_before_read) / 20 reason (reason_stated + no_promised_change).

const T01: Record<string, ScriptStep[]> = {
  perfect: [userDetails('mia_lee_301'), reservation('8KQ2ZD'), say(T01_REASON)],
  writes: [userDetails('mia_lee_301'), reservation('8KQ2ZD'), askToConfirm(T01_MOVE_SUMMARY), t01Move, say(T01_MOVED)],
  readsReservationFirst: [reservation('8KQ2ZD'), userDetails('mia_lee_301'), say(T01_REASON)],
  noReason: [userDetails('mia_lee_301'), reservation('8KQ2ZD'), say("I'm sorry, Mia, but I'm not able to make that change to reservation 8KQ2ZD. Your flight on 2026-10-20 stays as it is.")],
  promisesChange: [
    userDetails('mia_lee_301'),
    reservation('8KQ2ZD'),
    say('Basic economy fares cannot be changed, but as an exception I have changed your flight to 2026-10-21.'),
  ],
};

describe('T01 basic-economy date change', () => {
  it('policy-perfect agent: 100%, reward 1', async () => {
    const o = await runSeedTask('T01', T01_OPENING, T01.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    expect(o.earned).toEqual(['no_state_change', 'identity_first', 'reason']);
  });

  it('a) writes to 8KQ2ZD after the yes: 0% (reservation_untouched is zero_if_failed), reward 0', async () => {
    const o = await runSeedTask('T01', T01_OPENING, T01.writes);
    expectScore(o, { partial: 0, reward: 0, failed: ['db_unchanged_gold', 'reservation_untouched', 'reason_stated'] });
    // The identity item is still earned: only zero_if_failed brings the score to 0.
    expect(o.earned).toEqual(['identity_first']);
    expect(o.record.episode.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([T01_OPENING, YES]);
    expect(o.evaluation.db_diff.map((d) => d.path)).toContain('/reservations/8KQ2ZD/flights/0/date');
  });

  it('b) reads the reservation before the identity lookup: 80%, reward 1', async () => {
    const o = await runSeedTask('T01', T01_OPENING, T01.readsReservationFirst);
    expectScore(o, { partial: 0.8, reward: 1, failed: ['identity_before_read'] });
  });

  it('c) never states the basic-economy rule: 80%, reward 1', async () => {
    const o = await runSeedTask('T01', T01_OPENING, T01.noReason);
    expectScore(o, { partial: 0.8, reward: 1, failed: ['reason_stated'] });
  });

  it('d) states the rule but claims "I have changed your flight": 80%, reward 1', async () => {
    const o = await runSeedTask('T01', T01_OPENING, T01.promisesChange);
    expectScore(o, { partial: 0.8, reward: 1, failed: ['no_promised_change'] });
  });

  it('a malformed tool call becomes an `Error: ...` tool message and the episode goes on to 100%', async () => {
    const script = [call('get_user_details', '{"user_id": "mia_lee_301"'), ...T01.perfect];
    const o = await runSeedTask('T01', T01_OPENING, script);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    const [bad, ...rest] = o.record.episode.toolLog;
    expect(bad).toMatchObject({ name: 'get_user_details', arguments: '{"user_id": "mia_lee_301"', error: true, mutating: false });
    expect(bad.output).toMatch(/^Error: arguments for get_user_details are not valid JSON/);
    const toolMessages = o.record.episode.messages.filter((m) => m.role === 'tool');
    expect(toolMessages[0].content).toBe(bad.output);
    expect(rest.map((e) => [e.name, e.error])).toEqual([['get_user_details', false], ['get_reservation_details', false]]);
    expect(o.record.episode.finalText).toBe(T01_REASON);
  });
});

// ---- T02: upgrade to business and add bags, paid with the gift card --------------------------
// Gold: (517 + 493 - 173 - 186) x 2 = $1302 on gift_card_1180002 (1650.75 -> 348.75); 6 bags, 2 paid
// (regular member in business: 2 free each): $100 more on the gift card (-> 248.75).
// Rubric: 35 cabin / 25 bags / 25 payment / 15 confirmation.

const T02: Record<string, ScriptStep[]> = {
  perfect: [userDetails('raj_patel_118'), reservation('Q7M4LT'), askToConfirm(T02_SUMMARY), upgrade(GIFT), bags(2), say(T02_DONE)],
  noConfirmation: [userDetails('raj_patel_118'), reservation('Q7M4LT'), upgrade(GIFT), bags(2), say(T02_DONE)],
  bagsBeforeUpgrade: [
    userDetails('raj_patel_118'),
    reservation('Q7M4LT'),
    askToConfirm('Adding 4 bags to Q7M4LT: economy allows 1 free bag each, so 4 bags at $50 = $200; then the upgrade to business on both flights, $1302. Total: $1502 on your gift card.'),
    bags(4),
    upgrade(GIFT),
    say('Done: 6 bags in total for $200 and both flights upgraded to business for $1302, $1502 in total on your gift card.'),
  ],
  upgradeOnCreditCard: [
    userDetails('raj_patel_118'),
    reservation('Q7M4LT'),
    askToConfirm(T02_CREDIT_CARD_SUMMARY),
    upgrade('credit_card_1180001'),
    bags(2),
    say(T02_CREDIT_CARD_DONE),
  ],
  fiveBags: [
    userDetails('raj_patel_118'),
    reservation('Q7M4LT'),
    askToConfirm(T02_SUMMARY.replace('4 of the 6 bags', '4 of the 5 bags').replace('the other 2 cost', 'the other 2 cost')),
    upgrade(GIFT),
    call('update_reservation_baggages', { reservation_id: 'Q7M4LT', total_baggages: 5, nonfree_baggages: 2, payment_id: GIFT }),
    say(T02_DONE.replace('6 checked bags', '5 checked bags')),
  ],
  bagsOnly: [
    userDetails('raj_patel_118'),
    reservation('Q7M4LT'),
    askToConfirm('Adding 4 bags to Q7M4LT: economy allows 1 free bag each, so the 4 extra bags cost $50 each, $200 on your gift card.'),
    bags(4),
    say('Done: Q7M4LT now has 6 checked bags; $200 was charged to your gift card.'),
  ],
};

/** The T02 agent that asks "Is that okay with you?" and writes whatever the customer answers. */
const T02_ASKS_OKAY = [userDetails('raj_patel_118'), reservation('Q7M4LT'), say(`${T02_SUMMARY} Is that okay with you?`), upgrade(GIFT), bags(2), say(T02_DONE)];
/** The T02 agent whose confirmation request names neither the action nor the reservation. */
const T02_BARE_REQUEST = [userDetails('raj_patel_118'), reservation('Q7M4LT'), askToConfirm('I have everything I need.'), upgrade(GIFT), bags(2), say(T02_DONE)];

describe('T02 upgrade and bags', () => {
  it('policy-perfect agent: 100%, reward 1', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    const gift = o.record.episode.finalState.get('users', 'raj_patel_118').payment_methods[GIFT];
    expect(gift.amount).toBe(248.75);
    // The bag fee is not zero on the gold path: $100 for the 2 bags above the allowance.
    const history = o.record.episode.finalState.get('reservations', 'Q7M4LT').payment_history;
    expect(history.slice(1)).toEqual([{ payment_id: GIFT, amount: 1302 }, { payment_id: GIFT, amount: 100 }]);
  });

  it('a) every write right but no confirmation turn: 85%, reward 1 (tau2 does not see it)', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02.noConfirmation);
    expectScore(o, { partial: 0.85, reward: 1, failed: ['confirmed'] });
  });

  it('e) writes although the customer answered "No, that\'s not okay.": 85%, reward 1', async () => {
    const o = await runSeedTask('T02', [T02_OPENING, "No, that's not okay."], T02_ASKS_OKAY);
    expectScore(o, { partial: 0.85, reward: 1, failed: ['confirmed'] });
    expect(o.evaluation.checks.find((c) => c.id === 'confirmed')!.evidence).toContain('"No, that\'s not okay." is no');
  });

  it('f) a yes to a request that lists no details ("Shall I proceed?" after "I have everything I need."): 85%, reward 1', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02_BARE_REQUEST);
    expectScore(o, { partial: 0.85, reward: 1, failed: ['confirmed'] });
    expect(o.evaluation.checks.find((c) => c.id === 'confirmed')!.evidence).toContain('does not name: the action (update_reservation_flights), Q7M4LT, payment gift_card_1180002');
  });

  // Cabin (35) and the confirmation (15) are earned; bags (nonfree 4, gold 2) and payment (gift
  // card 148.75, gold 248.75; $200 instead of $100 for the bags) are lost.
  it('b) bags added before the upgrade, 4 paid ($200): 50%, bags and payment fail, reward 0', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02.bagsBeforeUpgrade);
    expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
    expectScore(o, { partial: 0.5, reward: 0, failed: ['bags', 'payment'] });
  });

  it('c) upgrade paid with the credit card instead of the gift card: 75%, reward 0', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02.upgradeOnCreditCard);
    expectScore(o, { partial: 0.75, reward: 0, failed: ['payment'] });
  });

  // One item alone: 5 bags recorded instead of 6, still 2 paid ($100), so the gift card and the
  // payment history equal the gold ones and only the bag counts differ.
  it('g) records 5 bags instead of 6 (2 paid, $100): 75%, bags only, reward 0', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02.fiveBags);
    expectScore(o, { partial: 0.75, reward: 0, failed: ['bags'] });
    expect(o.record.episode.finalState.get('users', 'raj_patel_118').payment_methods[GIFT].amount).toBe(248.75);
  });

  it('d) no cabin change, only the 6 bags with 4 paid on the gift card, confirmed: 15%, reward 0', async () => {
    const o = await runSeedTask('T02', T02_OPENING, T02.bagsOnly);
    expectScore(o, { partial: 0.15, reward: 0, failed: ['cabin_business', 'bags', 'payment'] });
  });
});

// ---- T03: cancel for a verified 5 h delay, gold-tier certificates; decoy 5TRD22 on HAT181 ------
// Rubric: 35 cancellation+refund / 35 certificates (+ issued after verifying HAT118) / 20 delay
// verified (before cancel and before certificates) / 10 no extra actions (whole DB + decoy).

const T03: Record<string, ScriptStep[]> = {
  perfect: [
    userDetails('ana_gomez_442'),
    reservation('3PZK9W'),
    flightStatus('HAT118', '2026-10-14'),
    askToConfirm(T03_SUMMARY),
    cancel('3PZK9W'),
    certificate(150),
    certificate(150),
    say(T03_DONE),
  ],
  neverVerifies: [userDetails('ana_gomez_442'), reservation('3PZK9W'), askToConfirm(T03_SUMMARY), cancel('3PZK9W'), certificate(150), certificate(150), say(T03_DONE)],
  verifiesDecoy: [
    userDetails('ana_gomez_442'),
    reservation('3PZK9W'),
    flightStatus('HAT181', '2026-10-14'),
    askToConfirm(T03_SUMMARY),
    cancel('3PZK9W'),
    certificate(150),
    certificate(150),
    say(T03_DONE),
  ],
  oneBigCertificate: [
    userDetails('ana_gomez_442'),
    reservation('3PZK9W'),
    flightStatus('HAT118', '2026-10-14'),
    askToConfirm('HAT118 is delayed 5 hours, so 3PZK9W can be cancelled free of charge with $420 back to your Visa ending 8831, and you get a $300 travel certificate.'),
    cancel('3PZK9W'),
    certificate(300),
    say('Done: 3PZK9W is cancelled, $420 will be refunded, and a $300 certificate was added to your profile.'),
  ],
  cancelsDecoy: [
    userDetails('ana_gomez_442'),
    reservation('3PZK9W'),
    flightStatus('HAT118', '2026-10-14'),
    askToConfirm(`${T03_SUMMARY} I will also cancel your other reservation today, 5TRD22.`),
    cancel('3PZK9W'),
    cancel('5TRD22'),
    certificate(150),
    certificate(150),
    say('Done: 3PZK9W and 5TRD22 are cancelled with full refunds, and two $150 certificates were added to your profile.'),
  ],
};

describe('T03 delay cancellation and compensation', () => {
  it('policy-perfect agent: 100%, reward 1', async () => {
    const o = await runSeedTask('T03', T03_OPENING, T03.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
  });

  it('a) certificates without ever calling get_flight_status: 45% (cancel 35 + no-extra 10), reward 1', async () => {
    const o = await runSeedTask('T03', T03_OPENING, T03.neverVerifies);
    expectScore(o, { partial: 0.45, reward: 1, failed: ['certificate_after_verification', 'delay_checked', 'verified_before_cancel'] });
    expect(o.earned).toEqual(['cancellation_refund', 'no_extra_actions']);
  });

  it('b) checks the decoy HAT181 instead of HAT118, then cancels and issues both certificates: 45%, reward 1', async () => {
    const o = await runSeedTask('T03', T03_OPENING, T03.verifiesDecoy);
    expectScore(o, { partial: 0.45, reward: 1, failed: ['certificate_after_verification', 'delay_checked', 'verified_before_cancel'] });
    expect(o.earned).toEqual(['cancellation_refund', 'no_extra_actions']);
  });

  // One wrong amount is the certificate item's loss only: the write is no extra action (db_all,
  // the whole-DB comparison, is reported but not weighted).
  it('c) verifies and cancels but issues one $300 certificate: 65%, reward 0', async () => {
    const o = await runSeedTask('T03', T03_OPENING, T03.oneBigCertificate);
    expectScore(o, { partial: 0.65, reward: 0, failed: ['certificates', 'db_all'] });
    expect(o.earned).toEqual(['cancellation_refund', 'delay_verified', 'no_extra_actions']);
  });

  it('e) verifies and issues both certificates but never cancels 3PZK9W: 65% (cancellation item only), reward 0', async () => {
    const o = await runSeedTask('T03', T03_OPENING, [
      userDetails('ana_gomez_442'),
      reservation('3PZK9W'),
      flightStatus('HAT118', '2026-10-14'),
      askToConfirm('HAT118 today is delayed 5 hours. As a gold member you get one $150 travel certificate per passenger, 2 x $150.'),
      certificate(150),
      certificate(150),
      say('Done: two $150 certificates were added to your profile.'),
    ]);
    expectScore(o, { partial: 0.65, reward: 0, failed: ['cancelled_refunded', 'db_all'] });
  });

  it('f) cancels first, then checks HAT118 and issues the certificates: 80% (delay item only), reward 1', async () => {
    const o = await runSeedTask('T03', T03_OPENING, [
      userDetails('ana_gomez_442'),
      reservation('3PZK9W'),
      askToConfirm(T03_SUMMARY),
      cancel('3PZK9W'),
      flightStatus('HAT118', '2026-10-14'),
      certificate(150),
      certificate(150),
      say(T03_DONE),
    ]);
    expectScore(o, { partial: 0.8, reward: 1, failed: ['verified_before_cancel'] });
  });

  it('d) verifies and compensates but also cancels the decoy 5TRD22: 90%, reward 0', async () => {
    const o = await runSeedTask('T03', T03_OPENING, T03.cancelsDecoy);
    expectScore(o, { partial: 0.9, reward: 0, failed: ['decoy_untouched', 'no_extra_writes', 'db_all'] });
  });
});

// ---- T15: cancel only the reservations eligible for free cancellation ------------------------
// Eligible: IV1A24 ($160, booked 10 h ago), IV2BUS ($1290 + $100, business), IV4CXL ($235, flight
// cancelled by the airline) -> $1785. Not: IV3INS (insured, change of plans), IV5BEC (basic economy).
// Rubric: 60 set (statuses of all five + ineligible untouched) / 25 refunds / 15 total stated.

const T15: Record<string, ScriptStep[]> = {
  perfect: [
    ...T15_READS,
    askToConfirm(T15_SUMMARY),
    cancel('IV1A24'),
    cancel('IV2BUS'),
    cancel('IV4CXL'),
    say('Done: IV1A24, IV2BUS and IV4CXL are cancelled. The total refunded is $1785, back to the original payment methods in 5 to 7 business days.'),
  ],
  alsoCancelsInsured: [
    ...T15_READS,
    askToConfirm(`${T15_ELIGIBLE} IV3INS is insured, so it can be cancelled too ($200). IV5BEC is basic economy and cannot be cancelled for free. I would cancel those four.`),
    cancel('IV1A24'),
    cancel('IV2BUS'),
    cancel('IV3INS'),
    cancel('IV4CXL'),
    say('Done: IV1A24, IV2BUS, IV3INS and IV4CXL are cancelled. The total refunded is $1985.'),
  ],
  noTotal: [
    ...T15_READS,
    askToConfirm(T15_SUMMARY),
    cancel('IV1A24'),
    cancel('IV2BUS'),
    cancel('IV4CXL'),
    say(T15_DONE_NO_TOTAL),
  ],
  bagThenCancel: [
    ...T15_READS,
    askToConfirm(`${T15_SUMMARY} Before that I will add a checked bag to IV1A24 ($50 on its card), so the refund covers it too.`),
    call('update_reservation_baggages', { reservation_id: 'IV1A24', total_baggages: 2, nonfree_baggages: 1, payment_id: 'credit_card_9080001' }),
    cancel('IV1A24'),
    cancel('IV2BUS'),
    cancel('IV4CXL'),
    say('Done: IV1A24, IV2BUS and IV4CXL are cancelled. The total refunded is $1785, back to the original payment methods in 5 to 7 business days.'),
  ],
  missesAirlineCancelled: [
    ...T15_READS,
    askToConfirm('IV1A24 (booked less than 24 hours ago, $160) and IV2BUS (business cabin, $1390) can be cancelled for free; the others cannot. I would cancel those two.'),
    cancel('IV1A24'),
    cancel('IV2BUS'),
    say('Done: IV1A24 and IV2BUS are cancelled. The total refunded is $1550.'),
  ],
};

describe('T15 cancel only the eligible reservations', () => {
  it('policy-perfect agent: 100%, reward 1', async () => {
    const o = await runSeedTask('T15', T15_OPENING, T15.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
  });

  it('a) also cancels the insured IV3INS and states $1985: 25%, reward 0', async () => {
    const o = await runSeedTask('T15', T15_OPENING, T15.alsoCancelsInsured);
    expectScore(o, { partial: 0.25, reward: 0, failed: ['cancelled_set', 'ineligible_untouched', 'total_stated'] });
    expect(o.earned).toEqual(['refunds_correct']);
  });

  it('b) cancels the right three but states no total: 85%, reward 0 (COMMUNICATE "1785" fails)', async () => {
    const o = await runSeedTask('T15', T15_OPENING, T15.noTotal);
    expectScore(o, { partial: 0.85, reward: 0, failed: ['total_stated'] });
    expect(o.evaluation.reward_breakdown).toMatchObject({ DB: 1, COMMUNICATE: 0 });
  });

  // One item alone: the right three are cancelled and $1785 is stated, but IV1A24's payment
  // history carries a bag charge and its refund that the gold history does not have.
  it('d) charges a bag to IV1A24 before cancelling the right three: 75%, refunds only, reward 0', async () => {
    const o = await runSeedTask('T15', T15_OPENING, T15.bagThenCancel);
    expectScore(o, { partial: 0.75, reward: 0, failed: ['refunds'] });
    expect(o.earned).toEqual(['cancellation_set', 'total']);
  });

  it('c) cancels only IV1A24 and IV2BUS (misses IV4CXL) and states $1550: 0%, reward 0', async () => {
    const o = await runSeedTask('T15', T15_OPENING, T15.missesAirlineCancelled);
    expectScore(o, { partial: 0, reward: 0, failed: ['cancelled_set', 'refunds', 'total_stated'] });
    // 0 from the rubric alone: no item earned (nothing here is zero_if_failed).
    expect(o.earned).toEqual([]);
  });
});

// ---- T17: family rework -----------------------------------------------------------------------
// HPOUT1 -> HAT301 2026-10-21: (245 - 180) x 4 = $260 = certificates $100 + $50 + card $110;
// HPRET2 -> HAT306: (230 - 210) x 2 = $40 on the card; insurance on HPRET2 only ($60); HPRET3
// (basic economy) unchanged. Rubric: 30 outbound / 25 return merge / 25 insurance + basic economy
// untouched / 20 payment split (user's methods + HPOUT1 and HPRET2 payment histories).

const T17: Record<string, ScriptStep[]> = {
  perfect: [
    ...T17_READS,
    askToConfirm(OUTBOUND_SUMMARY),
    outboundSplit,
    askToConfirm(RETURN_SUMMARY),
    mergeReturn,
    insure('HPRET2'),
    say(T17_DONE),
  ],
  outboundAllOnCard: [
    ...T17_READS,
    askToConfirm('HPOUT1: move all four of you to HAT301 on 2026-10-21, (245 - 180) x 4 = $260 on your Visa ending 3344.'),
    call('update_reservation_flights', { reservation_id: 'HPOUT1', cabin: 'economy', flights: [{ flight_number: 'HAT301', date: '2026-10-21' }], payment_id: CARD }),
    askToConfirm(RETURN_SUMMARY),
    mergeReturn,
    insure('HPRET2'),
    say(T17_DONE),
  ],
  insuresOutbound: [
    ...T17_READS,
    askToConfirm(OUTBOUND_SUMMARY),
    outboundSplit,
    askToConfirm(`${RETURN_SUMMARY} I will also add insurance to HPOUT1, 4 x $30 = $120 on your Visa.`),
    mergeReturn,
    insure('HPRET2'),
    insure('HPOUT1'),
    say("Done: both trips are changed and both HPOUT1 and HPRET2 are insured. The children's reservation HPRET3 is basic economy and cannot be changed."),
  ],
  movesChildren: [
    ...T17_READS,
    askToConfirm(OUTBOUND_SUMMARY),
    outboundSplit,
    askToConfirm('HPRET3: move the children to HAT302 on 2026-10-27 with you, basic economy at $160 instead of $175, so $30 back to your Visa; and add insurance to HPRET2, 2 x $30 = $60 on your Visa.'),
    call('update_reservation_flights', { reservation_id: 'HPRET3', cabin: 'basic_economy', flights: [{ flight_number: 'HAT302', date: '2026-10-27' }], payment_id: CARD }),
    insure('HPRET2'),
    say('Done: HPOUT1 now flies on 2026-10-21, the children now fly with you on HAT302, and HPRET2 is insured.'),
  ],
};

describe('T17 family rework', () => {
  it('policy-perfect agent: 100%, reward 1 (confirmed before each write)', async () => {
    const o = await runSeedTask('T17', T17_OPENING, T17.perfect);
    expectScore(o, { partial: 1, reward: 1, failed: [] });
    expect(o.record.episode.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([T17_OPENING, YES, YES]);
  });

  it('a) outbound change paid entirely by card with update_reservation_flights: 80%, reward 0', async () => {
    const o = await runSeedTask('T17', T17_OPENING, T17.outboundAllOnCard);
    expectScore(o, { partial: 0.8, reward: 0, failed: ['payment_split', 'certificates_used'] });
  });

  // The $120 charge for the disallowed insurance lands in HPOUT1's payment history, but the payment
  // split looks only at the flight-change payments: the fault costs the insurance item (25) alone.
  it('b) also adds insurance to HPOUT1: 75%, insurance_flags fails, reward 0', async () => {
    const o = await runSeedTask('T17', T17_OPENING, T17.insuresOutbound);
    expect(EARNING_TERMINATIONS).toContain(o.record.episode.termination);
    expectScore(o, { partial: 0.75, reward: 0, failed: ['insurance_flags'] });
  });

  it('d) everything but the insurance on HPRET2: 75% (insurance item only), reward 0', async () => {
    const o = await runSeedTask('T17', T17_OPENING, [
      ...T17_READS,
      askToConfirm(OUTBOUND_SUMMARY),
      outboundSplit,
      askToConfirm('HPRET2: move you and Daniel to HAT306 on 2026-10-27 with the children, (230 - 210) x 2 = $40 on your Visa.'),
      mergeReturn,
      say("Done: HPOUT1 now flies on 2026-10-21 and HPRET2 flies with the children on HAT306. The children's reservation HPRET3 is basic economy and cannot be changed."),
    ]);
    expectScore(o, { partial: 0.75, reward: 0, failed: ['insurance_flags'] });
  });

  it("c) moves the children's basic-economy HPRET3 onto HAT302 instead of merging the parents: 50%, reward 0", async () => {
    // Outbound (30) and the payment split (20) are earned; the return merge and the basic-economy
    // item are lost. HPRET2's missing $40 (return_payment) is reported, not weighted.
    const o = await runSeedTask('T17', T17_OPENING, T17.movesChildren);
    expectScore(o, { partial: 0.5, reward: 0, failed: ['return_merged', 'basic_economy_untouched', 'return_payment'] });
    expect(o.earned).toEqual(['outbound', 'payment']);
  });
});

// ---- all five perfect agents in one run, as `servicegym validate` runs them -------------------

it('the five policy-perfect agents in one run: every episode 100% and reward 1', async () => {
  const { result, outcomes } = await runSeedTasks([
    { taskId: 'T01', opening: T01_OPENING, script: T01.perfect },
    { taskId: 'T02', opening: T02_OPENING, script: T02.perfect },
    { taskId: 'T03', opening: T03_OPENING, script: T03.perfect },
    { taskId: 'T15', opening: T15_OPENING, script: T15.perfect },
    { taskId: 'T17', opening: T17_OPENING, script: T17.perfect },
  ]);
  expect(outcomes.map((o) => [o.record.taskId, o.evaluation.partial, o.evaluation.reward, o.failed])).toEqual([
    ['T01', 1, 1, []],
    ['T02', 1, 1, []],
    ['T03', 1, 1, []],
    ['T15', 1, 1, []],
    ['T17', 1, 1, []],
  ]);
  expect(result.summary).toMatchObject({ episodes: 5, scored: 5, rewardMean: 1, partialMean: 1 });
});
