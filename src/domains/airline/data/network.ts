/**
 * The flight network of servicegym's generated airline dataset (`generate.ts`): a hub-and-spoke
 * network over tau2's 20 airports with flights for every day of October 2026, in tau2's
 * `db.json` shape.
 *
 * Time model: "now" is 2026-10-14 15:00 EST ({@link SERVICEGYM_AIRLINE_NOW}). Earlier dates have
 * landed (a few were cancelled), 2026-10-14 is mixed (landed / flying / on time / delayed by
 * departure time), later dates are `available` with seats and prices in whole dollars (tau2's
 * airline keeps fares as integers; they are priced from the route's distance, so they are not
 * round numbers).
 */
import { Rng } from '../../../util/rng.js';

export const SERVICEGYM_AIRLINE_NOW = '2026-10-14T15:00:00';
export const TODAY = '2026-10-14';

export type Json = Record<string, any>;

/** tau2's 20 airports (the list `list_all_airports` returns) with latitude and longitude. */
export const AIRPORT_COORDS: Record<string, [number, number]> = {
  SFO: [37.62, -122.38], JFK: [40.64, -73.78], LAX: [33.94, -118.41], ORD: [41.98, -87.9], DFW: [32.9, -97.04],
  DEN: [39.86, -104.67], SEA: [47.45, -122.31], ATL: [33.64, -84.43], MIA: [25.79, -80.29], BOS: [42.36, -71.01],
  PHX: [33.43, -112.01], IAH: [29.99, -95.34], LAS: [36.08, -115.15], MCO: [28.43, -81.31], EWR: [40.69, -74.17],
  CLT: [35.21, -80.94], MSP: [44.88, -93.22], DTW: [42.21, -83.35], PHL: [39.87, -75.24], LGA: [40.78, -73.87],
};
/** Connecting hubs: every other airport has flights to and from each of them. */
export const HUBS = ['ORD', 'ATL', 'DFW', 'DEN'];
/** Point-to-point routes flown in both directions besides the hub routes. */
const DIRECT_PAIRS = [
  ['JFK', 'LAX'], ['BOS', 'SFO'], ['SEA', 'JFK'], ['MIA', 'JFK'], ['LAX', 'SEA'], ['SFO', 'SEA'], ['BOS', 'MIA'], ['LAX', 'LAS'],
  ['PHX', 'LAX'], ['EWR', 'SFO'], ['LGA', 'MIA'], ['BOS', 'LAX'], ['PHL', 'LAX'], ['MCO', 'EWR'], ['IAH', 'LAX'], ['MSP', 'PHX'],
];
/**
 * Route directions the generated filler leaves to the seed records: T17 moves a family to the
 * same JFK→SFO flight one day later, which must stay the only nonstop choice.
 */
const SEED_ONLY_ROUTES = new Set(['JFK-SFO']);

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

/** Minutes after midnight of `HH:MM:SS` (plus a day for tau2's `+1` suffix). */
export function hmsMinutes(hms: string): number {
  return (hms.charCodeAt(0) - 48) * 600 + (hms.charCodeAt(1) - 48) * 60 + (hms.charCodeAt(3) - 48) * 10 + (hms.charCodeAt(4) - 48) + (hms.endsWith('+1') ? 1440 : 0);
}

/** `2026-10-DDTHH:MM:00` for `minutes` after midnight of October `day` (may run into the next day). */
export function octoberTimestamp(day: number, minutes: number): string {
  const d = day + Math.floor(minutes / 1440);
  const t = ((minutes % 1440) + 1440) % 1440;
  return `2026-10-${pad(d)}T${pad(Math.floor(t / 60))}:${pad(t % 60)}:00`;
}

/** Great-circle distance in km between two airports of {@link AIRPORT_COORDS}. */
export function distanceKm(a: string, b: string): number {
  const [la1, lo1] = AIRPORT_COORDS[a].map((x) => (x * Math.PI) / 180);
  const [la2, lo2] = AIRPORT_COORDS[b].map((x) => (x * Math.PI) / 180);
  const h = Math.sin((la2 - la1) / 2) ** 2 + Math.cos(la1) * Math.cos(la2) * Math.sin((lo2 - lo1) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(h));
}

/** Fares of one flight date in whole dollars: basic economy around `base`, economy and business above it. */
export function faresFor(rng: Rng, base: number): Json {
  const be = Math.round(base * (0.8 + rng.next() * 0.5));
  const ec = be + Math.round(base * (0.45 + rng.next() * 0.5));
  return { basic_economy: be, economy: ec, business: ec + Math.round(base * (1.9 + rng.next() * 1.6)) };
}

/**
 * The status record of one flight on one date, as of "now". `base` is the route's basic-economy
 * fare in dollars (default: the original narrow band for seed flights).
 */
export function dateStatus(rng: Rng, date: string, dep: string, arr: string, base?: number): Json {
  const depMin = hmsMinutes(dep);
  const arrMin = hmsMinutes(arr);
  const day = Number(date.slice(8));
  const at = (minutes: number, delta = 0) => octoberTimestamp(day, minutes + delta);
  if (date < TODAY) {
    if (rng.chance(0.03)) return { status: 'cancelled' };
    const d1 = rng.int(-15, 40);
    return { status: 'landed', actual_departure_time_est: at(depMin, d1), actual_arrival_time_est: at(arrMin, d1 + rng.int(-10, 10)) };
  }
  if (date === TODAY) {
    if (depMin < 13 * 60) return { status: 'landed', actual_departure_time_est: at(depMin, 5), actual_arrival_time_est: at(arrMin, 2) };
    if (depMin < 15 * 60) return { status: 'flying', actual_departure_time_est: at(depMin, 3), estimated_arrival_time_est: at(arrMin) };
    if (rng.chance(0.15)) {
      const late = rng.int(35, 260);
      return { status: 'delayed', estimated_departure_time_est: at(depMin, late), estimated_arrival_time_est: at(arrMin, late) };
    }
    return { status: 'on time', estimated_departure_time_est: at(depMin), estimated_arrival_time_est: at(arrMin) };
  }
  if (base === undefined) {
    const b = rng.int(60, 160);
    return {
      status: 'available',
      available_seats: { basic_economy: rng.int(0, 20), economy: rng.int(2, 20), business: rng.int(1, 20) },
      prices: { basic_economy: b, economy: b + rng.int(60, 140), business: b + rng.int(250, 700) },
    };
  }
  return {
    status: 'available',
    available_seats: { basic_economy: rng.int(0, 18), economy: rng.int(0, 20), business: rng.int(0, 16) },
    prices: faresFor(rng, base),
  };
}

/** A flight with its October schedule; `base` as in {@link dateStatus}. */
export function makeFlight(rng: Rng, flightNumber: string, origin: string, destination: string, dep: string, minutes: number, base?: number): Json {
  const arr = addMinutes(dep, minutes);
  const dates: Json = {};
  for (const d of DATES) dates[d] = dateStatus(rng, d, dep, arr, base);
  return { flight_number: flightNumber, origin, destination, scheduled_departure_time_est: dep, scheduled_arrival_time_est: arr, dates };
}

/** The route of every generated flight: origin, destination and the basic-economy base fare. */
export interface RouteInfo {
  origin: string;
  destination: string;
  base: number;
}

/** Directed routes: spokes to and from each hub, hub to hub, and the point-to-point pairs. */
function routes(): [string, string][] {
  const out: [string, string][] = [];
  const airports = Object.keys(AIRPORT_COORDS);
  for (const h of HUBS) for (const a of airports) if (a !== h) out.push([a, h], [h, a]);
  for (const [a, b] of DIRECT_PAIRS) out.push([a, b], [b, a]);
  const seen = new Set<string>();
  return out.filter(([a, b]) => {
    const k = `${a}-${b}`;
    if (seen.has(k) || SEED_ONLY_ROUTES.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The generated flights (`HAT500` upwards; the seed records use HAT1xx–HAT4xx): two departures
 * a day on every route of {@link routes}, at times spread over the day so that hub connections
 * exist, durations from the great-circle distance, fares from the distance. Added to `flights`
 * (in place) and returned with each flight's route.
 */
export function generateFlights(rng: Rng, flights: Json = {}): { flights: Json; info: Record<string, RouteInfo> } {
  const info: Record<string, RouteInfo> = {};
  let n = 500;
  for (const [o, d] of routes()) {
    const km = distanceKm(o, d);
    const minutes = 5 * Math.round((35 + km / 12.5) / 5);
    const base = Math.round(45 + km * 0.075 + rng.int(0, 23));
    const first = rng.int(5 * 60, 11 * 60);
    for (const depMin of [first, first + rng.int(6 * 60, 10 * 60)]) {
      const fn = `HAT${n++}`;
      const dep = `${pad(Math.floor(depMin / 60))}:${pad(5 * Math.floor((depMin % 60) / 5))}:00`;
      flights[fn] = makeFlight(rng, fn, o, d, dep, minutes, base);
      info[fn] = { origin: o, destination: d, base };
    }
  }
  return { flights, info };
}
