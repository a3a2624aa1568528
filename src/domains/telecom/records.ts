/**
 * Record lookups over the telecom agent DB with tau2's error messages, and the dates the
 * billing logic derives from "today".
 */
import { ToolError } from '../../spec/tool.js';
import type { Bill, Customer, Device, Line, Plan, TelecomDb } from './schema.js';

const digits = (p: string) => p.replace(/\D/g, '');

export function customerById(db: TelecomDb, id: string): Customer {
  const c = db.customers.find((x) => x.customer_id === id);
  if (!c) throw new ToolError(`Customer with ID ${id} not found`);
  return c;
}

export function lineById(db: TelecomDb, id: string): Line {
  const l = db.lines.find((x) => x.line_id === id);
  if (!l) throw new ToolError(`Line with ID ${id} not found`);
  return l;
}

export function planById(db: TelecomDb, id: string): Plan {
  const p = db.plans.find((x) => x.plan_id === id);
  if (!p) throw new ToolError(`Plan with ID ${id} not found`);
  return p;
}

export function deviceById(db: TelecomDb, id: string): Device {
  const d = db.devices.find((x) => x.device_id === id);
  if (!d) throw new ToolError(`Device with ID ${id} not found`);
  return d;
}

export function billById(db: TelecomDb, id: string): Bill {
  const b = db.bills.find((x) => x.bill_id === id);
  if (!b) throw new ToolError(`Bill with ID ${id} not found`);
  return b;
}

/**
 * The customer whose primary number or one of whose lines has this number (digits compared,
 * so `555-123-2002` and `5551232002` match); throws `Customer with phone number … not found`.
 */
export function customerByPhone(db: TelecomDb, phone: string): Customer {
  const want = digits(phone);
  if (want) {
    for (const c of db.customers) {
      if (digits(c.phone_number) === want) return c;
      for (const id of c.line_ids) if (digits(lineById(db, id).phone_number) === want) return c;
    }
  }
  throw new ToolError(`Customer with phone number ${phone} not found`);
}

/** A line the customer owns; throws the customer's error or `Line … not found for customer …`. */
export function targetLine(db: TelecomDb, customerId: string, lineId: string): Line {
  const c = customerById(db, customerId);
  if (!c.line_ids.includes(lineId)) throw new ToolError(`Line ${lineId} not found for customer ${customerId}`);
  return lineById(db, lineId);
}

/** The customer's bills with status `Awaiting Payment`, in `bill_ids` order. */
export function billsAwaitingPayment(db: TelecomDb, c: Customer): Bill[] {
  return c.bill_ids.map((id) => billById(db, id)).filter((b) => b.status === 'Awaiting Payment');
}

/** `YYYY-MM-DD` plus `days` days. */
export function addDays(isoDate: string, days: number): string {
  const t = Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1, Number(isoDate.slice(8, 10))) + days * 86400000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The first day of the month of `isoDate`. */
export const firstOfMonth = (isoDate: string) => `${isoDate.slice(0, 7)}-01`;

/** The first day of the next month. */
export const firstOfNextMonth = (isoDate: string) => firstOfMonth(addDays(firstOfMonth(isoDate), 32));

/** The last day of the month of `isoDate`. */
export const lastOfMonth = (isoDate: string) => addDays(firstOfNextMonth(isoDate), -1);
