/**
 * servicegym's own auto-insurance dataset, generated reproducibly: policyholders with namesakes
 * and shared ZIP codes, one or two six-month policies each, one to three vehicles with
 * per-coverage premiums in non-round cents, household drivers and past endorsements. Task records
 * are laid over it by `seed-records.ts`; generated ids (`AP-1xxxx`) never collide with them.
 */
import { Rng } from '../../../util/rng.js';
import type { Driver, Holder, Policy, Vehicle } from '../schema.js';

/** The dataset's "now" (US Central). */
export const SERVICEGYM_INSURANCE_NOW = '2026-10-14T10:00:00';

const FIRST = ['Carlos', 'Maria', 'John', 'Aisha', 'Wei', 'Grace', 'Omar', 'Julia', 'Henry', 'Rosa', 'Kevin', 'Paula', 'Nathan', 'Ivan', 'Ruth', 'Alan'];
const LAST = ['Diaz', 'Lopez', 'Smith', 'Khan', 'Chen', 'Okoye', 'Said', 'Berg', 'Walsh', 'Lima', 'Tran', 'Fisher', 'Cole', 'Petrov'];
const ZIPS = ['60614', '55406', '53703', '33133', '95112', '80211', '02139', '48126', '97214', '19103', '30306', '78704', '85016', '77002'];
const CARS: [make: string, model: string][] = [['Honda', 'Civic'], ['Toyota', 'Camry'], ['Ford', 'Escape'], ['Subaru', 'Forester'], ['Tesla', 'Model 3'], ['Jeep', 'Wrangler'], ['Kia', 'Soul'], ['BMW', 'X3']];
const COVER = { liability: '100/300/100', collision: '$500 deductible', comprehensive: '$250 deductible', uninsured_motorist: '100/300' };

const pad = (n: number) => String(n).padStart(2, '0');
const isoDay = (rng: Rng, y0: number, y1: number) => `${rng.int(y0, y1)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
const addMonths = (date: string, months: number) => {
  const [y, m, d] = date.split('-').map(Number);
  const t = y * 12 + (m - 1) + months;
  return `${Math.floor(t / 12)}-${pad((t % 12) + 1)}-${pad(d)}`;
};

/** Generates holders and policies (same seed, same data). */
export function generateInsurance(seed = 2026, holders = 400): { holders: Record<string, Holder>; policies: Record<string, Policy> } {
  const rng = new Rng(seed);
  const out = { holders: {} as Record<string, Holder>, policies: {} as Record<string, Policy> };
  let policyNo = 10_000;
  for (let i = 0; i < holders; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const id = `${first.toLowerCase()}_${last.toLowerCase()}_${3000 + i}`;
    const dob = isoDay(rng, 1950, 1998);
    const holder: Holder = { customer_id: id, first_name: first, last_name: last, date_of_birth: dob, zip: rng.pick(ZIPS), phone: `${rng.int(201, 989)}-555-${String(rng.int(1000, 9999))}`, email: `${first.toLowerCase()}.${last.toLowerCase()}${3000 + i}@example.org`, policy_ids: [] };
    for (let k = rng.chance(0.2) ? 2 : 1; k > 0; k--) {
      const policy_id = `AP-${++policyNo}`;
      const start = `2026-${pad(rng.int(5, 10))}-${pad(rng.int(1, 28))}`;
      const vehicles: Vehicle[] = Array.from({ length: rng.int(1, 3) }, (_, v) => {
        const [make, model] = rng.pick(CARS);
        const premiums: Vehicle['premiums'] = { liability: rng.int(28_000, 52_000), collision: rng.int(14_000, 36_000), comprehensive: rng.int(5_000, 14_000) };
        if (rng.chance(0.5)) premiums.uninsured_motorist = rng.int(4_000, 8_000);
        return { vehicle_id: `VEH-${policyNo}-${v + 1}`, year: rng.int(2008, 2025), make, model, premiums };
      });
      const drivers: Driver[] = [{ driver_id: `${policy_id}-D1`, first_name: first, last_name: last, date_of_birth: dob, relationship: 'named_insured', licence_status: 'licensed', licence_date: `${Number(dob.slice(0, 4)) + 17}${dob.slice(4)}`, effective_date: start, removed_date: null }];
      if (rng.chance(0.5)) drivers.push({ driver_id: `${policy_id}-D2`, first_name: rng.pick(FIRST), last_name: last, date_of_birth: isoDay(rng, 1952, 2000), relationship: 'spouse', licence_status: 'licensed', licence_date: isoDay(rng, 1970, 2018), effective_date: start, removed_date: null });
      if (rng.chance(0.25)) drivers.push({ driver_id: `${policy_id}-D${drivers.length + 1}`, first_name: rng.pick(FIRST), last_name: last, date_of_birth: isoDay(rng, 2005, 2009), relationship: 'child', licence_status: rng.pick(['permit', 'licensed'] as const), licence_date: isoDay(rng, 2023, 2025), effective_date: start, removed_date: null });
      const base = vehicles.reduce((s, v) => s + Object.values(v.premiums).reduce((a, b) => a + b, 0), 0);
      out.policies[policy_id] = { policy_id, customer_id: id, status: rng.chance(0.05) ? 'cancelled' : 'active', term_start: start, term_end: addMonths(start, 6), coverages: { ...COVER }, vehicles, drivers, endorsements: [], term_premium_cents: base };
      holder.policy_ids.push(policy_id);
    }
    out.holders[id] = holder;
  }
  return out;
}
