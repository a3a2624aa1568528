/**
 * The airline write tools, with tau2's semantics — including what they do not check. tau2's
 * write tools enforce almost none of the policy (cancellation windows, basic-economy changes,
 * keeping origin and destination, passenger limits, payment-method limits, bag removal); the
 * agent must. What they do enforce, and the exact error each raises, is listed per tool.
 *
 * All amounts are whole dollars except gift-card and certificate balances (floats). Writes go
 * through the episode's copy-on-write view (`mut`/`put`); a failing call changes nothing, except
 * where tau2 itself fails half-way (noted below).
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import type { AirlineState } from './state.js';
import type { CabinClass, Passenger, Payment, Reservation, ReservationFlight } from './schema.js';
import { RESERVATION_TYPES } from './schema.js';
import {
  AIRLINE_TAU2_NOW,
  NEW_CERTIFICATE_IDS,
  NEW_RESERVATION_IDS,
  airportArg,
  cabinArg,
  dumpResult,
  flightInfoArg,
  intArg,
  getFlight,
  getFlightDate,
  getReservation,
  getUser,
  passengerArg,
  paymentIdArg,
  pyNumberStr,
  reservationIdArg,
  userIdArg,
  type AirlineTool,
} from './tools-common.js';

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const passengerOf = (p: Passenger): Passenger => ({ first_name: p.first_name, last_name: p.last_name, dob: p.dob });

/** Seats left or price for a cabin; a cabin missing from the map fails as Python's KeyError does. */
function cabinValue(m: Partial<Record<CabinClass, number>>, cabin: CabinClass): number {
  const v = m[cabin];
  if (v === undefined) throw new ToolError(`'${cabin}'`);
  return v;
}

/**
 * A new segment: the flight must exist on that date with status `available` and at least
 * `passengers` seats in `cabin`; priced at the cabin's current price. Errors: `Flight <n> not
 * found`, `Flight <n> not found on date <d>`, `Flight <n> not available on date <d>`,
 * `Not enough seats on flight <n>`.
 */
function newSegment(db: AirlineState, flightNumber: string, date: string, cabin: CabinClass, passengers: number): ReservationFlight {
  const flight = getFlight(db, flightNumber);
  const dd = getFlightDate(db, flightNumber, date);
  if (dd.status !== 'available') throw new ToolError(`Flight ${flightNumber} not available on date ${date}`);
  if (cabinValue(dd.available_seats, cabin) < passengers) throw new ToolError(`Not enough seats on flight ${flightNumber}`);
  return { flight_number: flightNumber, origin: flight.origin, destination: flight.destination, date, price: cabinValue(dd.prices, cabin) };
}

/**
 * tau2's payment step of a reservation change: `total` dollars (negative = refund) on one saved
 * method. Errors `Payment method not found`, `Certificate cannot be used to update reservation`,
 * `Gift card balance is not enough`. A gift card's balance moves by `total`; a credit card has
 * no balance. Returns the payment to record, or null when `total` is 0.
 */
function payForUpdate(db: AirlineState, userId: string, paymentId: string, total: number): Payment | null {
  const user = getUser(db, userId);
  if (!has(user.payment_methods, paymentId)) throw new ToolError('Payment method not found');
  const pm = user.payment_methods[paymentId];
  if (pm.source === 'certificate') throw new ToolError('Certificate cannot be used to update reservation');
  if (pm.source === 'gift_card') {
    if (pm.amount < total) throw new ToolError('Gift card balance is not enough');
    const card = db.mut('users', userId).payment_methods[paymentId] as { amount: number };
    card.amount -= total;
  }
  return total !== 0 ? { payment_id: paymentId, amount: total } : null;
}

const finish = (r: Reservation) => dumpResult(r, RESERVATION_TYPES);

/** Arguments of `book_reservation` (after validation; nested items in model field order). */
interface BookArgs {
  user_id: string;
  origin: string;
  destination: string;
  flight_type: 'one_way' | 'round_trip';
  cabin: CabinClass;
  flights: { flight_number: string; date: string }[];
  passengers: Passenger[];
  payment_methods: Payment[];
  total_baggages: number;
  nonfree_baggages: number;
  insurance: 'yes' | 'no';
}

/**
 * `book_reservation` with reservations created at `now` (tau2: {@link AIRLINE_TAU2_NOW}).
 * Price = Σ segment price(cabin) × passengers + $30 × passengers with
 * insurance + $50 × non-free bags; the payments must add up to it exactly. Creates reservation
 * `HATHAT` (then `HATHAU`, `HATHAV`) at the fixed now, decrements seats, debits gift cards,
 * deletes used certificates whole, appends the id to the user. Errors in tau2's order:
 * `User <id> not found`, `Too many reservations`, the segment errors, `Payment method <id> not
 * found`, `Not enough balance in payment method <id>` (each payment checked alone),
 * `Payment amount does not add up, total price is <x>, but paid <y>`. Not checked: origin and
 * destination against the flights, trip type, passenger count, payment-method count.
 */
export const makeBookReservation = (now: string): AirlineTool<BookArgs> => ({
  name: 'book_reservation',
  description:
    "Book a new reservation for a user. The payments must add up exactly to the total: each flight's price in the chosen cabin times the number of passengers, plus $30 per passenger for insurance, plus $50 per non-free bag. Payment methods must be saved in the user's profile.",
  parameters: bookParameters(),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const user = getUser(db, a.user_id);
    const reservationId = NEW_RESERVATION_IDS.find((id) => !db.has('reservations', id));
    if (!reservationId) throw new ToolError('Too many reservations');
    const n = a.passengers.length;
    const { segments, total } = priceBooking(db, a, n);
    checkBookingPayments(user, a.payment_methods, total);
    const u = debitBookingPayments(db, a.user_id, a.payment_methods);
    for (const seg of segments) {
      const dd = db.mut('flights', seg.flight_number).dates[seg.date];
      if (dd.status === 'available') dd.available_seats[a.cabin] = cabinValue(dd.available_seats, a.cabin) - n;
    }
    const reservation: Reservation = {
      reservation_id: reservationId,
      user_id: a.user_id,
      origin: a.origin,
      destination: a.destination,
      flight_type: a.flight_type,
      cabin: a.cabin,
      flights: segments,
      passengers: a.passengers.map(passengerOf),
      payment_history: a.payment_methods.map((p) => ({ payment_id: p.payment_id, amount: p.amount })),
      created_at: now,
      total_baggages: a.total_baggages,
      nonfree_baggages: a.nonfree_baggages,
      insurance: a.insurance,
      status: null,
    };
    db.put('reservations', reservationId, reservation);
    u.reservations.push(reservationId);
    return finish(reservation);
  },
});

/** The arguments schema of `book_reservation` (a new one per tool, as each tool had its own). */
function bookParameters() {
  return z.strictObject({
    user_id: userIdArg,
    origin: airportArg('trip origin'),
    destination: airportArg('trip destination'),
    flight_type: z.enum(['one_way', 'round_trip']).describe("'one_way' or 'round_trip'."),
    cabin: cabinArg,
    flights: z.array(flightInfoArg).describe('Every flight segment of the trip, in travel order.'),
    passengers: z.array(passengerArg).describe('Everyone travelling (same flights and cabin for all).'),
    payment_methods: z
      .array(
        z.object({
          payment_id: paymentIdArg,
          amount: intArg('Whole dollars charged to this payment method.'),
        }),
      )
      .describe('How the total is split across saved payment methods.'),
    total_baggages: intArg('Total number of checked bags on the reservation.'),
    nonfree_baggages: intArg('How many of those bags are paid ($50 each).'),
    insurance: z.enum(['yes', 'no']).describe("Travel insurance ($30 per passenger): 'yes' or 'no'."),
  });
}

/** A booking's new segments (see {@link newSegment}, checked in travel order) and its total price for `n` passengers, insurance and non-free bags. */
function priceBooking(db: AirlineState, a: BookArgs, n: number): { segments: ReservationFlight[]; total: number } {
  const segments: ReservationFlight[] = [];
  let total = 0;
  for (const f of a.flights) {
    const seg = newSegment(db, f.flight_number, f.date, a.cabin, n);
    segments.push(seg);
    total += seg.price * n;
  }
  if (a.insurance === 'yes') total += 30 * n;
  total += 50 * a.nonfree_baggages;
  return { segments, total };
}

/** Checks each payment alone (a saved method; enough balance unless a credit card), then that they add up to `total`; throws tau2's errors. */
function checkBookingPayments(user: ReturnType<typeof getUser>, payments: readonly Payment[], total: number): void {
  for (const p of payments) {
    if (!has(user.payment_methods, p.payment_id)) throw new ToolError(`Payment method ${p.payment_id} not found`);
    const pm = user.payment_methods[p.payment_id];
    if (pm.source !== 'credit_card' && pm.amount < p.amount) throw new ToolError(`Not enough balance in payment method ${p.payment_id}`);
  }
  const paid = payments.reduce((s, p) => s + p.amount, 0);
  if (paid !== total) throw new ToolError(`Payment amount does not add up, total price is ${pyNumberStr(total)}, but paid ${pyNumberStr(paid)}`);
}

/** Debits gift cards and deletes used certificates whole in the user's writable record, which it returns. */
function debitBookingPayments(db: AirlineState, userId: string, payments: readonly Payment[]) {
  const u = db.mut('users', userId);
  for (const p of payments) {
    const pm = u.payment_methods[p.payment_id];
    // A certificate listed twice is already gone: tau2 fails here with a KeyError, after the
    // earlier debits of this loop have been applied.
    if (pm === undefined) throw new ToolError(`'${p.payment_id}'`);
    if (pm.source === 'gift_card') pm.amount -= p.amount;
    else if (pm.source === 'certificate') delete u.payment_methods[p.payment_id];
  }
  return u;
}

/** `book_reservation` as tau2 has it (created at 2024-05-15T15:00:00). */
export const bookReservation = makeBookReservation(AIRLINE_TAU2_NOW);

/**
 * `cancel_reservation`: appends a refund (negated amount) for every entry of the payment history
 * — earlier refunds included — and sets `status` to `cancelled`. Seats are not released, gift
 * cards not credited, and nothing is checked (a cancelled reservation can be cancelled again).
 * Error `Reservation <id> not found`.
 */
export const cancelReservation: AirlineTool<{ reservation_id: string }> = {
  name: 'cancel_reservation',
  description: 'Cancel a whole reservation; every payment on it is refunded to its original payment method.',
  parameters: z.strictObject({ reservation_id: reservationIdArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ reservation_id }, { state: db }) => {
    getReservation(db, reservation_id);
    const r = db.mut('reservations', reservation_id);
    const refunds = r.payment_history.map((p) => ({ payment_id: p.payment_id, amount: -p.amount || 0 }));
    r.payment_history.push(...refunds);
    r.status = 'cancelled';
    return finish(r);
  },
};

/**
 * `update_reservation_flights`: replaces the segment list and the cabin. A requested segment
 * equal (number and date) to a current one keeps its old price when the cabin is unchanged;
 * any other segment is checked like a booking and priced now. The difference (new total − old
 * total) × passengers is charged (or refunded if negative) to one saved credit card or gift
 * card. Seat counts are not touched. Errors: `Reservation <id> not found`, `User <id> not found`,
 * the segment errors, then the payment errors (`Payment method not found`, `Certificate cannot
 * be used to update reservation`, `Gift card balance is not enough`).
 */
export const updateReservationFlights: AirlineTool<{
  reservation_id: string;
  cabin: CabinClass;
  flights: { flight_number: string; date: string }[];
  payment_id: string;
}> = {
  name: 'update_reservation_flights',
  description:
    'Change the flights and/or cabin of a reservation. Pass the complete new list of segments, including unchanged ones; unchanged segments in an unchanged cabin keep the price paid. The fare difference for all passengers is charged to, or refunded to, the given payment method (a credit card or gift card).',
  parameters: z.strictObject({
    reservation_id: reservationIdArg,
    cabin: cabinArg,
    flights: z.array(flightInfoArg).describe('The entire new itinerary, every segment in travel order.'),
    payment_id: paymentIdArg,
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const r = getReservation(db, a.reservation_id);
    getUser(db, r.user_id);
    const n = r.passengers.length;
    const segments: ReservationFlight[] = [];
    let total = 0;
    for (const f of a.flights) {
      const kept = r.flights.find((x) => x.flight_number === f.flight_number && x.date === f.date && a.cabin === r.cabin);
      const seg = kept ? { ...kept } : newSegment(db, f.flight_number, f.date, a.cabin, n);
      total += seg.price * n;
      segments.push(seg);
    }
    total -= r.flights.reduce((s, x) => s + x.price, 0) * n;
    const payment = payForUpdate(db, r.user_id, a.payment_id, total);
    const w = db.mut('reservations', a.reservation_id);
    if (payment) w.payment_history.push(payment);
    w.flights = segments;
    w.cabin = a.cabin;
    return finish(w);
  },
};

/**
 * `update_reservation_baggages`: sets both bag counts (lowering is not prevented) and charges
 * $50 × any increase of non-free bags to one saved credit card or gift card. Errors:
 * `Reservation <id> not found`, `User <id> not found`, the payment errors.
 */
export const updateReservationBaggages: AirlineTool<{
  reservation_id: string;
  total_baggages: number;
  nonfree_baggages: number;
  payment_id: string;
}> = {
  name: 'update_reservation_baggages',
  description: 'Set the number of checked bags on a reservation. Each added non-free bag costs $50, charged to the given payment method (a credit card or gift card).',
  parameters: z.strictObject({
    reservation_id: reservationIdArg,
    total_baggages: intArg('New total number of checked bags.'),
    nonfree_baggages: intArg('New number of paid bags among them.'),
    payment_id: paymentIdArg,
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const r = getReservation(db, a.reservation_id);
    getUser(db, r.user_id);
    const total = 50 * Math.max(0, a.nonfree_baggages - r.nonfree_baggages);
    const payment = payForUpdate(db, r.user_id, a.payment_id, total);
    const w = db.mut('reservations', a.reservation_id);
    if (payment) w.payment_history.push(payment);
    w.total_baggages = a.total_baggages;
    w.nonfree_baggages = a.nonfree_baggages;
    return finish(w);
  },
};

/**
 * `update_reservation_passengers`: replaces the passenger list. Errors: `Reservation <id> not
 * found`, `Number of passengers does not match` (the count can never change).
 */
export const updateReservationPassengers: AirlineTool<{ reservation_id: string; passengers: Passenger[] }> = {
  name: 'update_reservation_passengers',
  description: 'Replace the passenger details of a reservation. The number of passengers must stay the same.',
  parameters: z.strictObject({
    reservation_id: reservationIdArg,
    passengers: z.array(passengerArg).describe('The full passenger list, same length as before.'),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const r = getReservation(db, a.reservation_id);
    if (a.passengers.length !== r.passengers.length) throw new ToolError('Number of passengers does not match');
    const w = db.mut('reservations', a.reservation_id);
    w.passengers = a.passengers.map(passengerOf);
    return finish(w);
  },
};

/**
 * `send_certificate`: adds a certificate of `amount` dollars (stored as a float) to the user as
 * `certificate_3221322` (then …323, …324: the first id the user does not hold) and returns
 * `Certificate <id> added to user <user_id> with amount <amount>.`. Errors `User <id> not
 * found`, `Too many certificates`. No policy check on the amount.
 */
export const sendCertificate: AirlineTool<{ user_id: string; amount: number }> = {
  name: 'send_certificate',
  description: 'Give a user a travel certificate worth the given amount in dollars, as compensation. Only when the policy allows it.',
  parameters: z.strictObject({ user_id: userIdArg, amount: z.number().describe('Certificate value in dollars.') }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ user_id, amount }, { state: db }) => {
    const user = getUser(db, user_id);
    const id = NEW_CERTIFICATE_IDS.find((c) => !has(user.payment_methods, c));
    if (!id) throw new ToolError('Too many certificates');
    db.mut('users', user_id).payment_methods[id] = { source: 'certificate', id, amount };
    return `Certificate ${id} added to user ${user_id} with amount ${pyNumberStr(amount)}.`;
  },
};
