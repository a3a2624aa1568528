/**
 * The airline DB: TypeScript types, the zod schema that loads tau2's `db.json`, and the map of
 * float positions that makes tool outputs and the DB hash print numbers as Python does.
 *
 * The shapes follow tau2-bench's pydantic models (`FlightDB` and the models under it):
 * - the top level (`flights`, `users`, `reservations`) forbids unknown keys, as tau2's `DB` base
 *   model does (`extra="forbid"`); nested models ignore unknown keys (pydantic's default), so they
 *   are dropped on load;
 * - parsing reproduces pydantic's `model_dump()`: keys in model field order, optional fields
 *   present as `null` (an address without `address2`, a reservation without `status`);
 * - money is in dollars, as tau2 keeps it: flight prices and payment amounts are integers,
 *   gift-card and certificate balances are floats (printed `163.0`);
 * - dates are ISO strings: flight dates `YYYY-MM-DD`, timestamps `YYYY-MM-DDTHH:MM:SS`,
 *   scheduled times `HH:MM:SS` (an arrival the next day ends in `+1`).
 *
 * Types are checked strictly (a string where a number belongs is an error, where pydantic's lax
 * mode would coerce `"100"`), so a malformed file is reported instead of silently repaired.
 */
import { z } from 'zod';
import type { PyTypeTree } from '../../util/pyjson.js';

/** Cabin classes, in the order tau2's seat and price maps list them. */
export const CABINS = ['basic_economy', 'economy', 'business'] as const;
/** A cabin class. */
export type CabinClass = (typeof CABINS)[number];
/** `one_way` or `round_trip`. */
export type FlightType = 'one_way' | 'round_trip';
/** Whether travel insurance was bought. */
export type Insurance = 'yes' | 'no';
/** Membership tier, which sets the free-bag allowance in the policy. */
export type Membership = 'gold' | 'silver' | 'regular';

/** Seats left or prices (whole dollars) per cabin; tau2 allows a cabin to be missing. */
export type CabinNumbers = Partial<Record<CabinClass, number>>;

/** A flight date that can be booked: seats left and the current price per cabin. */
export interface FlightDateAvailable {
  status: 'available';
  available_seats: CabinNumbers;
  prices: CabinNumbers;
}
/** A flown flight date: actual departure and arrival timestamps (EST). */
export interface FlightDateLanded {
  status: 'landed';
  actual_departure_time_est: string;
  actual_arrival_time_est: string;
}
/** A cancelled flight date. */
export interface FlightDateCancelled {
  status: 'cancelled';
}
/** A delayed flight date: estimated timestamps (EST). */
export interface FlightDateDelayed {
  status: 'delayed';
  estimated_departure_time_est: string;
  estimated_arrival_time_est: string;
}
/** A flight date in the air: actual departure, estimated arrival (EST). */
export interface FlightDateFlying {
  status: 'flying';
  actual_departure_time_est: string;
  estimated_arrival_time_est: string;
}
/** A flight date on time (not yet departed): estimated timestamps (EST). */
export interface FlightDateOnTime {
  status: 'on time';
  estimated_departure_time_est: string;
  estimated_arrival_time_est: string;
}
/** The status of one flight on one date; only `available` dates can be booked. */
export type FlightDateStatus = FlightDateAvailable | FlightDateLanded | FlightDateCancelled | FlightDateDelayed | FlightDateFlying | FlightDateOnTime;

/** A scheduled flight (`HAT001`…), with its status per date (`YYYY-MM-DD`). */
export interface Flight {
  flight_number: string;
  origin: string;
  destination: string;
  /** `HH:MM:SS` EST. */
  scheduled_departure_time_est: string;
  /** `HH:MM:SS` EST, with a `+1` suffix when the flight lands the next day. */
  scheduled_arrival_time_est: string;
  dates: Record<string, FlightDateStatus>;
}

/** A person's name. */
export interface PersonName {
  first_name: string;
  last_name: string;
}
/** A postal address; `address2` is null when absent. */
export interface Address {
  address1: string;
  address2: string | null;
  city: string;
  country: string;
  state: string;
  zip: string;
}
/** A saved credit card (no balance: any amount can be charged). */
export interface CreditCard {
  source: 'credit_card';
  id: string;
  brand: string;
  last_four: string;
}
/** A gift card with its remaining balance in dollars (a float). */
export interface GiftCard {
  source: 'gift_card';
  id: string;
  amount: number;
}
/** A travel certificate worth `amount` dollars (a float); used up whole when paid with. */
export interface Certificate {
  source: 'certificate';
  id: string;
  amount: number;
}
/** A payment method in a user's profile, keyed by its id. */
export type PaymentMethod = CreditCard | GiftCard | Certificate;

/** A passenger: name and date of birth (`YYYY-MM-DD`). */
export interface Passenger {
  first_name: string;
  last_name: string;
  dob: string;
}

/** A customer. */
export interface User {
  user_id: string;
  name: PersonName;
  address: Address;
  email: string;
  /** `YYYY-MM-DD`. */
  dob: string;
  payment_methods: Record<string, PaymentMethod>;
  saved_passengers: Passenger[];
  membership: Membership;
  /** Reservation ids, oldest first; booking appends. */
  reservations: string[];
}

/** One flight segment of a reservation, at the price (per passenger, whole dollars) paid for it. */
export interface ReservationFlight {
  flight_number: string;
  origin: string;
  destination: string;
  /** `YYYY-MM-DD`. */
  date: string;
  price: number;
}
/** A payment (positive) or refund (negative), whole dollars, against a payment method id. */
export interface Payment {
  payment_id: string;
  amount: number;
}
/** A booking. `status` is null, or `cancelled` after a cancellation. */
export interface Reservation {
  reservation_id: string;
  user_id: string;
  origin: string;
  destination: string;
  flight_type: FlightType;
  cabin: CabinClass;
  flights: ReservationFlight[];
  passengers: Passenger[];
  payment_history: Payment[];
  /** `YYYY-MM-DDTHH:MM:SS`. */
  created_at: string;
  total_baggages: number;
  nonfree_baggages: number;
  insurance: Insurance;
  status: 'cancelled' | null;
}

/** The whole DB: three tables keyed by flight number, user id and reservation id. */
export type AirlineDb = {
  flights: Record<string, Flight>;
  users: Record<string, User>;
  reservations: Record<string, Reservation>;
};

// ---- zod schema (field order = pydantic model field order = model_dump order) ---------------

const int = () => z.number().int();
const cabinNumbers = z.partialRecord(z.enum(CABINS), int());

const FlightDateStatusSchema = z.discriminatedUnion('status', [
  z.object({ status: z.literal('available'), available_seats: cabinNumbers, prices: cabinNumbers }),
  z.object({ status: z.literal('landed'), actual_departure_time_est: z.string(), actual_arrival_time_est: z.string() }),
  z.object({ status: z.literal('cancelled') }),
  z.object({ status: z.literal('delayed'), estimated_departure_time_est: z.string(), estimated_arrival_time_est: z.string() }),
  z.object({ status: z.literal('flying'), actual_departure_time_est: z.string(), estimated_arrival_time_est: z.string() }),
  z.object({ status: z.literal('on time'), estimated_departure_time_est: z.string(), estimated_arrival_time_est: z.string() }),
]);

const FlightSchema = z.object({
  flight_number: z.string(),
  origin: z.string(),
  destination: z.string(),
  scheduled_departure_time_est: z.string(),
  scheduled_arrival_time_est: z.string(),
  dates: z.record(z.string(), FlightDateStatusSchema),
});

const PassengerSchema = z.object({ first_name: z.string(), last_name: z.string(), dob: z.string() });

const PaymentMethodSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('credit_card'), id: z.string(), brand: z.string(), last_four: z.string() }),
  z.object({ source: z.literal('gift_card'), id: z.string(), amount: z.number() }),
  z.object({ source: z.literal('certificate'), id: z.string(), amount: z.number() }),
]);

const UserSchema = z.object({
  user_id: z.string(),
  name: z.object({ first_name: z.string(), last_name: z.string() }),
  address: z.object({
    address1: z.string(),
    address2: z.string().nullable().default(null),
    city: z.string(),
    country: z.string(),
    state: z.string(),
    zip: z.string(),
  }),
  email: z.string(),
  dob: z.string(),
  payment_methods: z.record(z.string(), PaymentMethodSchema),
  saved_passengers: z.array(PassengerSchema),
  membership: z.enum(['gold', 'silver', 'regular']),
  reservations: z.array(z.string()),
});

const ReservationSchema = z.object({
  reservation_id: z.string(),
  user_id: z.string(),
  origin: z.string(),
  destination: z.string(),
  flight_type: z.enum(['round_trip', 'one_way']),
  cabin: z.enum(CABINS),
  flights: z.array(
    z.object({ flight_number: z.string(), origin: z.string(), destination: z.string(), date: z.string(), price: int() }),
  ),
  passengers: z.array(PassengerSchema),
  payment_history: z.array(z.object({ payment_id: z.string(), amount: int() })),
  created_at: z.string(),
  total_baggages: int(),
  nonfree_baggages: int(),
  insurance: z.enum(['yes', 'no']),
  status: z.literal('cancelled').nullable().default(null),
});

/** Schema of one record per table (used to validate records patched in by a task's initial state). */
export const AIRLINE_RECORD_SCHEMAS: { [K in keyof AirlineDb]: z.ZodType<AirlineDb[K][string]> } = {
  flights: FlightSchema as unknown as z.ZodType<Flight>,
  users: UserSchema as unknown as z.ZodType<User>,
  reservations: ReservationSchema as unknown as z.ZodType<Reservation>,
};

/**
 * Schema of tau2's airline `db.json`. Parsing returns the normalised DB (model_dump field order,
 * nulls filled in, unknown nested keys dropped); an unknown top-level key is an error.
 */
export const AirlineDbSchema: z.ZodType<AirlineDb> = z.strictObject({
  flights: z.record(z.string(), FlightSchema),
  users: z.record(z.string(), UserSchema),
  reservations: z.record(z.string(), ReservationSchema),
}) as unknown as z.ZodType<AirlineDb>;

// ---- float positions for Python-style JSON ---------------------------------------------------

/** Float positions in a {@link User} (gift-card and certificate balances). */
export const USER_TYPES: PyTypeTree = { payment_methods: { '*': { amount: 'float' } } };
/** Float positions in a {@link Reservation}: none (prices and payments are ints). */
export const RESERVATION_TYPES: PyTypeTree = {};
/** Float positions in a {@link Flight}: none. */
export const FLIGHT_TYPES: PyTypeTree = {};
/** Float positions per table, by record. */
export const TABLE_RECORD_TYPES: Record<keyof AirlineDb, PyTypeTree> = {
  flights: FLIGHT_TYPES,
  users: USER_TYPES,
  reservations: RESERVATION_TYPES,
};
/**
 * Float positions of the whole DB, as tau2's pydantic models type them. Found empirically: with
 * exactly these positions as floats, `sha256(json.dumps(db, sort_keys=True))` of the pristine DB
 * equals the reference `initial_db_hash`.
 */
export const AIRLINE_DB_TYPES: PyTypeTree = { users: { '*': USER_TYPES } };
