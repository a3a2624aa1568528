/**
 * A tiny hand-made airline DB (not taken from tau2's data) for tool tests that run without
 * ../shared: four flights, one user with a card, a gift card and a certificate, one reservation.
 */
import { Environment } from '../../../src/env/environment.js';
import { AIRLINE_TAU2_NOW, createAirlineDomain, parseAirlineDb, type AirlineState } from '../../../src/domains/airline/index.js';
import type { Domain } from '../../../src/spec/domain.js';

const seats = (b: number, e: number, x: number) => ({ basic_economy: b, economy: e, business: x });

/** Raw fixture as it would appear in a db.json (keys deliberately not in model order). */
export function rawFixture(): Record<string, unknown> {
  return {
    flights: {
      HAT901: {
        origin: 'JFK',
        destination: 'ORD',
        flight_number: 'HAT901',
        scheduled_departure_time_est: '08:00:00',
        scheduled_arrival_time_est: '10:00:00',
        dates: {
          '2024-05-10': { status: 'landed', actual_departure_time_est: '2024-05-10T08:05:00', actual_arrival_time_est: '2024-05-10T10:01:00' },
          '2024-05-20': { status: 'available', available_seats: seats(5, 3, 2), prices: seats(50, 100, 300) },
        },
      },
      HAT902: {
        origin: 'ORD',
        destination: 'LAX',
        flight_number: 'HAT902',
        scheduled_departure_time_est: '11:00:00',
        scheduled_arrival_time_est: '13:30:00',
        dates: {
          '2024-05-20': { status: 'available', available_seats: seats(9, 9, 9), prices: seats(60, 120, 400) },
          '2024-05-21': { status: 'available', available_seats: seats(9, 9, 9), prices: seats(70, 130, 410) },
        },
      },
      HAT903: {
        origin: 'JFK',
        destination: 'ORD',
        flight_number: 'HAT903',
        scheduled_departure_time_est: '22:00:00',
        scheduled_arrival_time_est: '01:00:00+1',
        dates: {
          '2024-05-01': { status: 'available', available_seats: seats(4, 4, 4), prices: seats(40, 90, 250) },
          '2024-05-19': { status: 'available', available_seats: seats(4, 4, 4), prices: seats(40, 90, 250) },
        },
      },
      HAT904: {
        origin: 'ORD',
        destination: 'LAX',
        flight_number: 'HAT904',
        scheduled_departure_time_est: '02:00:00',
        scheduled_arrival_time_est: '04:30:00',
        dates: {
          '2024-05-2': { status: 'available', available_seats: seats(1, 1, 1), prices: seats(45, 95, 260) },
          '2024-05-20': { status: 'available', available_seats: seats(1, 1, 1), prices: seats(45, 95, 260) },
          '2024-05-21': { status: 'cancelled' },
        },
      },
    },
    users: {
      ana_lee_1: {
        user_id: 'ana_lee_1',
        name: { first_name: 'Ana', last_name: 'Lee' },
        address: { address1: '1 Main St', city: 'Austin', country: 'USA', state: 'TX', zip: '78701' },
        email: 'ana@example.com',
        dob: '1990-01-02',
        payment_methods: {
          credit_card_1: { source: 'credit_card', id: 'credit_card_1', brand: 'visa', last_four: '1234' },
          gift_card_1: { source: 'gift_card', id: 'gift_card_1', amount: 200 },
          certificate_1: { source: 'certificate', id: 'certificate_1', amount: 100 },
        },
        saved_passengers: [{ first_name: 'Bo', last_name: 'Lee', dob: '1992-03-04' }],
        membership: 'gold',
        reservations: ['RES001'],
      },
    },
    reservations: {
      RES001: {
        reservation_id: 'RES001',
        user_id: 'ana_lee_1',
        origin: 'JFK',
        destination: 'LAX',
        flight_type: 'one_way',
        cabin: 'economy',
        flights: [
          { origin: 'JFK', destination: 'ORD', flight_number: 'HAT901', date: '2024-05-20', price: 80 },
          { origin: 'ORD', destination: 'LAX', flight_number: 'HAT902', date: '2024-05-20', price: 110 },
        ],
        passengers: [
          { first_name: 'Ana', last_name: 'Lee', dob: '1990-01-02' },
          { first_name: 'Bo', last_name: 'Lee', dob: '1992-03-04' },
        ],
        payment_history: [{ payment_id: 'credit_card_1', amount: 380 }],
        created_at: '2024-05-14T09:00:00',
        total_baggages: 1,
        nonfree_baggages: 0,
        insurance: 'no',
      },
    },
  };
}

/** The fixture as a domain (validated through the real schema). */
export function fixtureDomain(): Domain<AirlineState> {
  return createAirlineDomain({ db: parseAirlineDb(rawFixture(), 'fixture.json'), policy: 'fixture policy' });
}

/** A fresh environment over the fixture, with a `call(name, args)` shortcut. */
export function fixtureEnv(domain = fixtureDomain()) {
  const env = new Environment(domain, { now: AIRLINE_TAU2_NOW });
  let n = 0;
  const call = (name: string, args: Record<string, unknown> = {}) =>
    env.execute({ id: `c${n++}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  return { env, call, domain };
}
