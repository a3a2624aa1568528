/**
 * servicegym's own airline dataset, generated reproducibly from a seed: the flight network of
 * `network.ts`, customers and reservations — in tau2's `db.json` shape, so the same tools and
 * hash apply. The records the seed tasks name are laid over it by `seed-records.ts`.
 *
 * Customers: names drawn from small pools, so namesakes (same first and last name, different
 * user id, date of birth and address) are common; addresses from a few zip codes per city, so
 * zips are shared; 1–2 credit cards, gift cards with balances to the cent, round travel
 * certificates, saved passengers.
 *
 * Reservations follow the policy's arithmetic (`airline_policy.md`): one-way and round trips,
 * nonstop or with one connection through a hub, 1–5 passengers sharing a cabin, segment prices
 * taken from the flight date (or, for dates already flown, a fare for that route), $30 insurance
 * per passenger, $50 per bag above the allowance of the customer's tier and cabin, paid with at
 * most one certificate, gift cards and one credit card (policy 7.3); some later added bags
 * (a second payment) and some cancelled (refund entries, status `cancelled`).
 */
import { Rng } from '../../../util/rng.js';
import { DATES, HUBS, TODAY, SERVICEGYM_AIRLINE_NOW, faresFor, generateFlights, type Json, type RouteInfo } from './network.js';

export { SERVICEGYM_AIRLINE_NOW, type Json } from './network.js';

/** How many customers and reservations to generate. */
export interface BookingSizes {
  users: number;
  reservations: number;
}

const FIRST = [
  'Ava', 'Noah', 'Lucas', 'Emma', 'Sofia', 'Omar', 'Yuki', 'Priya', 'Mateo', 'Chloe', 'Ethan', 'Amara', 'Lena', 'Kofi', 'Ines', 'Hugo',
  'Mia', 'James', 'Aisha', 'Daniel', 'Olivia', 'Raj', 'Fatima', 'Liam', 'Grace', 'Ivan', 'Helen', 'Ana', 'Mohamed', 'Sara', 'Chen', 'Isabella',
];
const LAST = [
  'Nguyen', 'Garcia', 'Okafor', 'Smith', 'Kowalski', 'Haddad', 'Tanaka', 'Silva', 'Brown', 'Rossi', 'Ivanova', 'Mensah', 'Dubois', 'Khan',
  'Lee', 'Patel', 'Gomez', 'Novak', 'Park', 'Johnson', 'Ahmed', 'Kim', 'Lopez', 'Martin',
];
const STREETS = ['Maple Avenue', 'Oak Street', 'Cedar Lane', 'Harbor Road', 'Elm Court', 'Sunset Drive', 'Lake View', 'Pine Street', 'Hillside Road', 'River Road'];
/** City, state, home airport and the zip codes customers there share. */
const PLACES: [string, string, string, string[]][] = [
  ['New York', 'NY', 'JFK', ['10001', '10025', '10011']], ['Los Angeles', 'CA', 'LAX', ['90012', '90027']], ['San Francisco', 'CA', 'SFO', ['94110', '94117']],
  ['Chicago', 'IL', 'ORD', ['60601', '60614']], ['Dallas', 'TX', 'DFW', ['75201', '75204']], ['Denver', 'CO', 'DEN', ['80203', '80206']],
  ['Seattle', 'WA', 'SEA', ['98101', '98103']], ['Atlanta', 'GA', 'ATL', ['30303', '30307']], ['Miami', 'FL', 'MIA', ['33101', '33130']],
  ['Boston', 'MA', 'BOS', ['02118', '02116']], ['Phoenix', 'AZ', 'PHX', ['85004']], ['Houston', 'TX', 'IAH', ['77002', '77006']],
  ['Las Vegas', 'NV', 'LAS', ['89101']], ['Orlando', 'FL', 'MCO', ['32801']], ['Newark', 'NJ', 'EWR', ['07102']],
  ['Charlotte', 'NC', 'CLT', ['28202']], ['Minneapolis', 'MN', 'MSP', ['55401']], ['Detroit', 'MI', 'DTW', ['48226']], ['Philadelphia', 'PA', 'PHL', ['19103', '19147']],
];
/** Free bags per passenger by tier and cabin (policy 4.1). */
export const FREE_BAGS: Record<string, Record<string, number>> = {
  regular: { basic_economy: 0, economy: 1, business: 2 },
  silver: { basic_economy: 1, economy: 2, business: 3 },
  gold: { basic_economy: 2, economy: 3, business: 4 },
};
const LETTERS = [...'ABCDEFGHJKLMNPQRSTUVWXYZ'];
const ID_CHARS = [...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'];

const pad = (n: number) => String(n).padStart(2, '0');
const dob = (rng: Rng, from: number, to: number) => `${rng.int(from, to)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;

/** Unique numeric suffixes for payment-method ids (7 digits). */
function idMaker(rng: Rng): () => number {
  const used = new Set<number>();
  return () => {
    let n = 0;
    do n = rng.int(1000000, 9999999);
    while (used.has(n));
    used.add(n);
    return n;
  };
}

/** One customer; `home` is the airport of their city (not stored: tau2's user has none). */
function makeUser(rng: Rng, userId: string, first: string, last: string, nextId: () => number): { user: Json; home: string } {
  const [city, state, home, zips] = rng.pick(PLACES);
  const payment_methods: Json = {};
  for (let c = rng.chance(0.25) ? 2 : 1; c > 0; c--) {
    const id = `credit_card_${nextId()}`;
    payment_methods[id] = { source: 'credit_card', id, brand: rng.pick(['visa', 'mastercard']), last_four: String(rng.int(1000, 9999)) };
  }
  for (let g = rng.chance(0.45) ? rng.int(1, 2) : 0; g > 0; g--) {
    const id = `gift_card_${nextId()}`;
    payment_methods[id] = { source: 'gift_card', id, amount: rng.int(1500, 39999) / 100 };
  }
  for (let c = rng.chance(0.35) ? rng.int(1, 2) : 0; c > 0; c--) {
    const id = `certificate_${nextId()}`;
    payment_methods[id] = { source: 'certificate', id, amount: rng.pick([50, 100, 100, 150, 200, 250, 500]) };
  }
  const saved = Array.from({ length: rng.int(0, 3) }, () => ({ first_name: rng.pick(FIRST), last_name: rng.chance(0.6) ? last : rng.pick(LAST), dob: dob(rng, 1950, 2020) }));
  const user = {
    user_id: userId,
    name: { first_name: first, last_name: last },
    address: { address1: `${rng.int(10, 9999)} ${rng.pick(STREETS)}`, address2: rng.chance(0.3) ? `Apt ${rng.int(1, 40)}${rng.pick(['', 'A', 'B'])}` : null, city, country: 'USA', state, zip: rng.pick(zips) },
    email: `${first.toLowerCase()}.${last.toLowerCase()}${userId.slice(-4)}@example.com`,
    dob: dob(rng, 1945, 2004),
    payment_methods,
    saved_passengers: saved,
    membership: rng.pick(['regular', 'regular', 'silver', 'gold']),
    reservations: [] as string[],
  };
  return { user, home };
}

/** Customers with unique ids `<first>_<last>_<4 digits>`. */
function makeUsers(rng: Rng, count: number, nextId: () => number, users: Json): { ids: string[]; homes: Record<string, string> } {
  const ids: string[] = [];
  const homes: Record<string, string> = {};
  for (let made = 0; made < count; ) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const userId = `${first.toLowerCase()}_${last.toLowerCase()}_${rng.int(1000, 9999)}`;
    if (users[userId]) continue;
    const { user, home } = makeUser(rng, userId, first, last, nextId);
    users[userId] = user;
    homes[userId] = home;
    ids.push(userId);
    made++;
  }
  return { ids, homes };
}

/** Flight numbers by `origin-destination`, and their scheduled times. */
interface Network {
  byRoute: Map<string, string[]>;
  flights: Json;
  info: Record<string, RouteInfo>;
  nextId: () => number;
  airports: string[];
}


/** A leg sequence from `o` to `d` departing on `date`: nonstop, or one stop via a hub (same-day connection). */
function itinerary(rng: Rng, net: Network, o: string, d: string, date: string): { fn: string; date: string }[] | null {
  const direct = net.byRoute.get(`${o}-${d}`);
  if (direct && rng.chance(0.7)) return [{ fn: rng.pick(direct), date }];
  for (const h of rng.shuffle(HUBS)) {
    if (h === o || h === d) continue;
    for (const f1 of net.byRoute.get(`${o}-${h}`) ?? []) {
      const arr = net.flights[f1].scheduled_arrival_time_est as string;
      if (arr.includes('+')) continue;
      const f2 = (net.byRoute.get(`${h}-${d}`) ?? []).find((f) => (net.flights[f].scheduled_departure_time_est as string) >= arr);
      if (f2) return [{ fn: f1, date }, { fn: f2, date }];
    }
  }
  return direct ? [{ fn: rng.pick(direct), date }] : null;
}

/** The price per passenger of a segment: today's fare when the date is bookable, else a fare for the route. */
function segmentPrice(rng: Rng, net: Network, fn: string, date: string, cabin: string): number {
  const dd = net.flights[fn].dates[date];
  return dd.status === 'available' ? dd.prices[cabin] : faresFor(rng, net.info[fn].base)[cabin];
}

/** Passengers: the customer (usually) first, then saved passengers, then others. */
function passengers(rng: Rng, user: Json): Json[] {
  const n = rng.pick([1, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5]);
  const out: Json[] = [];
  if (rng.chance(0.9)) out.push({ first_name: user.name.first_name, last_name: user.name.last_name, dob: user.dob });
  for (const p of user.saved_passengers) if (out.length < n) out.push({ ...p });
  while (out.length < n) out.push({ first_name: rng.pick(FIRST), last_name: rng.chance(0.5) ? user.name.last_name : rng.pick(LAST), dob: dob(rng, 1950, 2020) });
  return out;
}

/** Minutes from 2026-10-01 00:00 to now; day names from 2026-08-01 (index 0 = day -61). */
const NOW_MIN = (Date.parse(`${SERVICEGYM_AIRLINE_NOW}Z`) - Date.parse('2026-10-01T00:00:00Z')) / 60_000;
const FIRST_DAY = -61;
const DAY_NAMES = Array.from({ length: 92 }, (_, i) => new Date(Date.parse('2026-10-01T00:00:00Z') + (i + FIRST_DAY) * 86_400_000).toISOString().slice(0, 10));

/** Booking time before the first flight (`day`: its index in October) and not after now: `YYYY-MM-DDTHH:MM:SS`. */
function createdAt(rng: Rng, day: number): string {
  const latest = Math.min(day * 1440 - 60, NOW_MIN);
  const t = rng.chance(0.04) && DATES[day] > TODAY ? NOW_MIN - rng.int(1, 23) * 60 : latest - rng.int(60, 50 * 24 * 60);
  const d = Math.floor(t / 1440);
  const m = t - d * 1440;
  return `${DAY_NAMES[d - FIRST_DAY]}T${pad(Math.floor(m / 60))}:${pad(m % 60)}:00`;
}

/** How the booking total was paid (policy 7.3): at most one certificate, gift cards, one credit card. */
function payments(rng: Rng, user: Json, total: number, nextId: () => number): Json[] {
  const methods = Object.values(user.payment_methods) as Json[];
  const cards = methods.filter((m) => m.source === 'credit_card');
  const out: Json[] = [];
  let rest = total;
  if (rng.chance(0.12)) {
    const amount = Math.min(rest, rng.pick([50, 100, 150, 250]));
    out.push({ payment_id: `certificate_${nextId()}`, amount });
    rest -= amount;
  }
  for (const g of methods.filter((m) => m.source === 'gift_card')) {
    if (rest <= 0 || !rng.chance(0.4)) continue;
    const amount = Math.min(rest, Math.max(1, Math.floor(g.amount * (0.3 + rng.next() * 0.7))));
    out.push({ payment_id: g.id, amount });
    rest -= amount;
  }
  if (rest > 0) out.push({ payment_id: rng.pick(cards).id, amount: rest });
  return out;
}

/** One reservation of `user` (or null when no itinerary fits the dates drawn). */
function makeReservation(rng: Rng, net: Network, id: string, user: Json, home: string): Json | null {
  const o = rng.chance(0.65) ? home : rng.pick(net.airports);
  let d = rng.pick(net.airports);
  while (d === o) d = rng.pick(net.airports);
  const day = rng.int(0, DATES.length - 1);
  const out = DATES[day];
  const back = DATES[day + rng.int(2, 9)];
  const roundTrip = rng.chance(0.5) && back !== undefined;
  const legs = itinerary(rng, net, o, d, out);
  const ret = roundTrip ? itinerary(rng, net, d, o, back) : [];
  if (!legs || !ret) return null;
  const cabin = rng.pick(['basic_economy', 'economy', 'economy', 'business']);
  const pax = passengers(rng, user);
  const flights = [...legs, ...ret].map(({ fn, date }) => ({ flight_number: fn, origin: net.info[fn].origin, destination: net.info[fn].destination, date, price: segmentPrice(rng, net, fn, date, cabin) }));
  const insurance = rng.chance(0.35) ? 'yes' : 'no';
  const total_baggages = rng.int(0, pax.length * 2);
  const nonfree = Math.max(0, total_baggages - FREE_BAGS[user.membership][cabin] * pax.length);
  const total = flights.reduce((s, f) => s + f.price, 0) * pax.length + (insurance === 'yes' ? 30 * pax.length : 0) + 50 * nonfree;
  const history = payments(rng, user, total, net.nextId);
  const r: Json = {
    reservation_id: id, user_id: user.user_id, origin: o, destination: d, flight_type: roundTrip ? 'round_trip' : 'one_way', cabin, flights,
    passengers: pax, payment_history: history, created_at: createdAt(rng, day), total_baggages, nonfree_baggages: nonfree, insurance, status: null,
  };
  if (out > TODAY && rng.chance(0.12)) {
    // Bags added after booking, paid with the first credit card.
    const extra = rng.int(1, 2);
    r.total_baggages += extra;
    const nf = Math.max(0, r.total_baggages - FREE_BAGS[user.membership][cabin] * pax.length);
    if (nf > nonfree) history.push({ payment_id: Object.values(user.payment_methods as Json).find((m) => m.source === 'credit_card').id, amount: 50 * (nf - nonfree) });
    r.nonfree_baggages = nf;
  }
  if (out > TODAY && rng.chance(0.06)) {
    r.status = 'cancelled';
    for (const p of [...history]) history.push({ payment_id: p.payment_id, amount: -p.amount });
  }
  return r;
}

/**
 * Customers and reservations over `flights` (see the module comment). Deterministic in `rng`'s
 * state. The customers are added to `users` and the reservations to `reservations` (both may
 * hold records already, whose ids are never reused; user ids are `<first>_<last>_<4 digits>`,
 * reservation ids 6 characters). A generated customer's reservation ids are oldest first.
 */
export function generateBookings(rng: Rng, flights: Json, info: Record<string, RouteInfo>, sizes: BookingSizes, users: Json, reservations: Json): void {
  const nextId = idMaker(rng);
  const { ids: userIds, homes } = makeUsers(rng, sizes.users, nextId, users);
  const byRoute = new Map<string, string[]>();
  for (const [fn, r] of Object.entries(info)) {
    const k = `${r.origin}-${r.destination}`;
    if (!byRoute.has(k)) byRoute.set(k, []);
    byRoute.get(k)!.push(fn);
  }
  const airports = [...new Set(Object.values(info).map((r) => r.origin))];
  const net: Network = { byRoute, flights, info, nextId, airports };
  for (let made = 0; made < sizes.reservations; ) {
    let id = '';
    // A letter first: an all-digit id would be an integer-like key, which objects reorder.
    do id = rng.pick(LETTERS) + rng.pick(ID_CHARS) + rng.pick(ID_CHARS) + rng.pick(ID_CHARS) + rng.pick(ID_CHARS) + rng.pick(ID_CHARS);
    while (reservations[id]);
    const userId = rng.pick(userIds);
    const r = makeReservation(rng, net, id, users[userId], homes[userId]);
    if (r) {
      reservations[id] = r;
      users[userId].reservations.push(id);
      made++;
    }
  }
  const created = (id: string) => reservations[id].created_at as string;
  for (const u of userIds) users[u].reservations.sort((a: string, b: string) => (created(a) < created(b) ? -1 : created(a) > created(b) ? 1 : 0));
}

/** How many records to generate (the defaults reach tau2's airline scale). */
export type AirlineSizes = BookingSizes;

/** Default sizes: 600 customers and 2,000 reservations (tau2: 500 and 2,000); flights follow the network (344). */
export const AIRLINE_SIZES: AirlineSizes = { users: 600, reservations: 2000 };

/**
 * Generates the whole DB. Same seed, same DB (deep-equal, same key order). `base`: records to
 * put first (the seed records'), whose ids the generator never reuses; its tables are filled in
 * place (no copy of the large tables) and returned.
 */
export function generateAirlineDb(seed = 2026, sizes: AirlineSizes = AIRLINE_SIZES, base: { flights: Json; users: Json; reservations: Json } = { flights: {}, users: {}, reservations: {} }): Json {
  const rng = new Rng(seed);
  const { info } = generateFlights(rng, base.flights);
  generateBookings(rng, base.flights, info, sizes, base.users, base.reservations);
  return base;
}
