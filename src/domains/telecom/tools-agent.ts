/**
 * tau2 telecom's 13 agent tools (tau2-notes §4.2) with byte-identical outputs: models print as
 * Python's `json.dumps(model_dump())`; plain dicts print with their number leaves as strings
 * (`"charge": "4.0"`); errors are tau2's messages. Also the agent-side helpers that tasks'
 * initialization actions and env assertions call (`set_data_usage`,
 * `suspend_line_for_overdue_bill`, `assert_*`).
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { pyDumps, pyString, type PyTypeTree } from '../../util/pyjson.js';
import { pyFixed, pyFloatStr } from './py-text.js';
import {
  addDays,
  billById,
  billsAwaitingPayment,
  customerById,
  customerByPhone,
  deviceById,
  firstOfMonth,
  firstOfNextMonth,
  lastOfMonth,
  lineById,
  planById,
  targetLine,
} from './records.js';
import { BILL_TYPES, CUSTOMER_TYPES, LINE_TYPES, PLAN_TYPES, type Bill, type LineStatus, type TelecomDb } from './schema.js';
import type { TelecomState } from './state.js';
import { tau2Tool, type TelecomTool } from './tool-def.js';

const dump = (v: unknown, types?: PyTypeTree) => pyDumps(v, { types });
const customerLine = z.object({ customer_id: z.string(), line_id: z.string() });

/** Case- and accent-insensitive form of a name (tau2 matches spoken names this way). */
const foldName = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();

/** `{"message": …, "line": <Line model>}` as tau2 prints a plain dict holding a model. */
const messageWithLine = (message: string, line: unknown) => `{"message": ${pyString(message)}, "line": ${dump(line, LINE_TYPES)}}`;

/** Python's `list[:limit]` for an int limit. */
function pySliceHead<T>(list: T[], limit: number): T[] {
  return limit >= 0 ? list.slice(0, limit) : list.slice(0, Math.max(0, list.length + limit));
}

/** The telecom agent tools for a dataset whose "today" is `today` (`YYYY-MM-DD`). */
export function telecomAgentTools(today: string): TelecomTool[] {
  const t = (name: string, kind: 'read' | 'write' | 'generic', params: z.ZodType<any>, fn: (a: any, s: TelecomState, ctx: { nextId: (p: string) => string }) => string) =>
    tau2Tool(name, 'assistant', kind, params, fn);
  return [
    t('get_customer_by_phone', 'read', z.object({ phone_number: z.string() }), (a, s) => dump(customerByPhone(s.db, a.phone_number), CUSTOMER_TYPES)),
    t('get_customer_by_id', 'read', z.object({ customer_id: z.string() }), (a, s) => dump(customerById(s.db, a.customer_id), CUSTOMER_TYPES)),
    t('get_customer_by_name', 'read', z.object({ full_name: z.string(), dob: z.string() }), (a, s) => {
      const want = foldName(a.full_name);
      return dump(s.db.customers.filter((c) => foldName(c.full_name) === want && c.date_of_birth === a.dob), [CUSTOMER_TYPES]);
    }),
    t('get_details_by_id', 'read', z.object({ id: z.string() }), (a, s) => detailsById(s.db, a.id)),
    t('suspend_line', 'write', customerLine.extend({ reason: z.string() }), (a, s) => {
      const line = targetLine(s.db, a.customer_id, a.line_id);
      if (line.status !== 'Active') throw new ToolError('Line must be active to suspend');
      line.status = 'Suspended';
      line.suspension_start_date = today;
      return messageWithLine('Line suspended successfully. $5/month holding fee will apply.', line);
    }),
    t('resume_line', 'write', customerLine, (a, s) => {
      const line = targetLine(s.db, a.customer_id, a.line_id);
      if (line.status !== 'Suspended' && line.status !== 'Pending Activation') throw new ToolError('Line must be suspended to resume');
      line.status = 'Active';
      line.suspension_start_date = null;
      return messageWithLine('Line resumed successfully', line);
    }),
    t('get_bills_for_customer', 'read', z.object({ customer_id: z.string(), limit: z.number().int().optional() }), (a, s) => {
      const c = customerById(s.db, a.customer_id);
      const bills = c.bill_ids.map((id) => billById(s.db, id));
      const sorted = [...bills].sort((x, y) => (x.issue_date < y.issue_date ? 1 : x.issue_date > y.issue_date ? -1 : 0));
      return dump(pySliceHead(sorted, a.limit ?? 12), [BILL_TYPES]);
    }),
    t('send_payment_request', 'write', z.object({ customer_id: z.string(), bill_id: z.string() }), (a, s) => {
      const c = customerById(s.db, a.customer_id);
      if (billsAwaitingPayment(s.db, c).length !== 0) throw new ToolError('A bill is already awaiting payment for this customer');
      if (!c.bill_ids.includes(a.bill_id)) throw new ToolError(`Bill ${a.bill_id} not found for customer ${a.customer_id}`);
      const bill = billById(s.db, a.bill_id);
      bill.status = 'Awaiting Payment';
      return `Payment request sent to the customer for bill ${bill.bill_id}`;
    }),
    t('get_data_usage', 'read', customerLine, (a, s) => {
      const line = targetLine(s.db, a.customer_id, a.line_id);
      const plan = planById(s.db, line.plan_id);
      return pyDumps({
        line_id: a.line_id,
        data_used_gb: pyFloatStr(line.data_used_gb),
        data_limit_gb: pyFloatStr(plan.data_limit_gb),
        data_refueling_gb: pyFloatStr(line.data_refueling_gb),
        cycle_end_date: lastOfMonth(today),
      });
    }),
    t('enable_roaming', 'write', customerLine, (a, s) => {
      const line = targetLine(s.db, a.customer_id, a.line_id);
      if (line.roaming_enabled) return 'Roaming was already enabled';
      line.roaming_enabled = true;
      return 'Roaming enabled successfully';
    }),
    t('disable_roaming', 'write', customerLine, (a, s) => {
      const line = targetLine(s.db, a.customer_id, a.line_id);
      if (!line.roaming_enabled) return 'Roaming was already disabled';
      line.roaming_enabled = false;
      return 'Roaming disabled successfully';
    }),
    t('transfer_to_human_agents', 'generic', z.object({ summary: z.string() }), () => 'Transfer successful'),
    t('refuel_data', 'write', customerLine.extend({ gb_amount: z.number() }), (a, s, ctx) => {
      const line = targetLine(s.db, a.customer_id, a.line_id);
      if (a.gb_amount <= 0) throw new ToolError('Refuel amount must be positive');
      const plan = planById(s.db, line.plan_id);
      const charge = a.gb_amount * plan.data_refueling_price_per_gb;
      line.data_refueling_gb += a.gb_amount;
      applyOneTimeCharge(s.db, today, a.customer_id, charge, `Data refueling: ${pyFloatStr(a.gb_amount)} GB at $${pyFloatStr(plan.data_refueling_price_per_gb)}/GB`, ctx.nextId);
      return pyDumps({
        message: `Successfully added ${pyFloatStr(a.gb_amount)} GB of data for line ${a.line_id} for $${pyFixed(charge, 2)}`,
        new_data_refueling_gb: pyFloatStr(line.data_refueling_gb),
        charge: pyFloatStr(charge),
      });
    }),
  ];
}

/** `get_details_by_id`: dispatch on the id's first letter (L, D, B, C, P). */
function detailsById(db: TelecomDb, id: string): string {
  if (id.startsWith('L')) return dump(lineById(db, id), LINE_TYPES);
  if (id.startsWith('D')) return dump(deviceById(db, id));
  if (id.startsWith('B')) return dump(billById(db, id), BILL_TYPES);
  if (id.startsWith('C')) return dump(customerById(db, id), CUSTOMER_TYPES);
  if (id.startsWith('P')) return dump(planById(db, id), PLAN_TYPES);
  throw new ToolError(`Unknown ID format or type: ${id}`);
}

/**
 * Adds a charge (or credit, when negative; USD) as a line item dated `today` to the customer's
 * first Draft bill, creating a Draft bill for next month (period = next month, due 14 days after
 * issue) when there is none. tau2 names a new bill with a random id; here it is
 * `nextId('B')`, deterministic per episode.
 */
export function applyOneTimeCharge(db: TelecomDb, today: string, customerId: string, amount: number, description: string, nextId: (p: string) => string): void {
  const c = customerById(db, customerId);
  let draft = c.bill_ids.map((id) => billById(db, id)).find((b) => b.status === 'Draft');
  if (!draft) {
    const start = firstOfNextMonth(today);
    const bill: Bill = {
      bill_id: nextId('B'),
      customer_id: customerId,
      period_start: start,
      period_end: lastOfMonth(start),
      issue_date: start,
      total_due: 0,
      due_date: addDays(start, 14),
      line_items: [],
      status: 'Draft',
    };
    db.bills.push(bill);
    c.bill_ids.push(bill.bill_id);
    draft = bill;
  }
  draft.line_items.push({ description, amount, date: today, item_type: amount < 0 ? 'Credit' : 'Charge' });
  draft.total_due += amount;
}

const str = (a: Record<string, unknown>, k: string) => {
  if (typeof a[k] !== 'string') throw new Error(`argument '${k}' must be a string`);
  return a[k] as string;
};
const num = (a: Record<string, unknown>, k: string) => {
  if (typeof a[k] !== 'number') throw new Error(`argument '${k}' must be a number`);
  return a[k] as number;
};

/** Agent-side functions for initialization actions (tau2 `TelecomTools` helpers that are not tools). */
export function telecomAgentInitFunctions(today: string): Record<string, (s: TelecomState, a: Record<string, unknown>) => unknown> {
  return {
    set_data_usage: (s, a) => {
      targetLine(s.db, str(a, 'customer_id'), str(a, 'line_id')).data_used_gb = num(a, 'data_used_gb');
    },
    /** Adds an Overdue bill for last month's plan price and suspends the line (optionally with its contract ended last month). */
    suspend_line_for_overdue_bill: (s, a) => {
      const line = lineById(s.db, str(a, 'line_id'));
      if (line.status !== 'Active') throw new Error('Line must be active to suspend for unpaid bill');
      const amount = planById(s.db, line.plan_id).price_per_month;
      if (amount <= 0) throw new Error('Amount must be positive for overdue bill');
      const c = customerById(s.db, str(a, 'customer_id'));
      if (c.bill_ids.some((id) => billById(s.db, id).status === 'Overdue')) throw new Error('Customer already has an overdue bill');
      const lastMonthEnd = addDays(firstOfMonth(today), -1);
      const lastMonthStart = firstOfMonth(lastMonthEnd);
      const billId = str(a, 'new_bill_id');
      s.db.bills.push({
        bill_id: billId,
        customer_id: c.customer_id,
        period_start: lastMonthStart,
        period_end: lastMonthEnd,
        issue_date: lastMonthStart,
        total_due: amount,
        due_date: addDays(lastMonthStart, 14),
        line_items: [{ description: `Charge for line ${line.line_id}`, amount, date: today, item_type: 'Charge' }],
        status: 'Overdue',
      });
      c.bill_ids.push(billId);
      line.status = 'Suspended';
      line.suspension_start_date = today;
      if (a.contract_ended === true) line.contract_end_date = lastMonthEnd;
    },
  };
}

/** Agent-side env assertions (tau2 `TelecomTools.assert_*`). */
export const telecomAgentAssertions: Record<string, (s: TelecomState, a: Record<string, unknown>) => boolean> = {
  assert_data_refueling_amount: (s, a) => Math.abs(targetLine(s.db, str(a, 'customer_id'), str(a, 'line_id')).data_refueling_gb - num(a, 'expected_amount')) < 1e-6,
  assert_line_status: (s, a) => targetLine(s.db, str(a, 'customer_id'), str(a, 'line_id')).status === (a.expected_status as LineStatus),
  assert_overdue_bill_exists: (s, a) => {
    const c = customerById(s.db, str(a, 'customer_id'));
    const id = str(a, 'overdue_bill_id');
    if (!c.bill_ids.includes(id)) throw new Error(`Overdue bill ${id} not found`);
    if (billById(s.db, id).status !== 'Overdue') throw new Error(`Overdue bill ${id} is not overdue`);
    return true;
  },
  assert_no_overdue_bill: (s, a) => {
    const bill = s.db.bills.find((b) => b.bill_id === str(a, 'overdue_bill_id'));
    return !bill || bill.status === 'Paid';
  },
};
