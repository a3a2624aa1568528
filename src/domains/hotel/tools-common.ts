/** Shared pieces of the hotel tools: the state view, record look-ups as tool errors, repricing. */
import { recordOrToolError } from '../common/record-lookup.js';
import { z } from 'zod';
import type { CowDb } from '../../env/cow-db.js';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import { balanceCents, nightTaxCents, reservationTotalCents } from './rules.js';
import type { Guest, NightlyRate, Property, RatePlan, Reservation } from './schema.js';

/** The hotel's tables by id (rates keyed `property|room_type|rate_plan|date`). */
export type HotelTables = {
  guests: Record<string, Guest>;
  properties: Record<string, Property>;
  rate_plans: Record<string, RatePlan>;
  rates: Record<string, NightlyRate>;
  reservations: Record<string, Reservation>;
};
export type HotelDb = CowDb<HotelTables>;
export type HotelTool<A = any> = ToolDef<HotelDb, A>;

/** The record or a tool error `<Label> <id> not found` (see recordOrToolError). */
export const must = <K extends keyof HotelTables>(db: HotelDb, table: K, id: string, label: string): HotelTables[K][string] => recordOrToolError(db, table, id, label);

/** The key of a nightly rate. */
export const rateKey = (property: string, room: string, plan: string, date: string) => `${property}|${room}|${plan}|${date}`;

/** Recomputes a reservation's total and balance after its nights, charges or payments changed (mutates `r`). */
export function settle(r: Reservation): Reservation {
  r.total_cents = reservationTotalCents(r);
  r.balance_cents = balanceCents(r);
  return r;
}

/** A night of `r` priced from the rate table now (rate + tax), or a tool error when sold out or not offered. */
export function priceNight(db: HotelDb, r: Pick<Reservation, 'property_id' | 'room_type' | 'rate_plan_id'>, date: string): { date: string; rate_cents: number; tax_cents: number } {
  const rate = db.get('rates', rateKey(r.property_id, r.room_type, r.rate_plan_id, date));
  if (!rate) throw new ToolError(`No ${r.rate_plan_id} rate for room type ${r.room_type} on ${date}`);
  if (rate.rooms_left <= 0) throw new ToolError(`No ${r.room_type} rooms left on ${date}`);
  const property = must(db, 'properties', r.property_id, 'Property');
  return { date, rate_cents: rate.rate_cents, tax_cents: nightTaxCents(rate.rate_cents, property.tax_bp) };
}

export const reservationIdArg = z.string().describe("The reservation (confirmation) number, for example 'H-55102'.");
export const guestIdArg = z.string().describe("The guest id, for example 'emma_wu_819'.");
export const isoDateArg = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date YYYY-MM-DD');
export const centsArg = z.number().int().positive().describe('Amount in integer cents (12345 = $123.45).');
