/**
 * servicegym's own airline and retail datasets (issue 10, item 7): tau2's scale or more, generated
 * deterministically in the schema's normalised form, namesakes and shared zips, several orders or
 * reservations per seed customer, a decoy in every seed task that the oracle never touches,
 * non-round prices, and T02's gold path paying a bag fee.
 */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { runDomainTasks } from '../../src/run/task-run.js';
import { parseAirlineDb } from '../../src/domains/airline/load.js';
import { parseRetailDb } from '../../src/domains/retail/load.js';
import { servicegymAirlineDb } from '../../src/domains/airline/servicegym-dataset.js';
import { servicegymRetailDb } from '../../src/domains/retail/servicegym-dataset.js';
import { generateAirlineDb } from '../../src/domains/airline/data/generate.js';
import { generateRetailDb } from '../../src/domains/retail/data/generate.js';
import { AIRLINE_SEED_DECOYS } from '../../src/domains/airline/data/seed-records.js';
import { RETAIL_SEED_DECOYS } from '../../src/domains/retail/data/seed-records.js';
import { ORDER_STATUSES } from '../../src/domains/retail/schema.js';
import type { Task } from '../../src/spec/task.js';

type Json = Record<string, any>;

const airlineDb = servicegymAirlineDb() as unknown as Json;
const retailDb = servicegymRetailDb() as unknown as Json;
const count = (o: object) => Object.keys(o).length;
const vals = (o: Json) => Object.values(o) as Json[];

const AIRLINE_CUSTOMERS = ['mia_lee_301', 'raj_patel_118', 'ana_gomez_442', 'ivan_novak_908', 'helen_park_150'];
const RETAIL_CUSTOMERS = ['noah_kim_2207', 'olivia_chen_9022', 'liam_ortiz_5531', 'grace_li_6610', 'ethan_ward_3380'];

describe('scale (at least tau2-bench: airline 300 flights, 500 users, 2,000 reservations; retail 50 products, 500 users, 1,000 orders)', () => {
  it('airline: >= 300 flights over every day of October 2026, >= 500 users, >= 2,000 reservations', () => {
    expect(count(airlineDb.flights)).toBeGreaterThanOrEqual(300);
    expect(count(airlineDb.users)).toBeGreaterThanOrEqual(500);
    expect(count(airlineDb.reservations)).toBeGreaterThanOrEqual(2000);
    for (const f of vals(airlineDb.flights)) expect(Object.keys(f.dates)).toHaveLength(31);
    expect(Object.keys(vals(airlineDb.flights)[0].dates)[0]).toBe('2026-10-01');
  });

  it('airline reservations: round trips, connections, several passengers, split payments, cancellations, every cabin', () => {
    const rs = vals(airlineDb.reservations);
    const share = (p: (r: Json) => boolean) => rs.filter(p).length / rs.length;
    expect(share((r) => r.flight_type === 'round_trip')).toBeGreaterThan(0.3);
    // A connection: more segments than directions (one-way with 2 legs, or a round trip with 3 or 4).
    expect(share((r) => r.flights.length > (r.flight_type === 'round_trip' ? 2 : 1))).toBeGreaterThan(0.15);
    expect(share((r) => r.passengers.length >= 3)).toBeGreaterThan(0.15);
    expect(share((r) => r.payment_history.length >= 2)).toBeGreaterThan(0.2);
    expect(share((r) => r.payment_history.some((p: Json) => p.payment_id.startsWith('certificate_')))).toBeGreaterThan(0.05);
    expect(share((r) => r.payment_history.some((p: Json) => p.payment_id.startsWith('gift_card_')))).toBeGreaterThan(0.05);
    expect(share((r) => r.status === 'cancelled')).toBeGreaterThan(0.01);
    expect(new Set(rs.map((r) => r.cabin))).toEqual(new Set(['basic_economy', 'economy', 'business']));
    // Every segment follows the previous one's arrival airport within a direction.
    for (const r of rs) {
      expect(r.flights[0].origin).toBe(r.origin);
      for (const s of r.flights) expect(airlineDb.flights[s.flight_number]).toMatchObject({ origin: s.origin, destination: s.destination });
    }
  });

  it('airline payments add up: fares x passengers + $30 insurance each + $50 per non-free bag (booking plus later bags)', () => {
    for (const r of vals(airlineDb.reservations)) {
      if (r.status === 'cancelled' || AIRLINE_CUSTOMERS.includes(r.user_id)) continue;
      const paid = r.payment_history.reduce((s: number, p: Json) => s + p.amount, 0);
      const fares = r.flights.reduce((s: number, f: Json) => s + f.price, 0) * r.passengers.length;
      const insurance = r.insurance === 'yes' ? 30 * r.passengers.length : 0;
      expect(paid).toBe(fares + insurance + 50 * r.nonfree_baggages);
    }
  });

  it('retail: >= 50 products with variants, >= 500 users, >= 1,000 orders in every status tau2 knows', () => {
    const products = vals(retailDb.products);
    expect(products.length).toBeGreaterThanOrEqual(50);
    expect(products.filter((p) => count(p.variants) >= 2).length).toBeGreaterThanOrEqual(50);
    expect(count(retailDb.users)).toBeGreaterThanOrEqual(500);
    expect(count(retailDb.orders)).toBeGreaterThanOrEqual(1000);
    const statuses = new Set(vals(retailDb.orders).map((o) => o.status));
    expect(statuses).toEqual(new Set(ORDER_STATUSES.filter((s) => s !== 'exchange and return requested')));
  });
});

describe('built deterministically in the schema-normalised form', () => {
  it('the schema leaves both DBs unchanged (key order, nulls), so start-up needs no schema pass', () => {
    expect(JSON.stringify(parseAirlineDb(JSON.parse(JSON.stringify(airlineDb))))).toBe(JSON.stringify(airlineDb));
    expect(JSON.stringify(parseRetailDb(JSON.parse(JSON.stringify(retailDb))))).toBe(JSON.stringify(retailDb));
  });

  it('same seed, same bytes; another seed, another DB', () => {
    expect(JSON.stringify(servicegymAirlineDb())).toBe(JSON.stringify(airlineDb));
    expect(JSON.stringify(servicegymRetailDb())).toBe(JSON.stringify(retailDb));
    expect(JSON.stringify(generateAirlineDb(7).reservations)).not.toBe(JSON.stringify(generateAirlineDb(2026).reservations));
    expect(JSON.stringify(generateRetailDb(7).orders)).not.toBe(JSON.stringify(generateRetailDb(2027).orders));
  });
});

describe('prices to the cent, not round', () => {
  it('retail: every generated variant price has cents that are not .00 or .50', () => {
    const generated = vals(retailDb.products).filter((p) => p.product_id.startsWith('53'));
    const prices = generated.flatMap((p) => vals(p.variants).map((v: Json) => Math.round(v.price * 100)));
    expect(prices.length).toBeGreaterThan(300);
    expect(prices.filter((c) => c % 50 === 0)).toEqual([]);
  });

  it('airline: fares are whole dollars (tau2 keeps them as integers) but rarely multiples of $10; gift cards carry cents', () => {
    const fares = vals(airlineDb.flights).flatMap((f) => vals(f.dates).flatMap((d: Json) => (d.prices ? Object.values(d.prices) : []))) as number[];
    expect(fares.every(Number.isInteger)).toBe(true);
    expect(fares.filter((x) => x % 10 === 0).length / fares.length).toBeLessThan(0.15);
    const gifts = vals(airlineDb.users).flatMap((u) => vals(u.payment_methods).filter((m: Json) => m.source === 'gift_card')) as Json[];
    expect(gifts.filter((g) => !Number.isInteger(g.amount)).length / gifts.length).toBeGreaterThan(0.8);
  });
});

/** Checks namesakes, zip sharing and several bookings for each seed customer of a DB. */
function expectCustomerCrowd(db: Json, customers: string[], bookings: 'reservations' | 'orders'): void {
  const users = vals(db.users) as Json[];
  const sameName = (a: Json, b: Json) => a.name.first_name === b.name.first_name && a.name.last_name === b.name.last_name;
  for (const id of customers) {
    const me = db.users[id];
    const namesakes = users.filter((u) => u.user_id !== id && sameName(u, me));
    expect(namesakes.length, `${id} has a namesake`).toBeGreaterThanOrEqual(1);
    for (const n of namesakes) {
      // A namesake never shares the zip, so a name + zip lookup stays unambiguous.
      expect(n.address.zip, `${n.user_id} vs ${id}`).not.toBe(me.address.zip);
      if (me.dob) expect(n.dob).not.toBe(me.dob);
    }
    expect(users.filter((u) => u.user_id !== id && u.address.zip === me.address.zip).length, `${id} shares its zip`).toBeGreaterThanOrEqual(3);
    expect(me[bookings].length, `${id} has several ${bookings}`).toBeGreaterThanOrEqual(2);
  }
  const names = new Map<string, number>();
  for (const u of users) names.set(`${u.name.first_name} ${u.name.last_name}`, (names.get(`${u.name.first_name} ${u.name.last_name}`) ?? 0) + 1);
  expect([...names.values()].filter((n) => n > 1).length).toBeGreaterThan(50);
}

describe('namesakes, shared zips, several bookings per seed customer', () => {
  it('airline', () => expectCustomerCrowd(airlineDb, AIRLINE_CUSTOMERS, 'reservations'));
  it('retail', () => expectCustomerCrowd(retailDb, RETAIL_CUSTOMERS, 'orders'));
});

/** The value at a DB path `/table/id/...` (ids hold no `/`). */
function at(get: (table: string, id: string) => unknown, path: string): unknown {
  const [table, id, ...rest] = path.slice(1).split('/');
  return rest.reduce((v: any, k) => v?.[k], get(table, id));
}

/** The gold actions' arguments named `key`. */
const goldArgs = (t: Task, key: string) => (t.evaluation_criteria?.actions ?? []).map((a) => (a.arguments as Json)[key]).filter((x) => x !== undefined);

/** Asserts that an airline decoy looks like the task's records: its customer's, on the same flight or route; or a namesake. */
function expectAirlineLookalike(db: Json, t: Task, path: string): void {
  const customer = goldArgs(t, 'user_id')[0] as string;
  const rec = at((tb, id) => db[tb][id], path) as Json;
  if (path.startsWith('/users/')) {
    expect(rec.user_id).not.toBe(customer);
    expect(rec.name).toEqual(db.users[customer].name);
    return;
  }
  expect(rec.user_id).toBe(customer);
  expect(goldArgs(t, 'reservation_id')).not.toContain(rec.reservation_id);
  const gold = goldArgs(t, 'reservation_id').map((id) => db.reservations[id as string]);
  const legs = (r: Json) => r.flights.map((f: Json) => `${f.flight_number} ${f.origin}-${f.destination}`);
  const routes = (r: Json) => r.flights.map((f: Json) => f.origin);
  const similar = gold.some((g) => legs(rec).some((l: string) => legs(g).includes(l)) || routes(rec)[0] === routes(g)[0]);
  expect(similar, `${path} looks like a reservation of ${t.id}`).toBe(true);
}

/** Asserts that a retail decoy looks like the task's records: an order with the same product, a namesake, or a one-option-off variant. */
function expectRetailLookalike(db: Json, t: Task, path: string): void {
  const order = db.orders[goldArgs(t, 'order_id')[0] as string];
  const customer = db.users[order.user_id];
  const rec = at((tb, id) => db[tb][id], path) as Json;
  if (path.startsWith('/users/')) {
    expect(rec.user_id).not.toBe(customer.user_id);
    expect(rec.name).toEqual(customer.name);
  } else if (path.startsWith('/orders/')) {
    expect(rec.order_id).not.toBe(order.order_id);
    expect(db.users[rec.user_id].name).toEqual(customer.name);
    const products = new Set(order.items.map((i: Json) => i.product_id));
    expect(rec.items.some((i: Json) => products.has(i.product_id)), `${path} holds a product of ${order.order_id}`).toBe(true);
  } else {
    const [, , productId] = path.split('/');
    const wanted = [...goldArgs(t, 'new_item_ids')].flat() as string[];
    const target = wanted.map((id) => db.products[productId].variants[id]).find(Boolean);
    const differing = Object.keys(target.options).filter((k) => target.options[k] !== rec.options[k]);
    expect(differing, `${path} differs from the gold variant in one option`).toHaveLength(1);
  }
}

describe('a decoy in every seed task, untouched by the oracle', () => {
  for (const [domain, decoys, lookalike] of [
    ['airline', AIRLINE_SEED_DECOYS, expectAirlineLookalike],
    ['retail', RETAIL_SEED_DECOYS, expectRetailLookalike],
  ] as const) {
    it(`${domain}: every task names decoys that exist, look like its records and keep their value after the oracle's run`, async () => {
      const loaded = loadDomain(domain);
      const db = domain === 'airline' ? airlineDb : retailDb;
      expect(Object.keys(decoys).sort()).toEqual(loaded.tasks.map((t) => t.id).sort());
      const result = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: `decoys-${domain}` });
      const initial = loaded.domain.initialState();
      for (const r of result.records) {
        expect(r.evaluation?.reward, r.taskId).toBe(1);
        const task = loaded.tasks.find((t) => t.id === r.taskId)!;
        for (const path of decoys[r.taskId]) {
          const before = at((tb, id) => initial.get(tb, id), path);
          expect(before, `${r.taskId} ${path} exists`).toBeDefined();
          lookalike(db, task, path);
          expect(at((tb, id) => r.episode.finalState.get(tb, id), path), `${r.taskId} ${path} untouched`).toEqual(before);
        }
      }
    });
  }
});

describe('T02: the gold path pays a bag fee', () => {
  it('6 bags, 2 above the business allowance of a regular member with 2 passengers: $100 on the gift card, $1402 in all', async () => {
    const loaded = loadDomain('airline');
    const task = loaded.tasks.find((t) => t.id === 'T02')!;
    expect(task.evaluation_criteria?.actions?.find((a) => a.name === 'update_reservation_baggages')?.arguments).toEqual({
      reservation_id: 'Q7M4LT', total_baggages: 6, nonfree_baggages: 2, payment_id: 'gift_card_1180002',
    });
    const { records } = await runDomainTasks({ loaded, tasks: [task], trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: 't02-bags' });
    const final = records[0].episode.finalState;
    const history = final.get('reservations', 'Q7M4LT').payment_history as Json[];
    expect(history).toEqual([
      { payment_id: 'credit_card_1180001', amount: 718 },
      { payment_id: 'gift_card_1180002', amount: 1302 },
      { payment_id: 'gift_card_1180002', amount: 100 },
    ]);
    expect(final.get('users', 'raj_patel_118').payment_methods.gift_card_1180002.amount).toBe(248.75);
    expect(airlineDb.users.raj_patel_118.payment_methods.gift_card_1180002.amount - 248.75).toBe(1402);
  });
});
