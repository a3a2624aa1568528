/**
 * The retail write tools on delivered orders and on the user profile, with tau2's semantics.
 * Exchange and return only *request* the change: they set the status and the `exchange_*` /
 * `return_*` fields and record no payment. Amounts are dollars as floats.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { pyRound2 } from '../common/python-calc.js';
import type { Address, Order } from './schema.js';
import type { RetailState } from './state.js';
import {
  addressArgs,
  countOf,
  dumpOrder,
  dumpUser,
  first,
  getOrder,
  getPaymentMethod,
  getUser,
  getVariant,
  itemIdsArg,
  orderIdArg,
  paymentMethodIdArg,
  pySorted,
  userIdArg,
  type RetailTool,
} from './tools-common.js';
import { addressOf } from './tools-pending.js';

/**
 * The price difference of an exchange, Σ(new − old) rounded to cents (dollars; negative = refund),
 * checked as tau2 does: each new id an available variant of the old item's product, and a gift
 * card must cover a positive difference. Errors: `Item <id> not found`, `Product not found`,
 * `Variant not found`, `New item <id> not found or available`, `Payment method not found`,
 * `Insufficient gift card balance to pay for the price difference`.
 */
export function exchangePriceDifference(db: RetailState, order: Order, itemIds: readonly string[], newItemIds: readonly string[], paymentMethodId: string): number {
  let diff = 0;
  itemIds.forEach((id, i) => {
    const item = order.items.find((it) => it.item_id === id);
    if (!item) throw new ToolError(`Item ${id} not found`);
    const variant = getVariant(db, item.product_id, newItemIds[i]);
    if (!variant.available) throw new ToolError(`New item ${newItemIds[i]} not found or available`);
    diff += variant.price - item.price;
  });
  diff = pyRound2(diff);
  const method = getPaymentMethod(db, order.user_id, paymentMethodId);
  if (method.source === 'gift_card' && method.balance < diff) throw new ToolError('Insufficient gift card balance to pay for the price difference');
  return diff;
}

/**
 * `exchange_delivered_order_items`: requests an exchange of delivered items for other variants.
 * Status exactly `delivered`; each id in `item_ids` must occur in the order at least as often as
 * in the list; equal list lengths; each new id must be an available variant of the old item's
 * product (the same id is not rejected). The price difference Σ(new − old) is rounded to 2 dp;
 * a gift card must cover a positive difference. Sets status `exchange requested`,
 * `exchange_items` and `exchange_new_items` (each sorted on its own), the payment method and
 * `exchange_price_difference`. Errors, in order: `Order not found`, `Non-delivered order cannot
 * be exchanged`, `Number of <item_id> not found.`, `The number of items to be exchanged should
 * match.`, per pair `Product not found` / `Variant not found` / `New item <id> not found or
 * available`, then `User not found`, `Payment method not found`, `Insufficient gift card balance
 * to pay for the price difference`.
 */
export const exchangeDeliveredOrderItems: RetailTool<{ order_id: string; item_ids: string[]; new_item_ids: string[]; payment_method_id: string }> = {
  name: 'exchange_delivered_order_items',
  description:
    "Request an exchange of delivered items for other variants (different options) of the same products. This can be done only once per order: include every item to exchange in one call. The price difference is charged to, or refunded to, the given payment method; a gift card must cover it. Returns the order with the exchange requested; the customer will receive instructions by email.",
  parameters: z.strictObject({
    order_id: orderIdArg,
    item_ids: itemIdsArg("Item ids in the order to exchange, for example ['1008292230']; repeat an id to exchange several units."),
    new_item_ids: itemIdsArg("The replacement item ids, one per entry of item_ids and in the same order, for example ['1008292231']."),
    payment_method_id: paymentMethodIdArg,
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, item_ids, new_item_ids, payment_method_id }, { state: db }) => {
    const order = getOrder(db, order_id);
    if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be exchanged');
    const inOrder = order.items.map((it) => it.item_id);
    for (const id of item_ids) if (countOf(item_ids, id) > countOf(inOrder, id)) throw new ToolError(`Number of ${id} not found.`);
    if (item_ids.length !== new_item_ids.length) throw new ToolError('The number of items to be exchanged should match.');
    const diff = exchangePriceDifference(db, order, item_ids, new_item_ids, payment_method_id);
    const w = db.mut('orders', order_id);
    w.status = 'exchange requested';
    w.exchange_items = pySorted(item_ids);
    w.exchange_new_items = pySorted(new_item_ids);
    w.exchange_payment_method_id = payment_method_id;
    w.exchange_price_difference = diff;
    return dumpOrder(w);
  },
};

/**
 * `return_delivered_order_items`: requests a return of delivered items. Status exactly
 * `delivered`; each id in `item_ids` must occur in the order at least as often as in the list.
 * Sets status `return requested`, `return_items` (sorted) and `return_payment_method_id`.
 * tau2's rule (default): the refund method must be a gift card of the user or the method of the
 * order's first payment; with `anyMethod` (servicegym's dataset) any method in the profile is
 * accepted and the policy is the agent's to apply. Errors, in order: `Order not found`,
 * `Non-delivered order cannot be returned`, `User not found`, `Payment method not found`,
 * `Payment method should be the original payment method`, `Some item not found`.
 */
export function makeReturnDeliveredOrderItems(opts: { anyMethod?: boolean } = {}): RetailTool<{ order_id: string; item_ids: string[]; payment_method_id: string }> {
  return {
    name: 'return_delivered_order_items',
    description: opts.anyMethod
      ? "Request a return of delivered items; the refund goes to the given payment method from the user's profile. Returns the order with the return requested; the customer will receive instructions by email."
      : "Request a return of delivered items. The refund goes to the order's original payment method or to one of the user's gift cards. Returns the order with the return requested; the customer will receive instructions by email.",
    parameters: z.strictObject({
      order_id: orderIdArg,
      item_ids: itemIdsArg("Item ids in the order to return, for example ['1008292230']; repeat an id to return several units."),
      payment_method_id: paymentMethodIdArg,
    }),
    kind: 'write',
    requestor: 'assistant',
    invoke: ({ order_id, item_ids, payment_method_id }, { state: db }) => {
      const order = getOrder(db, order_id);
      if (order.status !== 'delivered') throw new ToolError('Non-delivered order cannot be returned');
      const user = getUser(db, order.user_id);
      const method = getPaymentMethod(db, user.user_id, payment_method_id);
      if (!opts.anyMethod && method.source !== 'gift_card' && payment_method_id !== first(order.payment_history).payment_method_id) {
        throw new ToolError('Payment method should be the original payment method');
      }
      const inOrder = order.items.map((it) => it.item_id);
      for (const id of item_ids) if (countOf(item_ids, id) > countOf(inOrder, id)) throw new ToolError('Some item not found');
      const w = db.mut('orders', order_id);
      w.status = 'return requested';
      w.return_items = pySorted(item_ids);
      w.return_payment_method_id = payment_method_id;
      return dumpOrder(w);
    },
  };
}

/** tau2's `return_delivered_order_items` (see {@link makeReturnDeliveredOrderItems}). */
export const returnDeliveredOrderItems = makeReturnDeliveredOrderItems();

/** `modify_user_address`: replaces the user's default address. Error `User not found`. */
export const modifyUserAddress: RetailTool<Address & { user_id: string }> = {
  name: 'modify_user_address',
  description: "Change a customer's default address (existing orders keep theirs). Returns the updated profile.",
  parameters: z.strictObject({ user_id: userIdArg, ...addressArgs }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    getUser(db, a.user_id);
    const w = db.mut('users', a.user_id);
    w.address = addressOf(a);
    return dumpUser(w);
  },
};
