/**
 * The console's filler, generated reproducibly from a seed: households with a contact, one to
 * three appliances bought between 2023 and 2026 with their standard warranties (some with an
 * extended protection plan), and cases in every status — so list views page, searches find
 * namesakes and look-alike serials, and most warranties a person opens are not the task's.
 */
import { Rng } from '../../../util/rng.js';
import { warrantyEnd } from '../rules.js';
import { CASE_STATUSES, type ConsoleTables } from '../schema.js';
import { PRODUCTS } from './seed-records.js';

/** The dataset's "now". */
export const SERVICEGYM_CONSOLE_NOW = '2026-11-20T15:00:00Z';

const FIRST = ['Dana', 'Marcus', 'Priya', 'Helen', 'Jorge', 'Aiko', 'Lena', 'Omar', 'Grace', 'Victor', 'Nadia', 'Felix', 'Rosa', 'Theo', 'Imani', 'Kenji'];
const LAST = ['Whitman', 'Oyelowo', 'Raman', 'Marsh', 'Benson', 'Tanaka', 'Fischer', 'Haddad', 'Okoro', 'Lindqvist', 'Moreau', 'Castillo'];
const PLACES = ['Portland, OR 97214', 'Madison, WI 53703', 'Austin, TX 78704', 'Chicago, IL 60611', 'Denver, CO 80211', 'Seattle, WA 98107', 'Miami, FL 33135'];
const ISSUES = ['Makes a loud noise', 'Does not power on', 'Error code on display', 'Leaking water', 'Not heating', 'Door seal worn', 'Question about cleaning'];
const pad = (n: number, w: number) => String(n).padStart(w, '0');

/** The filler tables (no return orders or activities: those are made in episodes and by the task records). */
export function generateConsole(seed = 2026, households = 36): ConsoleTables {
  const rng = new Rng(seed);
  const t: ConsoleTables = { accounts: {}, contacts: {}, products: Object.fromEntries(PRODUCTS.map((p) => [p.id, p])), assets: {}, entitlements: {}, cases: {}, return_orders: {}, tasks: {} };
  let caseNo = 11_400;
  for (let i = 0; i < households; i++) {
    const n = String(1001 + i);
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const city = rng.pick(PLACES);
    const phone = `${pad(rng.int(201, 989), 3)}-555-${pad(rng.int(200, 999), 4)}`;
    t.accounts[`ACC-${n}`] = { id: `ACC-${n}`, name: `${first} ${last} (Household)`, phone, city, ship_to: `${rng.int(10, 9900)} ${rng.pick(['Oak St', 'Pine Ave', 'Lake Dr', 'Main St'])}, ${city}` };
    t.contacts[`CON-${n}`] = { id: `CON-${n}`, account_id: `ACC-${n}`, first_name: first, last_name: last, email: `${first}.${last}${i}@example.org`.toLowerCase(), phone };
    for (let k = 1; k <= rng.int(1, 3); k++) {
      const p = rng.pick(PRODUCTS);
      const bought = `${rng.int(2023, 2026)}-${pad(rng.int(1, 10), 2)}-${pad(rng.int(1, 28), 2)}`;
      const id = `AST-${n}-${k}`;
      t.assets[id] = { id, account_id: `ACC-${n}`, contact_id: `CON-${n}`, product_id: p.id, serial_number: `${p.sku.slice(0, 3)}-${pad(rng.int(10_000_000, 99_999_999), 8)}`, purchase_date: bought, status: 'Installed' };
      const end = warrantyEnd(bought, p.warranty_months);
      t.entitlements[`ENT-${n}-${k}-1`] = { id: `ENT-${n}-${k}-1`, asset_id: id, account_id: `ACC-${n}`, name: `Standard Warranty (${p.warranty_months} months)`, kind: 'Standard Warranty', start_date: bought, end_date: end };
      if (rng.chance(0.2)) t.entitlements[`ENT-${n}-${k}-2`] = { id: `ENT-${n}-${k}-2`, asset_id: id, account_id: `ACC-${n}`, name: 'Extended Protection Plan (24 months)', kind: 'Extended Protection', start_date: end, end_date: warrantyEnd(end, 24) };
      if (rng.chance(0.6)) {
        const number = pad(caseNo++, 8);
        const status = rng.pick(CASE_STATUSES);
        t.cases[number] = {
          number, account_id: `ACC-${n}`, contact_id: `CON-${n}`, asset_id: id, subject: `${p.name.split(' ')[0]}: ${rng.pick(ISSUES)}`, status, priority: rng.pick(['Low', 'Medium', 'High'] as const),
          origin: rng.pick(['Phone', 'Email', 'Web'] as const), opened: `2026-${pad(rng.int(6, 11), 2)}-${pad(rng.int(1, 19), 2)}`, entitlement_check: 'Not Checked', entitlement_id: null, resolution: status === 'Closed' ? 'Information Given' : '', parent_case: null,
        };
      }
    }
  }
  return t;
}
