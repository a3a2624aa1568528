/**
 * The utility back-end's tools (customer information system): customers, premises, accounts with
 * bills, and service orders — stop with a final meter read, start at a premise, deposit transfer —
 * plus contact updates. The system refuses what a utility CIS refuses (past dates, dates too far
 * ahead, a start at an occupied premise before the occupant stops, double orders); deposit
 * eligibility and the final-bill date are the policy's (data/utility_policy.md).
 */
import { recordOrToolError } from '../common/record-lookup.js';
import { z } from 'zod';
import type { CowDb } from '../../env/cow-db.js';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import { addDays } from './rules.js';
import { SERVICES, type Account, type Customer, type Premise, type ServiceOrder } from './schema.js';

export type UtilityTables = { customers: Record<string, Customer>; premises: Record<string, Premise>; accounts: Record<string, Account>; orders: Record<string, ServiceOrder> };
export type UtilityDb = CowDb<UtilityTables>;
export type UtilityTool<A = any> = ToolDef<UtilityDb, A>;

/** The record or a tool error `<Label> <id> not found` (see recordOrToolError). */
const must = <K extends keyof UtilityTables>(db: UtilityDb, table: K, id: string, label: string): UtilityTables[K][string] => recordOrToolError(db, table, id, label);
const isoDateArg = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date YYYY-MM-DD');

/** Refuses a service date before tomorrow or more than 60 days ahead (policy 2.2). */
function checkServiceDate(date: string, now: string): void {
  const today = now.slice(0, 10);
  if (date <= today) throw new ToolError(`Service date ${date} must be after today (${today}); orders cannot be backdated`);
  if (date > addDays(today, 60)) throw new ToolError(`Service date ${date} is more than 60 days ahead`);
}

function order(db: UtilityDb, o: ServiceOrder): ServiceOrder {
  if (db.has('orders', o.order_id)) throw new ToolError(`Order ${o.order_id} already exists`);
  db.put('orders', o.order_id, o);
  return o;
}

export const findCustomers: UtilityTool<{ first_name: string; last_name: string }> = {
  name: 'find_customers',
  description: 'Find customers by first and last name (case-insensitive): {customer_id, first_name, last_name, account_ids} each. Namesakes are common.',
  parameters: z.strictObject({ first_name: z.string().min(1), last_name: z.string().min(1) }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ first_name, last_name }, { state }) =>
    state.ids('customers').map((id) => state.get('customers', id)!).filter((c) => c.first_name.toLowerCase() === first_name.trim().toLowerCase() && c.last_name.toLowerCase() === last_name.trim().toLowerCase())
      .map((c) => ({ customer_id: c.customer_id, first_name: c.first_name, last_name: c.last_name, account_ids: c.account_ids })),
};

export const getCustomer: UtilityTool<{ customer_id: string }> = {
  name: 'get_customer',
  description: "Get a customer: name, account PIN (for verification, never to be read out), phone, email and account ids.",
  parameters: z.strictObject({ customer_id: z.string() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ customer_id }, { state }) => must(state, 'customers', customer_id, 'Customer'),
};

export const getAccount: UtilityTool<{ account_id: string }> = {
  name: 'get_account',
  description: 'Get an account: premise, services, status, start and stop dates, deposit (cents and status), balance, and its bills (issued, due, amount, paid date) for the last 12 months.',
  parameters: z.strictObject({ account_id: z.string() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ account_id }, { state }) => must(state, 'accounts', account_id, 'Account'),
};

export const findPremises: UtilityTool<{ zip: string; street?: string }> = {
  name: 'find_premises',
  description: 'Find service premises by ZIP code, optionally filtered by a piece of the street address (case-insensitive). Returns {premise_id, address, zip, services, occupied} each.',
  parameters: z.strictObject({ zip: z.string(), street: z.string().optional() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ zip, street }, { state }) =>
    state.ids('premises').map((id) => state.get('premises', id)!).filter((p) => p.zip === zip.trim() && (!street || p.address.toLowerCase().includes(street.trim().toLowerCase())))
      .map((p) => ({ premise_id: p.premise_id, address: p.address, zip: p.zip, services: p.services, occupied: p.current_account_id !== null })),
};

export const getPremise: UtilityTool<{ premise_id: string }> = {
  name: 'get_premise',
  description: "Get a premise: address, services, and the current account's stop date if it is occupied (the occupant's identity is not shown).",
  parameters: z.strictObject({ premise_id: z.string() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ premise_id }, { state }) => {
    const p = must(state, 'premises', premise_id, 'Premise');
    const cur = p.current_account_id ? state.get('accounts', p.current_account_id) : undefined;
    return { premise_id: p.premise_id, address: p.address, zip: p.zip, services: p.services, occupied: cur !== undefined, occupant_stop_date: cur?.stop_date ?? null };
  },
};

export const scheduleStop: UtilityTool<{ account_id: string; stop_date: string }> = {
  name: 'schedule_stop',
  description: 'Schedule the end of service on an active account (from tomorrow to 60 days ahead). The deposit stays on the account (status apply_to_final_bill) unless transfer_deposit moves it. Schedule the final meter read separately. Returns the stop order.',
  parameters: z.strictObject({ account_id: z.string(), stop_date: isoDateArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ account_id, stop_date }, { state, now }) => {
    const a = must(state, 'accounts', account_id, 'Account');
    if (a.status !== 'active') throw new ToolError(`Account ${account_id} is ${a.status}`);
    checkServiceDate(stop_date, now);
    const m = state.mut('accounts', account_id);
    m.status = 'stop_scheduled';
    m.stop_date = stop_date;
    if (m.deposit_status === 'held') m.deposit_status = 'apply_to_final_bill';
    return order(state, { order_id: `SO-${account_id}-STOP`, kind: 'stop', account_id, premise_id: a.premise_id, date: stop_date, status: 'scheduled', to_account_id: null });
  },
};

export const scheduleFinalRead: UtilityTool<{ account_id: string; read_date: string }> = {
  name: 'schedule_final_read',
  description: "Schedule the final meter read of an account whose stop is scheduled (the read date is normally the stop date; meters are read remotely, weekends included). Returns the read order.",
  parameters: z.strictObject({ account_id: z.string(), read_date: isoDateArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ account_id, read_date }, { state, now }) => {
    const a = must(state, 'accounts', account_id, 'Account');
    if (a.status !== 'stop_scheduled' || a.stop_date === null) throw new ToolError(`Account ${account_id} has no stop scheduled`);
    checkServiceDate(read_date, now);
    if (read_date > a.stop_date) throw new ToolError(`The final read (${read_date}) cannot be after the stop date (${a.stop_date})`);
    return order(state, { order_id: `SO-${account_id}-READ`, kind: 'final_read', account_id, premise_id: a.premise_id, date: read_date, status: 'scheduled', to_account_id: null });
  },
};

export const scheduleStart: UtilityTool<{ customer_id: string; premise_id: string; start_date: string; services: (typeof SERVICES)[number][] }> = {
  name: 'schedule_start',
  description: "Open an account for a customer at a premise from start_date (tomorrow to 60 days ahead) for services the premise offers. Refused at an occupied premise before the occupant's stop date. The new account starts with no deposit. Returns the new account id and the start order.",
  parameters: z.strictObject({ customer_id: z.string(), premise_id: z.string(), start_date: isoDateArg, services: z.array(z.enum(SERVICES)).min(1) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ customer_id, premise_id, start_date, services }, { state, now }) => {
    must(state, 'customers', customer_id, 'Customer');
    const p = must(state, 'premises', premise_id, 'Premise');
    checkServiceDate(start_date, now);
    const missing = services.filter((s) => !p.services.includes(s));
    if (missing.length) throw new ToolError(`Premise ${premise_id} has no ${missing.join(', ')} service`);
    const cur = p.current_account_id ? state.get('accounts', p.current_account_id) : undefined;
    if (cur && cur.customer_id !== customer_id && (cur.stop_date === null || cur.stop_date > start_date)) {
      throw new ToolError(cur.stop_date ? `Premise ${premise_id} is occupied until ${cur.stop_date}: start on or after that date` : `Premise ${premise_id} is occupied with no stop scheduled`);
    }
    const account_id = `UA-${premise_id.replace(/^PR-/, '')}-${customer_id}`;
    if (state.has('accounts', account_id)) throw new ToolError(`Account ${account_id} already exists`);
    state.put('accounts', account_id, { account_id, customer_id, premise_id, services: [...new Set(services)], status: 'pending_start', start_date, stop_date: null, deposit_cents: 0, deposit_status: 'none', balance_cents: 0, bills: [] });
    state.mut('customers', customer_id).account_ids.push(account_id);
    state.mut('premises', premise_id).current_account_id = account_id;
    return { account_id, order: order(state, { order_id: `SO-${account_id}-START`, kind: 'start', account_id, premise_id, date: start_date, status: 'scheduled', to_account_id: null }) };
  },
};

export const transferDeposit: UtilityTool<{ from_account_id: string; to_account_id: string }> = {
  name: 'transfer_deposit',
  description: "Move the deposit of an account that is stopping to the same customer's new account (policy 4.1 says when this is allowed). Returns the transfer order.",
  parameters: z.strictObject({ from_account_id: z.string(), to_account_id: z.string() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ from_account_id, to_account_id }, { state, now }) => {
    const from = must(state, 'accounts', from_account_id, 'Account');
    const to = must(state, 'accounts', to_account_id, 'Account');
    if (from.customer_id !== to.customer_id) throw new ToolError('A deposit can only move between accounts of the same customer');
    if (from.deposit_cents <= 0 || from.deposit_status === 'transferred' || from.deposit_status === 'none') throw new ToolError(`Account ${from_account_id} has no deposit to transfer`);
    const amount = from.deposit_cents;
    const f = state.mut('accounts', from_account_id);
    f.deposit_status = 'transferred';
    f.deposit_cents = 0;
    const t = state.mut('accounts', to_account_id);
    t.deposit_cents += amount;
    t.deposit_status = 'held';
    return order(state, { order_id: `SO-${from_account_id}-DEP`, kind: 'deposit_transfer', account_id: from_account_id, premise_id: from.premise_id, date: now.slice(0, 10), status: 'completed', to_account_id });
  },
};

export const updateContact: UtilityTool<{ customer_id: string; phone?: string; email?: string }> = {
  name: 'update_contact',
  description: "Update a customer's phone (NNN-NNN-NNNN) and/or email.",
  parameters: z.strictObject({ customer_id: z.string(), phone: z.string().regex(/^\d{3}-\d{3}-\d{4}$/, 'expected NNN-NNN-NNNN').optional(), email: z.string().email().optional() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ customer_id, phone, email }, { state }) => {
    must(state, 'customers', customer_id, 'Customer');
    if (phone === undefined && email === undefined) throw new ToolError('give a phone or an email to update');
    const m = state.mut('customers', customer_id);
    if (phone !== undefined) m.phone = phone;
    if (email !== undefined) m.email = email;
    return m;
  },
};

/** The tools in the order the agent sees them (without the generic ones). */
export const utilityTools: UtilityTool[] = [findCustomers, getCustomer, getAccount, findPremises, getPremise, scheduleStop, scheduleFinalRead, scheduleStart, transferDeposit, updateContact];
