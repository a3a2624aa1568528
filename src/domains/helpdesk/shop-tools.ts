/**
 * The shop's back-end operations (what its admin and its internal API call): customers, orders,
 * refunds, discount codes and order notes. Each refuses what the shop itself refuses (unknown
 * records, refunding more than was paid, a duplicate code); the customer-service policy is the
 * agent's to apply (data/cs_policy.md), and tasks check it.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { generatedCode, refundableShippingCents } from './rules.js';
import { REFUND_REASONS, type DiscountCode, type Order, type Refund, type RefundReason } from './schema.js';
import { customerIdArg, must, mustOrder, orderIdArg, orderKey, type HelpdeskDb, type HelpdeskTool } from './tools-common.js';

/** An order with its refunds, as the shop's API returns it. */
export function orderView(db: HelpdeskDb, o: Order): Order & { refunds: Refund[] } {
  return { ...o, refunds: o.refund_ids.map((id) => db.get('refunds', id)!).filter(Boolean) };
}

/** `find_customer(email)`: the shop customer with that email and their orders (newest first). */
export const findCustomer: HelpdeskTool<{ email: string }> = {
  name: 'find_customer',
  description: 'Find the shop customer with this email address (case-insensitive). Returns {customer_id, name, email, phone, address, created_on, orders: [{order_id, placed_at, total_cents, refunded_cents, financial_status, fulfillment_status, promised_by, delivered_on}]}, newest order first; an error when no customer has that email.',
  parameters: z.strictObject({ email: z.string().min(3) }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ email }, { state }) => {
    const want = email.trim().toLowerCase();
    const id = state.ids('customers').find((c) => state.get('customers', c)!.email.toLowerCase() === want);
    if (!id) throw new ToolError(`No shop customer with email ${email.trim()}`);
    const c = state.get('customers', id)!;
    const orders = [...c.order_ids].reverse().map((oid) => {
      const o = must(state, 'orders', oid, 'Order');
      return { order_id: o.order_id, placed_at: o.placed_at, total_cents: o.total_cents, refunded_cents: o.refunded_cents, financial_status: o.financial_status, fulfillment_status: o.fulfillment.status, promised_by: o.fulfillment.promised_by, delivered_on: o.fulfillment.delivered_on };
    });
    return { customer_id: c.customer_id, name: c.name, email: c.email, phone: c.phone, address: c.address, created_on: c.created_on, orders };
  },
};

/** `get_order(order_id)`: the order with line items, shipping line, fulfillment, refunds and notes. */
export const getOrder: HelpdeskTool<{ order_id: string }> = {
  name: 'get_order',
  description: 'Get an order: line items (line_id, title, options, quantity, unit_price_cents, refunded_quantity), shipping_line {code, title, price_cents}, totals in cents, financial_status, fulfillment {status, carrier, tracking_number, shipped_on, promised_by, delivered_on}, refunds and staff notes.',
  parameters: z.strictObject({ order_id: orderIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ order_id }, { state }) => orderView(state, mustOrder(state, order_id)),
};

interface RefundArgs {
  order_id: string;
  line_items: { line_id: string; quantity: number }[];
  shipping_cents: number;
  reason: RefundReason;
}

/** Checks a refund request against what is still refundable; returns the refund's line amounts. */
function refundLines(o: Order, lines: RefundArgs['line_items']): Refund['line_items'] {
  const seen = new Set<string>();
  return lines.map(({ line_id, quantity }) => {
    const li = o.line_items.find((l) => l.line_id === line_id);
    if (!li) throw new ToolError(`Order ${o.order_id} has no line item ${line_id}`);
    if (seen.has(line_id)) throw new ToolError(`Line item ${line_id} is listed twice`);
    seen.add(line_id);
    const left = li.quantity - li.refunded_quantity;
    if (quantity > left) throw new ToolError(`Line item ${line_id} (${li.title}) has ${left} refundable unit(s), not ${quantity}`);
    return { line_id, quantity, amount_cents: quantity * li.unit_price_cents };
  });
}

/** `refund_order(order_id, line_items, shipping_cents, reason)`: refunds items and/or shipping to the original payment. */
export const refundOrder: HelpdeskTool<RefundArgs> = {
  name: 'refund_order',
  description: "Refund part of an order to the original payment method: line_items [{line_id, quantity}] refunds those units at their unit price (may be empty), shipping_cents refunds that much of the shipping charge (0 for none; at most what is left of it); reason: late_delivery, damaged, returned, shipping_upgrade, goodwill or other. Refused when nothing is refunded or more than was paid would be. Returns the refund {refund_id, line_items [{line_id, quantity, amount_cents}], shipping_cents, total_cents, reason, created_at}.",
  parameters: z.strictObject({
    order_id: orderIdArg,
    line_items: z.array(z.strictObject({ line_id: z.string(), quantity: z.number().int().positive() })),
    shipping_cents: z.number().int().min(0).describe('Shipping to refund, in cents (0 for none).'),
    reason: z.enum(REFUND_REASONS).describe('Why: late_delivery, damaged, returned, shipping_upgrade, goodwill or other.'),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, line_items, shipping_cents, reason }, { state, now }) => {
    const o = mustOrder(state, order_id);
    const lines = refundLines(o, line_items);
    const shippingLeft = refundableShippingCents(o);
    if (shipping_cents > shippingLeft) throw new ToolError(`Order ${o.order_id} has ${shippingLeft} cents of shipping left to refund, not ${shipping_cents}`);
    const total = lines.reduce((s, l) => s + l.amount_cents, 0) + shipping_cents;
    if (total === 0) throw new ToolError('Nothing to refund: choose at least one item or a shipping amount');
    const refund: Refund = { refund_id: `RF-${o.order_id}-${o.refund_ids.length + 1}`, order_id: o.order_id, line_items: lines, shipping_cents, total_cents: total, reason, created_at: now };
    state.put('refunds', refund.refund_id, refund);
    const m = state.mut('orders', o.order_id);
    for (const l of lines) m.line_items.find((x) => x.line_id === l.line_id)!.refunded_quantity += l.quantity;
    m.refunded_cents += total;
    m.shipping_refunded_cents += shipping_cents;
    m.refund_ids.push(refund.refund_id);
    m.financial_status = m.refunded_cents >= m.total_cents ? 'refunded' : 'partially_refunded';
    return refund;
  },
};

interface CodeArgs {
  percent_off: number;
  usage_limit: number | null;
  once_per_customer: boolean;
  customer_id: string | null;
  order_id: string | null;
  code?: string | null;
}

/** `create_discount_code(...)`: a percentage code; the shop generates the code unless one is given. */
export const createDiscountCode: HelpdeskTool<CodeArgs> = {
  name: 'create_discount_code',
  description: "Create a percentage discount code. percent_off: whole percent of the order subtotal; usage_limit: total uses allowed (1 = single use; null = unlimited); once_per_customer: each customer may use it once; customer_id: only this customer may use it (null: anyone); order_id: the order it makes up for (null: none); code: the code to create (4-24 of A-Z, 0-9, '-'), or null to let the shop generate one (SORRY-XXXXXX). Refused when the code exists. Returns the discount code record.",
  parameters: z.strictObject({
    percent_off: z.number().int().min(1).max(100),
    usage_limit: z.number().int().positive().nullable(),
    once_per_customer: z.boolean(),
    customer_id: customerIdArg.nullable(),
    order_id: orderIdArg.nullable(),
    code: z.string().nullable().optional(),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (args, { state, now }) => {
    if (args.customer_id !== null) must(state, 'customers', args.customer_id, 'Customer');
    const orderId = args.order_id === null ? null : mustOrder(state, args.order_id).order_id;
    let code = args.code?.trim().toUpperCase() ?? '';
    if (code === '') {
      const scope = orderId ?? args.customer_id ?? 'shop';
      for (let n = 1; ; n++) if (!state.has('discount_codes', (code = generatedCode(scope, n)))) break;
    }
    if (!/^[A-Z0-9-]{4,24}$/.test(code)) throw new ToolError(`Invalid code '${code}': use 4-24 letters, digits or '-'`);
    if (state.has('discount_codes', code)) throw new ToolError(`Discount code ${code} already exists`);
    const rec: DiscountCode = { code, percent_off: args.percent_off, usage_limit: args.usage_limit, once_per_customer: args.once_per_customer, customer_id: args.customer_id, times_used: 0, status: 'active', ends_on: null, order_id: orderId, created_at: now };
    state.put('discount_codes', code, rec);
    return rec;
  },
};

/** `get_discount_code(code)`. */
export const getDiscountCode: HelpdeskTool<{ code: string }> = {
  name: 'get_discount_code',
  description: 'Get a discount code: percent_off, usage_limit, once_per_customer, customer_id, times_used, status (active or disabled), ends_on, order_id.',
  parameters: z.strictObject({ code: z.string().min(1) }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ code }, { state }) => must(state, 'discount_codes', code.trim().toUpperCase(), 'Discount code'),
};

/** `list_discount_codes(customer_id)`: the codes restricted to a customer, newest first. */
export const listDiscountCodes: HelpdeskTool<{ customer_id: string }> = {
  name: 'list_discount_codes',
  description: 'List the discount codes restricted to a customer, newest first (each with percent_off, usage_limit, once_per_customer, times_used, status, order_id).',
  parameters: z.strictObject({ customer_id: customerIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ customer_id }, { state }) => {
    must(state, 'customers', customer_id, 'Customer');
    return state
      .ids('discount_codes')
      .map((id) => state.get('discount_codes', id)!)
      .filter((c) => c.customer_id === customer_id)
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || a.code.localeCompare(b.code));
  },
};

/** `disable_discount_code(code)`: the code can no longer be used (it is kept for the record). */
export const disableDiscountCode: HelpdeskTool<{ code: string }> = {
  name: 'disable_discount_code',
  description: 'Disable a discount code so it can no longer be used (it stays on record). Refused when it is already disabled. Returns the code.',
  parameters: z.strictObject({ code: z.string().min(1) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ code }, { state }) => {
    const c = must(state, 'discount_codes', code.trim().toUpperCase(), 'Discount code');
    if (c.status === 'disabled') throw new ToolError(`Discount code ${c.code} is already disabled`);
    const m = state.mut('discount_codes', c.code);
    m.status = 'disabled';
    return m;
  },
};

/** `add_order_note(order_id, text)`: a staff note on the order's timeline. */
export const addOrderNote: HelpdeskTool<{ order_id: string; text: string }> = {
  name: 'add_order_note',
  description: "Add a staff note to an order's timeline (not shown to the customer). Returns the order's notes.",
  parameters: z.strictObject({ order_id: orderIdArg, text: z.string().trim().min(1) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, text }, { state, now }) => {
    const m = state.mut('orders', mustOrder(state, order_id).order_id);
    m.notes.push({ text: text.trim(), at: now });
    return m.notes;
  },
};

/** The shop's operations, in the order an API agent sees them. */
export const shopTools: HelpdeskTool[] = [findCustomer, getOrder, refundOrder, createDiscountCode, getDiscountCode, listDiscountCodes, disableDiscountCode, addOrderNote];

export { orderKey };
