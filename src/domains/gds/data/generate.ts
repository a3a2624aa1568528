/**
 * servicegym's own GDS dataset, generated reproducibly: Aerolinea XA's schedule between nine
 * airports from 2026-10-15 to 2026-11-15 (three to five flights a day per route, seat inventory per
 * booking class, a few cancellations) and a few hundred PNRs on it (one to four passengers, one-way,
 * round trips and connections, SSRs, tickets). Task flights and PNRs are laid over it by
 * `seed-records.ts`.
 */
import { Rng } from '../../../util/rng.js';
import { CLASSES, segKey, type Flight, type Pnr } from '../schema.js';

/** The dataset's "now" (the day before seed task T12's cancelled flight). */
export const SERVICEGYM_GDS_NOW = '2026-10-19T14:00:00';

const AIRPORTS = ['JFK', 'ORD', 'DEN', 'LAX', 'ATL', 'SFO', 'BOS', 'MIA', 'SEA'];
const TIMES = ['0600', '0730', '0900', '1045', '1230', '1415', '1600', '1745', '1930', '2115'];
const LAST = ['SMITH', 'GARCIA', 'NGUYEN', 'KOWALSKI', 'OKAFOR', 'LINDQVIST', 'ROSSI', 'MULLER', 'TANAKA', 'DUBOIS', 'COHEN', 'SILVA'];
const FIRST = ['ANNA', 'JOHN', 'MARIA', 'WEI', 'AMARA', 'LUCAS', 'SOFIA', 'OMAR', 'HANA', 'PETER', 'ELENA', 'DAVID'];

const dates = (from: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${from}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10));
const addMinutes = (hhmm: string, m: number) => {
  const t = (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2)) + m) % 1440;
  return `${String(Math.floor(t / 60)).padStart(2, '0')}${String(t % 60).padStart(2, '0')}`;
};

/** Generates flights and PNRs (same seed, same data). Flight numbers `XA1000`+ never collide with task flights. */
export function generateGds(seed = 2026, pnrCount = 260): { flights: Record<string, Flight>; pnrs: Record<string, Pnr> } {
  const rng = new Rng(seed);
  const flights: Record<string, Flight> = {};
  let no = 1000;
  const routes: [string, string, number][] = [];
  for (const a of AIRPORTS) for (const b of AIRPORTS) if (a !== b && rng.chance(0.55)) routes.push([a, b, rng.int(75, 330)]);
  for (const [from, to, minutes] of routes) {
    const times = rng.shuffle(TIMES).slice(0, rng.int(3, 5)).sort();
    const numbers = times.map(() => `XA${no++}`);
    for (const date of dates('2026-10-15', 32)) {
      times.forEach((dep, i) => {
        const f: Flight = { flight: numbers[i], date, from, to, dep, arr: addMinutes(dep, minutes), equipment: rng.pick(['738', '321', '73H', 'E75']), status: rng.chance(0.01) ? 'cancelled' : 'scheduled', seats: Object.fromEntries(CLASSES.map((c) => [c, rng.chance(0.25) ? 0 : rng.int(1, 12)])) };
        flights[segKey(f.flight, date)] = f;
      });
    }
  }
  const keys = Object.keys(flights).filter((k) => flights[k].status === 'scheduled');
  const pnrs: Record<string, Pnr> = {};
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  for (let i = 0; i < pnrCount; i++) {
    let locator = '';
    do locator = Array.from({ length: 6 }, () => rng.pick([...letters])).join(''); while (pnrs[locator]);
    const n = rng.int(1, 4);
    const last = rng.pick(LAST);
    const passengers = Array.from({ length: n }, (_, k) => ({ ref: `${k + 1}.1`, last, first: rng.pick(FIRST), title: rng.pick(['MR', 'MRS', 'MS']) }));
    const first = flights[rng.pick(keys)];
    const cls = rng.pick(['Y', 'B', 'M', 'H', 'J']);
    const segs = [first];
    if (rng.chance(0.5)) {
      const back = keys.map((k) => flights[k]).find((f) => f.from === first.to && f.to === first.from && f.date > first.date);
      if (back) segs.push(back);
    }
    const p: Pnr = {
      locator, passengers, segments: Object.fromEntries(segs.map((f) => [segKey(f.flight, f.date), { flight: f.flight, date: f.date, from: f.from, to: f.to, dep: f.dep, arr: f.arr, cls, count: n, status: 'HK' as const }])),
      ssrs: {}, phones: [`${segs[0].from}${rng.int(200, 989)}-555-${String(rng.int(1000, 9999))}-H`], remarks: [],
      tickets: passengers.map((x, k) => ({ number: `0162300${String(100000 + i * 4 + k).padStart(6, '0')}`, pax: x.ref, status: 'OPEN' as const, issued_on: '2026-09-20' })), received_from: 'SYS', created_on: '2026-09-20',
    };
    if (rng.chance(0.15)) {
      const s = Object.values(p.segments)[0];
      const code = rng.pick(['WCHR', 'VGML', 'KSML']);
      p.ssrs[`${code}-${s.flight}-${s.date}-1.1`] = { code, pax: '1.1', flight: s.flight, date: s.date, status: 'HK' };
    }
    pnrs[locator] = p;
  }
  return { flights, pnrs };
}
