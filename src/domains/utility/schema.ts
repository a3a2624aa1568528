/**
 * The utility back-end's state (servicegym's own domain; seed task T19): customers, service
 * premises with their meters, accounts (one per customer and premise) with deposits and bills, and
 * service orders (stop, start, final meter read, deposit transfer). Money in integer cents (USD);
 * dates ISO `YYYY-MM-DD`, US Pacific time.
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD');
const cents = z.number().int();
export const SERVICES = ['electric', 'gas', 'water'] as const;

export const CustomerSchema = z.strictObject({
  customer_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** Four-digit account PIN the customer chose (verification, policy 1.1). */
  pin: z.string().regex(/^\d{4}$/),
  phone: z.string(),
  email: z.string(),
  account_ids: z.array(z.string()),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const PremiseSchema = z.strictObject({
  premise_id: z.string(),
  address: z.string(),
  zip: z.string().regex(/^\d{5}$/),
  services: z.array(z.enum(SERVICES)),
  /** The account currently served at the premise (active or ending), or null when vacant. */
  current_account_id: z.string().nullable(),
});
export type Premise = z.infer<typeof PremiseSchema>;

export const BillSchema = z.strictObject({ bill_id: z.string(), issued_on: isoDate, due_on: isoDate, amount_cents: cents, paid_on: isoDate.nullable() });
export type Bill = z.infer<typeof BillSchema>;

export const AccountSchema = z.strictObject({
  account_id: z.string(),
  customer_id: z.string(),
  premise_id: z.string(),
  services: z.array(z.enum(SERVICES)),
  status: z.enum(['pending_start', 'active', 'stop_scheduled', 'final', 'closed']),
  start_date: isoDate,
  stop_date: isoDate.nullable(),
  deposit_cents: cents,
  /** `held` on the account; `transferred` to another account; `apply_to_final_bill` once service stops without a transfer. */
  deposit_status: z.enum(['none', 'held', 'transferred', 'apply_to_final_bill']),
  balance_cents: cents,
  bills: z.array(BillSchema),
});
export type Account = z.infer<typeof AccountSchema>;

export const ServiceOrderSchema = z.strictObject({
  order_id: z.string(),
  kind: z.enum(['stop', 'start', 'final_read', 'deposit_transfer']),
  account_id: z.string(),
  premise_id: z.string(),
  date: isoDate,
  status: z.enum(['scheduled', 'completed', 'cancelled']),
  /** Deposit transfers: the receiving account. */
  to_account_id: z.string().nullable(),
});
export type ServiceOrder = z.infer<typeof ServiceOrderSchema>;

export const UtilityStateSchema = z.strictObject({
  customers: z.record(z.string(), CustomerSchema),
  premises: z.record(z.string(), PremiseSchema),
  accounts: z.record(z.string(), AccountSchema),
  orders: z.record(z.string(), ServiceOrderSchema),
});
export type UtilityState = z.infer<typeof UtilityStateSchema>;
