/**
 * The airline read tools (tau2 semantics; they never change the DB).
 *
 * Outputs are the Python `json.dumps` of tau2's models: a user or reservation in model field
 * order with nulls, flight search results as tau2's `DirectFlight` (with `date` null for direct
 * searches), the bare status string for `get_flight_status`.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import type { AirlineState } from './state.js';
import type { CabinNumbers } from './schema.js';
import { RESERVATION_TYPES, USER_TYPES } from './schema.js';
import {
  airportArg,
  dateArg,
  dumpResult,
  getFlightDate,
  getReservation,
  getUser,
  reservationIdArg,
  userIdArg,
  type AirlineTool,
} from './tools-common.js';

/** tau2's `DirectFlight`: a bookable flight on one date, with seats left and prices per cabin. */
export interface DirectFlight {
  flight_number: string;
  origin: string;
  destination: string;
  status: 'available';
  scheduled_departure_time_est: string;
  scheduled_arrival_time_est: string;
  /** Null in direct searches; the leg's date in one-stop results. */
  date: string | null;
  available_seats: CabinNumbers;
  prices: CabinNumbers;
}

/**
 * Flights with an `available` status on `date`, in DB order, optionally filtered by origin,
 * destination and a minimum scheduled departure (compared as strings, as tau2 does).
 */
export function searchDirect(db: AirlineState, date: string, origin?: string, destination?: string, leaveAfter?: string): DirectFlight[] {
  const out: DirectFlight[] = [];
  for (const id of db.ids('flights')) {
    const f = db.get('flights', id)!;
    if (origin !== undefined && f.origin !== origin) continue;
    if (destination !== undefined && f.destination !== destination) continue;
    if (!Object.prototype.hasOwnProperty.call(f.dates, date)) continue;
    const d = f.dates[date];
    if (d.status !== 'available') continue;
    if (leaveAfter !== undefined && !(f.scheduled_departure_time_est >= leaveAfter)) continue;
    out.push({
      flight_number: f.flight_number,
      origin: f.origin,
      destination: f.destination,
      status: 'available',
      scheduled_departure_time_est: f.scheduled_departure_time_est,
      scheduled_arrival_time_est: f.scheduled_arrival_time_est,
      date: null,
      available_seats: { ...d.available_seats },
      prices: { ...d.prices },
    });
  }
  return out;
}

/** Python's `int(s)` for a decimal string; throws Python's ValueError message otherwise. */
function pyInt(s: string): number {
  if (!/^\s*[+-]?\d+(_\d+)*\s*$/.test(s)) throw new ToolError(`invalid literal for int() with base 10: '${s}'`);
  return Number(s.replace(/_/g, '').trim());
}

/** `get_user_details`: the user's profile. Error `User <id> not found`. */
export const getUserDetails: AirlineTool<{ user_id: string }> = {
  name: 'get_user_details',
  description: "Look up a customer's profile: name, address, email, date of birth, saved payment methods (with gift card and certificate balances), saved passengers, membership tier and reservation ids.",
  parameters: z.strictObject({ user_id: userIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ user_id }, { state }) => dumpResult(getUser(state, user_id), USER_TYPES),
};

/** `get_reservation_details`: the reservation. Error `Reservation <id> not found`. */
export const getReservationDetails: AirlineTool<{ reservation_id: string }> = {
  name: 'get_reservation_details',
  description: 'Look up a reservation: trip, cabin, flight segments with the price paid per passenger, passengers, payment history, bags, insurance and status.',
  parameters: z.strictObject({ reservation_id: reservationIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ reservation_id }, { state }) => dumpResult(getReservation(state, reservation_id), RESERVATION_TYPES),
};

/**
 * `get_flight_status`: the status word of a flight on a date (`available`, `landed`,
 * `cancelled`, `delayed`, `flying`, `on time`), unquoted. Errors `Flight <n> not found`,
 * `Flight <n> not found on date <d>`.
 */
export const getFlightStatus: AirlineTool<{ flight_number: string; date: string }> = {
  name: 'get_flight_status',
  description: 'Get the status of one flight on one date: available, on time, delayed, flying, landed or cancelled.',
  parameters: z.strictObject({ flight_number: z.string().describe("Flight number, for example 'HAT001'."), date: dateArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ flight_number, date }, { state }) => getFlightDate(state, flight_number, date).status,
};

/** The 20 airports tau2 lists, in its order. */
export const AIRPORTS: { iata: string; city: string }[] = [
  ['SFO', 'San Francisco'], ['JFK', 'New York'], ['LAX', 'Los Angeles'], ['ORD', 'Chicago'], ['DFW', 'Dallas'],
  ['DEN', 'Denver'], ['SEA', 'Seattle'], ['ATL', 'Atlanta'], ['MIA', 'Miami'], ['BOS', 'Boston'],
  ['PHX', 'Phoenix'], ['IAH', 'Houston'], ['LAS', 'Las Vegas'], ['MCO', 'Orlando'], ['EWR', 'Newark'],
  ['CLT', 'Charlotte'], ['MSP', 'Minneapolis'], ['DTW', 'Detroit'], ['PHL', 'Philadelphia'], ['LGA', 'LaGuardia'],
].map(([iata, city]) => ({ iata, city }));

/** `list_all_airports`: the fixed airport list `[{iata, city}]`. */
export const listAllAirports: AirlineTool<Record<string, never>> = {
  name: 'list_all_airports',
  description: 'List every airport the airline serves, as IATA code and city.',
  parameters: z.strictObject({}),
  kind: 'read',
  requestor: 'assistant',
  invoke: () => dumpResult(AIRPORTS),
};

/** `search_direct_flight`: bookable nonstop flights between two airports on a date (may be `[]`). */
export const searchDirectFlight: AirlineTool<{ origin: string; destination: string; date: string }> = {
  name: 'search_direct_flight',
  description: 'Find nonstop flights from one airport to another on a date that can still be booked, with departure and arrival times, seats left and the price per cabin.',
  parameters: z.strictObject({ origin: airportArg('departure'), destination: airportArg('arrival'), date: dateArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ origin, destination, date }, { state }) => dumpResult(searchDirect(state, date, origin, destination)),
};

/** How the one-stop search dates a second leg after an overnight first leg. */
export type NextDayRule = 'tau2' | 'calendar';

/**
 * The date of a connection after an overnight leg. `tau2`: `2024-05-<day+1>` built from the last
 * two characters of `date` (month fixed, day unpadded; a non-numeric day fails as Python's
 * `int()` does). `calendar`: the real next day as `YYYY-MM-DD` (an invalid date gives `date`).
 */
export function nextDay(date: string, rule: NextDayRule): string {
  if (rule === 'tau2') return `2024-05-${pyInt(date.slice(-2)) + 1}`;
  const t = Date.parse(`${date}T00:00:00Z`);
  return Number.isNaN(t) ? date : new Date(t + 86_400_000).toISOString().slice(0, 10);
}

/**
 * `search_onestop_flight`: pairs `[leg1, leg2]` of bookable flights via any airport. The second
 * leg departs no earlier than the first's scheduled arrival (string comparison, `+1` suffix
 * included) on the same date, or — when the first leg lands the next day — on the
 * {@link nextDay} (tau2: `2024-05-<day+1>`, unpadded, month fixed). Both legs carry their `date`.
 */
export const makeSearchOnestopFlight = (rule: NextDayRule = 'tau2'): AirlineTool<{ origin: string; destination: string; date: string }> => ({
  name: 'search_onestop_flight',
  description: 'Find bookable itineraries with one connection between two airports departing on a date; each result is a pair of flights with times, seats left and prices per cabin.',
  parameters: z.strictObject({ origin: airportArg('departure'), destination: airportArg('final arrival'), date: dateArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ origin, destination, date }, { state }) => {
    const pairs: [DirectFlight, DirectFlight][] = [];
    for (const leg1 of searchDirect(state, date, origin)) {
      leg1.date = date;
      const date2 = leg1.scheduled_arrival_time_est.includes('+1') ? nextDay(date, rule) : date;
      for (const leg2 of searchDirect(state, date2, leg1.destination, destination, leg1.scheduled_arrival_time_est)) {
        leg2.date = date2;
        pairs.push([leg1, leg2]);
      }
    }
    return dumpResult(pairs);
  },
});

/** `search_onestop_flight` exactly as tau2 has it. */
export const searchOnestopFlight = makeSearchOnestopFlight('tau2');
