/**
 * servicegym's own utility dataset, generated reproducibly: customers with namesakes, premises in
 * shared ZIP codes (several units per building), accounts with deposits and a year of bills (some
 * paid late, some unpaid), closed accounts of earlier moves, and scheduled orders. Task records
 * are laid over it by `seed-records.ts`; generated ids (`PR-1xxxx`, `UA-1xxxx`) never collide.
 */
import { Rng } from '../../../util/rng.js';
import type { Account, Customer, Premise } from '../schema.js';
import { monthlyBills } from './seed-records.js';

/** The dataset's "now" (US Pacific). */
export const SERVICEGYM_UTILITY_NOW = '2026-10-20T09:00:00';

const FIRST = ['Sam', 'Ana', 'Leo', 'Ivy', 'Mark', 'Nina', 'Owen', 'Bella', 'Dana', 'Raj', 'Hana', 'Tariq', 'Ellen', 'Grace', 'Omar', 'Lucy'];
const LAST = ['Nguyen', 'Silva', 'Marsh', 'Chen', 'Hughes', 'Park', 'Price', 'Ross', 'Kowalski', 'Iyer', 'Sato', 'Aziz', 'York', 'Holm'];
const STREETS: [street: string, zip: string][] = [['SE Oak St', '97214'], ['NE Broadway', '97232'], ['NW Couch St', '97209'], ['N Lombard St', '97203'], ['SE Division St', '97202'], ['SW 5th Ave', '97201'], ['NE Alberta St', '97211']];

/** Generates customers, premises and accounts (same seed, same data). */
export function generateUtility(seed = 2026, customers = 380): { customers: Record<string, Customer>; premises: Record<string, Premise>; accounts: Record<string, Account> } {
  const rng = new Rng(seed);
  const out = { customers: {} as Record<string, Customer>, premises: {} as Record<string, Premise>, accounts: {} as Record<string, Account> };
  let premNo = 10_000;
  for (let i = 0; i < customers; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const id = `${first.toLowerCase()}_${last.toLowerCase()}_${4000 + i}`;
    const c: Customer = { customer_id: id, first_name: first, last_name: last, pin: String(rng.int(1000, 9999)), phone: `503-555-${String(rng.int(1000, 9999))}`, email: `${first.toLowerCase()}.${last.toLowerCase()}${4000 + i}@example.com`, account_ids: [] };
    for (let k = rng.chance(0.3) ? 2 : 1; k > 0; k--) {
      const [street, zip] = rng.pick(STREETS);
      const premise_id = `PR-${++premNo}`;
      const apt = rng.chance(0.5) ? ` Apt ${rng.int(1, 40)}` : '';
      const current = k === 1;
      const account_id = `UA-${premNo}`;
      out.premises[premise_id] = { premise_id, address: `${rng.int(100, 9999)} ${street}${apt}`, zip, services: rng.chance(0.7) ? ['electric', 'gas'] : ['electric'], current_account_id: current ? account_id : null };
      const late: Record<string, string> = {};
      if (rng.chance(0.25)) {
        const due = `2026-${String(rng.int(1, 9)).padStart(2, '0')}-15`;
        late[due] = `${due.slice(0, 8)}2${rng.int(0, 8)}`;
      }
      const deposit = rng.chance(0.5) ? rng.pick([10_000, 12_500, 15_000, 20_000]) : 0;
      out.accounts[account_id] = {
        account_id, customer_id: id, premise_id, services: out.premises[premise_id].services, status: current ? 'active' : 'closed', start_date: `20${rng.int(15, 24)}-0${rng.int(1, 9)}-01`, stop_date: current ? null : '2025-06-30',
        deposit_cents: current ? deposit : 0, deposit_status: current && deposit > 0 ? 'held' : 'none', balance_cents: 0, bills: current ? monthlyBills(`B${premNo}`, [rng.int(4_000, 16_000), rng.int(4_000, 16_000)], late) : [],
      };
      c.account_ids.push(account_id);
    }
    out.customers[id] = c;
  }
  return out;
}
