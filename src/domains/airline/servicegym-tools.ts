/**
 * Tools of servicegym's airline dataset that tau2's set lacks, needed by the seed tasks
 * (`seeds/001_14d444b6cd11c72e.txt`). Exposed in servicegym mode only; tau2 mode keeps exactly
 * tau2's 14 tools.
 *
 * - `get_flight_status` (replaces tau2's): the status with its times, so a delay can be verified
 *   and measured (T03 "verify the delay in the flight status tool"; policy 6.1 and 8.2).
 * - `change_flights_split_payment`: a flight/cabin change whose fare difference is paid with
 *   several methods, certificates first (T17 "use her travel certificates before card"; policy 7.2–7.3).
 * - `add_travel_insurance`: insurance added after booking (T17 "add insurance where still allowed";
 *   policy 5.2 — the tool, like tau2's write tools, does not enforce the window: the agent must).
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { RESERVATION_TYPES, type CabinClass, type Payment, type ReservationFlight } from './schema.js';
import {
  cabinArg,
  dateArg,
  dumpResult,
  flightInfoArg,
  getFlight,
  getFlightDate,
  getReservation,
  getUser,
  intArg,
  paymentIdArg,
  pyNumberStr,
  reservationIdArg,
  type AirlineTool,
} from './tools-common.js';

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** `get_flight_status` with times: `{flight_number, date, status, scheduled_*, and the date record's times}`. */
export const getFlightStatusDetailed: AirlineTool<{ flight_number: string; date: string }> = {
  name: 'get_flight_status',
  description:
    'Get the status of one flight on one date (available, on time, delayed, flying, landed or cancelled) with its scheduled times and, where known, the estimated or actual departure and arrival times. Use it to verify delays and cancellations.',
  parameters: z.strictObject({ flight_number: z.string().describe("Flight number, for example 'HAT118'."), date: dateArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ flight_number, date }, { state }) => {
    const f = getFlight(state, flight_number);
    const d = getFlightDate(state, flight_number, date) as unknown as Record<string, unknown>;
    const { status, available_seats: _s, prices: _p, ...times } = d;
    return dumpResult({
      flight_number,
      date,
      status,
      scheduled_departure_time_est: f.scheduled_departure_time_est,
      scheduled_arrival_time_est: f.scheduled_arrival_time_est,
      ...times,
    });
  },
};

/**
 * `change_flights_split_payment`: like `update_reservation_flights` (kept segments keep their
 * price when the cabin is unchanged; new ones are priced now; the difference is per passenger),
 * but the difference must be positive and is paid by `payments` in order — certificates
 * (used up whole, remainder lost), gift cards (debited) and credit cards. The amounts must add
 * up to the difference. Errors: `Reservation <id> not found`, flight errors, `No fare difference
 * to pay; use update_reservation_flights`, `Payment method <id> not found`, `Not enough balance in
 * payment method <id>`, `Payment amount does not add up, fare difference is <x>, but paid <y>`.
 */
export const changeFlightsSplitPayment: AirlineTool<{
  reservation_id: string;
  cabin: CabinClass;
  flights: { flight_number: string; date: string }[];
  payments: { payment_id: string; amount: number }[];
}> = {
  name: 'change_flights_split_payment',
  description:
    'Change the flights and/or cabin of a reservation and pay a positive fare difference with several saved payment methods at once (for example travel certificates first, then a card). Pass the complete new itinerary. The payment amounts must add up exactly to the fare difference for all passengers.',
  parameters: z.strictObject({
    reservation_id: reservationIdArg,
    cabin: cabinArg,
    flights: z.array(flightInfoArg).describe('The entire new itinerary, every segment in travel order.'),
    payments: z
      .array(z.object({ payment_id: paymentIdArg, amount: intArg('Whole dollars charged to this method.') }))
      .min(1)
      .describe('The payment methods in the order they are applied, with the amount charged to each.'),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const r = getReservation(db, a.reservation_id);
    const user = getUser(db, r.user_id);
    const n = r.passengers.length;
    const segments: ReservationFlight[] = [];
    let total = 0;
    for (const f of a.flights) {
      const kept = r.flights.find((x) => x.flight_number === f.flight_number && x.date === f.date && a.cabin === r.cabin);
      let seg: ReservationFlight;
      if (kept) seg = { ...kept };
      else {
        const fl = getFlight(db, f.flight_number);
        const dd = getFlightDate(db, f.flight_number, f.date);
        if (dd.status !== 'available') throw new ToolError(`Flight ${f.flight_number} not available on date ${f.date}`);
        if ((dd.available_seats[a.cabin] ?? 0) < n) throw new ToolError(`Not enough seats on flight ${f.flight_number}`);
        seg = { flight_number: f.flight_number, origin: fl.origin, destination: fl.destination, date: f.date, price: dd.prices[a.cabin] ?? 0 };
      }
      total += seg.price * n;
      segments.push(seg);
    }
    total -= r.flights.reduce((s, x) => s + x.price, 0) * n;
    if (total <= 0) throw new ToolError('No fare difference to pay; use update_reservation_flights');
    for (const p of a.payments) {
      if (!has(user.payment_methods, p.payment_id)) throw new ToolError(`Payment method ${p.payment_id} not found`);
      const pm = user.payment_methods[p.payment_id];
      if (pm.source !== 'credit_card' && pm.amount < p.amount) throw new ToolError(`Not enough balance in payment method ${p.payment_id}`);
    }
    const paid = a.payments.reduce((s, p) => s + p.amount, 0);
    if (paid !== total) throw new ToolError(`Payment amount does not add up, fare difference is ${pyNumberStr(total)}, but paid ${pyNumberStr(paid)}`);
    const u = db.mut('users', r.user_id);
    for (const p of a.payments) {
      const pm = u.payment_methods[p.payment_id];
      if (pm.source === 'gift_card') pm.amount -= p.amount;
      else if (pm.source === 'certificate') delete u.payment_methods[p.payment_id];
    }
    const w = db.mut('reservations', a.reservation_id);
    w.payment_history.push(...a.payments.map((p): Payment => ({ payment_id: p.payment_id, amount: p.amount })));
    w.flights = segments;
    w.cabin = a.cabin;
    return dumpResult(w, RESERVATION_TYPES);
  },
};

/**
 * `add_travel_insurance`: sets `insurance` to `yes` and charges $30 × passengers to one saved
 * credit card or gift card. Errors: `Reservation <id> not found`, `Reservation <id> already has
 * insurance`, `Payment method not found`, `Certificate cannot be used to add insurance`, `Gift
 * card balance is not enough`.
 */
export const addTravelInsurance: AirlineTool<{ reservation_id: string; payment_id: string }> = {
  name: 'add_travel_insurance',
  description: 'Add travel insurance ($30 per passenger) to an existing reservation, charged to a saved credit card or gift card. Only when the policy still allows it.',
  parameters: z.strictObject({ reservation_id: reservationIdArg, payment_id: paymentIdArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const r = getReservation(db, a.reservation_id);
    if (r.insurance === 'yes') throw new ToolError(`Reservation ${a.reservation_id} already has insurance`);
    const user = getUser(db, r.user_id);
    if (!has(user.payment_methods, a.payment_id)) throw new ToolError('Payment method not found');
    const pm = user.payment_methods[a.payment_id];
    const amount = 30 * r.passengers.length;
    if (pm.source === 'certificate') throw new ToolError('Certificate cannot be used to add insurance');
    if (pm.source === 'gift_card') {
      if (pm.amount < amount) throw new ToolError('Gift card balance is not enough');
      (db.mut('users', r.user_id).payment_methods[a.payment_id] as { amount: number }).amount -= amount;
    }
    const w = db.mut('reservations', a.reservation_id);
    w.insurance = 'yes';
    w.payment_history.push({ payment_id: a.payment_id, amount });
    return dumpResult(w, RESERVATION_TYPES);
  },
};
