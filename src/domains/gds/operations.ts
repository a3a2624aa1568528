/**
 * The reservation host's operations on the PNR store: what an end transaction commits, named and
 * argued as the action log records it and as the tasks' gold actions state it —
 * `sell_segment {locator, flight, date, class, count}`, `cancel_segment {locator, flight, date}`,
 * `accept_schedule_change {locator, flight, date}`, `add_ssr {locator, code, passenger, flight,
 * date}`, `add_remark {locator, text}`, `add_phone {locator, phone}`, `reissue_tickets {locator}`,
 * then `end_transaction {locator, received_from}`. Dates ISO `YYYY-MM-DD`; passengers by name
 * number (`1.1`).
 *
 * Why gold actions are these and not terminal entries (seed task T12: "verification on the
 * emulator's PNR store"): many entry sequences have one effect (`3WCHR/1-1.1` or `3WCHR-1.1`,
 * `X1` before or after the sell, a sell cancelled and redone), so the ACTION check judges what
 * reached the PNR store, not the keystrokes. The oracle's keystrokes are its own script
 * (oracle.ts, played by the terminal surface's oracle).
 *
 * As the entries do, each operation only changes the work area of its PNR (retrieved when another
 * or none is open); `end_transaction` commits it. They are self-recording: the action log gets,
 * at each successful end transaction and whichever surface caused it (a typed `E`, or this
 * operation called as a JSON tool on the API surface), one action per committed change in the
 * history's canonical order, then `end_transaction` — so a sale that is ignored or never ended
 * is no back-end action, and ordering and forbidden-write checks read the same log on every
 * surface. A refusal is a tool error with the terminal's wording (`Error: UNABLE - NO SEATS`).
 */
import { z } from 'zod';
import { ToolError, type ToolContext, type ToolDef } from '../../spec/tool.js';
import { endTransaction } from './commit.js';
import { acceptScheduleChange, addSsr, addText, areaFor, cancelSegment, reissueTickets, sellSegment, type Refusal } from './host.js';
import { segKey, type HistoryEntry, type Pnr } from './schema.js';
import type { GdsState } from './state.js';

const locator = z.string().regex(/^[A-Z0-9]{6}$/).describe('Record locator, e.g. LKJ8TQ.');
const flight = z.string().regex(/^[A-Z0-9]{2}\d{1,4}$/).describe('Flight number, e.g. XA208.');
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).describe('Flight date, YYYY-MM-DD.');

/**
 * One action per committed change of history entry `entry` (its canonical order), then
 * `end_transaction` with the received-from: what an end transaction did to the PNR store, as the
 * action log records it (each mutating, result `OK`).
 */
export function recordCommit(entry: HistoryEntry, record: ToolContext<GdsState>['record']): void {
  for (const op of entry.operations) record({ name: op.name, arguments: op.arguments, result: 'OK', error: false, mutating: true });
  record({ name: 'end_transaction', arguments: { locator: entry.locator, received_from: entry.received_from }, result: `OK ${entry.locator}`, error: false, mutating: true });
}

/** An operation staging a change on the work area of `args.locator`; a refusal is a ToolError. */
function staging<A extends { locator: string }>(name: string, description: string, shape: z.ZodRawShape, change: (state: GdsState, area: Pnr, args: A, today: string) => Refusal): ToolDef<GdsState, A> {
  return {
    name,
    description: `${description} Pending until end_transaction.`,
    parameters: z.strictObject({ locator, ...shape }) as unknown as z.ZodType<A>,
    kind: 'write',
    requestor: 'assistant',
    records: 'self',
    invoke: (args, ctx) => {
      const area = areaFor(ctx.state, args.locator);
      if (typeof area === 'string') throw new ToolError(area);
      const refused = change(ctx.state, area, args, ctx.now.slice(0, 10));
      if (refused) throw new ToolError(refused);
      return `OK - PENDING ${ctx.state.session.changes.length} CHANGE(S) ON ${area.locator}`;
    },
  };
}

type SegArgs = { locator: string; flight: string; date: string };

const endTransactionOp: ToolDef<GdsState, { locator: string; received_from: string }> = {
  name: 'end_transaction',
  description: 'End the transaction on a PNR: stamp who asked for the changes (received-from) and commit every pending change to the PNR store.',
  parameters: z.strictObject({ locator, received_from: z.string().min(1).max(60).describe('Who asked for the change, e.g. AGENT.') }),
  kind: 'write',
  requestor: 'assistant',
  records: 'self',
  invoke: ({ locator: loc, received_from }, ctx) => {
    const state = ctx.state;
    if (state.session.area?.locator !== loc) throw new ToolError(state.session.area ? `${state.session.area.locator} IN WORK AREA, NOT ${loc}` : 'NO PNR IN WORK AREA');
    const text = received_from.trim().toUpperCase();
    if (!text) throw new ToolError('NEED RECEIVED FROM');
    state.session.received = text;
    const r = endTransaction(state, ctx.now);
    if (!r.ok) throw new ToolError(r.error);
    state.session.area = null;
    recordCommit(state.history[state.history.length - 1], ctx.record);
    return `OK ${r.locator}`;
  },
};

/** The host's operations, in the order of the module doc. */
export const gdsOperations: ToolDef<GdsState>[] = [
  staging<SegArgs & { class: string; count: number }>('sell_segment', 'Sell seats on a flight date in a booking class (F A first; J C business; Y B M H Q economy) to the PNR.', { flight, date, class: z.string().regex(/^[A-Z]$/).describe('Booking class.'), count: z.number().int().min(1).max(9).describe('Seats.') }, (s, a, x) => sellSegment(s, a, segKey(x.flight, x.date), x.class, x.count)),
  staging<SegArgs>('cancel_segment', "Cancel a segment of the PNR; its SSRs go with it.", { flight, date }, (s, a, x) => cancelSegment(s, a, segKey(x.flight, x.date))),
  staging<SegArgs>('accept_schedule_change', 'Accept the schedule change of a segment in TK status (it becomes HK).', { flight, date }, (s, a, x) => acceptScheduleChange(s, a, segKey(x.flight, x.date))),
  staging<SegArgs & { code: string; passenger: string }>('add_ssr', 'Add a special service request (WCHR, WCHS, VGML, KSML, DEAF, BLND) for one passenger on one segment.', { code: z.string().regex(/^[A-Z]{4}$/).describe('SSR code.'), passenger: z.string().regex(/^\d+\.\d+$/).describe('Name number, e.g. 1.1.'), flight, date }, (s, a, x) => addSsr(s, a, x.code, x.passenger, segKey(x.flight, x.date), `${x.flight} ${x.date}`)),
  staging<{ locator: string; text: string }>('add_remark', 'Add a remark to the PNR.', { text: z.string().min(1).max(100).describe('The remark.') }, (s, a, x) => addText(s, a, 'remarks', x.text)),
  staging<{ locator: string; phone: string }>('add_phone', 'Add a phone to the PNR.', { phone: z.string().min(1).max(60).describe('The phone entry, e.g. NYC917-555-0133-M.') }, (s, a, x) => addText(s, a, 'phones', x.phone)),
  staging<{ locator: string }>('reissue_tickets', 'Reissue every open ticket of the PNR (voluntary changes only; the ticketing desk).', {}, (s, a, _x, today) => {
    const n = reissueTickets(s, a, today);
    return typeof n === 'string' ? n : null;
  }),
  endTransactionOp as ToolDef<GdsState>,
];
