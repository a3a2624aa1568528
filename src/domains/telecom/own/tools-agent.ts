/**
 * The account tools of servicegym's own telecom dataset (Kestrel Mobile): what the agent sees and
 * changes on the carrier's side. Each write refuses only what the carrier's systems would
 * refuse (unknown records, a pass already running, a second payment request, resuming a line that
 * is not suspended); whether a write is allowed is the policy's question (`data/kestrel_policy.md`),
 * which tasks check. Money in integer cents, dates ISO.
 */
import { z } from 'zod';
import type { CowDb } from '../../../env/cow-db.js';
import { ToolError, type ToolDef } from '../../../spec/tool.js';
import { makeCalculateTool, makeTransferToHumanAgentsTool } from '../../common/generic-tools.js';
import { recordOrToolError } from '../../common/record-lookup.js';
import { addDays } from './rules.js';
import type { KestrelState } from './phone.js';
import type { Bill, Customer, KestrelTables, Line } from './schema.js';

/** A tool of the Kestrel dataset (either side). */
export type KestrelTool<A = any> = ToolDef<KestrelState, A>;
type Db = CowDb<KestrelTables>;

const must = <K extends keyof KestrelTables>(db: Db, table: K, id: string, label: string) => recordOrToolError(db, table, id, label);
const today = (now: string) => now.slice(0, 10);
const lineId = z.string().describe("The line id, for example 'L-77301'.");
const customerId = z.string().describe("The customer id, for example 'zoe_adams_773'.");

/** The customer's open (current-cycle) bill, where new charges go; a tool error when there is none. */
function openBill(db: Db, c: Customer): Bill {
  const id = c.bill_ids.find((b) => db.get('bills', b)?.status === 'open');
  if (!id) throw new ToolError(`Customer ${c.customer_id} has no open bill to charge`);
  return db.mut('bills', id);
}

/** Adds a charge (cents) dated `on` to the customer's open bill; returns the bill id. */
function charge(db: Db, c: Customer, description: string, amountCents: number, on: string): string {
  const bill = openBill(db, c);
  bill.items = [...bill.items, { description, amount_cents: amountCents, date: on }];
  bill.total_cents += amountCents;
  return bill.bill_id;
}

/** The line with its plan's name and the roaming passes still running on `on`. */
function lineView(db: Db, line: Line, on: string) {
  const passes = db.ids('line_passes').map((id) => db.get('line_passes', id)!).filter((p) => p.line_id === line.line_id && p.end_on >= on);
  return { ...line, plan_name: db.get('plans', line.plan_id)?.name ?? null, active_roaming_passes: passes };
}

const readTools: KestrelTool[] = [
  {
    name: 'find_customer_by_phone',
    description: 'Find the customer who owns a line by the line\'s phone number (format 555-555-5555). Returns the customer record: id, full name, date of birth, email, address, line ids and bill ids.',
    parameters: z.strictObject({ phone_number: z.string().describe("The line's phone number, for example '503-555-0143'.") }),
    kind: 'read',
    requestor: 'assistant',
    invoke: ({ phone_number }, { state }) => {
      const want = String(phone_number).replace(/\D/g, '');
      const line = want.length === 10 ? state.db.ids('lines').map((id) => state.db.get('lines', id)!).find((l) => l.phone_number.replace(/\D/g, '') === want) : undefined;
      if (!line) throw new ToolError(`No line with phone number ${phone_number}`);
      return must(state.db, 'customers', line.customer_id, 'Customer');
    },
  },
  {
    name: 'get_customer',
    description: 'Get a customer record by customer id: full name, date of birth, email, address, line ids and bill ids.',
    parameters: z.strictObject({ customer_id: customerId }),
    kind: 'read',
    requestor: 'assistant',
    invoke: ({ customer_id }, { state }) => must(state.db, 'customers', customer_id, 'Customer'),
  },
  {
    name: 'get_line',
    description: "Get a line: phone number, plan, status (active, suspended, closed) and suspension reason, whether the line's roaming service is enabled, data used this cycle (MB), top-up GB, last plan change, device-payment contract end, and the roaming passes running today.",
    parameters: z.strictObject({ line_id: lineId }),
    kind: 'read',
    requestor: 'assistant',
    invoke: ({ line_id }, { state, now }) => lineView(state.db, must(state.db, 'lines', line_id, 'Line'), today(now)),
  },
  {
    name: 'get_plan',
    description: 'Get a plan: monthly price (cents), data allowance (GB), the roaming passes the plan is eligible for (pass ids), and the top-up price per GB (cents).',
    parameters: z.strictObject({ plan_id: z.string().describe("The plan id, for example 'PL-TRAVEL'.") }),
    kind: 'read',
    requestor: 'assistant',
    invoke: ({ plan_id }, { state }) => must(state.db, 'plans', plan_id, 'Plan'),
  },
  {
    name: 'list_plans',
    description: 'List every plan Kestrel Mobile sells, with monthly price (cents), data allowance and eligible roaming passes.',
    parameters: z.strictObject({}),
    kind: 'read',
    requestor: 'assistant',
    invoke: (_a, { state }) => state.db.ids('plans').map((id) => state.db.get('plans', id)),
  },
  {
    name: 'list_roaming_passes',
    description: 'List the roaming-pass catalogue: pass id, name, zone, length in days, data (GB) and price (cents).',
    parameters: z.strictObject({}),
    kind: 'read',
    requestor: 'assistant',
    invoke: (_a, { state }) => state.db.ids('roaming_passes').map((id) => state.db.get('roaming_passes', id)),
  },
  {
    name: 'list_bills',
    description: "List a customer's bills, newest period first: period, issue and due dates, status (open = current cycle, issued, awaiting_payment, paid, overdue), total (cents) and items.",
    parameters: z.strictObject({ customer_id: customerId }),
    kind: 'read',
    requestor: 'assistant',
    invoke: ({ customer_id }, { state }) => {
      const c = must(state.db, 'customers', customer_id, 'Customer');
      return c.bill_ids.map((id) => must(state.db, 'bills', id, 'Bill')).sort((a, b) => (a.period_start < b.period_start ? 1 : a.period_start > b.period_start ? -1 : 0));
    },
  },
  {
    name: 'get_device',
    description: 'Get a device on the account by device id: make, model, IMEI and whether it supports eSIM.',
    parameters: z.strictObject({ device_id: z.string().describe("The device id, for example 'D-77301'.") }),
    kind: 'read',
    requestor: 'assistant',
    invoke: ({ device_id }, { state }) => must(state.db, 'devices', device_id, 'Device'),
  },
];

const writeTools: KestrelTool[] = [
  {
    name: 'set_line_roaming',
    description: "Turn the line's roaming service on or off on the carrier's side (free). This does not change the Data roaming switch on the customer's phone.",
    parameters: z.strictObject({ line_id: lineId, enabled: z.boolean() }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ line_id, enabled }, { state }) => {
      const line = must(state.db, 'lines', line_id, 'Line');
      if (line.roaming_enabled === enabled) return `Roaming service was already ${enabled ? 'enabled' : 'disabled'} on line ${line_id}`;
      state.db.mut('lines', line_id).roaming_enabled = enabled;
      return `Roaming service ${enabled ? 'enabled' : 'disabled'} on line ${line_id}`;
    },
  },
  {
    name: 'add_roaming_pass',
    description: "Add a roaming pass from the catalogue to a line, starting today; its price is charged to the customer's open bill. Refused for a line that is not active and when the same pass is already running on the line. Returns the new line pass and the charge.",
    parameters: z.strictObject({ line_id: lineId, pass_id: z.string().describe("The pass id, for example 'RP-EU7'.") }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ line_id, pass_id }, { state, now }) => {
      const line = must(state.db, 'lines', line_id, 'Line');
      const pass = must(state.db, 'roaming_passes', pass_id, 'Roaming pass');
      const on = today(now);
      if (line.status !== 'active') throw new ToolError(`Line ${line_id} is ${line.status}; passes can be added to active lines only`);
      if (lineView(state.db, line, on).active_roaming_passes.some((p) => p.pass_id === pass_id)) throw new ToolError(`Pass ${pass_id} is already running on line ${line_id}`);
      const c = must(state.db, 'customers', line.customer_id, 'Customer');
      const end = addDays(on, pass.days - 1);
      const billId = charge(state.db, c, `${pass.name} on ${line.phone_number} (${on} to ${end})`, pass.price_cents, on);
      // The id comes from the content (line, pass, start), so the order of an agent's writes does not change it.
      const lp = { line_pass_id: `LP-${line_id.replace(/^L-/, '')}-${pass_id.replace(/^RP-/, '')}-${on.replace(/-/g, '')}`, line_id, pass_id, start_on: on, end_on: end, price_cents: pass.price_cents, bill_id: billId };
      state.db.put('line_passes', lp.line_pass_id, lp);
      return { line_pass: lp, charged_cents: pass.price_cents, bill_id: billId };
    },
  },
  {
    name: 'change_plan',
    description: 'Move a line to another plan, effective today (the new monthly price applies from the next bill; no fee). Returns the updated line.',
    parameters: z.strictObject({ line_id: lineId, plan_id: z.string().describe('The new plan id.') }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ line_id, plan_id }, { state, now }) => {
      const line = must(state.db, 'lines', line_id, 'Line');
      must(state.db, 'plans', plan_id, 'Plan');
      if (line.plan_id === plan_id) throw new ToolError(`Line ${line_id} is already on plan ${plan_id}`);
      if (line.status === 'closed') throw new ToolError(`Line ${line_id} is closed`);
      const m = state.db.mut('lines', line_id);
      m.plan_id = plan_id;
      m.last_plan_change_on = today(now);
      return lineView(state.db, m, today(now));
    },
  },
  {
    name: 'add_data_topup',
    description: "Add whole GB of data to a line for the rest of this cycle; the plan's top-up price per GB is charged to the customer's open bill.",
    parameters: z.strictObject({ line_id: lineId, gb: z.number().int().positive().describe('Whole GB to add.') }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ line_id, gb }, { state, now }) => {
      const line = must(state.db, 'lines', line_id, 'Line');
      const plan = must(state.db, 'plans', line.plan_id, 'Plan');
      const c = must(state.db, 'customers', line.customer_id, 'Customer');
      const cost = gb * plan.topup_price_per_gb_cents;
      const billId = charge(state.db, c, `Data top-up ${gb} GB on ${line.phone_number}`, cost, today(now));
      state.db.mut('lines', line_id).topup_gb += gb;
      return { line_id, topup_gb: line.topup_gb + gb, charged_cents: cost, bill_id: billId };
    },
  },
  {
    name: 'send_payment_request',
    description: "Send a payment request for one issued or overdue bill to the customer's phone, where they pay it in the Kestrel app; the bill becomes awaiting_payment. Only one bill per customer may await payment.",
    parameters: z.strictObject({ customer_id: customerId, bill_id: z.string().describe("The bill id, for example 'B-77311'.") }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ customer_id, bill_id }, { state }) => {
      const c = must(state.db, 'customers', customer_id, 'Customer');
      if (!c.bill_ids.includes(bill_id)) throw new ToolError(`Bill ${bill_id} not found for customer ${customer_id}`);
      if (c.bill_ids.some((id) => state.db.get('bills', id)?.status === 'awaiting_payment')) throw new ToolError('A bill is already awaiting payment for this customer');
      const bill = must(state.db, 'bills', bill_id, 'Bill');
      if (bill.status !== 'issued' && bill.status !== 'overdue') throw new ToolError(`Bill ${bill_id} is ${bill.status}; only issued or overdue bills can be requested`);
      state.db.mut('bills', bill_id).status = 'awaiting_payment';
      return `Payment request for bill ${bill_id} (${bill.total_cents} cents) sent to the customer's phone`;
    },
  },
  {
    name: 'resume_line',
    description: 'Resume a suspended line (service returns after the customer restarts the phone).',
    parameters: z.strictObject({ line_id: lineId }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ line_id }, { state, now }) => {
      const line = must(state.db, 'lines', line_id, 'Line');
      if (line.status !== 'suspended') throw new ToolError(`Line ${line_id} is ${line.status}, not suspended`);
      const m = state.db.mut('lines', line_id);
      m.status = 'active';
      m.suspension_reason = null;
      m.suspended_on = null;
      return lineView(state.db, m, today(now));
    },
  },
];

/** The agent's tools: reads, writes, the transfer (policy 8) and the calculator. */
export function kestrelAgentTools(): KestrelTool[] {
  return [
    ...readTools,
    ...writeTools,
    makeTransferToHumanAgentsTool<KestrelState>('Transfer the customer to a human specialist with a short summary. Only for what policy section 8 lists (a PUK-locked SIM or a SIM the phone does not detect after re-inserting it, number porting, closing an account, a bill dispute, suspected fraud), or when the customer asks for a person.'),
    makeCalculateTool<KestrelState>(),
  ];
}
