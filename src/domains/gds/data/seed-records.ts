/**
 * The flights and PNRs the GDS tasks name (seeds/001_14d444b6cd11c72e.txt T12 and the domain's own
 * tasks G01-G09), with their decoys: an earlier flight whose only seats are in another cabin, a later
 * flight with plenty of seats, a cancelled leg's neighbours. Flights given here replace every
 * generated flight on the same route and date, so the task's alternatives are exactly these.
 */
import { CLASSES, segKey, type Flight, type Pnr, type Segment } from '../schema.js';

const seats = (open: Record<string, number>): Record<string, number> => Object.fromEntries(CLASSES.map((c) => [c, open[c] ?? 0]));
const fl = (flight: string, date: string, from: string, to: string, dep: string, arr: string, open: Record<string, number>, status: Flight['status'] = 'scheduled', equipment = '738'): Flight => ({ flight, date, from, to, dep, arr, equipment, status, seats: seats(open) });

/** Task flights: every route/date listed here is replaced whole. */
export const SEED_FLIGHTS: Flight[] = [
  // T12: JFK-ORD on 2026-10-20. XA204 cancelled; XA206 has business only; XA208 is the key (2 in M); XA210 later.
  fl('XA204', '2026-10-20', 'JFK', 'ORD', '0800', '0945', {}, 'cancelled'),
  fl('XA206', '2026-10-20', 'JFK', 'ORD', '1030', '1215', { J: 4, C: 2, F: 1 }),
  fl('XA208', '2026-10-20', 'JFK', 'ORD', '1300', '1445', { M: 2, Q: 1, J: 1 }),
  fl('XA210', '2026-10-20', 'JFK', 'ORD', '1600', '1745', { Y: 9, B: 9, M: 9, H: 9, Q: 9, J: 4, F: 2 }),
  fl('XA611', '2026-10-24', 'ORD', 'JFK', '1710', '2025', { Y: 7, B: 5, M: 9, J: 2 }),
  // G04: ATL-MIA on 2026-10-21: XA760 cancelled; XA761 business only; XA762 economy.
  fl('XA150', '2026-10-21', 'JFK', 'ATL', '0700', '0945', { Y: 5, M: 4, J: 2 }),
  fl('XA760', '2026-10-21', 'ATL', 'MIA', '1100', '1250', {}, 'cancelled'),
  fl('XA761', '2026-10-21', 'ATL', 'MIA', '1200', '1350', { J: 3 }),
  fl('XA762', '2026-10-21', 'ATL', 'MIA', '1430', '1620', { Y: 3, B: 6, M: 9 }),
  // G03: a schedule change moved XA330 from 0900 to 1115.
  fl('XA330', '2026-10-23', 'BOS', 'ORD', '1115', '1320', { Y: 9, M: 9 }),
  // G06: JFK-LAX and back.
  fl('XA420', '2026-10-22', 'JFK', 'LAX', '0900', '1215', { Y: 9, M: 9, J: 3 }, 'scheduled', '321'),
  fl('XA425', '2026-10-29', 'LAX', 'JFK', '1300', '2125', { Y: 9, M: 9, J: 3 }, 'scheduled', '321'),
  // G07: ORD-DEN on 2026-10-25.
  fl('XA512', '2026-10-25', 'ORD', 'DEN', '0830', '1005', { Y: 4, M: 9 }),
  fl('XA514', '2026-10-25', 'ORD', 'DEN', '1245', '1420', { Y: 9, M: 9 }),
  // G09: SEA-SFO on 2026-10-20: XA880 cancelled, same-day economy full; the next morning's XA882 has seats.
  fl('XA880', '2026-10-20', 'SEA', 'SFO', '0815', '1025', {}, 'cancelled'),
  fl('XA884', '2026-10-20', 'SEA', 'SFO', '1520', '1730', { J: 2 }),
  fl('XA882', '2026-10-21', 'SEA', 'SFO', '0700', '0910', { Y: 4, M: 6 }),
  fl('XA886', '2026-10-21', 'SEA', 'SFO', '1900', '2110', { Y: 9 }),
];

const seg = (f: Flight, cls: string, count: number, status: Segment['status']): [string, Segment] => [segKey(f.flight, f.date), { flight: f.flight, date: f.date, from: f.from, to: f.to, dep: f.dep, arr: f.arr, cls, count, status }];
const F = (flight: string, date: string) => SEED_FLIGHTS.find((f) => f.flight === flight && f.date === date)!;
const pax = (...names: [last: string, first: string, title: string][]) => names.map(([last, first, title], i) => ({ ref: `${i + 1}.1`, last, first, title }));
const tickets = (n: number, base: string) => Array.from({ length: n }, (_, i) => ({ number: `${base}${i}`, pax: `${i + 1}.1`, status: 'OPEN' as const, issued_on: '2026-09-12' }));

function pnr(locator: string, passengers: Pnr['passengers'], segments: [string, Segment][], extra: Partial<Pnr> = {}): Pnr {
  return { locator, passengers, segments: Object.fromEntries(segments), ssrs: {}, phones: ['NYC212-555-0148-H'], remarks: [], tickets: tickets(passengers.length, '016230045610'), received_from: 'SYS', created_on: '2026-09-12', ...extra };
}
const wchr = (pax: string, flight: string, date: string) => [`WCHR-${flight}-${date}-${pax}`, { code: 'WCHR', pax, flight, date, status: 'HK' as const }] as const;

/** The task PNRs. */
export function seedPnrs(): Pnr[] {
  return [
    pnr('LKJ8TQ', pax(['OKAFOR', 'ADA', 'MRS'], ['OKAFOR', 'JAMES', 'MR']), [seg(F('XA204', '2026-10-20'), 'Y', 2, 'UN'), seg(F('XA611', '2026-10-24'), 'Y', 2, 'HK')], {
      ssrs: Object.fromEntries([wchr('1.1', 'XA204', '2026-10-20'), wchr('1.1', 'XA611', '2026-10-24')]),
      remarks: ['PAX 1.1 TRAVELS WITH OWN FOLDING WHEELCHAIR'],
    }),
    pnr('QWM4RA', pax(['LINDQVIST', 'ERIK', 'MR'], ['LINDQVIST', 'SARA', 'MS']), [seg(F('XA420', '2026-10-22'), 'Y', 2, 'HK'), seg(F('XA425', '2026-10-29'), 'Y', 2, 'HK')], { tickets: tickets(2, '016230045620') }),
    pnr('BZT7KX', pax(['MORALES', 'LUIS', 'MR']), [seg(F('XA512', '2026-10-25'), 'M', 1, 'HK'), seg(F('XA611', '2026-10-24'), 'M', 1, 'HK')], { tickets: tickets(1, '016230045630') }),
    pnr('HNF2PC', pax(['DUBOIS', 'CLAIRE', 'MS']), [seg(F('XA330', '2026-10-23'), 'Y', 1, 'TK')], { remarks: ['SKD CHG XA330 23OCT DEP 0900 NOW 1115 - PAX TO ACCEPT'], tickets: tickets(1, '016230045640') }),
    pnr('DRS5LM', pax(['ABERNATHY', 'ROSE', 'MRS'], ['ABERNATHY', 'TOM', 'MR']), [seg(F('XA150', '2026-10-21'), 'Y', 2, 'HK'), seg(F('XA760', '2026-10-21'), 'Y', 2, 'UN')], { tickets: tickets(2, '016230045650') }),
    pnr('KPL9WE', pax(['NAKAMURA', 'KEN', 'MR']), [seg(F('XA514', '2026-10-25'), 'Q', 1, 'HK')], { tickets: tickets(1, '016230045660') }),
    pnr('TQE3NB', pax(['FERREIRA', 'ANA', 'MRS']), [seg(F('XA420', '2026-10-22'), 'M', 1, 'HK'), seg(F('XA425', '2026-10-29'), 'M', 1, 'HK')], { remarks: ['Q12 PAX 1.1 NEEDS WCHR AT JFK - ADD SSR AND CONFIRM IN REMARKS'], tickets: tickets(1, '016230045670') }),
    pnr('MVB6QS', pax(['BRENNAN', 'KATE', 'MS']), [seg(F('XA611', '2026-10-24'), 'Y', 1, 'HK')], { tickets: tickets(1, '016230045680') }),
    pnr('CFX8DU', pax(['OSEI', 'KWAME', 'MR']), [seg(F('XA330', '2026-10-23'), 'M', 1, 'HK')], { tickets: tickets(1, '016230045690') }),
    pnr('WLN4TZ', pax(['HALVORSEN', 'INGRID', 'MS']), [seg(F('XA880', '2026-10-20'), 'Y', 1, 'UN')], { tickets: tickets(1, '016230045700') }),
  ];
}
