/**
 * Airline tools on a tiny hand-made DB (runs without ../shared): tau2's pricing and payment
 * checks, certificate deletion, cancellation semantics, kept prices on flight changes, the
 * one-stop date quirk, exact output and error strings, and the tau2-style DB hash.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { airlineDbHash, airlineTau2Tools, parseAirlineDb } from '../../../src/domains/airline/index.js';
import { AIRLINE_DB_TYPES } from '../../../src/domains/airline/schema.js';
import { pyCalculate, pyRound2 } from '../../../src/domains/airline/python-calc.js';
import { pyDumps } from '../../../src/util/pyjson.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { fixtureEnv, rawFixture } from './fixture.js';

const pax = (first: string) => ({ first_name: first, last_name: 'Lee', dob: '1990-01-02' });

const booking = (over: Record<string, unknown> = {}) => ({
  user_id: 'ana_lee_1',
  origin: 'JFK',
  destination: 'LAX',
  flight_type: 'one_way',
  cabin: 'economy',
  flights: [
    { flight_number: 'HAT901', date: '2024-05-20' },
    { flight_number: 'HAT902', date: '2024-05-20' },
  ],
  passengers: [pax('Ana'), pax('Bo')],
  payment_methods: [
    { payment_id: 'certificate_1', amount: 100 },
    { payment_id: 'gift_card_1', amount: 150 },
    { payment_id: 'credit_card_1', amount: 300 },
  ],
  total_baggages: 2,
  nonfree_baggages: 1,
  insurance: 'yes',
  ...over,
});

const json = (s: string) => JSON.parse(s);

describe('airline DB schema', () => {
  it('normalises like pydantic model_dump: field order, nulls for missing optionals', async () => {
    const db = parseAirlineDb(rawFixture());
    expect(Object.keys(db.flights.HAT901)).toEqual(['flight_number', 'origin', 'destination', 'scheduled_departure_time_est', 'scheduled_arrival_time_est', 'dates']);
    expect(Object.keys(db.reservations.RES001.flights[0])).toEqual(['flight_number', 'origin', 'destination', 'date', 'price']);
    expect(db.reservations.RES001.status).toBeNull();
    expect(db.users.ana_lee_1.address.address2).toBeNull();
    expect(Object.keys(db.users.ana_lee_1.address)).toEqual(['address1', 'address2', 'city', 'country', 'state', 'zip']);
  });

  it('names the JSON path of a bad value and of an unknown top-level key', async () => {
    const bad = rawFixture() as any;
    bad.users.ana_lee_1.payment_methods.gift_card_1.amount = '200';
    expect(() => parseAirlineDb(bad, 'db.json')).toThrow(BadInputError);
    expect(() => parseAirlineDb(bad, 'db.json')).toThrow('db.json at $.users.ana_lee_1.payment_methods.gift_card_1.amount: Invalid input: expected number, received string');
    const extra = { ...rawFixture(), airports: {} };
    expect(() => parseAirlineDb(extra, 'db.json')).toThrow('db.json at $.airports: Unrecognized key: "airports"');
  });

  it('exposes exactly tau2\'s 14 tools', async () => {
    expect(airlineTau2Tools().map((t) => t.name)).toEqual([
      'book_reservation', 'calculate', 'cancel_reservation', 'get_flight_status', 'get_reservation_details', 'get_user_details',
      'list_all_airports', 'search_direct_flight', 'search_onestop_flight', 'send_certificate', 'transfer_to_human_agents',
      'update_reservation_baggages', 'update_reservation_flights', 'update_reservation_passengers',
    ]);
  });
});

describe('read tools', () => {
  it('get_user_details prints balances as floats and missing optionals as null', async () => {
    const { call } = fixtureEnv();
    const out = (await call('get_user_details', { user_id: 'ana_lee_1' })).output;
    expect(out).toContain('"address2": null');
    expect(out).toContain('"gift_card_1": {"source": "gift_card", "id": "gift_card_1", "amount": 200.0}');
    expect(out).toContain('"credit_card_1": {"source": "credit_card", "id": "credit_card_1", "brand": "visa", "last_four": "1234"}');
    expect((await call('get_user_details', { user_id: 'nobody' }))).toMatchObject({ output: 'Error: User nobody not found', error: true });
  });

  it('get_reservation_details dumps the reservation with status null; unknown id errors', async () => {
    const { call } = fixtureEnv();
    const out = (await call('get_reservation_details', { reservation_id: 'RES001' })).output;
    expect(out.endsWith('"total_baggages": 1, "nonfree_baggages": 0, "insurance": "no", "status": null}')).toBe(true);
    expect(out).toContain('{"flight_number": "HAT901", "origin": "JFK", "destination": "ORD", "date": "2024-05-20", "price": 80}');
    expect((await call('get_reservation_details', { reservation_id: 'NOPE00' })).output).toBe('Error: Reservation NOPE00 not found');
  });

  it('get_flight_status returns the bare status word', async () => {
    const { call } = fixtureEnv();
    expect((await call('get_flight_status', { flight_number: 'HAT904', date: '2024-05-21' })).output).toBe('cancelled');
    expect((await call('get_flight_status', { flight_number: 'HAT904', date: '2024-06-01' })).output).toBe('Error: Flight HAT904 not found on date 2024-06-01');
    expect((await call('get_flight_status', { flight_number: 'HAT000', date: '2024-05-21' })).output).toBe('Error: Flight HAT000 not found');
  });

  it('search_direct_flight returns DirectFlight dumps with date null', async () => {
    const { call } = fixtureEnv();
    expect((await call('search_direct_flight', { origin: 'JFK', destination: 'ORD', date: '2024-05-20' })).output).toBe(
      '[{"flight_number": "HAT901", "origin": "JFK", "destination": "ORD", "status": "available", "scheduled_departure_time_est": "08:00:00", ' +
        '"scheduled_arrival_time_est": "10:00:00", "date": null, "available_seats": {"basic_economy": 5, "economy": 3, "business": 2}, ' +
        '"prices": {"basic_economy": 50, "economy": 100, "business": 300}}]',
    );
    expect((await call('search_direct_flight', { origin: 'JFK', destination: 'ORD', date: '2024-05-10' })).output).toBe('[]');
  });

  it('search_onestop_flight: connection after arrival; next-day legs on 2024-05-<day+1>, unpadded', async () => {
    const { call } = fixtureEnv();
    const legs = async (date: string) =>
      json((await call('search_onestop_flight', { origin: 'JFK', destination: 'LAX', date })).output).map((p: any[]) => p.map((f) => `${f.flight_number}@${f.date}`));
    expect((await legs('2024-05-20'))).toEqual([['HAT901@2024-05-20', 'HAT902@2024-05-20']]);
    expect((await legs('2024-05-19'))).toEqual([
      ['HAT903@2024-05-19', 'HAT902@2024-05-20'],
      ['HAT903@2024-05-19', 'HAT904@2024-05-20'],
    ]);
    expect((await legs('2024-05-01'))).toEqual([['HAT903@2024-05-01', 'HAT904@2024-05-2']]);
  });

  it('list_all_airports lists 20 airports', async () => {
    const { call } = fixtureEnv();
    const out = json((await call('list_all_airports')).output);
    expect(out).toHaveLength(20);
    expect(out[0]).toEqual({ iata: 'SFO', city: 'San Francisco' });
  });
});

describe('book_reservation', () => {
  it('prices flights x passengers + $30 insurance each + $50 per non-free bag, and applies payments', async () => {
    const { env, call } = fixtureEnv();
    const r = (await call('book_reservation', booking()));
    expect(r.error).toBe(false);
    expect(r.output).toBe(
      '{"reservation_id": "HATHAT", "user_id": "ana_lee_1", "origin": "JFK", "destination": "LAX", "flight_type": "one_way", "cabin": "economy", ' +
        '"flights": [{"flight_number": "HAT901", "origin": "JFK", "destination": "ORD", "date": "2024-05-20", "price": 100}, ' +
        '{"flight_number": "HAT902", "origin": "ORD", "destination": "LAX", "date": "2024-05-20", "price": 120}], ' +
        '"passengers": [{"first_name": "Ana", "last_name": "Lee", "dob": "1990-01-02"}, {"first_name": "Bo", "last_name": "Lee", "dob": "1990-01-02"}], ' +
        '"payment_history": [{"payment_id": "certificate_1", "amount": 100}, {"payment_id": "gift_card_1", "amount": 150}, {"payment_id": "credit_card_1", "amount": 300}], ' +
        '"created_at": "2024-05-15T15:00:00", "total_baggages": 2, "nonfree_baggages": 1, "insurance": "yes", "status": null}',
    );
    const user = env.state.get('users', 'ana_lee_1')!;
    expect(user.payment_methods.certificate_1).toBeUndefined(); // used certificates are deleted whole
    expect(user.payment_methods.gift_card_1).toEqual({ source: 'gift_card', id: 'gift_card_1', amount: 50 });
    expect(user.reservations).toEqual(['RES001', 'HATHAT']);
    expect((env.state.get('flights', 'HAT901')!.dates['2024-05-20'] as any).available_seats.economy).toBe(1);
    expect((env.state.get('flights', 'HAT902')!.dates['2024-05-20'] as any).available_seats.economy).toBe(7);
    expect((await call('get_user_details', { user_id: 'ana_lee_1' })).output).toContain('"amount": 50.0}');
    expect(env.diff()).toContainEqual({
      path: '/users/ana_lee_1/payment_methods/certificate_1',
      op: 'remove',
      before: { source: 'certificate', id: 'certificate_1', amount: 100 },
      after: null,
    });
  });

  it('rejects with tau2\'s exact errors and changes nothing', async () => {
    const { env, call } = fixtureEnv();
    const pay = (...p: [string, number][]) => ({ payment_methods: p.map(([payment_id, amount]) => ({ payment_id, amount })) });
    const cases: [Record<string, unknown>, string][] = [
      [pay(['credit_card_1', 500]), 'Error: Payment amount does not add up, total price is 550, but paid 500'],
      [pay(['gift_card_1', 250], ['credit_card_1', 300]), 'Error: Not enough balance in payment method gift_card_1'],
      [pay(['certificate_1', 150], ['credit_card_1', 400]), 'Error: Not enough balance in payment method certificate_1'],
      [pay(['gift_card_9', 550]), 'Error: Payment method gift_card_9 not found'],
      [{ flights: [{ flight_number: 'HAT901', date: '2024-05-10' }] }, 'Error: Flight HAT901 not available on date 2024-05-10'],
      [{ flights: [{ flight_number: 'HAT901', date: '2024-06-01' }] }, 'Error: Flight HAT901 not found on date 2024-06-01'],
      [{ flights: [{ flight_number: 'HAT999', date: '2024-05-20' }] }, 'Error: Flight HAT999 not found'],
      [{ passengers: [pax('A'), pax('B'), pax('C'), pax('D')] }, 'Error: Not enough seats on flight HAT901'],
      [{ user_id: 'nobody' }, 'Error: User nobody not found'],
    ];
    for (const [over, message] of cases) expect((await call('book_reservation', booking(over)))).toMatchObject({ output: message, error: true });
    expect(env.changed()).toBe(false);
  });

  it('creates HATHAT, HATHAU, HATHAV, then fails with Too many reservations', async () => {
    const { call } = fixtureEnv();
    const cheap = booking({
      cabin: 'basic_economy',
      flights: [{ flight_number: 'HAT902', date: '2024-05-20' }],
      passengers: [pax('Ana')],
      payment_methods: [{ payment_id: 'credit_card_1', amount: 60 }],
      nonfree_baggages: 0,
      insurance: 'no',
    });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(json((await call('book_reservation', cheap)).output).reservation_id);
    expect(ids).toEqual(['HATHAT', 'HATHAU', 'HATHAV']);
    expect((await call('book_reservation', cheap)).output).toBe('Error: Too many reservations');
  });
});

describe('cancel_reservation', () => {
  it('refunds every payment entry, sets cancelled, releases no seats; a second cancel refunds again', async () => {
    const { env, call } = fixtureEnv();
    const r = json((await call('cancel_reservation', { reservation_id: 'RES001' })).output);
    expect(r.status).toBe('cancelled');
    expect(r.payment_history).toEqual([
      { payment_id: 'credit_card_1', amount: 380 },
      { payment_id: 'credit_card_1', amount: -380 },
    ]);
    expect(env.diff().map((d) => d.path).sort()).toEqual(['/reservations/RES001/payment_history/1', '/reservations/RES001/status']);
    const again = json((await call('cancel_reservation', { reservation_id: 'RES001' })).output);
    expect(again.payment_history.map((p: any) => p.amount)).toEqual([380, -380, -380, 380]);
    expect((await call('cancel_reservation', { reservation_id: 'NOPE00' })).output).toBe('Error: Reservation NOPE00 not found');
  });
});

describe('update_reservation_flights', () => {
  it('keeps the old price of unchanged segments in the same cabin (no payment when nothing changes)', async () => {
    const { env, call } = fixtureEnv();
    const r = json((await call('update_reservation_flights', { reservation_id: 'RES001', cabin: 'economy', flights: [{ flight_number: 'HAT901', date: '2024-05-20' }, { flight_number: 'HAT902', date: '2024-05-20' }], payment_id: 'credit_card_1' })).output);
    expect(r.flights.map((f: any) => f.price)).toEqual([80, 110]);
    expect(r.payment_history).toHaveLength(1);
    expect(env.changed()).toBe(false);
  });

  it('prices new segments now and charges the difference x passengers to a gift card', async () => {
    const { env, call } = fixtureEnv();
    const out = (await call('update_reservation_flights', {
      reservation_id: 'RES001',
      cabin: 'economy',
      flights: [{ flight_number: 'HAT901', date: '2024-05-20' }, { flight_number: 'HAT902', date: '2024-05-21' }],
      payment_id: 'gift_card_1',
    }));
    const r = json(out.output);
    expect(r.flights.map((f: any) => [f.flight_number, f.date, f.price])).toEqual([['HAT901', '2024-05-20', 80], ['HAT902', '2024-05-21', 130]]);
    expect(r.payment_history.at(-1)).toEqual({ payment_id: 'gift_card_1', amount: 40 });
    expect((env.state.get('users', 'ana_lee_1')!.payment_methods.gift_card_1 as any).amount).toBe(160);
    // no seat changes on flight updates
    expect(env.diff().filter((d) => d.path.startsWith('/flights'))).toEqual([]);
  });

  it('a cabin change reprices every segment; a downgrade refunds to the gift card', async () => {
    const { env, call } = fixtureEnv();
    const r = json((await call('update_reservation_flights', { reservation_id: 'RES001', cabin: 'basic_economy', flights: [{ flight_number: 'HAT901', date: '2024-05-20' }, { flight_number: 'HAT902', date: '2024-05-20' }], payment_id: 'gift_card_1' })).output);
    expect(r.cabin).toBe('basic_economy');
    expect(r.flights.map((f: any) => f.price)).toEqual([50, 60]);
    expect(r.payment_history.at(-1)).toEqual({ payment_id: 'gift_card_1', amount: -160 });
    expect(env.diff()).toContainEqual({ path: '/users/ana_lee_1/payment_methods/gift_card_1/amount', op: 'replace', before: 200, after: 360 });
  });

  it('payment and availability errors', async () => {
    const { env, call } = fixtureEnv();
    const up = async (cabin: string, payment_id: string, second = { flight_number: 'HAT902', date: '2024-05-21' }) =>
      (await call('update_reservation_flights', { reservation_id: 'RES001', cabin, flights: [{ flight_number: 'HAT901', date: '2024-05-20' }, second], payment_id })).output;
    expect((await up('business', 'gift_card_1'))).toBe('Error: Gift card balance is not enough');
    expect((await up('business', 'certificate_1'))).toBe('Error: Certificate cannot be used to update reservation');
    expect((await up('business', 'paypal_1'))).toBe('Error: Payment method not found');
    expect((await up('economy', 'credit_card_1', { flight_number: 'HAT904', date: '2024-05-20' }))).toBe('Error: Not enough seats on flight HAT904');
    expect((await up('economy', 'credit_card_1', { flight_number: 'HAT904', date: '2024-05-21' }))).toBe('Error: Flight HAT904 not available on date 2024-05-21');
    expect(env.changed()).toBe(false);
    const ok = json((await up('business', 'credit_card_1')));
    expect(ok.payment_history.at(-1)).toEqual({ payment_id: 'credit_card_1', amount: (300 + 410) * 2 - (80 + 110) * 2 });
  });
});

describe('update_reservation_baggages / passengers, send_certificate', () => {
  it('charges $50 per added non-free bag; lowering bags is allowed and free', async () => {
    const { call } = fixtureEnv();
    const r = json((await call('update_reservation_baggages', { reservation_id: 'RES001', total_baggages: 3, nonfree_baggages: 2, payment_id: 'credit_card_1' })).output);
    expect(r.payment_history.at(-1)).toEqual({ payment_id: 'credit_card_1', amount: 100 });
    const r2 = json((await call('update_reservation_baggages', { reservation_id: 'RES001', total_baggages: 0, nonfree_baggages: 0, payment_id: 'credit_card_1' })).output);
    expect([r2.total_baggages, r2.nonfree_baggages, r2.payment_history.length]).toEqual([0, 0, 2]);
  });

  it('passenger count can never change', async () => {
    const { call } = fixtureEnv();
    expect((await call('update_reservation_passengers', { reservation_id: 'RES001', passengers: [pax('Solo')] })).output).toBe('Error: Number of passengers does not match');
    const r = json((await call('update_reservation_passengers', { reservation_id: 'RES001', passengers: [pax('Cy'), { dob: '2000-01-01', last_name: 'Wu', first_name: 'Di' }] })).output);
    expect(r.passengers[1]).toEqual({ first_name: 'Di', last_name: 'Wu', dob: '2000-01-01' });
  });

  it('certificates get ids 3221322..3221324 and float amounts', async () => {
    const { call } = fixtureEnv();
    expect((await call('send_certificate', { user_id: 'ana_lee_1', amount: 150 })).output).toBe('Certificate certificate_3221322 added to user ana_lee_1 with amount 150.');
    expect((await call('send_certificate', { user_id: 'ana_lee_1', amount: 12.5 })).output).toBe('Certificate certificate_3221323 added to user ana_lee_1 with amount 12.5.');
    expect((await call('get_user_details', { user_id: 'ana_lee_1' })).output).toContain('"certificate_3221322": {"source": "certificate", "id": "certificate_3221322", "amount": 150.0}');
    (await call('send_certificate', { user_id: 'ana_lee_1', amount: 50 }));
    expect((await call('send_certificate', { user_id: 'ana_lee_1', amount: 50 })).output).toBe('Error: Too many certificates');
  });
});

describe('generic tools and call handling', () => {
  it('calculate follows Python: float result rounded to 2 places, ties to even', async () => {
    expect(pyCalculate('2 * ((350 - 122) + (499 - 127))')).toBe('1200.0');
    expect(pyCalculate('10 / 3')).toBe('3.33');
    expect(pyCalculate('0.125 + 0')).toBe('0.12');
    expect(pyCalculate('2 ** 3 - -1')).toBe('9.0');
    expect(pyCalculate('-2 ** 2')).toBe('-4.0');
    expect(pyCalculate('7 // 2')).toBe('3.0');
    expect(pyRound2(2.675)).toBe(2.67); // binary value is below the tie
    const { call } = fixtureEnv();
    expect((await call('calculate', { expression: '1/0' })).output).toBe('Error: division by zero');
    expect((await call('calculate', { expression: 'abs(1)' })).output).toBe('Error: Invalid characters in expression');
    expect((await call('transfer_to_human_agents', { summary: 'x' }))).toMatchObject({ output: 'Transfer successful', error: false, mutating: false });
    expect((await call('no_such_tool', {})).output).toBe("Error: Tool 'no_such_tool' not found.");
  });
});

describe('DB hash', () => {
  const naive = (env: ReturnType<typeof fixtureEnv>['env']) =>
    createHash('sha256').update(pyDumps(env.state.materialize(), { sortKeys: true, ensureAscii: true, types: AIRLINE_DB_TYPES })).digest('hex');

  it('equals sha256 of the Python-style dump of the whole DB, before and after writes', async () => {
    const { env, call } = fixtureEnv();
    expect(env.stateHash()).toBe(naive(env));
    const pristine = env.stateHash();
    (await call('book_reservation', booking()));
    expect(env.stateHash()).toBe(naive(env));
    expect(env.stateHash()).not.toBe(pristine);
    (await call('send_certificate', { user_id: 'ana_lee_1', amount: 10 }));
    (await call('cancel_reservation', { reservation_id: 'RES001' }));
    expect(env.stateHash()).toBe(naive(env));
    expect(airlineDbHash(env.state)).toBe(naive(env));
  });
});

describe('initial state (tau2 initialization_data)', () => {
  it('deep-merges agent_data into records (lists replaced) and validates them', async () => {
    const { applyAirlineInitialState } = await import('../../../src/domains/airline/index.js');
    const { env } = fixtureEnv();
    const s = applyAirlineInitialState(env.state.branch(), {
      agent_data: {
        reservations: { RES001: { insurance: 'yes', passengers: [pax('Solo')] } },
        users: { ana_lee_1: { payment_methods: { gift_card_1: { amount: 5 } } } },
      },
    });
    expect(s.get('reservations', 'RES001')!.insurance).toBe('yes');
    expect(s.get('reservations', 'RES001')!.passengers).toEqual([pax('Solo')]);
    expect(s.get('users', 'ana_lee_1')!.payment_methods.gift_card_1).toEqual({ source: 'gift_card', id: 'gift_card_1', amount: 5 });
    expect(env.state.get('reservations', 'RES001')!.insurance).toBe('no');
    expect(() => applyAirlineInitialState(env.state.branch(), { agent_data: { airports: {} } })).toThrow(
      "initial_state.initialization_data at $.agent_data.airports: unknown table 'airports'",
    );
    expect(() => applyAirlineInitialState(env.state.branch(), { agent_data: { reservations: { RES001: { cabin: 'first' } } } })).toThrow(
      'initial_state.initialization_data at $.agent_data.reservations.RES001.cabin:',
    );
    expect(() => applyAirlineInitialState(env.state.branch(), { user_data: {} })).toThrow('no user-side DB');
  });
});

describe('tool schemas', () => {
  it('integers export as plain {"type": "integer"}; fractional amounts are rejected', async () => {
    const { parametersJsonSchema } = await import('../../../src/env/wire-tools.js');
    const book = airlineTau2Tools().find((t) => t.name === 'book_reservation')!;
    const schema = parametersJsonSchema(book) as any;
    expect(schema.properties.total_baggages).toEqual({ type: 'integer', description: 'Total number of checked bags on the reservation.' });
    expect(schema.required).toContain('payment_methods');
    const { call, env } = fixtureEnv();
    const r = (await call('book_reservation', booking({ nonfree_baggages: 1.5 })));
    expect(r.error).toBe(true);
    expect(r.output).toContain('nonfree_baggages: Invalid input: expected an integer');
    expect(env.changed()).toBe(false);
  });
});

describe('options for datasets with their own calendar', () => {
  it('nextDay: tau2 quirk by default, real calendar on request', async () => {
    const { nextDay } = await import('../../../src/domains/airline/tools-read.js');
    expect(nextDay('2024-05-09', 'tau2')).toBe('2024-05-10');
    expect(nextDay('2026-10-31', 'tau2')).toBe('2024-05-32');
    expect(nextDay('2026-10-31', 'calendar')).toBe('2026-11-01');
    expect(nextDay('2024-05-01', 'calendar')).toBe('2024-05-02');
  });
});
