/**
 * servicegym's own airline dataset, generated reproducibly from a seed: flights for October
 * 2026 between twelve airports, customers with payment methods, and reservations — in tau2's
 * `db.json` shape, so the same tools and hash apply. The records the seed tasks name are laid
 * over it by `seed-records.ts`.
 *
 * Time model: "now" is 2026-10-14 15:00 EST ({@link SERVICEGYM_AIRLINE_NOW}). Earlier dates have
 * landed (a few were cancelled), 2026-10-14 is mixed (landed / flying / on time / delayed by
 * departure time), later dates are `available` with seats and prices in dollars.
 */
import { Rng } from '../../../util/rng.js';

export const SERVICEGYM_AIRLINE_NOW = '2026-10-14T15:00:00';
export const TODAY = '2026-10-14';
export const AIRPORTS: { iata: string; city: string }[] = [
  { iata: 'JFK', city: 'New York' }, { iata: 'LAX', city: 'Los Angeles' }, { iata: 'SFO', city: 'San Francisco' },
  { iata: 'ORD', city: 'Chicago' }, { iata: 'ATL', city: 'Atlanta' }, { iata: 'DFW', city: 'Dallas-Fort Worth' },
  { iata: 'SEA', city: 'Seattle' }, { iata: 'BOS', city: 'Boston' }, { iata: 'MIA', city: 'Miami' },
  { iata: 'DEN', city: 'Denver' }, { iata: 'PHX', city: 'Phoenix' }, { iata: 'LAS', city: 'Las Vegas' },
];

export type Json = Record<string, any>;

/** Every date of October 2026 as YYYY-MM-DD. */
export const DATES = Array.from({ length: 31 }, (_, i) => `2026-10-${String(i + 1).padStart(2, '0')}`);

const pad = (n: number) => String(n).padStart(2, '0');
/** `HH:MM:SS` plus minutes, with tau2's `+1` suffix when it passes midnight. */
export function addMinutes(hms: string, minutes: number): string {
  const [h, m] = hms.split(':').map(Number);
  const total = h * 60 + m + minutes;
  const day = Math.floor(total / 1440);
  const t = total % 1440;
  return `${pad(Math.floor(t / 60))}:${pad(t % 60)}:00${day > 0 ? `+${day}` : ''}`;
}

/** The status record of one flight on one date, as of "now". */
export function dateStatus(rng: Rng, date: string, dep: string, arr: string): Json {
  const at = (d: string, hms: string, delta = 0) => {
    const [h, m] = hms.slice(0, 5).split(':').map(Number);
    const t = h * 60 + m + delta + (hms.endsWith('+1') ? 1440 : 0);
    const dd = Number(d.slice(8)) + Math.floor(t / 1440);
    return `2026-10-${pad(dd)}T${pad(Math.floor((t % 1440) / 60))}:${pad(t % 60)}:00`;
  };
  if (date < TODAY) {
    if (rng.chance(0.04)) return { status: 'cancelled' };
    const d1 = rng.int(-15, 40);
    return { status: 'landed', actual_departure_time_est: at(date, dep, d1), actual_arrival_time_est: at(date, arr, d1 + rng.int(-10, 10)) };
  }
  if (date === TODAY) {
    const depMin = Number(dep.slice(0, 2)) * 60 + Number(dep.slice(3, 5));
    if (depMin < 13 * 60) return { status: 'landed', actual_departure_time_est: at(date, dep, 5), actual_arrival_time_est: at(date, arr, 2) };
    if (depMin < 15 * 60) return { status: 'flying', actual_departure_time_est: at(date, dep, 3), estimated_arrival_time_est: at(date, arr, 0) };
    return { status: 'on time', estimated_departure_time_est: at(date, dep), estimated_arrival_time_est: at(date, arr) };
  }
  const base = rng.int(60, 160);
  return {
    status: 'available',
    available_seats: { basic_economy: rng.int(0, 20), economy: rng.int(2, 20), business: rng.int(1, 20) },
    prices: { basic_economy: base, economy: base + rng.int(60, 140), business: base + rng.int(250, 700) },
  };
}

/** A flight with its October schedule. */
export function makeFlight(rng: Rng, flightNumber: string, origin: string, destination: string, dep: string, minutes: number): Json {
  const arr = addMinutes(dep, minutes);
  const dates: Json = {};
  for (const d of DATES) dates[d] = dateStatus(rng, d, dep, arr);
  return { origin, destination, flight_number: flightNumber, scheduled_departure_time_est: dep, scheduled_arrival_time_est: arr, dates };
}

const FIRST = ['Ava', 'Noah', 'Lucas', 'Emma', 'Sofia', 'Omar', 'Yuki', 'Priya', 'Mateo', 'Chloe', 'Ethan', 'Amara', 'Lena', 'Kofi', 'Ines', 'Hugo'];
const LAST = ['Nguyen', 'Garcia', 'Okafor', 'Smith', 'Kowalski', 'Haddad', 'Tanaka', 'Silva', 'Brown', 'Rossi', 'Ivanova', 'Mensah', 'Dubois', 'Khan'];
const STREETS = ['Maple Avenue', 'Oak Street', 'Cedar Lane', 'Harbor Road', 'Elm Court', 'Sunset Drive', 'Lake View'];
const CITIES = [['Boston', 'MA', '02118'], ['Denver', 'CO', '80203'], ['Seattle', 'WA', '98101'], ['Austin', 'TX', '78701'], ['Miami', 'FL', '33101']];

/** A customer profile with 1–3 payment methods. `n` makes ids unique. */
export function makeUser(rng: Rng, n: number): Json {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  const userId = `${first.toLowerCase()}_${last.toLowerCase()}_${1000 + n}`;
  const [city, state, zip] = rng.pick(CITIES);
  const payment_methods: Json = {};
  const cc = `credit_card_${7100000 + n * 7}`;
  payment_methods[cc] = { source: 'credit_card', id: cc, brand: rng.pick(['visa', 'mastercard']), last_four: String(rng.int(1000, 9999)) };
  if (rng.chance(0.5)) {
    const gc = `gift_card_${5200000 + n * 11}`;
    payment_methods[gc] = { source: 'gift_card', id: gc, amount: rng.int(2, 30) * 10 };
  }
  if (rng.chance(0.4)) {
    const ce = `certificate_${6300000 + n * 13}`;
    payment_methods[ce] = { source: 'certificate', id: ce, amount: rng.pick([50, 100, 150, 250]) };
  }
  return {
    user_id: userId,
    name: { first_name: first, last_name: last },
    address: { address1: `${rng.int(10, 999)} ${rng.pick(STREETS)}`, address2: rng.chance(0.3) ? `Apt ${rng.int(1, 40)}` : null, city, country: 'USA', state, zip },
    email: `${first.toLowerCase()}.${last.toLowerCase()}${n}@example.com`,
    dob: `19${rng.int(50, 99)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`,
    payment_methods,
    saved_passengers: [],
    membership: rng.pick(['regular', 'silver', 'gold']),
    reservations: [],
  };
}

const ID_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** Generates the whole DB. Same seed, same DB (deep-equal, same key order). */
export function generateAirlineDb(seed = 2026, sizes = { flights: 48, users: 60, reservations: 120 }): Json {
  const rng = new Rng(seed);
  const flights: Json = {};
  for (let i = 0; i < sizes.flights; i++) {
    const o = rng.pick(AIRPORTS).iata;
    let d = rng.pick(AIRPORTS).iata;
    while (d === o) d = rng.pick(AIRPORTS).iata;
    const fn = `HAT${String(500 + i).padStart(3, '0')}`;
    flights[fn] = makeFlight(rng, fn, o, d, `${pad(rng.int(5, 21))}:${rng.pick(['00', '30'])}:00`, rng.int(70, 360));
  }
  const users: Json = {};
  for (let i = 0; i < sizes.users; i++) {
    const u = makeUser(rng, i);
    users[u.user_id] = u;
  }
  const reservations: Json = {};
  const userIds = Object.keys(users);
  const flightIds = Object.keys(flights);
  for (let i = 0; i < sizes.reservations; i++) {
    let id = '';
    do id = Array.from({ length: 6 }, () => rng.pick([...ID_CHARS])).join('');
    while (reservations[id]);
    const user = users[rng.pick(userIds)];
    const fl = flights[rng.pick(flightIds)];
    const date = rng.pick(DATES.slice(15));
    const cabin = rng.pick(['basic_economy', 'economy', 'business']);
    const pax = rng.int(1, 3);
    const price = fl.dates[date].prices?.[cabin] ?? 150;
    const card = Object.keys(user.payment_methods)[0];
    const passengers = [{ first_name: user.name.first_name, last_name: user.name.last_name, dob: user.dob }];
    for (let p = 1; p < pax; p++) passengers.push({ first_name: rng.pick(FIRST), last_name: user.name.last_name, dob: `20${pad(rng.int(0, 15))}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}` });
    const insurance = rng.chance(0.3) ? 'yes' : 'no';
    reservations[id] = {
      reservation_id: id,
      user_id: user.user_id,
      origin: fl.origin,
      destination: fl.destination,
      flight_type: 'one_way',
      cabin,
      flights: [{ origin: fl.origin, destination: fl.destination, flight_number: fl.flight_number, date, price }],
      passengers,
      payment_history: [{ payment_id: card, amount: price * pax + (insurance === 'yes' ? 30 * pax : 0) }],
      created_at: `2026-09-${pad(rng.int(1, 30))}T${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:00`,
      total_baggages: rng.int(0, pax),
      nonfree_baggages: 0,
      insurance,
    };
    user.reservations.push(id);
  }
  return { flights, users, reservations };
}
