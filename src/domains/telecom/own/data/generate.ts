/**
 * servicegym's own telecom dataset, generated reproducibly from a seed: hundreds of customers
 * with one to three lines each (phones, tablets, watches), devices, three months of bills (some
 * September bills overdue, with lines suspended for non-payment), lines abroad with roaming on,
 * recent plan changes, device-payment contracts, top-ups and roaming passes already running.
 * Names repeat on purpose (namesakes). The records the tasks name are laid over it by
 * `seed-records.ts`; generated ids (4-digit customer suffixes, 6-digit line numbers) never
 * collide with theirs.
 */
import { Rng } from '../../../../util/rng.js';
import type { KestrelTables } from '../schema.js';
import { buildAccount, type LineSpec } from './accounts.js';
import { KESTREL_PASSES, KESTREL_PLANS } from './catalog.js';
import { addDays } from '../rules.js';

const FIRST = ['Zoe', 'Liam', 'Ava', 'Noah', 'Mia', 'Ethan', 'Sofia', 'Lucas', 'Chloe', 'Mateo', 'Aria', 'Omar', 'Nina', 'Ravi', 'Hana', 'Diego', 'Ines', 'Kofi', 'Lena', 'Tariq'];
const LAST = ['Adams', 'Nguyen', 'Okoro', 'Silva', 'Becker', 'Kaur', 'Moreau', 'Tanaka', 'Reyes', 'Novak', 'Haddad', 'Larsen', 'Walsh', 'Costa'];
const PLACES: [city: string, state: string, zip: string, area: string][] = [
  ['Portland', 'OR', '97214', '503'], ['Tucson', 'AZ', '85719', '520'], ['Raleigh', 'NC', '27601', '919'], ['Omaha', 'NE', '68102', '402'],
  ['Boise', 'ID', '83702', '208'], ['Richmond', 'VA', '23220', '804'], ['Madison', 'WI', '53703', '608'], ['Tampa', 'FL', '33602', '813'],
];
const STREETS = ['Alder St', 'Birch Ave', 'Harbor Rd', 'Mill Ln', 'Ridge Dr', 'Quarry St', 'Willow Way', 'Front St'];
const DEVICES: [type: 'phone' | 'tablet' | 'watch', make: string, model: string, esim: boolean][] = [
  ['phone', 'Pixel', 'Pixel 9', true], ['phone', 'Apple', 'iPhone 16', true], ['phone', 'Samsung', 'Galaxy S25', true], ['phone', 'Motorola', 'moto g 2025', false],
  ['tablet', 'Apple', 'iPad Air', true], ['tablet', 'Samsung', 'Galaxy Tab S10', false], ['watch', 'Apple', 'Watch Series 10', true],
];

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** The generated tables (the task records are added by the dataset loader). */
export function generateKestrel(seed = 2026, customers = 480): KestrelTables {
  const rng = new Rng(seed);
  const t: KestrelTables = {
    plans: Object.fromEntries(KESTREL_PLANS.map((p) => [p.plan_id, p])),
    roaming_passes: Object.fromEntries(KESTREL_PASSES.map((p) => [p.pass_id, p])),
    customers: {}, lines: {}, line_passes: {}, bills: {}, devices: {},
  };
  let lineNo = 100_000;
  const phones = new Set<string>();
  for (let i = 0; i < customers; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const place = rng.pick(PLACES);
    const num = 1000 + i;
    const overdue = rng.chance(0.08);
    const lines: LineSpec[] = [];
    for (let j = rng.int(1, 3); j > 0; j--) {
      const id = `L-${++lineNo}`;
      let phone: string;
      do phone = `${place[3]}-555-${pad(rng.int(1000, 9999), 4)}`;
      while (phones.has(phone));
      phones.add(phone);
      const dev = j === 1 || rng.chance(0.6) ? rng.pick(DEVICES.slice(0, 4)) : rng.pick(DEVICES);
      const plan = rng.pick(KESTREL_PLANS);
      const suspended = overdue && lines.length === 0 && rng.chance(0.7);
      lines.push({
        line_id: id,
        phone_number: phone,
        plan_id: plan.plan_id,
        status: suspended ? 'suspended' : rng.chance(0.02) ? 'closed' : 'active',
        suspension_reason: suspended ? 'non_payment' : null,
        suspended_on: suspended ? '2026-10-28' : null,
        roaming_enabled: rng.chance(0.25),
        data_used_mb: rng.int(0, plan.data_gb * 1024),
        topup_gb: rng.chance(0.1) ? rng.int(1, 3) : 0,
        last_plan_change_on: rng.chance(0.3) ? addDays('2026-11-11', -rng.int(0, 400)) : null,
        contract_end_on: rng.chance(0.35) ? addDays('2026-11-12', rng.int(-200, 700)) : null,
        device: { device_id: `D-${lineNo}`, make: dev[1], model: dev[2], imei: `35${pad(rng.int(0, 999_999), 6)}${pad(lineNo, 7)}`, esim_capable: dev[3] },
      });
    }
    const acct = buildAccount({
      customer_id: `${first.toLowerCase()}_${last.toLowerCase()}_${num}`,
      full_name: `${first} ${last}`,
      date_of_birth: addDays('1950-01-01', rng.int(0, 19_000)),
      email: `${first.toLowerCase()}.${last.toLowerCase()}${num}@example.com`,
      address: { street: `${rng.int(10, 9899)} ${rng.pick(STREETS)}`, city: place[0], state: place[1], zip: place[2] },
      customer_since: addDays('2012-01-01', rng.int(0, 5000)),
      bill_prefix: `B-${num}`,
      lines,
      september: overdue ? 'overdue' : 'paid',
      october: rng.chance(0.4) ? 'paid' : 'issued',
    });
    t.customers[acct.customer.customer_id] = acct.customer;
    for (const l of acct.lines) t.lines[l.line_id] = l;
    for (const d of acct.devices) t.devices[d.device_id] = d;
    for (const b of acct.bills) t.bills[b.bill_id] = b;
    // Some travellers already have a pass running (charged on the open bill).
    for (const l of acct.lines) {
      const plan = t.plans[l.plan_id];
      if (!l.roaming_enabled || l.status !== 'active' || plan.eligible_passes.length === 0 || !rng.chance(0.3)) continue;
      const pass = t.roaming_passes[rng.pick(plan.eligible_passes)];
      const start = addDays('2026-11-12', -rng.int(0, pass.days - 1));
      const bill = t.bills[`B-${num}-11`];
      bill.items.push({ description: `${pass.name} on ${l.phone_number} (${start} to ${addDays(start, pass.days - 1)})`, amount_cents: pass.price_cents, date: start });
      bill.total_cents += pass.price_cents;
      const id = `LP-G${pad(Object.keys(t.line_passes).length + 1, 4)}`;
      t.line_passes[id] = { line_pass_id: id, line_id: l.line_id, pass_id: pass.pass_id, start_on: start, end_on: addDays(start, pass.days - 1), price_cents: pass.price_cents, bill_id: bill.bill_id };
    }
  }
  return t;
}
