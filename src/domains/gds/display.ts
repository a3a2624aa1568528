/**
 * The GDS screens: PNR display (`*R`), itinerary (`*I`), history (`*H`) and availability (`1…`),
 * in the fixed-width, upper-case layout GDS users read. Segment numbers are the display order.
 */
import { dayOfWeek, gdsDate } from './dates.js';
import { CLASSES, type Flight, type HistoryEntry, type Pnr, type Segment, type Ssr } from './schema.js';

/** The PNR's segments in display order (date, then departure time), with their numbers from 1. */
export function numberedSegments(p: Pnr): { n: number; key: string; seg: Segment }[] {
  return Object.entries(p.segments)
    .sort(([, a], [, b]) => (a.date === b.date ? a.dep.localeCompare(b.dep) : a.date.localeCompare(b.date)))
    .map(([key, seg], i) => ({ n: i + 1, key, seg }));
}

const pad = (s: string | number, w: number) => String(s).padEnd(w);
const carrier = (f: string) => `${f.slice(0, 2)} ${f.slice(2).padStart(3)}`;

/** One itinerary line: ` 1 XA 204Y 20OCT 2 JFKORD UN2   0800  0945`. */
export function segmentLine(n: number, s: Segment): string {
  return ` ${String(n).padStart(2)} ${carrier(s.flight)}${s.cls} ${gdsDate(s.date)} ${dayOfWeek(s.date)} ${s.from}${s.to} ${s.status}${s.count}  ${s.dep}  ${s.arr}`;
}

/** `*I`: the itinerary only. */
export function itineraryScreen(p: Pnr): string {
  const segs = numberedSegments(p);
  return segs.length ? segs.map(({ n, seg }) => segmentLine(n, seg)).join('\n') : 'NO ITIN';
}

const ssrLine = (i: number, s: Ssr, p: Pnr) => {
  const pax = p.passengers.find((x) => x.ref === s.pax);
  return `  ${i}.SSR ${s.code} ${s.flight.slice(0, 2)} ${s.status}1 ${s.flight} ${gdsDate(s.date)}/${pax ? `${pax.last}/${pax.first} ${pax.title}` : s.pax}`;
};

/** `*R`: the whole PNR. */
export function pnrScreen(p: Pnr, pendingReceived: string | null): string {
  const out = [p.locator, p.passengers.map((x) => ` ${x.ref}${x.last}/${x.first} ${x.title}`).join(' ')];
  out.push(itineraryScreen(p));
  if (p.tickets.length) out.push('TKT/TIME LIMIT', ...p.tickets.map((t, i) => `  ${i + 1}.TE ${t.number}-${t.status === 'OPEN' ? 'AT' : 'EX'} ${p.passengers.find((x) => x.ref === t.pax)?.last ?? t.pax} ${gdsDate(t.issued_on)}`));
  if (p.phones.length) out.push('PHONES', ...p.phones.map((ph, i) => `  ${i + 1}.${ph}`));
  const ssrs = Object.values(p.ssrs).sort((a, b) => (a.date + a.flight + a.pax + a.code).localeCompare(b.date + b.flight + b.pax + b.code));
  if (ssrs.length) out.push('GENERAL FACTS', ...ssrs.map((s, i) => ssrLine(i + 1, s, p)));
  if (p.remarks.length) out.push('REMARKS', ...p.remarks.map((r, i) => `  ${i + 1}.${r}`));
  const rf = pendingReceived ?? p.received_from;
  if (rf) out.push(`RECEIVED FROM - ${rf}`);
  return out.join('\n');
}

/** `*H`: the end transactions of a PNR, oldest first. */
export function historyScreen(locator: string, entries: readonly HistoryEntry[]): string {
  const mine = entries.filter((e) => e.locator === locator);
  if (!mine.length) return `${locator}\nNO HISTORY`;
  return [`${locator} HISTORY`, ...mine.flatMap((e) => [`RCVD-${e.received_from} ${e.at.replace('T', ' ').slice(0, 16)}`, ...e.changes.map((c) => `  ${c}`)])].join('\n');
}

/** Seats shown per class: up to 9 (as GDS displays cap them). */
const seatsCode = (f: Flight) => CLASSES.map((c) => `${c}${Math.min(9, f.seats[c] ?? 0)}`).join(' ');

/** `1DDMMMXXXYYY`: numbered availability lines (cancelled flights marked CNLD). */
export function availabilityScreen(date: string, from: string, to: string, flights: readonly Flight[]): string {
  const head = `${gdsDate(date)} ${['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'][dayOfWeek(date) - 1]}   ${from}/${to}`;
  if (!flights.length) return `${head}\nNO FLIGHTS`;
  return [head, ...flights.map((f, i) => `${pad(i + 1, 2)}${carrier(f.flight)}  ${f.status === 'cancelled' ? 'CNLD' : seatsCode(f)}  ${f.from}${f.to} ${f.dep} ${f.arr} ${f.equipment}`)].join('\n');
}
