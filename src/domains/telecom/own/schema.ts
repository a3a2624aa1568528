/**
 * servicegym's own telecom back-end (Kestrel Mobile, November 2026; seed task T07): the carrier's
 * account tables and the customer's phone. Plain JSON, validated on load. Money is integer cents
 * (USD); dates are ISO `YYYY-MM-DD` in US Eastern time; data volumes in MB (usage) or whole GB
 * (allowances, top-ups).
 *
 * Account side (the agent's tools): plans, the roaming-pass catalogue, customers, lines, the passes
 * added to lines, bills and devices, keyed by id. Customer side (the customer's tools only): the
 * phone in the customer's hand — its settings, where it is, a pending payment request, and the
 * status the phone derives from both sides (see `phone.ts`).
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD');
const cents = z.number().int();

export const LINE_STATUSES = ['active', 'suspended', 'closed'] as const;
export const SUSPENSION_REASONS = ['non_payment', 'customer_request', 'lost_or_stolen'] as const;
export const BILL_STATUSES = ['open', 'issued', 'awaiting_payment', 'paid', 'overdue'] as const;
export const NETWORK_MODES = ['auto', '4g_only', '3g_only'] as const;
/** `not_detected`: badly seated (re-inserting fixes it); `faulty`: shows as not detected and stays so; `puk_locked`: needs a PUK. */
export const SIM_STATES = ['ready', 'not_detected', 'faulty', 'puk_locked'] as const;
/** Policy 3.4: the one correct access point name. */
export const CORRECT_APN = 'kestrel.net';

export const PlanSchema = z.strictObject({
  plan_id: z.string(),
  name: z.string(),
  monthly_price_cents: cents,
  data_gb: z.number().int().positive(),
  /** Pass ids of the catalogue this plan may add (policy 4.2(a)). */
  eligible_passes: z.array(z.string()),
  topup_price_per_gb_cents: cents,
});
export type Plan = z.infer<typeof PlanSchema>;

export const RoamingPassSchema = z.strictObject({
  pass_id: z.string(),
  name: z.string(),
  zone: z.enum(['Europe', 'Americas', 'World']),
  days: z.number().int().positive(),
  data_gb: z.number().int().positive(),
  price_cents: cents,
});
export type RoamingPass = z.infer<typeof RoamingPassSchema>;

export const CustomerSchema = z.strictObject({
  customer_id: z.string(),
  full_name: z.string(),
  date_of_birth: isoDate,
  email: z.string(),
  address: z.strictObject({ street: z.string(), city: z.string(), state: z.string().regex(/^[A-Z]{2}$/), zip: z.string().regex(/^\d{5}$/) }),
  customer_since: isoDate,
  line_ids: z.array(z.string()),
  bill_ids: z.array(z.string()),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const LineSchema = z.strictObject({
  line_id: z.string(),
  customer_id: z.string(),
  phone_number: z.string().regex(/^\d{3}-\d{3}-\d{4}$/),
  plan_id: z.string(),
  device_id: z.string().nullable(),
  status: z.enum(LINE_STATUSES),
  suspension_reason: z.enum(SUSPENSION_REASONS).nullable(),
  suspended_on: isoDate.nullable(),
  /** The line's roaming service (account side); the phone's own "Data roaming" switch is separate. */
  roaming_enabled: z.boolean(),
  /** Data used this cycle, MB. */
  data_used_mb: z.number().int().min(0),
  /** Extra GB bought this cycle (policy 7). */
  topup_gb: z.number().int().min(0),
  last_plan_change_on: isoDate.nullable(),
  /** End of a device-payment agreement, if any (policy 5.3). */
  contract_end_on: isoDate.nullable(),
});
export type Line = z.infer<typeof LineSchema>;

export const LinePassSchema = z.strictObject({
  line_pass_id: z.string(),
  line_id: z.string(),
  pass_id: z.string(),
  start_on: isoDate,
  end_on: isoDate,
  price_cents: cents,
  bill_id: z.string(),
});
export type LinePass = z.infer<typeof LinePassSchema>;

export const BillItemSchema = z.strictObject({ description: z.string(), amount_cents: cents, date: isoDate });
export const BillSchema = z.strictObject({
  bill_id: z.string(),
  customer_id: z.string(),
  period_start: isoDate,
  period_end: isoDate,
  /** null for the open (current) cycle, which is issued at its end. */
  issue_date: isoDate.nullable(),
  due_date: isoDate.nullable(),
  status: z.enum(BILL_STATUSES),
  total_cents: cents,
  items: z.array(BillItemSchema),
});
export type Bill = z.infer<typeof BillSchema>;

export const DeviceSchema = z.strictObject({
  device_id: z.string(),
  customer_id: z.string(),
  make: z.string(),
  model: z.string(),
  imei: z.string().regex(/^\d{15}$/),
  esim_capable: z.boolean(),
});
export type Device = z.infer<typeof DeviceSchema>;

/** The carrier's tables by id. */
export type KestrelTables = {
  plans: Record<string, Plan>;
  roaming_passes: Record<string, RoamingPass>;
  customers: Record<string, Customer>;
  lines: Record<string, Line>;
  line_passes: Record<string, LinePass>;
  bills: Record<string, Bill>;
  devices: Record<string, Device>;
};

export const KestrelTablesSchema = z.strictObject({
  plans: z.record(z.string(), PlanSchema),
  roaming_passes: z.record(z.string(), RoamingPassSchema),
  customers: z.record(z.string(), CustomerSchema),
  lines: z.record(z.string(), LineSchema),
  line_passes: z.record(z.string(), LinePassSchema),
  bills: z.record(z.string(), BillSchema),
  devices: z.record(z.string(), DeviceSchema),
});

/** What the phone shows, derived from its settings and the line (recomputed after every call). */
export const PhoneStatusSchema = z.strictObject({
  service: z.enum(['connected', 'no_service']),
  network: z.enum(['none', '3G', '4G', '5G']),
  mobile_data: z.enum(['working', 'not_working']),
  /** Why mobile data does not work (the first cause found), null when it works. */
  problem: z.string().nullable(),
});
export type PhoneStatus = z.infer<typeof PhoneStatusSchema>;

export const PhoneSchema = z.strictObject({
  /** The line whose SIM is in the phone (null: no customer in this episode). */
  line_id: z.string().nullable(),
  /** Where the phone is: an ISO country code; anything but `US` is abroad. */
  country: z.string().regex(/^[A-Z]{2}$/),
  airplane_mode: z.boolean(),
  mobile_data: z.boolean(),
  data_roaming: z.boolean(),
  data_saver: z.boolean(),
  network_mode: z.enum(NETWORK_MODES),
  sim: z.enum(SIM_STATES),
  apn: z.strictObject({ name: z.string(), reset_pending: z.boolean() }),
  payment_request: z.strictObject({ bill_id: z.string(), amount_cents: cents, paid: z.boolean() }).nullable(),
  status: PhoneStatusSchema,
});
export type Phone = z.infer<typeof PhoneSchema>;

/** A healthy phone at home with no line (the default a task's `user_data` patches). */
export function defaultPhone(): Phone {
  return {
    line_id: null,
    country: 'US',
    airplane_mode: false,
    mobile_data: true,
    data_roaming: false,
    data_saver: false,
    network_mode: 'auto',
    sim: 'ready',
    apn: { name: CORRECT_APN, reset_pending: false },
    payment_request: null,
    status: { service: 'no_service', network: 'none', mobile_data: 'not_working', problem: 'no_line' },
  };
}
