/**
 * The reservation host's PNR transactions on the work area, shared by the cryptic entries
 * (entries.ts: `02M3` finds the flight on an availability line, then sells) and by the host's
 * operations (operations.ts: `sell_segment {locator, flight, date, class, count}`). Each change
 * stays pending in the session as a {@link PendingChange}: its history wording and the back-end
 * operation end transaction commits for it, named and argued as the action log records it. A
 * refusal is the terminal's wording (`UNABLE - NO SEATS`), returned, never thrown.
 *
 * Cancelling a segment withdraws the pending changes on it (a segment sold, an SSR added or a
 * schedule change accepted in this transaction), as a GDS does; cancelling a segment of the stored
 * PNR is itself a change. So the pending list, and what end transaction commits, is the net effect
 * on the PNR store, whatever order or detour the entries took.
 */
import { gdsDate } from './dates.js';
import { cabinOf, segKey, ssrKey, type Flight, type Pnr, type Segment } from './schema.js';
import type { GdsState, PendingChange } from './state.js';

/** A host transaction's result: null on success, else the terminal's error text. */
export type Refusal = string | null;

/**
 * Retrieves PNR `locator` into the work area (a fresh copy of the stored record; pending
 * received-from cleared). Refuses with `FINISH OR IGNORE - CHANGES PENDING` while another
 * retrieval has pending changes, `NO RECORD` for an unknown locator.
 */
export function retrieve(state: GdsState, locator: string): Pnr | string {
  if (state.session.area && state.session.changes.length) return 'FINISH OR IGNORE - CHANGES PENDING';
  const p = state.db.get('pnrs', locator);
  if (!p) return 'NO RECORD';
  state.session.area = structuredClone(p);
  state.session.changes = [];
  state.session.received = null;
  return state.session.area;
}

/** The work area holding `locator`: the open one, or retrieved now (see {@link retrieve}). */
export function areaFor(state: GdsState, locator: string): Pnr | string {
  const area = state.session.area;
  if (area?.locator === locator) return area;
  return retrieve(state, locator);
}

const stage = (state: GdsState, change: PendingChange) => state.session.changes.push(change);

/** Seats of `cls` on `key` not yet taken by this work area's pending sells. */
function seatsLeft(state: GdsState, key: string, cls: string, f: Flight): number {
  const pending = Object.entries(state.session.area?.segments ?? {}).filter(([k, s]) => k === key && s.status === 'SS' && s.cls === cls).reduce((n, [, s]) => n + s.count, 0);
  return (f.seats[cls] ?? 0) - pending;
}

/**
 * Sells `count` seats in booking class `cls` on flight date `key` (`XA208-2026-10-20`) into
 * `area` (status SS until end transaction). Refuses an unknown class, a cancelled flight, a
 * segment already in the PNR and too few seats left.
 */
export function sellSegment(state: GdsState, area: Pnr, key: string, cls: string, count: number): Refusal {
  const f = state.db.get('flights', key);
  if (!f) return 'NO SUCH FLIGHT';
  if (!cabinOf(cls)) return 'INVALID CLASS';
  if (f.status === 'cancelled') return 'UNABLE - FLIGHT NOT OPERATING';
  if (area.segments[key]) return 'DUPLICATE SEGMENT - CANCEL FIRST';
  if (seatsLeft(state, key, cls, f) < count) return 'UNABLE - NO SEATS';
  area.segments[key] = { flight: f.flight, date: f.date, from: f.from, to: f.to, dep: f.dep, arr: f.arr, cls, count, status: 'SS' };
  stage(state, { text: `SOLD ${f.flight} ${cls} ${gdsDate(f.date)} ${f.from}${f.to} ${count}`, name: 'sell_segment', arguments: { locator: area.locator, flight: f.flight, date: f.date, class: cls, count } });
  return null;
}

/** Whether a pending change is about the segment `seg` (its flight and date). */
const onSegment = (c: PendingChange, seg: Segment) => c.arguments.flight === seg.flight && c.arguments.date === seg.date;

/**
 * Cancels segment `key` of `area` with its SSRs; the pending changes on it are withdrawn, and a
 * stored segment's cancellation is staged (`cancel_segment`). Refuses a segment not in the PNR.
 */
export function cancelSegment(state: GdsState, area: Pnr, key: string): Refusal {
  const seg = area.segments[key];
  if (!seg) return 'NO SUCH SEGMENT';
  delete area.segments[key];
  for (const [k, s] of Object.entries(area.ssrs)) if (segKey(s.flight, s.date) === key) delete area.ssrs[k];
  // An earlier cancellation of the stored segment (resold since) stays: the store loses that segment.
  state.session.changes = state.session.changes.filter((c) => c.name === 'cancel_segment' || !onSegment(c, seg));
  if (seg.status !== 'SS') stage(state, { text: `XX ${seg.flight} ${seg.cls} ${gdsDate(seg.date)} ${seg.from}${seg.to} ${seg.count}`, name: 'cancel_segment', arguments: { locator: area.locator, flight: seg.flight, date: seg.date } });
  return null;
}

/** Accepts the schedule change of segment `key` (TK to HK). Refuses a segment not in TK. */
export function acceptScheduleChange(state: GdsState, area: Pnr, key: string): Refusal {
  const seg = area.segments[key];
  if (!seg) return 'NO SUCH SEGMENT';
  if (seg.status !== 'TK') return 'INVALID ACTION CODE';
  seg.status = 'HK';
  stage(state, { text: `HK ${seg.flight} ${seg.cls} ${gdsDate(seg.date)} ${seg.from}${seg.to} ${seg.count} SCHEDULE CHANGE ACCEPTED`, name: 'accept_schedule_change', arguments: { locator: area.locator, flight: seg.flight, date: seg.date } });
  return null;
}

/**
 * Adds SSR `code` (`WCHR`) for passenger `pax` (`1.1`) on segment `key` (status NN until end
 * transaction; one already there is kept as it is). Refuses an unknown passenger, a segment not in
 * the PNR, and a segment that is not active (`UNABLE - SEGMENT {label} NOT ACTIVE`).
 */
export function addSsr(state: GdsState, area: Pnr, code: string, pax: string, key: string, label: string): Refusal {
  if (!area.passengers.some((p) => p.ref === pax)) return 'INVALID NAME NUMBER';
  const seg = area.segments[key];
  if (!seg) return 'NO SUCH SEGMENT';
  if (seg.status === 'UN' || seg.status === 'HX') return `UNABLE - SEGMENT ${label} NOT ACTIVE`;
  const s = { code, pax, flight: seg.flight, date: seg.date, status: 'NN' as const };
  if (area.ssrs[ssrKey(s)]) return null;
  area.ssrs[ssrKey(s)] = s;
  stage(state, { text: `SSR ${code} ${seg.flight} ${gdsDate(seg.date)} ${pax}`, name: 'add_ssr', arguments: { locator: area.locator, code, passenger: pax, flight: seg.flight, date: seg.date } });
  return null;
}

/** A remark or a phone (upper-cased, trimmed). Refuses empty text (`INVALID FORMAT`). */
export function addText(state: GdsState, area: Pnr, field: 'remarks' | 'phones', raw: string): Refusal {
  const text = raw.trim().toUpperCase();
  if (!text) return 'INVALID FORMAT';
  area[field].push(text);
  if (field === 'remarks') stage(state, { text: `RMK ${text}`, name: 'add_remark', arguments: { locator: area.locator, text } });
  else stage(state, { text: `PHONE ${text}`, name: 'add_phone', arguments: { locator: area.locator, phone: text } });
  return null;
}

/**
 * Reissues every open ticket of `area` (each becomes EXCHANGED, a new OPEN one issued `today`,
 * ISO date). Returns how many, or the refusal `NO TICKETS ON RECORD`.
 */
export function reissueTickets(state: GdsState, area: Pnr, today: string): number | string {
  if (!area.tickets.length) return 'NO TICKETS ON RECORD';
  const open = area.tickets.filter((t) => t.status === 'OPEN');
  for (const t of open) {
    t.status = 'EXCHANGED';
    area.tickets.push({ number: String(BigInt(t.number) + 1000n).padStart(13, '0'), pax: t.pax, status: 'OPEN', issued_on: today });
  }
  stage(state, { text: `TKT REISSUED ${open.length}`, name: 'reissue_tickets', arguments: { locator: area.locator } });
  return open.length;
}
