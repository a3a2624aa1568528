/** The hotel back-end: dataset scale and realism, and the reservation system's tools as an agent sees them. */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { Environment } from '../../../src/env/environment.js';
import type { HotelDb, HotelTables } from '../../../src/domains/hotel/index.js';

const loaded = loadDomain('hotel');
const newEnv = () => new Environment<HotelDb>(loaded.domain, { now: loaded.now!, idSeed: '' });
let n = 0;
const run = async (env: Environment<HotelDb>, name: string, args: unknown) => {
  const entry = await Promise.resolve(env.execute({ id: `c${n++}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }));
  return { ...entry, json: entry.error ? undefined : JSON.parse(entry.output) };
};

describe('the hotel dataset', () => {
  const db = (loaded.domain.initialState() as HotelDb).materialize() as HotelTables;
  it('is at realistic scale with namesakes, several cards and stays per guest', () => {
    expect(Object.keys(db.guests).length).toBeGreaterThanOrEqual(400);
    expect(Object.keys(db.reservations).length).toBeGreaterThanOrEqual(800);
    expect(Object.keys(db.rates).length).toBe(3 * 3 * 5 * 61 + 0);
    const names = Object.values(db.guests).map((g) => `${g.first_name} ${g.last_name}`);
    expect(names.length - new Set(names).size).toBeGreaterThan(100);
    expect(db.guests.emma_wu_819.cards).toHaveLength(2);
    expect(db.guests.emma_wu_819.reservation_ids).toEqual(['H-55102', 'H-55117']);
  });
  it('keeps every generated total and balance consistent with its folio', () => {
    for (const r of Object.values(db.reservations)) {
      const total = r.nights.reduce((s, x) => s + x.rate_cents + x.tax_cents, 0) + r.charges.reduce((s, c) => s + c.amount_cents, 0);
      expect(r.total_cents).toBe(total);
    }
  });
});

describe('hotel tools', () => {
  it('shortening keeps booked rates, releases inventory and leaves penalties to the agent', async () => {
    const env = newEnv();
    const before = env.state.get('rates', 'LH-SEA|KING|FLEX-PP|2026-10-22')!.rooms_left;
    const r = await run(env, 'change_stay_dates', { reservation_id: 'H-55102', check_in: '2026-10-20', check_out: '2026-10-22' });
    expect(r.json).toMatchObject({ check_out: '2026-10-22', total_cents: 50_260, balance_cents: 60_588, charges: [] });
    expect(env.state.get('rates', 'LH-SEA|KING|FLEX-PP|2026-10-22')!.rooms_left).toBe(before + 1);
    expect((await run(env, 'post_charge', { reservation_id: 'H-55102', code: 'EARLY_DEPARTURE', amount_cents: 28_573 })).json).toMatchObject({ total_cents: 78_833, balance_cents: 32_015, charges: [{ charge_id: 'H-55102-C1', description: 'Early departure penalty' }] });
    expect((await run(env, 'refund_payment', { reservation_id: 'H-55102', payment_id: 'card_8191', amount_cents: 40_000 })).output).toBe('Error: Refund of 40000 cents exceeds the balance owed to the guest (32015 cents)');
    expect((await run(env, 'refund_payment', { reservation_id: 'H-55102', payment_id: 'card_9999', amount_cents: 100 })).output).toBe('Error: Card card_9999 is not on file for guest emma_wu_819');
    expect((await run(env, 'refund_payment', { reservation_id: 'H-55102', payment_id: 'card_8191', amount_cents: 32_015 })).json.balance_cents).toBe(0);
  });
  it('refuses date changes on Advance Purchase and sold-out nights, and bad dates', async () => {
    const env = newEnv();
    expect((await run(env, 'change_stay_dates', { reservation_id: 'H-61402', check_in: '2026-10-23', check_out: '2026-10-24' })).output).toBe('Error: Rate plan ADV-NR (Advance Purchase) does not allow date changes');
    expect((await run(env, 'change_stay_dates', { reservation_id: 'H-55102', check_in: '2026-10-22', check_out: '2026-10-20' })).output).toBe('Error: check_out must be after check_in');
    expect((await run(env, 'check_availability', { property_id: 'LH-PDX', room_type: 'KING', rate_plan_id: 'FLEX-PP', check_in: '2026-10-24', check_out: '2026-10-25' })).json).toEqual([{ date: '2026-10-24', rate_cents: 23_450, rooms_left: 3 }]);
  });
  it('cancelling releases the nights and keeps only folio charges', async () => {
    const env = newEnv();
    expect((await run(env, 'cancel_reservation', { reservation_id: 'H-62301' })).json).toMatchObject({ status: 'cancelled', nights: [], total_cents: 0, balance_cents: 67_048 });
    expect((await run(env, 'cancel_reservation', { reservation_id: 'H-62301' })).output).toBe('Error: Reservation H-62301 is cancelled');
  });
});
