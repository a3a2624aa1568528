/**
 * servicegym's own hotel dataset, generated reproducibly: three Larkspur properties, five rate
 * plans, nightly rates for October and November 2026 (weekday/weekend, non-round cents), hundreds of
 * guest profiles (namesakes, several cards, several stays) and their reservations in every status.
 * The task records are laid over it by `seed-records.ts`; generated ids never collide with them.
 */
import { Rng } from '../../../util/rng.js';
import { nightTaxCents, stayDates } from '../rules.js';
import type { Guest, NightlyRate, Property, RatePlan, Reservation } from '../schema.js';
import { TAX_BP } from './seed-records.js';

/** The dataset's "now" (US Pacific): 36 hours before seed task T09's arrival. */
export const SERVICEGYM_HOTEL_NOW = '2026-10-19T03:00:00';

const ROOMS = { KING: { name: 'King room', max_occupancy: 2 }, QQ: { name: 'Two queens', max_occupancy: 4 }, STE: { name: 'Suite', max_occupancy: 4 } };

/** The three properties. */
export function hotelProperties(): Record<string, Property> {
  const p = (property_id: string, name: string, city: string): Property => ({ property_id, name, city, check_in_time: '15:00', tax_bp: TAX_BP[property_id], room_types: structuredClone(ROOMS) });
  return {
    'LH-SEA': p('LH-SEA', 'Larkspur Seattle Waterfront', 'Seattle'),
    'LH-PDX': p('LH-PDX', 'Larkspur Portland Pearl', 'Portland'),
    'LH-SFO': p('LH-SFO', 'Larkspur San Francisco Union Square', 'San Francisco'),
  };
}

/** The five rate plans (policy section 3). */
export function hotelRatePlans(): Record<string, RatePlan> {
  const plan = (rate_plan_id: string, name: string, prepaid: boolean, free_until_hours: number, penalty: RatePlan['change_rule']['penalty'], changeable = true): RatePlan => ({ rate_plan_id, name, prepaid, change_rule: { free_until_hours, penalty, changeable } });
  return {
    'FLEX-PP': plan('FLEX-PP', 'Flexible Prepaid', true, 48, 'first_night'),
    'MEM-FLEX': plan('MEM-FLEX', 'Member Flexible', true, 60, 'first_night'),
    'SEMI-PP': plan('SEMI-PP', 'Semi-Flexible Prepaid', true, 72, 'half_removed'),
    'FLEX-PH': plan('FLEX-PH', 'Flexible Pay at Hotel', false, 24, 'first_night'),
    'ADV-NR': plan('ADV-NR', 'Advance Purchase', true, 8_760, 'all_removed', false),
  };
}

const BASE: Record<string, number> = { 'LH-SEA': 21_900, 'LH-PDX': 18_900, 'LH-SFO': 26_900 };
const ROOM_UP: Record<string, number> = { KING: 0, QQ: 1_500, STE: 19_000 };
const PLAN_FACTOR: Record<string, number> = { 'FLEX-PP': 1, 'MEM-FLEX': 0.95, 'SEMI-PP': 0.92, 'FLEX-PH': 1.05, 'ADV-NR': 0.85 };

/** Nightly rates 2026-10-01..2026-11-30 for every property, room type and plan. */
function makeRates(rng: Rng): Record<string, NightlyRate> {
  const out: Record<string, NightlyRate> = {};
  const dates = stayDates('2026-10-01', '2026-12-01');
  for (const property_id of Object.keys(BASE)) for (const room_type of Object.keys(ROOMS)) for (const rate_plan_id of Object.keys(PLAN_FACTOR)) {
    for (const date of dates) {
      const dow = new Date(`${date}T00:00:00Z`).getUTCDay();
      const weekend = dow === 5 || dow === 6 ? 3_000 : 0;
      const cents = Math.round((BASE[property_id] + ROOM_UP[room_type] + weekend) * PLAN_FACTOR[rate_plan_id]) + rng.pick([0, 49, 99, -1, 50]);
      out[`${property_id}|${room_type}|${rate_plan_id}|${date}`] = { property_id, room_type, rate_plan_id, date, rate_cents: cents, rooms_left: rng.int(0, 9) };
    }
  }
  return out;
}

const FIRST = ['Emma', 'James', 'Olivia', 'Noah', 'Ava', 'Liam', 'Mia', 'Lucas', 'Sofia', 'Ethan', 'Aiko', 'Ravi', 'Chen', 'Fatou', 'Marta', 'Diego'];
const LAST = ['Wu', 'Park', 'Garcia', 'Smith', 'Nguyen', 'Khan', 'Rossi', 'Brown', 'Lee', 'Silva', 'Cohen', 'Ito'];

/**
 * Generates guests and their reservations (same seed, same data). Guest ids `<first>_<last>_2000+i`;
 * reservation ids `H-7xxxx`; payment ids `pm_<guest index>_<n>`.
 */
export function generateHotel(seed = 2026, guests = 420): { guests: Record<string, Guest>; reservations: Record<string, Reservation>; rates: Record<string, NightlyRate> } {
  const rng = new Rng(seed);
  const rates = makeRates(rng);
  const out = { guests: {} as Record<string, Guest>, reservations: {} as Record<string, Reservation>, rates };
  const plans = Object.keys(PLAN_FACTOR);
  let resNo = 70_000;
  for (let i = 0; i < guests; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const id = `${first.toLowerCase()}_${last.toLowerCase()}_${2000 + i}`;
    const cards = Array.from({ length: rng.int(1, 3) }, (_, k) => ({ payment_id: `pm_${i}_${k + 1}`, brand: rng.pick(['Visa', 'Mastercard', 'Amex'] as const), last4: String(rng.int(1000, 9999)) }));
    const guest: Guest = { guest_id: id, first_name: first, last_name: last, email: `${first.toLowerCase()}.${last.toLowerCase()}${2000 + i}@example.net`, phone: `${rng.pick(['206', '503', '415', '650'])}-555-${String(rng.int(1000, 9999))}`, loyalty_tier: rng.pick(['Member', 'Member', 'Silver', 'Gold'] as const), cards, reservation_ids: [] };
    for (let k = rng.int(0, 4); k > 0; k--) {
      const property_id = rng.pick(Object.keys(BASE));
      const room_type = rng.pick(Object.keys(ROOMS));
      const rate_plan_id = rng.pick(plans);
      const checkIn = stayDates('2026-10-01', '2026-11-26')[rng.int(0, 55)];
      const checkOut = stayDates(checkIn, '2026-12-01')[rng.int(1, 4)];
      const nights = stayDates(checkIn, checkOut).map((date) => {
        const r = rates[`${property_id}|${room_type}|${rate_plan_id}|${date}`];
        return { date, rate_cents: r.rate_cents, tax_cents: nightTaxCents(r.rate_cents, TAX_BP[property_id]) };
      });
      const total = nights.reduce((a, n) => a + n.rate_cents + n.tax_cents, 0);
      const prepaid = rate_plan_id !== 'FLEX-PH';
      const status: Reservation['status'] = checkOut <= '2026-10-19' ? 'checked_out' : checkIn <= '2026-10-18' ? 'checked_in' : rng.chance(0.1) ? 'cancelled' : 'confirmed';
      const reservation_id = `H-${++resNo}`;
      const payments: Reservation['payments'] = prepaid || status === 'checked_out' ? [{ payment_id: rng.pick(cards).payment_id, kind: 'charge', amount_cents: total, at: '2026-09-15T10:00:00' }] : [];
      const kept = status === 'cancelled' ? [] : nights;
      const keptTotal = kept.reduce((a, n) => a + n.rate_cents + n.tax_cents, 0);
      if (status === 'cancelled' && payments.length) payments.push({ payment_id: payments[0].payment_id, kind: 'refund', amount_cents: total, at: '2026-09-20T10:00:00' });
      const paid = payments.reduce((a, p) => a + (p.kind === 'charge' ? p.amount_cents : -p.amount_cents), 0);
      out.reservations[reservation_id] = { reservation_id, guest_id: id, property_id, room_type, rate_plan_id, check_in: checkIn, check_out: checkOut, adults: rng.int(1, 2), status, nights: kept, charges: [], payments, total_cents: keptTotal, balance_cents: paid - keptTotal };
      guest.reservation_ids.push(reservation_id);
    }
    out.guests[id] = guest;
  }
  return out;
}
