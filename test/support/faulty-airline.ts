/**
 * Scripted agents on the five seed tasks of servicegym's airline dataset, two trials each, some
 * faulty (scores as pinned in test/domains/airline/seed-tasks.test.ts):
 *
 * | task | trial 0                                   | trial 1                                  |
 * |------|-------------------------------------------|------------------------------------------|
 * | T01  | writes 8KQ2ZD's date: reward 0, 0%        | malformed call, then perfect: 1, 100%    |
 * | T02  | perfect: 1, 100%                          | upgrade on the credit card: 0, 75%       |
 * | T03  | never verifies the delay: 1, 45%          | the same                                 |
 * | T15  | states no total: 0, 85%                   | the same                                 |
 * | T17  | perfect: 1, 100%                          | perfect                                  |
 *
 * Run means: reward 0.6, partial 0.735, pass^1 0.6, pass^2 0.4; 4 episodes with reward 0.
 */
import { call, say, type ScriptStep } from '../../src/agents/scripted-agent.js';
import type { Task } from '../../src/spec/task.js';
import type { ScriptedEpisode } from './scripted-run.js';

const ask = (summary: string): ScriptStep => say(`${summary} Shall I proceed?`);
const userDetails = (user_id: string) => call('get_user_details', { user_id });
const reservation = (reservation_id: string) => call('get_reservation_details', { reservation_id });
const cancel = (reservation_id: string) => call('cancel_reservation', { reservation_id });

const T01_OPENING = "Hi, I'm Mia Lee, user id mia_lee_301. I'd like to move my flight on reservation 8KQ2ZD from 2026-10-20 to the next day, 2026-10-21.";
const T01_REASON =
  "I'm sorry, Mia: reservation 8KQ2ZD is a basic economy fare, and basic economy cannot be changed. It was booked on 2026-10-09, more than 24 hours ago, so the free 24-hour window does not apply either. Your flight on 2026-10-20 stays as it is.";
const T01_PERFECT = [userDetails('mia_lee_301'), reservation('8KQ2ZD'), say(T01_REASON)];
const T01_WRITES = [
  userDetails('mia_lee_301'),
  reservation('8KQ2ZD'),
  ask('I can move reservation 8KQ2ZD to HAT205 on 2026-10-21; that fare is $10 lower, refunded to your Visa ending 4242.'),
  call('update_reservation_flights', { reservation_id: '8KQ2ZD', cabin: 'basic_economy', flights: [{ flight_number: 'HAT205', date: '2026-10-21' }], payment_id: 'credit_card_3010001' }),
  say('Done: reservation 8KQ2ZD now flies on 2026-10-21.'),
];
const T01_MALFORMED_THEN_PERFECT = [call('get_user_details', '{"user_id": "mia_lee_301"'), ...T01_PERFECT];

const T02_OPENING =
  "Hi, this is Raj Patel, user id raj_patel_118. On reservation Q7M4LT I want both flights upgraded to business for me and Asha Patel, and 2 more checked bags, 4 in total, paid with my gift card. What is the total?";
const GIFT = 'gift_card_1180002';
const upgrade = (payment_id: string) =>
  call('update_reservation_flights', {
    reservation_id: 'Q7M4LT',
    cabin: 'business',
    flights: [{ flight_number: 'HAT330', date: '2026-10-22' }, { flight_number: 'HAT331', date: '2026-10-26' }],
    payment_id,
  });
const bags = call('update_reservation_baggages', { reservation_id: 'Q7M4LT', total_baggages: 4, nonfree_baggages: 0, payment_id: GIFT });
const T02_PERFECT = [
  userDetails('raj_patel_118'),
  reservation('Q7M4LT'),
  ask("Upgrading Q7M4LT to business on HAT330 (2026-10-22) and HAT331 (2026-10-26) for 2 passengers costs (512 + 498 - 170 - 180) x 2 = $1320 at today's prices, paid with your gift card. As a regular member in business you get 2 free bags each, so the 4 bags cost nothing. Total: $1320."),
  upgrade(GIFT),
  bags,
  say('Done: both flights are now business and you have 4 checked bags. $1320 was charged to your gift card; the bags were free.'),
];
const T02_CREDIT_CARD = [
  userDetails('raj_patel_118'),
  reservation('Q7M4LT'),
  ask('Upgrading both flights of Q7M4LT to business costs $1320, charged to your Mastercard ending 5510; the 4 bags are free in business.'),
  upgrade('credit_card_1180001'),
  bags,
  say('Done: both flights are now business ($1320 on your Mastercard ending 5510) and you have 4 checked bags at no cost.'),
];

const T03_OPENING =
  "Hello, I'm Ana Gomez, user id ana_gomez_442. My flight HAT118 from Boston to Chicago today has been delayed by 5 hours. I want to cancel reservation 3PZK9W, get my money back, and get compensation for the delay.";
const certificate = (amount: number) => call('send_certificate', { user_id: 'ana_gomez_442', amount });
const T03_NEVER_VERIFIES = [
  userDetails('ana_gomez_442'),
  reservation('3PZK9W'),
  ask('HAT118 today is delayed from 13:00 to 18:00, 5 hours, and has not departed, so 3PZK9W can be cancelled free of charge: $420 back to your Visa ending 8831. As a gold member you also get one $150 travel certificate per passenger, 2 x $150.'),
  cancel('3PZK9W'),
  certificate(150),
  certificate(150),
  say('Done: 3PZK9W is cancelled, $420 will be refunded to your Visa ending 8831, and two $150 certificates were added to your profile.'),
];

const T15_OPENING =
  'Hi, Ivan Novak here, user id ivan_novak_908. My plans for the rest of the month changed: cancel every one of my upcoming reservations that can be cancelled for free and keep the others. How much will I get back in total?';
const T15_NO_TOTAL = [
  userDetails('ivan_novak_908'),
  reservation('IV1A24'),
  reservation('IV2BUS'),
  reservation('IV3INS'),
  reservation('IV4CXL'),
  call('get_flight_status', { flight_number: 'HAT440', date: '2026-10-16' }),
  reservation('IV5BEC'),
  ask(
    'These can be cancelled for free: IV1A24 (booked less than 24 hours ago, $160), IV2BUS (business cabin, $1390) and IV4CXL (its flight HAT440 was cancelled by the airline, $235). IV3INS (insurance does not cover a change of plans) and IV5BEC (basic economy booked more than 24 hours ago) cannot be cancelled for free. I would cancel the three eligible ones.',
  ),
  cancel('IV1A24'),
  cancel('IV2BUS'),
  cancel('IV4CXL'),
  say('Done: IV1A24, IV2BUS and IV4CXL are cancelled; each refund goes back to its original payment method in 5 to 7 business days.'),
];

const T17_OPENING =
  "Hi, I'm Helen Park, user id helen_park_150. A schedule change means our outbound HPOUT1, JFK to San Francisco on 2026-10-20 for all four of us, must move one day later to 2026-10-21. On the return on 2026-10-27, Daniel and I (HPRET2, flight HAT302) want to fly with the children on HAT306 (HPRET3). I would also like travel insurance wherever it can still be added, and I want to use my travel certificates before my card.";
const CARD = 'credit_card_1500001';
const T17_PERFECT = [
  userDetails('helen_park_150'),
  reservation('HPOUT1'),
  reservation('HPRET2'),
  reservation('HPRET3'),
  ask('HPOUT1: move all four of you to HAT301 on 2026-10-21, economy at $245 instead of $180, so (245 - 180) x 4 = $260: your $100 and $50 certificates first, then $110 on your Visa ending 3344.'),
  call('change_flights_split_payment', {
    reservation_id: 'HPOUT1',
    cabin: 'economy',
    flights: [{ flight_number: 'HAT301', date: '2026-10-21' }],
    payments: [
      { payment_id: 'certificate_1500002', amount: 100 },
      { payment_id: 'certificate_1500003', amount: 50 },
      { payment_id: CARD, amount: 110 },
    ],
  }),
  ask('HPRET2: move you and Daniel to HAT306 on 2026-10-27 with the children, (230 - 210) x 2 = $40 on your Visa; and add insurance to HPRET2, booked 7 hours ago, 2 x $30 = $60 on your Visa.'),
  call('update_reservation_flights', { reservation_id: 'HPRET2', cabin: 'economy', flights: [{ flight_number: 'HAT306', date: '2026-10-27' }], payment_id: CARD }),
  call('add_travel_insurance', { reservation_id: 'HPRET2', payment_id: CARD }),
  say(
    "Done: HPOUT1 now flies on 2026-10-21 and HPRET2 flies with the children on HAT306, with insurance. The children's reservation HPRET3 is basic economy and cannot be changed, and HPOUT1 was booked more than 24 hours ago, so insurance can no longer be added to it.",
  ),
];

const PLAYS: Record<string, [ScriptedEpisode, ScriptedEpisode]> = {
  T01: [{ opening: T01_OPENING, script: T01_WRITES }, { opening: T01_OPENING, script: T01_MALFORMED_THEN_PERFECT }],
  T02: [{ opening: T02_OPENING, script: T02_PERFECT }, { opening: T02_OPENING, script: T02_CREDIT_CARD }],
  T03: [{ opening: T03_OPENING, script: T03_NEVER_VERIFIES }, { opening: T03_OPENING, script: T03_NEVER_VERIFIES }],
  T15: [{ opening: T15_OPENING, script: T15_NO_TOTAL }, { opening: T15_OPENING, script: T15_NO_TOTAL }],
  T17: [{ opening: T17_OPENING, script: T17_PERFECT }, { opening: T17_OPENING, script: T17_PERFECT }],
};

/** The episode of seed task `task` at trial 0 or 1 (see the module table). */
export function faultyAirlinePlay(task: Task, trial: number): ScriptedEpisode {
  const plays = PLAYS[task.id];
  if (!plays || !plays[trial]) throw new Error(`no scripted play for ${task.id} trial ${trial}`);
  return plays[trial];
}
