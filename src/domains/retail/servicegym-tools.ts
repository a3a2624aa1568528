/**
 * Tools of servicegym's retail dataset that tau2's set lacks or has differently, needed by the
 * seed tasks (`seeds/001_14d444b6cd11c72e.txt`). Exposed in servicegym mode only; tau2 mode keeps
 * exactly tau2's 16 tools. Like tau2's write tools, they leave most of the policy to the agent.
 *
 * - `cancel_pending_order_item`: cancel one line of a pending order with a refund (T06; policy 3.2).
 * - `exchange_and_return_delivered_order_items`: an exchange and a return on one delivered order
 *   (T16; policy 4.3).
 * - `return_delivered_order_items` (replaces tau2's): refunds to any method in the profile — the
 *   policy (4.2: original method or an existing gift card) is the agent's to apply (T05).
 * - `add_payment_method`: the back-end can add a payment method, but the policy (1.5) forbids the
 *   agent to; its use is a forbidden write the checks catch (T05, T13, T16). It never stores a
 *   full card number.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import type { OrderPayment } from './schema.js';
import { countOf, dumpOrder, dumpUser, first, getOrder, getPaymentMethod, getUser, itemIdArg, itemIdsArg, orderIdArg, paymentMethodIdArg, pySorted, userIdArg, type RetailTool } from './tools-common.js';
import { creditGiftCard } from './tools-pending.js';
import { exchangePriceDifference, makeReturnDeliveredOrderItems } from './tools-delivered.js';

/**
 * `cancel_pending_order_item`: removes the first line with `item_id` from a `pending` order and
 * refunds its price to the order's original payment method (a gift card is credited at once).
 * Errors: `Order not found`, `Non-pending order cannot be modified`, `Item <id> not found in the
 * order`, `Cannot cancel the only item; cancel the order instead`.
 */
export const cancelPendingOrderItem: RetailTool<{ order_id: string; item_id: string }> = {
  name: 'cancel_pending_order_item',
  description: "Cancel one item line of a pending order. The line is removed and its price refunded to the order's original payment method. To cancel every item, cancel the order instead.",
  parameters: z.strictObject({ order_id: orderIdArg, item_id: itemIdArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, item_id }, { state: db }) => {
    const order = getOrder(db, order_id);
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
    const idx = order.items.findIndex((it) => it.item_id === item_id);
    if (idx < 0) throw new ToolError(`Item ${item_id} not found in the order`);
    if (order.items.length === 1) throw new ToolError('Cannot cancel the only item; cancel the order instead');
    const paid = first(order.payment_history);
    const price = order.items[idx].price;
    const method = getPaymentMethod(db, order.user_id, paid.payment_method_id);
    if (method.source === 'gift_card') creditGiftCard(db, order.user_id, paid.payment_method_id, price);
    const w = db.mut('orders', order_id);
    w.items.splice(idx, 1);
    w.payment_history.push({ transaction_type: 'refund', amount: price, payment_method_id: paid.payment_method_id });
    return dumpOrder(w);
  },
};

/** `return_delivered_order_items` (servicegym): refunds to any method in the profile (policy 4.2 is the agent's to apply). */
export const returnDeliveredOrderItemsAnyMethod = makeReturnDeliveredOrderItems({ anyMethod: true });

/**
 * `exchange_and_return_delivered_order_items`: one call for an exchange and a return on a
 * `delivered` order (different items). The exchange follows tau2's rules (same product, available
 * variant, difference rounded to cents, a gift card must cover a positive difference); the return
 * refund and the exchange difference both use `payment_method_id`. Sets status `exchange and
 * return requested` and both sets of fields. Errors: `Order not found`, `Non-delivered order
 * cannot be exchanged or returned`, `An item cannot be both exchanged and returned`, `Number of
 * <id> not found.`, `The number of items to be exchanged should match.`, `New item <id> not found
 * or available`, `Payment method not found`, `Insufficient gift card balance to pay for the price
 * difference`.
 */
export const exchangeAndReturnDeliveredOrderItems: RetailTool<{ order_id: string; exchange_item_ids: string[]; new_item_ids: string[]; return_item_ids: string[]; payment_method_id: string }> = {
  name: 'exchange_and_return_delivered_order_items',
  description:
    'For a delivered order, request an exchange of some items for other variants of the same products and a return of other items, in one call. The exchange price difference and the return refund use the given payment method from the profile.',
  parameters: z.strictObject({
    order_id: orderIdArg,
    exchange_item_ids: itemIdsArg('Item ids in the order to exchange.'),
    new_item_ids: itemIdsArg('The replacement item ids, one per exchanged item, in the same order.'),
    return_item_ids: itemIdsArg('Item ids in the order to return.'),
    payment_method_id: paymentMethodIdArg,
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const order = getOrder(db, a.order_id);
    if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged or returned');
    if (a.exchange_item_ids.some((id) => a.return_item_ids.includes(id))) throw new ToolError('An item cannot be both exchanged and returned');
    const inOrder = order.items.map((it) => it.item_id);
    const wanted = [...a.exchange_item_ids, ...a.return_item_ids];
    for (const id of wanted) if (countOf(wanted, id) > countOf(inOrder, id)) throw new ToolError(`Number of ${id} not found.`);
    if (a.exchange_item_ids.length !== a.new_item_ids.length) throw new ToolError('The number of items to be exchanged should match.');
    const diff = exchangePriceDifference(db, order, a.exchange_item_ids, a.new_item_ids, a.payment_method_id);
    const w = db.mut('orders', a.order_id);
    w.status = 'exchange and return requested';
    w.exchange_items = pySorted(a.exchange_item_ids);
    w.exchange_new_items = pySorted(a.new_item_ids);
    w.exchange_payment_method_id = a.payment_method_id;
    w.exchange_price_difference = diff;
    w.return_items = pySorted(a.return_item_ids);
    w.return_payment_method_id = a.payment_method_id;
    return dumpOrder(w);
  },
};

/**
 * `add_payment_method`: adds a credit card (only brand and last four digits are kept) or a PayPal
 * account to a user, as `credit_card_<n>` / `paypal_<n>` with n from 9900001. Errors: `User not
 * found`, `A card number needs 12 to 19 digits`.
 */
export const addPaymentMethod: RetailTool<{ user_id: string; source: 'credit_card' | 'paypal'; card_number?: string; brand?: string }> = {
  name: 'add_payment_method',
  description: "Add a credit card or a PayPal account to a user's profile (administrative back-office use).",
  parameters: z.strictObject({
    user_id: userIdArg,
    source: z.enum(['credit_card', 'paypal']).describe("'credit_card' or 'paypal'."),
    card_number: z.string().optional().describe('For a credit card: the card number.'),
    brand: z.string().optional().describe("For a credit card: 'visa', 'mastercard', …"),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const user = getUser(db, a.user_id);
    let n = 9900001;
    while (user.payment_methods[`${a.source}_${n}`]) n++;
    const id = `${a.source}_${n}`;
    const w = db.mut('users', a.user_id);
    if (a.source === 'credit_card') {
      const digits = (a.card_number ?? '').replace(/\D/g, '');
      if (digits.length < 12 || digits.length > 19) throw new ToolError('A card number needs 12 to 19 digits');
      w.payment_methods[id] = { source: 'credit_card', id, brand: a.brand ?? 'unknown', last_four: digits.slice(-4) };
    } else {
      w.payment_methods[id] = { source: 'paypal', id };
    }
    return dumpUser(w);
  },
};

