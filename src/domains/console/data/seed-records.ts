/**
 * The records the console's tasks are about, laid over the generated filler (ids in ranges the
 * generator never uses: accounts `ACC-28xx`, cases `000128xx`). The dataset's "now" is
 * 2026-11-20. T11: case 00012877, Dana Whitfield's ProBrew 900 bought 2026-03-14, in its
 * 12-month standard warranty (ENT-2877-1, to 2027-03-13); her AirPure 300 beside it is out of
 * warranty (the decoy asset).
 */
import type { Account, Asset, Case, Contact, Entitlement, Product, ReturnOrder } from '../schema.js';
import { warrantyEnd } from '../rules.js';

export const PRODUCTS: Product[] = [
  { id: 'PRD-01', name: 'ProBrew 900 Espresso Machine', sku: 'PB9-900', warranty_months: 12, repair_fee_cents: 14_900 },
  { id: 'PRD-02', name: 'AirPure 300 Air Purifier', sku: 'AP3-300', warranty_months: 24, repair_fee_cents: 8_900 },
  { id: 'PRD-03', name: 'CoolKeep 5 Refrigerator', sku: 'CK5-500', warranty_months: 12, repair_fee_cents: 24_900 },
  { id: 'PRD-04', name: 'SilkWash 8 Washer', sku: 'SW8-800', warranty_months: 12, repair_fee_cents: 19_900 },
  { id: 'PRD-05', name: 'QuietDry 7 Dryer', sku: 'QD7-700', warranty_months: 12, repair_fee_cents: 17_900 },
];

type Seed = { account: Account; contact: Contact; assets: [Asset, ...Asset[]]; entitlements: Entitlement[]; cases: [Case, ...Case[]]; description: Record<string, string>; returnOrders?: ReturnOrder[] };

const person = (n: string, name: string, city: string, street: string, phone: string): { account: Account; contact: Contact } => {
  const [first, last] = name.split(' ');
  return {
    account: { id: `ACC-${n}`, name: `${name} (Household)`, phone, city, ship_to: `${street}, ${city}` },
    contact: { id: `CON-${n}`, account_id: `ACC-${n}`, first_name: first, last_name: last, email: `${first}.${last}@example.net`.toLowerCase(), phone },
  };
};
const asset = (n: string, k: number, product: string, serial: string, purchased: string, status: Asset['status'] = 'Installed'): Asset => ({ id: `AST-${n}-${k}`, account_id: `ACC-${n}`, contact_id: `CON-${n}`, product_id: product, serial_number: serial, purchase_date: purchased, status });
const standard = (a: Asset, k: number): Entitlement => {
  const months = PRODUCTS.find((p) => p.id === a.product_id)!.warranty_months;
  return { id: `ENT-${a.id.slice(4)}-${k}`, asset_id: a.id, account_id: a.account_id, name: `Standard Warranty (${months} months)`, kind: 'Standard Warranty', start_date: a.purchase_date, end_date: warrantyEnd(a.purchase_date, months) };
};
const kase = (number: string, n: string, assetId: string, subject: string, opened: string, more: Partial<Case> = {}): Case => ({
  number, account_id: `ACC-${n}`, contact_id: `CON-${n}`, asset_id: assetId, subject, status: 'New', priority: 'Medium', origin: 'Phone', opened, entitlement_check: 'Not Checked', entitlement_id: null, resolution: '', parent_case: null, ...more,
});

/** The task records (see each task's notes). */
export function consoleSeeds(): Seed[] {
  const t11 = person('2877', 'Dana Whitfield', 'Portland, OR 97214', '418 SE Alder St', '503-555-0142');
  const t11a = asset('2877', 1, 'PRD-01', 'PB9-44712231', '2026-03-14');
  const t11b = asset('2877', 2, 'PRD-02', 'AP3-10988342', '2024-02-02');
  const c01 = person('2878', 'Marcus Oyelaran', 'Madison, WI 53703', '77 Gorham St', '608-555-0178');
  const c01a = asset('2878', 1, 'PRD-01', 'PB9-30021877', '2025-06-30');
  const c02 = person('2879', 'Priya Raman', 'Austin, TX 78704', '2210 S Lamar Blvd', '512-555-0119');
  const c02a = asset('2879', 1, 'PRD-03', 'CK5-77120455', '2025-01-10');
  const c03 = person('2880', 'Tomasz Wierzbicki', 'Chicago, IL 60611', '540 N State St', '312-555-0164');
  const c03a = asset('2880', 1, 'PRD-04', 'SW8-51200987', '2026-05-02');
  const c04 = person('2881', 'Helen Marsh', 'Denver, CO 80211', '3300 W 32nd Ave', '720-555-0133');
  const c04a = asset('2881', 1, 'PRD-01', 'PB9-66120048', '2026-08-01');
  const c05 = person('2882', 'Jorge Benitez', 'Miami, FL 33135', '1450 SW 8th St', '305-555-0150');
  const c05a = asset('2882', 1, 'PRD-02', 'AP3-20551170', '2026-01-15');
  const c06 = person('2883', 'Aiko Tanaka', 'Seattle, WA 98107', '5405 Ballard Ave NW', '206-555-0126');
  const c06a = asset('2883', 1, 'PRD-05', 'QD7-90017734', '2026-11-17');
  const c06b = asset('2883', 2, 'PRD-04', 'SW8-90017701', '2026-11-17');
  return [
    { ...t11, assets: [t11a, t11b], entitlements: [standard(t11a, 1), standard(t11b, 1)], cases: [kase('00012877', '2877', t11a.id, 'Espresso machine stopped heating', '2026-11-20')], description: { '00012877': 'Customer reports the ProBrew 900 no longer heats water; the pump runs. No damage.' } },
    { ...c01, assets: [c01a], entitlements: [standard(c01a, 1)], cases: [kase('00012878', '2878', c01a.id, 'Espresso machine leaking from the base', '2026-11-20')], description: { '00012878': 'Water leaks from under the machine during brewing. No drop or other damage reported.' } },
    { ...c02, assets: [c02a], entitlements: [standard(c02a, 1), { id: 'ENT-2879-1-2', asset_id: c02a.id, account_id: 'ACC-2879', name: 'Extended Protection Plan (24 months)', kind: 'Extended Protection', start_date: '2026-01-10', end_date: '2028-01-09' }], cases: [kase('00012879', '2879', c02a.id, 'Refrigerator not cooling', '2026-11-20', { priority: 'High' })], description: { '00012879': 'Fridge compartment at room temperature since yesterday; freezer fine.' } },
    { ...c03, assets: [c03a], entitlements: [standard(c03a, 1)], cases: [kase('00012880', '2880', c03a.id, "Washer won't drain", '2026-11-18', { status: 'Working' }), kase('00012886', '2880', c03a.id, 'Washer not draining after cycle', '2026-11-20')], description: { '00012880': 'Drum keeps water at the end of every cycle.', '00012886': 'Water stays in the drum after each wash. (Web form)' } },
    { ...c04, assets: [c04a], entitlements: [standard(c04a, 1)], cases: [kase('00012881', '2881', c04a.id, 'Espresso machine cracked after a fall', '2026-11-20')], description: { '00012881': 'Customer dropped the machine while cleaning it; the water tank and housing are cracked and it leaks.' } },
    { ...c05, assets: [c05a], entitlements: [standard(c05a, 1)], cases: [kase('00012882', '2882', c05a.id, 'Air purifier fan failure', '2026-11-12', { status: 'Awaiting Return', entitlement_check: 'In Warranty', entitlement_id: 'ENT-2882-1-1', resolution: 'Advance Replacement' })], description: { '00012882': 'Fan does not spin. Advance replacement sent.' }, returnOrders: [{ id: 'RO-10001', case_number: '00012882', account_id: 'ACC-2882', asset_id: c05a.id, type: 'Advance Replacement', reason: 'Defective under warranty', ship_to: c05.account.ship_to, status: 'Shipped', created: '2026-11-12' }] },
    { ...c06, assets: [c06a, c06b], entitlements: [standard(c06a, 1), standard(c06b, 1)], cases: [kase('00012883', '2883', c06a.id, 'New dryer does not power on', '2026-11-20', { priority: 'High' })], description: { '00012883': 'Delivered 2026-11-17 together with the washer; the dryer shows no lights at all.' } },
  ];
}
