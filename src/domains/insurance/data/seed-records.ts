/**
 * The records the insurance tasks name (seeds/001_14d444b6cd11c72e.txt T10 and the domain's own
 * tasks I01-I12), with their decoys: a second policy of the same holder, namesakes, a second
 * vehicle that is not the rated one.
 */
import type { Driver, Holder, Policy, Vehicle } from '../schema.js';

type P = Vehicle['premiums'];
const veh = (vehicle_id: string, year: number, make: string, model: string, premiums: P): Vehicle => ({ vehicle_id, year, make, model, premiums });
const drv = (driver_id: string, first_name: string, last_name: string, date_of_birth: string, relationship: Driver['relationship'], licence_date: string, effective_date: string): Driver => ({ driver_id, first_name, last_name, date_of_birth, relationship, licence_status: 'licensed', licence_date, effective_date, removed_date: null });
const COVER = { liability: '100/300/100', collision: '$500 deductible', comprehensive: '$250 deductible', uninsured_motorist: '100/300' };

interface SeedPolicy { id: string; start: string; end: string; vehicles: Vehicle[]; drivers: Parameters<typeof drv>[]; endorsements?: Policy["endorsements"] }
interface SeedHolder { id: string; first: string; last: string; dob: string; zip: string; phone: string; policies: SeedPolicy[] }

const SEEDS: SeedHolder[] = [
  // T10: add his daughter (17, licensed 2026-09-28 after a permit) on AP-77120 from 2026-10-20.
  { id: 'carlos_diaz_350', first: 'Carlos', last: 'Diaz', dob: '1978-05-02', zip: '60614', phone: '312-555-0350', policies: [
    { id: 'AP-77120', start: '2026-06-01', end: '2026-12-01',
      vehicles: [veh('VEH-77120-1', 2019, 'Honda', 'CR-V', { liability: 41_236, collision: 29_850, comprehensive: 11_822, uninsured_motorist: 6_410 }), veh('VEH-77120-2', 2012, 'Toyota', 'Corolla', { liability: 35_510, collision: 18_975, comprehensive: 7_340 })],
      drivers: [['AP-77120-D1', 'Carlos', 'Diaz', '1978-05-02', 'named_insured', '1995-06-10', '2026-06-01'], ['AP-77120-D2', 'Elena', 'Diaz', '1980-11-23', 'spouse', '1998-01-15', '2026-06-01']] },
    { id: 'AP-77185', start: '2026-09-01', end: '2027-03-01',
      vehicles: [veh('VEH-77185-1', 2021, 'Ford', 'F-150', { liability: 44_120, collision: 31_005, comprehensive: 12_960 })],
      drivers: [['AP-77185-D1', 'Carlos', 'Diaz', '1978-05-02', 'named_insured', '1995-06-10', '2026-09-01']] },
  ] },
  { id: 'carlos_diaz_118', first: 'Carlos', last: 'Diaz', dob: '1969-08-30', zip: '77002', phone: '713-555-0118', policies: [
    { id: 'AP-71188', start: '2026-07-15', end: '2027-01-15', vehicles: [veh('VEH-71188-1', 2017, 'Nissan', 'Altima', { liability: 39_870, collision: 22_140, comprehensive: 8_015 })],
      drivers: [['AP-71188-D1', 'Carlos', 'Diaz', '1969-08-30', 'named_insured', '1986-09-02', '2026-07-15']] },
  ] },
  // I01: add her husband (46): no surcharge.
  { id: 'grace_okoye_612', first: 'Grace', last: 'Okoye', dob: '1982-02-19', zip: '55406', phone: '612-555-0612', policies: [
    { id: 'AP-78001', start: '2026-08-01', end: '2027-02-01', vehicles: [veh('VEH-78001-1', 2020, 'Subaru', 'Outback', { liability: 38_412, collision: 26_009, comprehensive: 10_477 })],
      drivers: [['AP-78001-D1', 'Grace', 'Okoye', '1982-02-19', 'named_insured', '2000-03-01', '2026-08-01']] },
  ] },
  // I02: add a 16-year-old permit holder: listed as permit, no surcharge.
  { id: 'henry_walsh_227', first: 'Henry', last: 'Walsh', dob: '1975-12-04', zip: '53703', phone: '608-555-0227', policies: [
    { id: 'AP-78112', start: '2026-05-10', end: '2026-11-10', vehicles: [veh('VEH-78112-1', 2018, 'Mazda', 'CX-5', { liability: 36_650, collision: 24_480, comprehensive: 9_930 })],
      drivers: [['AP-78112-D1', 'Henry', 'Walsh', '1975-12-04', 'named_insured', '1992-01-20', '2026-05-10']] },
  ] },
  // I03: a 15-year-old cannot be listed.
  { id: 'rosa_lima_845', first: 'Rosa', last: 'Lima', dob: '1984-07-21', zip: '33133', phone: '305-555-0845', policies: [
    { id: 'AP-78245', start: '2026-09-05', end: '2027-03-05', vehicles: [veh('VEH-78245-1', 2022, 'Kia', 'Sportage', { liability: 47_210, collision: 33_390, comprehensive: 13_105 })],
      drivers: [['AP-78245-D1', 'Rosa', 'Lima', '1984-07-21', 'named_insured', '2002-08-30', '2026-09-05']] },
  ] },
  // I04: a brother with a suspended licence: underwriting.
  { id: 'kevin_tran_390', first: 'Kevin', last: 'Tran', dob: '1990-03-03', zip: '95112', phone: '408-555-0390', policies: [
    { id: 'AP-78390', start: '2026-07-01', end: '2027-01-01', vehicles: [veh('VEH-78390-1', 2016, 'Honda', 'Civic', { liability: 40_118, collision: 21_770, comprehensive: 7_605 })],
      drivers: [['AP-78390-D1', 'Kevin', 'Tran', '1990-03-03', 'named_insured', '2006-04-11', '2026-07-01']] },
  ] },
  // I05: remove her son (19 when listed, 60%) from 2026-11-01: return premium.
  { id: 'paula_fisher_516', first: 'Paula', last: 'Fisher', dob: '1970-10-09', zip: '80211', phone: '720-555-0516', policies: [
    { id: 'AP-78516', start: '2026-08-15', end: '2027-02-15', vehicles: [veh('VEH-78516-1', 2019, 'Toyota', 'RAV4', { liability: 38_842, collision: 24_117, comprehensive: 9_851 })],
      drivers: [['AP-78516-D1', 'Paula', 'Fisher', '1970-10-09', 'named_insured', '1987-11-15', '2026-08-15'], ['AP-78516-D2', 'Evan', 'Fisher', '2007-02-27', 'child', '2023-03-10', '2026-08-15']],
      endorsements: [] },
  ] },
  // I06: the caller gives a wrong date of birth.
  { id: 'alan_brooks_661', first: 'Alan', last: 'Brooks', dob: '1966-01-28', zip: '02139', phone: '617-555-0661', policies: [
    { id: 'AP-78661', start: '2026-06-20', end: '2026-12-20', vehicles: [veh('VEH-78661-1', 2015, 'Volvo', 'XC60', { liability: 42_306, collision: 27_455, comprehensive: 11_090 })],
      drivers: [['AP-78661-D1', 'Alan', 'Brooks', '1966-01-28', 'named_insured', '1983-02-14', '2026-06-20']] },
  ] },
  // I07: asks to backdate adding his daughter (18) to 2026-10-01: today's date instead.
  { id: 'omar_said_471', first: 'Omar', last: 'Said', dob: '1976-09-17', zip: '48126', phone: '313-555-0471', policies: [
    { id: 'AP-78471', start: '2026-07-01', end: '2027-01-01', vehicles: [veh('VEH-78471-1', 2020, 'Chevrolet', 'Equinox', { liability: 37_995, collision: 25_360, comprehensive: 9_215 })],
      drivers: [['AP-78471-D1', 'Omar', 'Said', '1976-09-17', 'named_insured', '1993-10-01', '2026-07-01']] },
  ] },
  // I08: add a 22-year-old nephew (25%), rounding half up.
  { id: 'julia_berg_338', first: 'Julia', last: 'Berg', dob: '1979-04-25', zip: '97214', phone: '503-555-0338', policies: [
    { id: 'AP-78338', start: '2026-09-01', end: '2027-03-01', vehicles: [veh('VEH-78338-1', 2021, 'Hyundai', 'Tucson', { liability: 39_999, collision: 26_667, comprehensive: 10_101 })],
      drivers: [['AP-78338-D1', 'Julia', 'Berg', '1979-04-25', 'named_insured', '1996-05-05', '2026-09-01']] },
  ] },
  // I09: reports an accident: claims.
  { id: 'ruth_adams_904', first: 'Ruth', last: 'Adams', dob: '1958-06-12', zip: '19103', phone: '215-555-0904', policies: [
    { id: 'AP-78904', start: '2026-08-10', end: '2027-02-10', vehicles: [veh('VEH-78904-1', 2014, 'Buick', 'Enclave', { liability: 36_004, collision: 20_310, comprehensive: 8_777 })],
      drivers: [['AP-78904-D1', 'Ruth', 'Adams', '1958-06-12', 'named_insured', '1975-07-01', '2026-08-10']] },
  ] },
  // I10: hears the premium for his son and decides to wait.
  { id: 'nathan_cole_254', first: 'Nathan', last: 'Cole', dob: '1972-11-30', zip: '30306', phone: '404-555-0254', policies: [
    { id: 'AP-78254', start: '2026-10-01', end: '2027-04-01', vehicles: [veh('VEH-78254-1', 2018, 'Ford', 'Escape', { liability: 35_760, collision: 23_410, comprehensive: 8_930 })],
      drivers: [['AP-78254-D1', 'Nathan', 'Cole', '1972-11-30', 'named_insured', '1989-12-15', '2026-10-01']] },
  ] },
  // I11: a phone update; a namesake is the decoy.
  { id: 'maria_lopez_602', first: 'Maria', last: 'Lopez', dob: '1988-03-08', zip: '78704', phone: '512-555-0602', policies: [
    { id: 'AP-78602', start: '2026-06-15', end: '2026-12-15', vehicles: [veh('VEH-78602-1', 2017, 'Toyota', 'Camry', { liability: 37_120, collision: 22_905, comprehensive: 8_440 })],
      drivers: [['AP-78602-D1', 'Maria', 'Lopez', '1988-03-08', 'named_insured', '2005-04-01', '2026-06-15']] },
  ] },
  { id: 'maria_lopez_177', first: 'Maria', last: 'Lopez', dob: '1961-12-22', zip: '85016', phone: '602-555-0177', policies: [
    { id: 'AP-71777', start: '2026-07-01', end: '2027-01-01', vehicles: [veh('VEH-71777-1', 2013, 'Honda', 'Accord', { liability: 34_870, collision: 19_025, comprehensive: 7_110 })],
      drivers: [['AP-71777-D1', 'Maria', 'Lopez', '1961-12-22', 'named_insured', '1978-01-05', '2026-07-01']] },
  ] },
  // I12: wants to drop comprehensive: coverage changes go to underwriting.
  { id: 'ivan_petrov_719', first: 'Ivan', last: 'Petrov', dob: '1983-08-14', zip: '60614', phone: '312-555-0719', policies: [
    { id: 'AP-78719', start: '2026-09-20', end: '2027-03-20', vehicles: [veh('VEH-78719-1', 2011, 'Volkswagen', 'Jetta', { liability: 33_480, collision: 17_265, comprehensive: 6_815 })],
      drivers: [['AP-78719-D1', 'Ivan', 'Petrov', '1983-08-14', 'named_insured', '2001-09-01', '2026-09-20']] },
  ] },
];

/** The seed layer: holders and their policies. */
export function insuranceSeedRecords(): { holders: Record<string, Holder>; policies: Record<string, Policy> } {
  const holders: Record<string, Holder> = {};
  const policies: Record<string, Policy> = {};
  for (const h of SEEDS) {
    holders[h.id] = { customer_id: h.id, first_name: h.first, last_name: h.last, date_of_birth: h.dob, zip: h.zip, phone: h.phone, email: `${h.first.toLowerCase()}.${h.last.toLowerCase()}@example.org`, policy_ids: h.policies.map((p) => p.id) };
    for (const p of h.policies) {
      const base = p.vehicles.reduce((s, v) => s + Object.values(v.premiums).reduce((a, b) => a + b, 0), 0);
      policies[p.id] = { policy_id: p.id, customer_id: h.id, status: 'active', term_start: p.start, term_end: p.end, coverages: { ...COVER }, vehicles: p.vehicles, drivers: p.drivers.map((d) => drv(...d)), endorsements: p.endorsements ?? [], term_premium_cents: base };
    }
  }
  return { holders, policies };
}
