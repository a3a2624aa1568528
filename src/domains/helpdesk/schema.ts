/**
 * The helpdesk domain's state: a shop (customers, orders with line items and shipping lines,
 * refunds, discount codes) and the helpdesk connected to it (requesters, tickets with threads,
 * macros). Seed task T18. Plain JSON, validated on load.
 *
 * Money is integer cents (USD); dates are ISO `YYYY-MM-DD`, times ISO `YYYY-MM-DDTHH:MM:SSZ` (UTC).
 *
 * Shapes shared with the retail domain: a customer's `name` (`PersonName`) and postal `Address`,
 * and a line item's identity (`product_id`, `item_id`, `options`), so a retail order maps onto a shop
 * order field by field. The order itself is the shop's own shape: retail keeps tau2's float dollars
 * and tau2-compatible hashes, and has no quantities, shipping lines or refund records, which the
 * shop's checks (refund equals the shipping amount only) are about.
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD');
const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/, 'an ISO time YYYY-MM-DDTHH:MM:SSZ (UTC)');
const cents = z.number().int();

/** retail's `Address` (tau2 shape). */
export const AddressSchema = z.strictObject({ address1: z.string(), address2: z.string(), city: z.string(), country: z.string(), state: z.string(), zip: z.string() });
/** retail's `PersonName`. */
export const PersonNameSchema = z.strictObject({ first_name: z.string(), last_name: z.string() });

export const ShopCustomerSchema = z.strictObject({
  customer_id: z.string(),
  name: PersonNameSchema,
  email: z.string(),
  phone: z.string(),
  address: AddressSchema,
  created_on: isoDate,
  order_ids: z.array(z.string()),
});
export type ShopCustomer = z.infer<typeof ShopCustomerSchema>;

export const LineItemSchema = z.strictObject({
  line_id: z.string(),
  product_id: z.string(),
  item_id: z.string(),
  title: z.string(),
  options: z.record(z.string(), z.string()),
  quantity: z.number().int().positive(),
  unit_price_cents: cents,
  /** Units refunded so far. */
  refunded_quantity: z.number().int().min(0),
});
export type LineItem = z.infer<typeof LineItemSchema>;

export const ShippingLineSchema = z.strictObject({
  code: z.enum(['standard', 'express', 'free']),
  title: z.string(),
  price_cents: cents,
});

export const FULFILLMENT_STATUSES = ['unfulfilled', 'in_transit', 'delivered'] as const;
export const FINANCIAL_STATUSES = ['paid', 'partially_refunded', 'refunded'] as const;

export const OrderSchema = z.strictObject({
  /** The order number without `#`, e.g. `1207`. */
  order_id: z.string(),
  customer_id: z.string(),
  email: z.string(),
  placed_at: isoTime,
  line_items: z.array(LineItemSchema).min(1),
  shipping_line: ShippingLineSchema,
  subtotal_cents: cents,
  /** The discount code applied at checkout, if any, and what it took off. */
  discount_code: z.string().nullable(),
  discount_cents: cents,
  /** Subtotal minus discount plus shipping. */
  total_cents: cents,
  /** Everything refunded so far (items and shipping). */
  refunded_cents: cents,
  /** Shipping refunded so far. */
  shipping_refunded_cents: cents,
  financial_status: z.enum(FINANCIAL_STATUSES),
  fulfillment: z.strictObject({
    status: z.enum(FULFILLMENT_STATUSES),
    carrier: z.string().nullable(),
    tracking_number: z.string().nullable(),
    shipped_on: isoDate.nullable(),
    /** The delivery date promised at checkout. */
    promised_by: isoDate,
    delivered_on: isoDate.nullable(),
  }),
  shipping_address: AddressSchema,
  refund_ids: z.array(z.string()),
  /** Timeline notes staff added (newest last). */
  notes: z.array(z.strictObject({ text: z.string(), at: isoTime })),
});
export type Order = z.infer<typeof OrderSchema>;

/** Why a refund was made (the shop's reason list). */
export const REFUND_REASONS = ['late_delivery', 'damaged', 'returned', 'shipping_upgrade', 'goodwill', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const RefundSchema = z.strictObject({
  refund_id: z.string(),
  order_id: z.string(),
  line_items: z.array(z.strictObject({ line_id: z.string(), quantity: z.number().int().positive(), amount_cents: cents })),
  shipping_cents: cents,
  total_cents: cents,
  reason: z.enum(REFUND_REASONS),
  created_at: isoTime,
});
export type Refund = z.infer<typeof RefundSchema>;

export const DiscountCodeSchema = z.strictObject({
  code: z.string().regex(/^[A-Z0-9-]{4,24}$/),
  /** Percent off the order subtotal (whole percent, 1..100). */
  percent_off: z.number().int().min(1).max(100),
  /** Total uses allowed across all customers; null: unlimited. */
  usage_limit: z.number().int().positive().nullable(),
  once_per_customer: z.boolean(),
  /** Only this customer may use it; null: anyone. */
  customer_id: z.string().nullable(),
  times_used: z.number().int().min(0),
  status: z.enum(['active', 'disabled']),
  ends_on: isoDate.nullable(),
  /** The order it was issued for (a service recovery), if any. */
  order_id: z.string().nullable(),
  created_at: isoTime,
});
export type DiscountCode = z.infer<typeof DiscountCodeSchema>;

export const RequesterSchema = z.strictObject({ requester_id: z.string(), name: z.string(), email: z.string() });
export type Requester = z.infer<typeof RequesterSchema>;

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const MessageSchema = z.strictObject({
  message_id: z.string(),
  /** `customer`: the requester's message; `agent`: a reply (public) or an internal note. */
  from: z.enum(['customer', 'agent']),
  public: z.boolean(),
  body: z.string(),
  /** The macro the reply was written from, if any. */
  macro_id: z.string().nullable(),
  sent_at: isoTime,
});
export type TicketMessage = z.infer<typeof MessageSchema>;

export const TicketSchema = z.strictObject({
  ticket_id: z.string(),
  subject: z.string(),
  requester_id: z.string(),
  channel: z.enum(['email', 'chat', 'contact_form']),
  status: z.enum(TICKET_STATUSES),
  tags: z.array(z.string()),
  created_at: isoTime,
  updated_at: isoTime,
  messages: z.array(MessageSchema).min(1),
});
export type Ticket = z.infer<typeof TicketSchema>;

export const MacroSchema = z.strictObject({
  macro_id: z.string(),
  name: z.string(),
  /** The reply text; `{{name}}` marks a variable the agent fills before sending. */
  body: z.string(),
  /** Tags added to the ticket when a reply from this macro is sent. */
  add_tags: z.array(z.string()),
});
export type Macro = z.infer<typeof MacroSchema>;

export const HelpdeskStateSchema = z.strictObject({
  customers: z.record(z.string(), ShopCustomerSchema),
  orders: z.record(z.string(), OrderSchema),
  refunds: z.record(z.string(), RefundSchema),
  discount_codes: z.record(z.string(), DiscountCodeSchema),
  requesters: z.record(z.string(), RequesterSchema),
  tickets: z.record(z.string(), TicketSchema),
  macros: z.record(z.string(), MacroSchema),
});
export type HelpdeskTables = z.infer<typeof HelpdeskStateSchema>;

/** Record schemas by table (task patches are validated with them). */
export const HELPDESK_RECORD_SCHEMAS = {
  customers: ShopCustomerSchema,
  orders: OrderSchema,
  refunds: RefundSchema,
  discount_codes: DiscountCodeSchema,
  requesters: RequesterSchema,
  tickets: TicketSchema,
  macros: MacroSchema,
};
