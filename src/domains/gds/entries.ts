/**
 * The GDS command interpreter: one entry line in, one screen of text out, Sabre-style. Entries
 * (see data/command_reference.md): `*ABC123` retrieve, `*R` `*I` `*H` displays, `1DDMMMXXXYYY`
 * availability, `0{n}{class}{line}` sell, `X{n}` cancel segments, `.{n}HK` accept a schedule change,
 * `3{SSR}/{segs}-{pax}` special service, `5` remark, `9` phone, `6` received from, `E`/`ER` end
 * transaction, `I`/`IR` ignore, `WTKT` reissue tickets, `HELP` / `HELP <entry>` the command
 * reference (help.ts). Changes stay in the work area until end
 * transaction; ignore discards them. Errors read as a terminal's (`INVALID FORMAT`, `NEED RECEIVED
 * FROM`, `UNABLE - NO SEATS`), never a stack trace. Each entry is one function in a table; the
 * changes themselves are the host's transactions (host.ts), shared with the host's operations.
 */
import { isoFromGds } from './dates.js';
import { availabilityScreen, historyScreen, itineraryScreen, numberedSegments, pnrScreen, segmentLine } from './display.js';
import type { Pnr } from './schema.js';
import type { GdsState } from './state.js';
import { endTransaction } from './commit.js';
import { helpScreen } from './help.js';
import { acceptScheduleChange, addSsr, addText, cancelSegment, reissueTickets, retrieve, sellSegment } from './host.js';

const routeIndex = new WeakMap<object, Map<string, string[]>>();

/**
 * Flight keys on a route and date, earliest first. Flights are never added or removed by entries
 * (only their seats change), so the index is built once per base store and shared by its views.
 */
function flightsOn(state: GdsState, from: string, to: string, date: string): string[] {
  let index = routeIndex.get(state.db.base);
  if (!index) {
    index = new Map();
    for (const [k, f] of Object.entries(state.db.base.flights)) {
      const key = `${f.from}${f.to}${f.date}`;
      index.set(key, [...(index.get(key) ?? []), k]);
    }
    for (const keys of index.values()) keys.sort((a, b) => state.db.base.flights[a].dep.localeCompare(state.db.base.flights[b].dep));
    routeIndex.set(state.db.base, index);
  }
  return index.get(`${from}${to}${date}`) ?? [];
}

/** What an entry handler gets: the state, the regex match, today's ISO date and the time. */
export interface EntryContext {
  state: GdsState;
  m: RegExpExecArray;
  today: string;
  now: string;
}
type Handler = (c: EntryContext) => string;

const needArea = (s: GdsState): Pnr | string => s.session.area ?? 'NO PNR IN WORK AREA';

function retrieveEntry({ state, m }: EntryContext): string {
  const p = retrieve(state, m[1]);
  return typeof p === 'string' ? p : pnrScreen(p, null);
}

function availability({ state, m, today }: EntryContext): string {
  const date = isoFromGds(m[1], today);
  if (!date) return 'INVALID DATE';
  const [from, to] = [m[2], m[3]];
  const keys = flightsOn(state, from, to, date);
  state.session.avail = { date, from, to, keys };
  return availabilityScreen(date, from, to, keys.map((k) => state.db.get('flights', k)!));
}

function sell({ state, m }: EntryContext): string {
  const area = needArea(state);
  if (typeof area === 'string') return area;
  const [count, cls, line] = [Number(m[1]), m[2], Number(m[3])];
  const av = state.session.avail;
  if (!av) return 'NO AVAILABILITY DISPLAYED';
  const key = av.keys[line - 1];
  if (!key || count < 1) return 'INVALID LINE NUMBER';
  const refused = sellSegment(state, area, key, cls, count);
  if (refused) return refused;
  const n = numberedSegments(area).find((s) => s.key === key)!.n;
  return segmentLine(n, area.segments[key]);
}

/** Segment numbers from `1`, `1-3` or `1/3`. */
function segmentList(spec: string, max: number): number[] | null {
  const nums = spec.includes('-') ? (() => { const [a, b] = spec.split('-').map(Number); return a <= b ? Array.from({ length: b - a + 1 }, (_, i) => a + i) : []; })() : spec.split('/').map(Number);
  return nums.length && nums.every((n) => Number.isInteger(n) && n >= 1 && n <= max) ? [...new Set(nums)] : null;
}

function cancel({ state, m }: EntryContext): string {
  const area = needArea(state);
  if (typeof area === 'string') return area;
  const segs = numberedSegments(area);
  const nums = segmentList(m[1], segs.length);
  if (!nums) return 'INVALID SEGMENT NUMBER';
  for (const n of nums) cancelSegment(state, area, segs[n - 1].key);
  return `${itineraryScreen(area)}`;
}

function statusChange({ state, m }: EntryContext): string {
  const area = needArea(state);
  if (typeof area === 'string') return area;
  const segs = numberedSegments(area);
  const n = Number(m[1]);
  if (n < 1 || n > segs.length) return 'INVALID SEGMENT NUMBER';
  return acceptScheduleChange(state, area, segs[n - 1].key) ?? segmentLine(n, segs[n - 1].seg);
}

function ssr({ state, m }: EntryContext): string {
  const area = needArea(state);
  if (typeof area === 'string') return area;
  const [code, segSpec, pax] = [m[1], m[2], m[3]];
  if (!area.passengers.some((p) => p.ref === pax)) return 'INVALID NAME NUMBER';
  const segs = numberedSegments(area);
  const nums = segSpec === undefined ? segs.map((s) => s.n) : segmentList(segSpec, segs.length);
  if (!nums || !nums.length) return 'INVALID SEGMENT NUMBER';
  for (const n of nums) {
    const refused = addSsr(state, area, code, pax, segs[n - 1].key, String(n));
    if (refused) return refused;
  }
  return '*';
}

const simple = (field: 'remarks' | 'phones'): Handler => ({ state, m }) => {
  const area = needArea(state);
  if (typeof area === 'string') return area;
  return addText(state, area, field, m[1]) ?? '*';
};

function received({ state, m }: EntryContext): string {
  if (!state.session.area) return 'NO PNR IN WORK AREA';
  state.session.received = m[1].trim().toUpperCase();
  return '*';
}

function reissue({ state, today }: EntryContext): string {
  const area = needArea(state);
  if (typeof area === 'string') return area;
  const n = reissueTickets(state, area, today);
  return typeof n === 'string' ? n : `OK - ${n} TICKET(S) REISSUED - PENDING END`;
}

function ignore({ state }: EntryContext, redisplay: boolean): string {
  const locator = state.session.area?.locator;
  const stored = locator ? state.db.get('pnrs', locator) : undefined;
  state.session.area = redisplay && stored ? structuredClone(stored) : null;
  state.session.changes = [];
  state.session.received = null;
  return redisplay && state.session.area ? pnrScreen(state.session.area, null) : 'IGD';
}

function end({ state, now }: EntryContext, redisplay: boolean): string {
  const r = endTransaction(state, now);
  if (!r.ok) return r.error;
  if (!redisplay) {
    state.session.area = null;
    return `OK ${now.slice(11, 13)}${now.slice(14, 16)} ${r.locator}`;
  }
  state.session.area = structuredClone(state.db.get('pnrs', r.locator)!);
  return `OK ${r.locator}\n${pnrScreen(state.session.area, null)}`;
}

/** The entry table: a pattern per entry, first match wins. */
export const ENTRIES: readonly [RegExp, Handler][] = [
  [/^\*([A-Z0-9]{6})$/, retrieveEntry],
  [/^\*R$/, ({ state }) => (state.session.area ? pnrScreen(state.session.area, state.session.received) : 'NO PNR IN WORK AREA')],
  [/^\*I$/, ({ state }) => (state.session.area ? itineraryScreen(state.session.area) : 'NO PNR IN WORK AREA')],
  [/^\*H$/, ({ state }) => (state.session.area ? historyScreen(state.session.area.locator, state.history) : 'NO PNR IN WORK AREA')],
  [/^1(\d{1,2}[A-Z]{3})([A-Z]{3})([A-Z]{3})$/, availability],
  [/^0(\d{1,2})([A-Z])(\d{1,2})$/, sell],
  [/^X(\d{1,2}(?:[-/]\d{1,2})*)$/, cancel],
  [/^\.(\d{1,2})HK$/, statusChange],
  [/^3([A-Z]{4})(?:\/(\d{1,2}(?:[-/]\d{1,2})*))?-(\d+\.\d+)$/, ssr],
  [/^5(.+)$/, simple('remarks')],
  [/^9(.+)$/, simple('phones')],
  [/^6(.+)$/, received],
  [/^WTKT$/, reissue],
  [/^IR$/, (c) => ignore(c, true)],
  [/^I$/, (c) => ignore(c, false)],
  [/^ER$/, (c) => end(c, true)],
  [/^E$/, (c) => end(c, false)],
  [/^HELP(?:\s+(.+))?$/, ({ m }) => helpScreen(m[1])],
];

/** Interprets one entry line (upper-cased, trimmed); unknown or malformed entries give `INVALID FORMAT`. */
export function interpret(state: GdsState, line: string, now: string): string {
  const entry = line.trim().toUpperCase();
  if (!entry) return 'INVALID FORMAT';
  if (entry.length > 120) return 'INVALID FORMAT - ENTRY TOO LONG';
  for (const [re, handler] of ENTRIES) {
    const m = re.exec(entry);
    if (m) return handler({ state, m, today: now.slice(0, 10), now });
  }
  return 'INVALID FORMAT';
}
