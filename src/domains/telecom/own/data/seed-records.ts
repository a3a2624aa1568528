/**
 * The accounts the Kestrel tasks name (seed task T07 and tasks K01-K13), with their decoys: Zoe
 * Adams's namesake and her tablet line (T07), a second line in the family (K13). Built with the
 * same shape as the generated accounts (`accounts.ts`).
 */
import type { KestrelTables } from '../schema.js';
import { buildAccount, type AccountSpec, type LineSpec } from './accounts.js';

const phone = (id: string, model: 'Pixel 9' | 'iPhone 16' | 'Galaxy S25' | 'iPad Air'): LineSpec['device'] => {
  const make = model === 'Pixel 9' ? 'Pixel' : model === 'Galaxy S25' ? 'Samsung' : 'Apple';
  return { device_id: `D-${id}`, make, model, imei: `3569${id.padStart(5, '0')}0${id.padStart(5, '0')}`.slice(0, 15), esim_capable: true };
};

/** One line spec with the task defaults (active, no roaming, little data used). */
const line = (id: string, phoneNumber: string, planId: string, model: Parameters<typeof phone>[1], extra: Partial<LineSpec> = {}): LineSpec => ({
  line_id: `L-${id}`, phone_number: phoneNumber, plan_id: planId, data_used_mb: 2100, device: phone(id, model), ...extra,
});

const person = (id: string, name: string, dob: string, city: [string, string, string], lines: LineSpec[], extra: Partial<AccountSpec> = {}): AccountSpec => ({
  customer_id: id,
  full_name: name,
  date_of_birth: dob,
  email: `${id.replace(/_\d+$/, '').replace('_', '.')}@example.com`,
  address: { street: `${100 + id.length * 37} Larch St`, city: city[0], state: city[1], zip: city[2] },
  customer_since: '2019-04-02',
  bill_prefix: `B-${id.slice(-3)}`,
  lines,
  ...extra,
});

const PDX: [string, string, string] = ['Portland', 'OR', '97214'];
const RAL: [string, string, string] = ['Raleigh', 'NC', '27601'];

/** The task accounts. */
export const KESTREL_TASK_ACCOUNTS: AccountSpec[] = [
  // T07: abroad in Spain on the Travel plan (RP-EU7 eligible, no overdue bill); her tablet line and a namesake are decoys.
  person('zoe_adams_773', 'Zoe Adams', '1991-03-14', PDX, [
    line('77301', '503-555-0173', 'PL-TRAVEL', 'Pixel 9', { roaming_enabled: true }),
    line('77302', '503-555-0174', 'PL-BASIC', 'iPad Air'),
  ]),
  person('zoe_adams_218', 'Zoe Adams', '1987-09-02', PDX, [line('21801', '503-555-0218', 'PL-TRAVEL', 'iPhone 16', { roaming_enabled: true })]),
  // K01: Basic plan (no passes) in Portugal.
  person('marco_reyes_415', 'Marco Reyes', '1979-06-30', ['Tucson', 'AZ', '85719'], [line('41501', '520-555-0415', 'PL-BASIC', 'Galaxy S25', { roaming_enabled: true })]),
  // K02: Travel plan in Japan, September bill overdue.
  person('hana_tanaka_302', 'Hana Tanaka', '1984-11-05', RAL, [line('30201', '919-555-0302', 'PL-TRAVEL', 'iPhone 16', { roaming_enabled: true })], { september: 'overdue' }),
  // K03: pays the overdue September bill.
  person('omar_haddad_518', 'Omar Haddad', '1969-02-21', ['Omaha', 'NE', '68102'], [line('51801', '402-555-0518', 'PL-PLUS', 'Galaxy S25')], { september: 'overdue' }),
  // K04: line suspended for non-payment; pays, then the line is resumed.
  person('ines_costa_640', 'Ines Costa', '1993-07-19', ['Boise', 'ID', '83702'], [
    line('64001', '208-555-0640', 'PL-STUDENT', 'Pixel 9', { status: 'suspended', suspension_reason: 'non_payment', suspended_on: '2026-10-28' }),
  ], { september: 'overdue' }),
  // K05: line suspended for non-payment; will not pay today.
  person('kofi_okoro_227', 'Kofi Okoro', '1975-01-09', ['Richmond', 'VA', '23220'], [
    line('22701', '804-555-0227', 'PL-PLUS', 'iPhone 16', { status: 'suspended', suspension_reason: 'non_payment', suspended_on: '2026-10-28' }),
  ], { september: 'overdue' }),
  // K06: PUK-locked SIM (transfer).
  person('lena_becker_851', 'Lena Becker', '1988-12-24', ['Madison', 'WI', '53703'], [line('85101', '608-555-0851', 'PL-PLUS', 'Galaxy S25')]),
  // K07: eligible upgrade Plus -> Unlimited; a second line stays.
  person('ravi_kaur_364', 'Ravi Kaur', '1982-05-17', ['Tampa', 'FL', '33602'], [
    line('36401', '813-555-0364', 'PL-PLUS', 'Pixel 9', { last_plan_change_on: '2026-05-02' }),
    line('36402', '813-555-0365', 'PL-PLUS', 'iPhone 16'),
  ]),
  // K08: changed plan 23 days ago.
  person('nina_novak_529', 'Nina Novak', '1999-10-01', PDX, [line('52901', '503-555-0529', 'PL-STUDENT', 'iPhone 16', { last_plan_change_on: '2026-10-20' })]),
  // K09: downgrade while a device-payment contract runs.
  person('diego_silva_482', 'Diego Silva', '1986-08-11', ['Tucson', 'AZ', '85719'], [line('48201', '520-555-0482', 'PL-UNLTD', 'iPhone 16', { contract_end_on: '2027-05-31' })]),
  // K10: allowance used up at home (5 GB on Basic).
  person('aria_walsh_190', 'Aria Walsh', '1995-04-28', RAL, [line('19001', '919-555-0190', 'PL-BASIC', 'Galaxy S25', { data_used_mb: 5120 })]),
  // K11: roaming off on the line and on the phone, in Mexico.
  person('tariq_larsen_733', 'Tariq Larsen', '1972-03-03', ['Omaha', 'NE', '68102'], [line('73301', '402-555-0733', 'PL-PLUS', 'Pixel 9')]),
  // K12: airplane mode and mobile data off at home.
  person('mia_moreau_905', 'Mia Moreau', '2001-02-14', ['Madison', 'WI', '53703'], [line('90501', '608-555-0905', 'PL-STUDENT', 'iPhone 16')]),
  // K13: Americas pass on his own line, not his daughter's; wrong APN.
  person('lucas_nguyen_246', 'Lucas Nguyen', '1980-09-09', RAL, [
    line('24601', '919-555-0246', 'PL-PLUS', 'Pixel 9', { roaming_enabled: true }),
    line('24602', '919-555-0247', 'PL-PLUS', 'iPhone 16', { roaming_enabled: true }),
  ]),
];

/** The task records as tables (no plans or passes: those come from the catalogue). */
export function kestrelSeedRecords(): Omit<KestrelTables, 'plans' | 'roaming_passes' | 'line_passes'> {
  const out: Omit<KestrelTables, 'plans' | 'roaming_passes' | 'line_passes'> = { customers: {}, lines: {}, bills: {}, devices: {} };
  for (const spec of KESTREL_TASK_ACCOUNTS) {
    const a = buildAccount(spec);
    out.customers[a.customer.customer_id] = a.customer;
    for (const l of a.lines) out.lines[l.line_id] = l;
    for (const d of a.devices) out.devices[d.device_id] = d;
    for (const b of a.bills) out.bills[b.bill_id] = b;
  }
  return out;
}
