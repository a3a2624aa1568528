/**
 * Building blocks of the scripted agents on the five airline seed tasks (T01, T02, T03, T15, T17),
 * shared by test/domains/airline/seed-tasks.test.ts and test/support/faulty-airline.ts: the tool-call
 * steps, the customers' openings and the agent texts both scripts say word for word. Each file
 * keeps its own confirmation step and whatever it plays differently.
 */
import { call } from '../../src/agents/scripted-agent.js';

export const userDetails = (user_id: string) => call('get_user_details', { user_id });
export const reservation = (reservation_id: string) => call('get_reservation_details', { reservation_id });
export const flightStatus = (flight_number: string, date: string) => call('get_flight_status', { flight_number, date });
export const cancel = (reservation_id: string) => call('cancel_reservation', { reservation_id });

// ---- T01: decline a basic-economy date change ----------------------------------------------

export const T01_OPENING = "Hi, I'm Mia Lee, user id mia_lee_301. I'd like to move my flight on reservation 8KQ2ZD from 2026-10-20 to the next day, 2026-10-21.";
export const T01_REASON =
  "I'm sorry, Mia: reservation 8KQ2ZD is a basic economy fare, and basic economy cannot be changed. It was booked on 2026-10-09, more than 24 hours ago, so the free 24-hour window does not apply either. Your flight on 2026-10-20 stays as it is.";
/** The forbidden write of the T01 agent that moves 8KQ2ZD anyway, with what it says before and after. */
export const T01_MOVE_SUMMARY = 'I can move reservation 8KQ2ZD to HAT205 on 2026-10-21; that fare is $10 lower, refunded to your Visa ending 4242.';
export const t01Move = call('update_reservation_flights', { reservation_id: '8KQ2ZD', cabin: 'basic_economy', flights: [{ flight_number: 'HAT205', date: '2026-10-21' }], payment_id: 'credit_card_3010001' });
export const T01_MOVED = 'Done: reservation 8KQ2ZD now flies on 2026-10-21.';

// ---- T02: upgrade to business and add bags, paid with the gift card --------------------------

export const T02_OPENING =
  "Hi, this is Raj Patel, user id raj_patel_118. On reservation Q7M4LT I want both flights upgraded to business for me and Asha Patel, and 2 more checked bags each, 6 in total, paid with my gift card. What is the total?";
export const GIFT = 'gift_card_1180002';
export const upgrade = (payment_id: string) =>
  call('update_reservation_flights', {
    reservation_id: 'Q7M4LT',
    cabin: 'business',
    flights: [{ flight_number: 'HAT330', date: '2026-10-22' }, { flight_number: 'HAT331', date: '2026-10-26' }],
    payment_id,
  });
export const T02_SUMMARY =
  "Upgrading Q7M4LT to business on HAT330 (2026-10-22) and HAT331 (2026-10-26) for 2 passengers costs (517 + 493 - 173 - 186) x 2 = $1302 at today's prices, paid with your gift card. As a regular member in business you get 2 free bags each, so 4 of the 6 bags are free and the other 2 cost $50 each, $100. Total: $1402 on your gift card.";
export const T02_DONE = 'Done: both flights are now business and you have 6 checked bags. $1402 was charged to your gift card: $1302 for the upgrade and $100 for 2 bags.';
/** The gold bag step: 6 bags, 2 above the business allowance of a regular member with 2 passengers. */
export const bags = (nonfree_baggages: number) => call('update_reservation_baggages', { reservation_id: 'Q7M4LT', total_baggages: 6, nonfree_baggages, payment_id: GIFT });
/** The T02 agent that pays the upgrade with the credit card: its summary and closing. */
export const T02_CREDIT_CARD_SUMMARY = 'Upgrading both flights of Q7M4LT to business costs $1302, charged to your Mastercard ending 5510; 4 of the 6 bags are free in business and the other 2 cost $100 on your gift card: $1402 in total.';
export const T02_CREDIT_CARD_DONE = 'Done: both flights are now business ($1302 on your Mastercard ending 5510) and you have 6 checked bags ($100 on your gift card).';

// ---- T03: cancel for a verified 5 h delay, gold-tier certificates ----------------------------

export const T03_OPENING =
  "Hello, I'm Ana Gomez, user id ana_gomez_442. My flight HAT118 from Boston to Chicago today has been delayed by 5 hours. I want to cancel reservation 3PZK9W, get my money back, and get compensation for the delay.";
export const certificate = (amount: number) => call('send_certificate', { user_id: 'ana_gomez_442', amount });
export const T03_SUMMARY =
  'HAT118 today is delayed from 13:00 to 18:00, 5 hours, and has not departed, so 3PZK9W can be cancelled free of charge: $420 back to your Visa ending 8831. As a gold member you also get one $150 travel certificate per passenger, 2 x $150.';
export const T03_DONE = 'Done: 3PZK9W is cancelled, $420 will be refunded to your Visa ending 8831, and two $150 certificates were added to your profile.';

// ---- T15: cancel only the reservations eligible for free cancellation ------------------------

export const T15_OPENING =
  'Hi, Ivan Novak here, user id ivan_novak_908. My plans for the rest of the month changed: cancel every one of my upcoming reservations that can be cancelled for free and keep the others. How much will I get back in total?';
/** The lookups before any T15 decision: the user, the five reservations, IV4CXL's flight HAT440. */
export const T15_READS = [
  userDetails('ivan_novak_908'),
  reservation('IV1A24'),
  reservation('IV2BUS'),
  reservation('IV3INS'),
  reservation('IV4CXL'),
  flightStatus('HAT440', '2026-10-16'),
  reservation('IV5BEC'),
];
export const T15_ELIGIBLE =
  'These can be cancelled for free: IV1A24 (booked less than 24 hours ago, $160), IV2BUS (business cabin, $1390) and IV4CXL (its flight HAT440 was cancelled by the airline, $235).';
const T15_INELIGIBLE = 'IV3INS (insurance does not cover a change of plans) and IV5BEC (basic economy booked more than 24 hours ago) cannot be cancelled for free.';
/** The right decision, summarised before cancelling the three eligible reservations. */
export const T15_SUMMARY = `${T15_ELIGIBLE} ${T15_INELIGIBLE} I would cancel the three eligible ones.`;
/** The closing of the T15 agent that cancels the right three but states no total. */
export const T15_DONE_NO_TOTAL = 'Done: IV1A24, IV2BUS and IV4CXL are cancelled; each refund goes back to its original payment method in 5 to 7 business days.';

// ---- T17: family rework -----------------------------------------------------------------------

export const T17_OPENING =
  "Hi, I'm Helen Park, user id helen_park_150. A schedule change means our outbound HPOUT1, JFK to San Francisco on 2026-10-20 for all four of us, must move one day later to 2026-10-21. On the return on 2026-10-27, Daniel and I (HPRET2, flight HAT302) want to fly with the children on HAT306 (HPRET3). I would also like travel insurance wherever it can still be added, and I want to use my travel certificates before my card.";
export const CARD = 'credit_card_1500001';
export const T17_READS = [userDetails('helen_park_150'), reservation('HPOUT1'), reservation('HPRET2'), reservation('HPRET3')];
export const outboundSplit = call('change_flights_split_payment', {
  reservation_id: 'HPOUT1',
  cabin: 'economy',
  flights: [{ flight_number: 'HAT301', date: '2026-10-21' }],
  payments: [
    { payment_id: 'certificate_1500002', amount: 100 },
    { payment_id: 'certificate_1500003', amount: 50 },
    { payment_id: CARD, amount: 110 },
  ],
});
export const OUTBOUND_SUMMARY =
  'HPOUT1: move all four of you to HAT301 on 2026-10-21, economy at $245 instead of $180, so (245 - 180) x 4 = $260: your $100 and $50 certificates first, then $110 on your Visa ending 3344.';
export const mergeReturn = call('update_reservation_flights', { reservation_id: 'HPRET2', cabin: 'economy', flights: [{ flight_number: 'HAT306', date: '2026-10-27' }], payment_id: CARD });
export const RETURN_SUMMARY =
  'HPRET2: move you and Daniel to HAT306 on 2026-10-27 with the children, (230 - 210) x 2 = $40 on your Visa; and add insurance to HPRET2, booked 7 hours ago, 2 x $30 = $60 on your Visa.';
export const insure = (reservation_id: string) => call('add_travel_insurance', { reservation_id, payment_id: CARD });
const T17_CLOSING =
  "The children's reservation HPRET3 is basic economy and cannot be changed, and HPOUT1 was booked more than 24 hours ago, so insurance can no longer be added to it.";
/** The closing of the T17 agents that merge the return and insure HPRET2 only. */
export const T17_DONE = `Done: HPOUT1 now flies on 2026-10-21 and HPRET2 flies with the children on HAT306, with insurance. ${T17_CLOSING}`;
