/**
 * Building one customer account of the Kestrel dataset — customer, lines, devices and three
 * monthly bills (September paid or overdue, October issued and due 2026-11-21, November open) —
 * used by both the seeded generator and the task records, so both follow the same shape.
 */
import type { Bill, Customer, Device, Line } from '../schema.js';
import { KESTREL_PLANS } from './catalog.js';

/** The dataset's "now" (US Eastern): the current cycle is November 2026. */
export const KESTREL_NOW = '2026-11-12T10:30:00';

/** One line of an account to build. */
export interface LineSpec {
  line_id: string;
  phone_number: string;
  plan_id: string;
  status?: Line['status'];
  suspension_reason?: Line['suspension_reason'];
  suspended_on?: string | null;
  roaming_enabled?: boolean;
  data_used_mb?: number;
  topup_gb?: number;
  last_plan_change_on?: string | null;
  contract_end_on?: string | null;
  device: { device_id: string; make: string; model: string; imei: string; esim_capable: boolean } | null;
}

/** One account to build; `bill_prefix` names its bills `<prefix>-09`, `-10`, `-11`. */
export interface AccountSpec {
  customer_id: string;
  full_name: string;
  date_of_birth: string;
  email: string;
  address: Customer['address'];
  customer_since: string;
  bill_prefix: string;
  lines: LineSpec[];
  /** September's bill: `paid` (default) or `overdue` (unpaid past its due date 2026-10-21). */
  september?: 'paid' | 'overdue';
  /** October's bill: `issued` (default, due 2026-11-21) or `paid`. */
  october?: 'issued' | 'paid';
}

const PERIODS = [
  { mm: '09', start: '2026-09-01', end: '2026-09-30', issue: '2026-10-01', due: '2026-10-21', month: 'September' },
  { mm: '10', start: '2026-10-01', end: '2026-10-31', issue: '2026-11-01', due: '2026-11-21', month: 'October' },
  { mm: '11', start: '2026-11-01', end: '2026-11-30', issue: null, due: null, month: 'November' },
] as const;

/** The customer, lines, devices and bills of one account (plan charges per line and month). */
export function buildAccount(a: AccountSpec): { customer: Customer; lines: Line[]; devices: Device[]; bills: Bill[] } {
  const lines: Line[] = a.lines.map((l) => ({
    line_id: l.line_id,
    customer_id: a.customer_id,
    phone_number: l.phone_number,
    plan_id: l.plan_id,
    device_id: l.device?.device_id ?? null,
    status: l.status ?? 'active',
    suspension_reason: l.suspension_reason ?? null,
    suspended_on: l.suspended_on ?? null,
    roaming_enabled: l.roaming_enabled ?? false,
    data_used_mb: l.data_used_mb ?? 0,
    topup_gb: l.topup_gb ?? 0,
    last_plan_change_on: l.last_plan_change_on ?? null,
    contract_end_on: l.contract_end_on ?? null,
  }));
  const devices: Device[] = a.lines.flatMap((l) => (l.device ? [{ ...l.device, customer_id: a.customer_id }] : []));
  const status = [a.september ?? 'paid', a.october ?? 'issued', 'open'] as const;
  const bills: Bill[] = PERIODS.map((p, i) => {
    const items = a.lines.map((l) => {
      const plan = KESTREL_PLANS.find((x) => x.plan_id === l.plan_id);
      if (!plan) throw new Error(`unknown plan ${l.plan_id} for line ${l.line_id}`);
      return { description: `${plan.name} plan for ${l.phone_number}, ${p.month} 2026`, amount_cents: plan.monthly_price_cents, date: p.start };
    });
    return {
      bill_id: `${a.bill_prefix}-${p.mm}`,
      customer_id: a.customer_id,
      period_start: p.start,
      period_end: p.end,
      issue_date: p.issue,
      due_date: p.due,
      status: status[i],
      total_cents: items.reduce((s, x) => s + x.amount_cents, 0),
      items,
    };
  });
  const customer: Customer = {
    customer_id: a.customer_id,
    full_name: a.full_name,
    date_of_birth: a.date_of_birth,
    email: a.email,
    address: a.address,
    customer_since: a.customer_since,
    line_ids: lines.map((l) => l.line_id),
    bill_ids: bills.map((b) => b.bill_id),
  };
  return { customer, lines, devices, bills };
}
