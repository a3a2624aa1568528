/**
 * End transaction: the work area's changes become the PNR store's, atomically — seat inventory
 * taken for sold segments and returned for cancelled confirmed ones, sold segments and new SSRs
 * confirmed (HK), the received-from stamped, and one history entry with the changes in a canonical
 * order (by their wording), each with the back-end operation it commits. Without a received-from
 * nothing is written (`NEED RECEIVED FROM`).
 */
import { segKey } from './schema.js';
import type { GdsState } from './state.js';

/** Statuses that hold seats. */
const HOLDS = new Set(['HK', 'TK', 'SS']);

/** Commits the work area; returns the locator, or the terminal's error. */
export function endTransaction(state: GdsState, now: string): { ok: true; locator: string } | { ok: false; error: string } {
  const area = state.session.area;
  if (!area) return { ok: false, error: 'NO PNR IN WORK AREA' };
  if (!state.session.received) return { ok: false, error: 'NEED RECEIVED FROM' };
  const base = state.db.get('pnrs', area.locator);
  const before = base?.segments ?? {};
  for (const [key, seg] of Object.entries(area.segments)) {
    if (seg.status !== 'SS') continue;
    const f = state.db.get('flights', key);
    if (!f || f.status === 'cancelled' || (f.seats[seg.cls] ?? 0) < seg.count) return { ok: false, error: `UNABLE - NO SEATS ${seg.flight} ${seg.cls} - IGNORE AND RESELL` };
  }
  for (const [key, seg] of Object.entries(area.segments)) {
    if (seg.status === 'SS') {
      state.db.mut('flights', key).seats[seg.cls] -= seg.count;
      seg.status = 'HK';
    }
  }
  for (const [key, seg] of Object.entries(before)) {
    if (area.segments[key] || !HOLDS.has(seg.status)) continue;
    const fk = segKey(seg.flight, seg.date);
    const f = state.db.get('flights', fk);
    if (f && f.status !== 'cancelled') state.db.mut('flights', fk).seats[seg.cls] = (f.seats[seg.cls] ?? 0) + seg.count;
  }
  for (const s of Object.values(area.ssrs)) s.status = 'HK';
  area.received_from = state.session.received;
  state.db.put('pnrs', area.locator, structuredClone(area));
  const changes = [...state.session.changes].sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  const operations = changes.map((c) => ({ name: c.name, arguments: c.arguments }));
  state.history.push({ locator: area.locator, at: now, received_from: state.session.received, changes: changes.map((c) => c.text), operations });
  state.session.changes = [];
  state.session.received = null;
  return { ok: true, locator: area.locator };
}
