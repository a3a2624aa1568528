/**
 * The GDS back-end's state (servicegym's own terminal domain; seed task T12): a flight schedule
 * with seat inventory by booking class, and the PNR store. Segments and SSRs are keyed by content
 * (`XA208-2026-10-20`, `WCHR-XA208-2026-10-20-1.1`), so the order of an agent's entries never
 * changes the committed state; segment numbers are the display order (date, then departure time).
 * Dates ISO `YYYY-MM-DD`; times `HHMM` local to the departure airport.
 */
import { z } from 'zod';

/** Booking classes by cabin, in display order (policy: same cabin = any class of the cabin). */
export const CABINS: Record<'first' | 'business' | 'economy', readonly string[]> = { first: ['F', 'A'], business: ['J', 'C'], economy: ['Y', 'B', 'M', 'H', 'Q'] };
export const CLASSES = [...CABINS.first, ...CABINS.business, ...CABINS.economy];
/** The cabin of a booking class. */
export function cabinOf(cls: string): keyof typeof CABINS | undefined {
  return (Object.keys(CABINS) as (keyof typeof CABINS)[]).find((c) => CABINS[c].includes(cls));
}

const time = z.string().regex(/^\d{4}$/);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const FlightSchema = z.strictObject({
  flight: z.string().regex(/^[A-Z0-9]{2}\d{1,4}$/),
  date: isoDate,
  from: z.string().regex(/^[A-Z]{3}$/),
  to: z.string().regex(/^[A-Z]{3}$/),
  dep: time,
  arr: time,
  equipment: z.string(),
  status: z.enum(['scheduled', 'cancelled']),
  /** Seats left per booking class. */
  seats: z.record(z.string(), z.number().int().nonnegative()),
});
export type Flight = z.infer<typeof FlightSchema>;

export const PassengerSchema = z.strictObject({ ref: z.string().regex(/^\d+\.\d+$/), last: z.string(), first: z.string(), title: z.string() });
export type Passenger = z.infer<typeof PassengerSchema>;

/** Status codes: HK confirmed, SS sold (pending), UN unable (flight cancelled by the carrier), TK schedule change (time changed), HX cancelled. */
export const SegmentSchema = z.strictObject({
  flight: z.string(),
  date: isoDate,
  from: z.string(),
  to: z.string(),
  dep: time,
  arr: time,
  cls: z.string(),
  count: z.number().int().positive(),
  status: z.enum(['HK', 'SS', 'UN', 'TK', 'HX']),
});
export type Segment = z.infer<typeof SegmentSchema>;

export const SsrSchema = z.strictObject({ code: z.string().regex(/^[A-Z]{4}$/), pax: z.string(), flight: z.string(), date: isoDate, status: z.enum(['HK', 'NN']) });
export type Ssr = z.infer<typeof SsrSchema>;

export const TicketSchema = z.strictObject({ number: z.string().regex(/^\d{13}$/), pax: z.string(), status: z.enum(['OPEN', 'EXCHANGED']), issued_on: isoDate });
export type Ticket = z.infer<typeof TicketSchema>;

export const PnrSchema = z.strictObject({
  locator: z.string().regex(/^[A-Z0-9]{6}$/),
  passengers: z.array(PassengerSchema),
  segments: z.record(z.string(), SegmentSchema),
  ssrs: z.record(z.string(), SsrSchema),
  phones: z.array(z.string()),
  remarks: z.array(z.string()),
  tickets: z.array(TicketSchema),
  /** The received-from of the last end transaction. */
  received_from: z.string().nullable(),
  created_on: isoDate,
});
export type Pnr = z.infer<typeof PnrSchema>;

/** A back-end operation an end transaction committed (`sell_segment` and its arguments; see host.ts). */
export const CommittedOperationSchema = z.strictObject({ name: z.string(), arguments: z.record(z.string(), z.unknown()) });
export type CommittedOperation = z.infer<typeof CommittedOperationSchema>;

/**
 * One end transaction in a PNR's history (audit trail; not part of the compared state): the
 * changes in words (`*H`) and the operations committed, both in the same canonical order.
 */
export const HistoryEntrySchema = z.strictObject({ locator: z.string(), at: z.string(), received_from: z.string(), changes: z.array(z.string()), operations: z.array(CommittedOperationSchema) });
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;

export const GdsDbSchema = z.strictObject({ flights: z.record(z.string(), FlightSchema), pnrs: z.record(z.string(), PnrSchema) });
export type GdsDb = z.infer<typeof GdsDbSchema>;

/** The key of a flight date / segment: `XA208-2026-10-20`. */
export const segKey = (flight: string, date: string) => `${flight}-${date}`;
/** The key of an SSR: `WCHR-XA208-2026-10-20-1.1`. */
export const ssrKey = (s: Pick<Ssr, 'code' | 'flight' | 'date' | 'pax'>) => `${s.code}-${s.flight}-${s.date}-${s.pax}`;
