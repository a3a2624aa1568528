/**
 * The records the utility tasks name (seeds/001_14d444b6cd11c72e.txt T19 and the domain's own
 * tasks U01-U12), with their decoys: namesakes, a neighbouring unit that is occupied, a late payment
 * just outside the 12-month window.
 */
import type { Account, Bill, Customer, Premise } from '../schema.js';

/** Twelve monthly bills (issued the 1st, due the 15th, Nov 2025 - Oct 2026), paid 3 days early unless `late` names a due date and its paid date. */
export function monthlyBills(prefix: string, amounts: number[], late: Record<string, string> = {}): Bill[] {
  const months = ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'];
  return months.map((m, i) => {
    const due = `${m}-15`;
    return { bill_id: `${prefix}-${m}`, issued_on: `${m}-01`, due_on: due, amount_cents: amounts[i % amounts.length], paid_on: late[due] ?? `${m}-12` };
  });
}

type Seed = { id: string; first: string; last: string; pin: string; phone: string; accounts: { id: string; premise: Premise; deposit: number; bills: Bill[]; services?: Account['services'] }[] };
const prem = (premise_id: string, address: string, zip: string, services: Premise['services'] = ['electric', 'gas']): Premise => ({ premise_id, address, zip, services, current_account_id: null });

const SEEDS: Seed[] = [
  // T19: one late payment (due 2026-04-15, paid 2026-04-22): the deposit stays.
  { id: 'sam_nguyen_412', first: 'Sam', last: 'Nguyen', pin: '4120', phone: '503-555-0412', accounts: [
    { id: 'UA-41201', premise: prem('PR-41201', '1420 SE Oak St', '97214'), deposit: 15_000, bills: monthlyBills('B41201', [9_412, 11_876, 14_233, 13_905, 10_118, 8_764], { '2026-04-15': '2026-04-22' }) }] },
  { id: 'sam_nguyen_207', first: 'Sam', last: 'Nguyen', pin: '2071', phone: '503-555-0207', accounts: [
    { id: 'UA-20701', premise: prem('PR-20701', '5120 SW Hall Blvd', '97005'), deposit: 10_000, bills: monthlyBills('B20701', [7_745, 8_810]) }] },
  // U01: clean history: the $200.00 deposit moves.
  { id: 'dana_kowalski_330', first: 'Dana', last: 'Kowalski', pin: '3301', phone: '503-555-0330', accounts: [
    { id: 'UA-33001', premise: prem('PR-33001', '2715 NE Broadway', '97232'), deposit: 20_000, bills: monthlyBills('B33001', [10_245, 12_390]) }] },
  // U02: leaving the area: stop only, deposit to the final bill.
  { id: 'leo_marsh_518', first: 'Leo', last: 'Marsh', pin: '5182', phone: '503-555-0518', accounts: [
    { id: 'UA-51801', premise: prem('PR-51801', '930 N Killingsworth St', '97217'), deposit: 12_500, bills: monthlyBills('B51801', [6_610, 7_205]) }] },
  // U03: already moved out on 2026-10-15: earliest stop is tomorrow.
  { id: 'hana_sato_245', first: 'Hana', last: 'Sato', pin: '2453', phone: '503-555-0245', accounts: [
    { id: 'UA-24501', premise: prem('PR-24501', '3340 SE Division St', '97202'), deposit: 0, bills: monthlyBills('B24501', [5_480, 6_012]) }] },
  // U04: the new premise is occupied until 2026-11-02.
  { id: 'raj_iyer_611', first: 'Raj', last: 'Iyer', pin: '6114', phone: '503-555-0611', accounts: [] },
  { id: 'occupant_600', first: 'Grace', last: 'Holm', pin: '6000', phone: '503-555-0600', accounts: [
    { id: 'UA-60012', premise: prem('PR-60012', '1811 NW Couch St Apt 3', '97209'), deposit: 0, bills: monthlyBills('B60012', [8_040]) }] },
  // U05: the caller gives a wrong PIN.
  { id: 'nina_park_378', first: 'Nina', last: 'Park', pin: '3785', phone: '503-555-0378', accounts: [
    { id: 'UA-37801', premise: prem('PR-37801', '610 SE Morrison St', '97214'), deposit: 15_000, bills: monthlyBills('B37801', [9_010]) }] },
  // U06: a move on 2026-11-06: the final bill skips Veterans Day.
  { id: 'owen_price_733', first: 'Owen', last: 'Price', pin: '7336', phone: '503-555-0733', accounts: [
    { id: 'UA-73301', premise: prem('PR-73301', '4402 N Williams Ave', '97217'), deposit: 17_500, bills: monthlyBills('B73301', [11_120, 9_985]) }] },
  // U07: a late payment on the bill due 2025-10-15, outside the 12 months: qualifies.
  { id: 'bella_ross_819', first: 'Bella', last: 'Ross', pin: '8190', phone: '503-555-0819', accounts: [
    { id: 'UA-81901', premise: prem('PR-81901', '2200 NE Alberta St', '97211'), deposit: 15_000,
      bills: [{ bill_id: 'B81901-2025-10', issued_on: '2025-10-01', due_on: '2025-10-15', amount_cents: 9_870, paid_on: '2025-10-25' }, ...monthlyBills('B81901', [9_870, 10_455])] }] },
  // U08: corrects the move date from 2026-11-01 to 2026-11-08.
  { id: 'tariq_aziz_146', first: 'Tariq', last: 'Aziz', pin: '1460', phone: '503-555-0146', accounts: [
    { id: 'UA-14601', premise: prem('PR-14601', '725 SE 12th Ave', '97214'), deposit: 10_000, bills: monthlyBills('B14601', [8_333, 7_919]) }] },
  // U09: a life-support certification: transfer.
  { id: 'ellen_york_902', first: 'Ellen', last: 'York', pin: '9021', phone: '503-555-0902', accounts: [
    { id: 'UA-90201', premise: prem('PR-90201', '88 SW Gibbs St', '97239'), deposit: 0, bills: monthlyBills('B90201', [12_004]) }] },
  // U10: a phone update; the other Ana Silva must stay untouched.
  { id: 'ana_silva_520', first: 'Ana', last: 'Silva', pin: '5203', phone: '503-555-0520', accounts: [
    { id: 'UA-52001', premise: prem('PR-52001', '1500 SW 5th Ave Apt 808', '97201'), deposit: 0, bills: monthlyBills('B52001', [6_450]) }] },
  { id: 'ana_silva_907', first: 'Ana', last: 'Silva', pin: '9074', phone: '971-555-0907', accounts: [
    { id: 'UA-90701', premise: prem('PR-90701', '77 NE Hancock St', '97212'), deposit: 0, bills: monthlyBills('B90701', [7_120]) }] },
  // U11: stop only; asks for the deposit back now.
  { id: 'ivy_chen_377', first: 'Ivy', last: 'Chen', pin: '3770', phone: '503-555-0377', accounts: [
    { id: 'UA-37701', premise: prem('PR-37701', '2455 NW Marshall St', '97210'), deposit: 15_000, bills: monthlyBills('B37701', [8_760, 9_115]) }] },
  // U12: stop on 2026-11-01; asks the prorated basic charge for 17 of 31 days ($6.85).
  { id: 'mark_hughes_452', first: 'Mark', last: 'Hughes', pin: '4521', phone: '503-555-0452', accounts: [
    { id: 'UA-45201', premise: prem('PR-45201', '1312 SE Hawthorne Blvd', '97214'), deposit: 0, bills: monthlyBills('B45201', [7_640]) }] },
];

/** Premises the tasks move to (vacant unless noted) and a look-alike occupied neighbour. */
const TARGETS: Premise[] = [
  prem('PR-55873', '88 NW Alder Ct Apt 5', '97209'),
  { ...prem('PR-55874', '88 NW Alder Ct Apt 6', '97209'), current_account_id: null },
  prem('PR-56120', '4100 SE Belmont St', '97214'),
  prem('PR-57310', '615 NE Going St', '97211'),
  prem('PR-58844', '9020 N Lombard St', '97203'),
  prem('PR-59001', '140 SW Arthur St', '97201', ['electric', 'gas', 'water']),
];

/** The seed layer. */
export function utilitySeedRecords(): { customers: Record<string, Customer>; premises: Record<string, Premise>; accounts: Record<string, Account> } {
  const out = { customers: {} as Record<string, Customer>, premises: {} as Record<string, Premise>, accounts: {} as Record<string, Account> };
  for (const s of SEEDS) {
    out.customers[s.id] = { customer_id: s.id, first_name: s.first, last_name: s.last, pin: s.pin, phone: s.phone, email: `${s.first.toLowerCase()}.${s.last.toLowerCase()}@example.com`, account_ids: s.accounts.map((a) => a.id) };
    for (const a of s.accounts) {
      out.premises[a.premise.premise_id] = { ...a.premise, current_account_id: a.id };
      out.accounts[a.id] = { account_id: a.id, customer_id: s.id, premise_id: a.premise.premise_id, services: a.services ?? a.premise.services, status: 'active', start_date: '2021-06-01', stop_date: null, deposit_cents: a.deposit, deposit_status: a.deposit > 0 ? 'held' : 'none', balance_cents: 0, bills: a.bills };
    }
  }
  out.accounts['UA-60012'].status = 'stop_scheduled';
  out.accounts['UA-60012'].stop_date = '2026-11-02';
  for (const p of TARGETS) out.premises[p.premise_id] = p;
  return out;
}
