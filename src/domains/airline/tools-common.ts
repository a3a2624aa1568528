/**
 * Helpers shared by the airline tools: record lookups with tau2's error messages, the fixed
 * clock and id sequences, argument schemas, and Python-style serialisation of results.
 */
import { z } from 'zod';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import type { AirlineState } from './state.js';
import { CABINS, type Flight, type FlightDateStatus, type Reservation, type User } from './schema.js';

/** An airline tool over the episode's copy-on-write DB. */
export type AirlineTool<A = any> = ToolDef<AirlineState, A>;

/** tau2's airline "now": every reservation booked in an episode is created at this time (EST). */
export const AIRLINE_TAU2_NOW = '2024-05-15T15:00:00';
/** Ids given to new reservations, in order; a fourth booking in one episode fails. */
export const NEW_RESERVATION_IDS = ['HATHAT', 'HATHAU', 'HATHAV'] as const;
/** Ids given to new certificates of a user, in order; a fourth fails. */
export const NEW_CERTIFICATE_IDS = ['certificate_3221322', 'certificate_3221323', 'certificate_3221324'] as const;

/** The user; throws `User <id> not found`. */
export function getUser(db: AirlineState, userId: string): User {
  const u = db.get('users', userId);
  if (!u) throw new ToolError(`User ${userId} not found`);
  return u;
}

/** The reservation; throws `Reservation <id> not found`. */
export function getReservation(db: AirlineState, reservationId: string): Reservation {
  const r = db.get('reservations', reservationId);
  if (!r) throw new ToolError(`Reservation ${reservationId} not found`);
  return r;
}

/** The flight; throws `Flight <number> not found`. */
export function getFlight(db: AirlineState, flightNumber: string): Flight {
  const f = db.get('flights', flightNumber);
  if (!f) throw new ToolError(`Flight ${flightNumber} not found`);
  return f;
}

/** The flight's status on a date; throws `Flight <n> not found` or `Flight <n> not found on date <d>`. */
export function getFlightDate(db: AirlineState, flightNumber: string, date: string): FlightDateStatus {
  const f = getFlight(db, flightNumber);
  if (!Object.prototype.hasOwnProperty.call(f.dates, date)) throw new ToolError(`Flight ${flightNumber} not found on date ${date}`);
  return f.dates[date];
}

/** Python-style printing of results (shared with the other tau2 domains; see `../common/py-output.ts`). */
export { dumpResult, pyNumberStr } from '../common/py-output.js';

// ---- argument schemas (descriptions are what the model reads) ------------------------------

/**
 * An integer argument (whole dollars, bag counts). Exported to the model as `{"type": "integer"}`
 * without zod's safe-integer bounds; a fractional number is rejected.
 */
export const intArg = (description: string) =>
  z.number().refine(Number.isInteger, { message: 'Invalid input: expected an integer' }).meta({ type: 'integer' }).describe(description);

/** `user_id` argument. */
export const userIdArg = z.string().describe("The customer's user id, for example 'sara_doe_496'.");
/** `reservation_id` argument. */
export const reservationIdArg = z.string().describe("The six-character reservation code, for example 'ZFA04Y'.");
/** An airport argument (`origin`, `destination`); `which` names it in the description. */
export const airportArg = (which: string) => z.string().describe(`Three-letter IATA code of the ${which} airport, for example 'JFK'.`);
/** A flight date argument (`YYYY-MM-DD`; not checked, as in tau2). */
export const dateArg = z.string().describe("Flight date as 'YYYY-MM-DD', for example '2024-05-20'.");
/** `cabin` argument: one of {@link CABINS}. */
export const cabinArg = z.enum(CABINS).describe("Cabin class: 'basic_economy', 'economy' or 'business'.");
/** `payment_id` argument: the id of a saved payment method. */
export const paymentIdArg = z
  .string()
  .describe("Id of a payment method saved in the user's profile, for example 'credit_card_7815826' or 'gift_card_7815826'.");

/** One flight segment to book: nested objects ignore extra keys, as tau2's models do. */
export const flightInfoArg = z.object({
  flight_number: z.string().describe("Flight number, for example 'HAT001'."),
  date: dateArg,
});
/** One passenger (model field order). */
export const passengerArg = z.object({
  first_name: z.string().describe("Passenger's first name."),
  last_name: z.string().describe("Passenger's last name."),
  dob: z.string().describe("Passenger's date of birth as 'YYYY-MM-DD'."),
});
