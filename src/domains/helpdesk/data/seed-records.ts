/**
 * The records the tasks are about (seed task T18 and the helpdesk and shop tasks): customers,
 * orders, earlier refunds and codes, the tickets with the customers' messages, and the macros.
 * Written out by hand; the generator adds filler around them.
 */
import { generatedCode } from '../rules.js';
import type { DiscountCode, HelpdeskTables, Macro, Refund, Requester, ShopCustomer, Ticket } from '../schema.js';
import { buildOrder, delivered, type OrderSpec } from './catalogue.js';

/** The dataset's "now": Wednesday 18 November 2026, 15:00 UTC. */
export const SERVICEGYM_HELPDESK_NOW = '2026-11-18T15:00:00Z';
/** The helpdesk user the agent works as. */
export const AGENT_USER = { name: 'Sam Rivera', first_name: 'Sam', email: 'sam.rivera@juniperandoak.example' };

const addr = (address1: string, city: string, state: string, zip: string) => ({ address1, address2: '', city, country: 'USA', state, zip });
const customer = (id: string, first: string, last: string, address: ShopCustomer['address'], created_on: string, order_ids: string[]): ShopCustomer => ({
  customer_id: id,
  name: { first_name: first, last_name: last },
  email: `${first}.${last}@example.com`.toLowerCase(),
  phone: `555-01${id.slice(-2)}-${id.slice(-4)}`,
  address,
  created_on,
  order_ids,
});

const C = {
  dana: customer('cus_4471', 'Dana', 'Whitfield', addr('418 Alder St', 'Portland', 'OR', '97209'), '2025-03-14', ['1188', '1207']),
  marcus: customer('cus_4488', 'Marcus', 'Bell', addr('77 Grove Ave', 'Columbus', 'OH', '43215'), '2026-01-09', ['1215']),
  priya: customer('cus_4502', 'Priya', 'Nair', addr('2305 Ridge Rd', 'Austin', 'TX', '78704'), '2025-08-22', ['1176', '1219']),
  tom: customer('cus_4515', 'Tom', 'Okafor', addr('9 Harbor Ln', 'Providence', 'RI', '02903'), '2026-06-30', ['1226']),
  lena: customer('cus_4523', 'Lena', 'Hoffmann', addr('1540 Elm St', 'Madison', 'WI', '53703'), '2024-11-02', ['1231']),
  grace: customer('cus_4530', 'Grace', 'Park', addr('66 Cedar Ct', 'Raleigh', 'NC', '27601'), '2026-02-17', ['1245']),
  omar: customer('cus_4536', 'Omar', 'Haddad', addr('301 Pine St', 'Denver', 'CO', '80202'), '2026-04-05', ['1234']),
  ruth: customer('cus_4541', 'Ruth', 'Abernathy', addr('12 Mill Rd', 'Burlington', 'VT', '05401'), '2025-12-01', ['1240']),
  karen: customer('cus_4550', 'Karen', 'Liu', addr('880 Bay St', 'San Mateo', 'CA', '94401'), '2025-05-19', ['1198']),
  victor: customer('cus_4560', 'Victor', 'Reyes', addr('45 Canal St', 'Tucson', 'AZ', '85701'), '2026-07-23', ['1255']),
};

/** The code Priya Nair got for late order #1176 and used on order #1219 (task H02). */
export const PRIYA_USED_CODE = generatedCode('1176', 1);

const ORDER_SPECS: OrderSpec[] = [
  { order_id: '1188', customer: C.dana, placed_at: '2026-10-05T18:22:41Z', items: [['candle', 2]], shipping: 'standard', fulfillment: delivered('USPS', '9400111899223344556677', '2026-10-06', '2026-10-12', '2026-10-10') },
  { order_id: '1207', customer: C.dana, placed_at: '2026-11-03T16:05:12Z', items: [['throw', 1], ['mugs', 1]], shipping: 'standard', fulfillment: delivered('UPS', '1Z84A0E20391870012', '2026-11-04', '2026-11-09', '2026-11-15') },
  { order_id: '1215', customer: C.marcus, placed_at: '2026-11-09T09:41:07Z', items: [['board', 1], ['candle', 2]], shipping: 'express', fulfillment: delivered('FedEx', '781203345561', '2026-11-10', '2026-11-12', '2026-11-14') },
  { order_id: '1176', customer: C.priya, placed_at: '2026-09-20T12:00:33Z', items: [['vase', 1]], shipping: 'standard', fulfillment: delivered('USPS', '9400111899223344001122', '2026-09-21', '2026-09-26', '2026-10-03') },
  { order_id: '1219', customer: C.priya, placed_at: '2026-11-10T20:15:54Z', items: [['planter', 2], ['towels', 1]], shipping: 'standard', fulfillment: delivered('USPS', '9400111899223344998877', '2026-11-11', '2026-11-17', '2026-11-16'), discount: { code: PRIYA_USED_CODE, percent_off: 10 } },
  { order_id: '1226', customer: C.tom, placed_at: '2026-11-14T14:30:00Z', items: [['throw', 1]], shipping: 'standard', fulfillment: { status: 'in_transit', carrier: 'UPS', tracking_number: '1Z84A0E20391876543', shipped_on: '2026-11-16', promised_by: '2026-11-20', delivered_on: null } },
  { order_id: '1231', customer: C.lena, placed_at: '2026-11-08T10:12:19Z', items: [['pourover', 1], ['towels', 1]], shipping: 'standard', fulfillment: delivered('USPS', '9400111899223345112233', '2026-11-09', '2026-11-14', '2026-11-13') },
  { order_id: '1234', customer: C.omar, placed_at: '2026-11-10T07:55:02Z', items: [['vase', 1], ['candle', 1]], shipping: 'standard', fulfillment: delivered('UPS', '1Z84A0E20391871234', '2026-11-11', '2026-11-16', '2026-11-16') },
  { order_id: '1240', customer: C.ruth, placed_at: '2026-10-26T15:18:40Z', items: [['candle', 4], ['mugs', 1]], shipping: 'standard', fulfillment: delivered('USPS', '9400111899223345554433', '2026-10-27', '2026-11-02', '2026-11-02') },
  { order_id: '1198', customer: C.karen, placed_at: '2026-10-02T11:03:27Z', items: [['board', 1]], shipping: 'standard', fulfillment: delivered('UPS', '1Z84A0E20391869988', '2026-10-03', '2026-10-09', '2026-10-10') },
  { order_id: '1245', customer: C.grace, placed_at: '2026-11-11T17:44:10Z', items: [['vase', 2]], shipping: 'standard', fulfillment: delivered('USPS', '9400111899223346667788', '2026-11-12', '2026-11-17', '2026-11-16') },
  { order_id: '1255', customer: C.victor, placed_at: '2026-10-28T13:09:51Z', items: [['mugs', 2]], shipping: 'standard', fulfillment: delivered('FedEx', '781203349900', '2026-10-29', '2026-11-03', '2026-11-10') },
];

/** Refunds and codes issued before today (tasks H02 and S05). */
function history(t: Pick<HelpdeskTables, 'orders' | 'refunds' | 'discount_codes'>): void {
  const past: Refund[] = [
    { refund_id: 'RF-1176-1', order_id: '1176', line_items: [], shipping_cents: 895, total_cents: 895, reason: 'late_delivery', created_at: '2026-10-05T16:20:00Z' },
    { refund_id: 'RF-1255-1', order_id: '1255', line_items: [], shipping_cents: 895, total_cents: 895, reason: 'late_delivery', created_at: '2026-11-11T10:02:00Z' },
  ];
  for (const r of past) {
    t.refunds[r.refund_id] = r;
    const o = t.orders[r.order_id];
    o.refund_ids.push(r.refund_id);
    o.refunded_cents += r.total_cents;
    o.shipping_refunded_cents += r.shipping_cents;
    o.financial_status = 'partially_refunded';
  }
  const code = (c: Partial<DiscountCode> & Pick<DiscountCode, 'code' | 'created_at'>): DiscountCode => ({ percent_off: 10, usage_limit: 1, once_per_customer: true, customer_id: null, times_used: 0, status: 'active', ends_on: null, order_id: null, ...c });
  for (const c of [
    code({ code: PRIYA_USED_CODE, customer_id: 'cus_4502', order_id: '1176', times_used: 1, created_at: '2026-10-05T16:21:00Z' }),
    code({ code: generatedCode('1255', 1), customer_id: 'cus_4560', order_id: '1255', created_at: '2026-11-11T10:03:00Z' }),
    code({ code: 'HARVEST-20', percent_off: 20, usage_limit: null, times_used: 37, created_at: '2026-09-01T09:00:00Z', ends_on: '2026-12-31' }),
    code({ code: 'WELCOME-10', usage_limit: null, times_used: 412, created_at: '2025-01-15T09:00:00Z' }),
  ]) t.discount_codes[c.code] = c;
}

const requester = (c: ShopCustomer): Requester => ({ requester_id: `req-${c.name.first_name}-${c.name.last_name}`.toLowerCase(), name: `${c.name.first_name} ${c.name.last_name}`, email: c.email });

/** A ticket opened by `c` with one customer message. */
function ticket(id: string, c: ShopCustomer, subject: string, body: string, at: string, channel: Ticket['channel'] = 'email'): Ticket {
  return { ticket_id: id, subject, requester_id: requester(c).requester_id, channel, status: 'open', tags: [], created_at: at, updated_at: at, messages: [{ message_id: `${id}-1`, from: 'customer', public: true, body, macro_id: null, sent_at: at }] };
}

const TICKETS: Ticket[] = [
  ticket('5521', C.dana, 'Order #1207 arrived 6 days late', "Hi,\n\nMy order #1207 was promised for November 9 but it only arrived on November 15, six days late. I had ordered the throw as a birthday gift and it missed the party. Really disappointing.\n\nDana", '2026-11-16T08:12:45Z'),
  ticket('5530', C.marcus, 'Late express delivery - want my money back', "I paid for EXPRESS shipping on order #1215 and it still came two days late (Nov 14 instead of Nov 12). I want a full refund of the whole order.\n\nMarcus Bell", '2026-11-15T19:03:10Z'),
  ticket('5534', C.priya, 'Discount code not working', `Hello,\n\nYou sent me the code ${PRIYA_USED_CODE} after my vase came late in October. I tried it today on a new cart and it says it has already been used. Can you make it work again?\n\nThanks, Priya`, '2026-11-17T21:40:00Z', 'contact_form'),
  ticket('5538', C.tom, 'Where is my order #1226?', 'Hi, I ordered a linen throw last week (order #1226). Any idea when it will get here? Thanks, Tom', '2026-11-18T07:58:31Z', 'chat'),
  ticket('5541', C.lena, 'Pour-over arrived cracked', 'Hello, the ceramic pour-over in order #1231 arrived with a crack through the base (photo attached: IMG_2231.jpg). The tea towels are fine. What can you do?\n\nLena', '2026-11-17T12:30:05Z'),
  ticket('5545', C.omar, 'Slow delivery on #1234', 'My order #1234 took almost a week to arrive. Please refund the shipping, that is not what I expect from an online shop.\n\nOmar', '2026-11-17T16:47:22Z'),
];

const macro = (macro_id: string, name: string, body: string, add_tags: string[]): Macro => ({ macro_id, name, body, add_tags });
const SIGN = '\n\nWarm regards,\n{{agent.first_name}} at Juniper & Oak';

/** The helpdesk's macros. */
export const MACROS: Macro[] = [
  macro('late-delivery-apology', 'Late delivery apology', "Hi {{customer.first_name}},\n\nI'm so sorry that order #{{order.number}} arrived late. I've refunded your shipping charge of {{refund.amount}} to your original payment method; it can take 5-10 business days to show.\n\nAs an apology, here is a code for 10% off your next order. It can be used once: {{discount_code}}" + SIGN, ['late-delivery']),
  macro('late-delivery-shipping-refunded', 'Late delivery - shipping refunded', "Hi {{customer.first_name}},\n\nI'm sorry order #{{order.number}} arrived after the date we promised. I've refunded your shipping charge of {{refund.amount}} to your original payment method. For a late delivery we refund the shipping; we're unable to refund the items themselves." + SIGN, ['late-delivery']),
  macro('discount-code-already-used', 'Discount code already used', "Hi {{customer.first_name}},\n\nThe code {{discount_code}} was a single-use code, and it was redeemed on order #{{order.number}}. Single-use codes can't be reactivated or replaced, so I'm unable to make it work again. I'm sorry for the disappointment." + SIGN, ['discount']),
  macro('order-status-update', 'Order status update', 'Hi {{customer.first_name}},\n\nOrder #{{order.number}} is on its way with {{carrier}}, tracking number {{tracking_number}}. It is due to arrive by {{promised_by}}. I will keep this ticket open until it arrives.' + SIGN, ['wismo']),
  macro('damaged-item-refund', 'Damaged item refund', "Hi {{customer.first_name}},\n\nI'm sorry the {{item.title}} from order #{{order.number}} arrived damaged. I've refunded {{refund.amount}} to your original payment method; there's no need to send it back." + SIGN, ['damaged']),
  macro('delivered-on-time', 'Delivered on time', 'Hi {{customer.first_name}},\n\nThanks for getting in touch. Order #{{order.number}} was delivered on {{delivered_on}}, and its promised delivery date was {{promised_by}}, so it arrived on time and no shipping refund applies. I hope you enjoy your order.' + SIGN, ['delivery']),
  macro('general-thanks', 'Thanks - anything else?', "Hi {{customer.first_name}},\n\nThanks for reaching out! Is there anything else I can help you with? I'll close this ticket for now; just reply to reopen it." + SIGN, []),
  macro('return-instructions', 'Return instructions', 'Hi {{customer.first_name}},\n\nYou can return unused items within 30 days of delivery. Start a return at juniperandoak.example/returns with order #{{order.number}} and your email; we refund the items once they arrive.' + SIGN, ['return']),
];

/** The task records as tables (no filler). */
export function helpdeskSeedRecords(): HelpdeskTables {
  const t: HelpdeskTables = { customers: {}, orders: {}, refunds: {}, discount_codes: {}, requesters: {}, tickets: {}, macros: {} };
  for (const c of Object.values(C)) {
    t.customers[c.customer_id] = structuredClone(c);
    const r = requester(c);
    t.requesters[r.requester_id] = r;
  }
  for (const s of ORDER_SPECS) t.orders[s.order_id] = buildOrder(s);
  history(t);
  for (const tk of TICKETS) t.tickets[tk.ticket_id] = structuredClone(tk);
  for (const m of MACROS) t.macros[m.macro_id] = structuredClone(m);
  return t;
}

export { requester as requesterOf };
