/**
 * The retail write tools on pending orders, with tau2's semantics — including its quirks and
 * what it does not check (the policy and the agent must):
 *
 * - `cancel_pending_order` refunds every entry of the payment history (earlier refunds included)
 *   and credits gift cards at once, each balance rounded to cents;
 * - `modify_pending_order_items` gives every modified item the price and options of the *last*
 *   new variant of the call, and records the unrounded price difference (`0.04999999999999716`);
 * - `modify_pending_order_address` and `modify_pending_order_payment` accept any status that
 *   contains `pending` (also `pending (item modified)`); cancel and item changes need exactly
 *   `pending`.
 *
 * All amounts are dollars as floats. Writes go through the episode's copy-on-write view; a
 * failing call changes nothing, except where tau2 itself fails half-way (noted per tool).
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { pyRound2 } from '../common/python-calc.js';
import { CANCEL_REASONS, type Address, type GiftCard, type OrderPayment, type Variant } from './schema.js';
import {
  addressArgs,
  countOf,
  dumpOrder,
  first,
  getOrder,
  getPaymentMethod,
  getUser,
  getVariant,
  itemIdsArg,
  orderIdArg,
  paymentMethodIdArg,
  type RetailTool,
} from './tools-common.js';
import type { RetailState } from './state.js';

/** tau2's address model from the tools' arguments (model field order: country before state). */
export const addressOf = (a: Address): Address => ({ address1: a.address1, address2: a.address2, city: a.city, country: a.country, state: a.state, zip: a.zip });

/** Adds `delta` dollars to a gift card of `userId` and rounds the balance to cents, as tau2 does. */
export function creditGiftCard(db: RetailState, userId: string, giftCardId: string, delta: number): void {
  const card = db.mut('users', userId).payment_methods[giftCardId] as GiftCard;
  card.balance = pyRound2(card.balance + delta);
}

/**
 * `cancel_pending_order`: status must be exactly `pending` and `reason` one of
 * {@link CANCEL_REASONS}. Appends a refund of the same amount for every payment-history entry;
 * a refund to a gift card is credited immediately (balance rounded to 2 dp). Sets `status`
 * `cancelled` and `cancel_reason`. Errors, in order: `Order not found`, `Non-pending order cannot
 * be cancelled`, `Invalid reason`, then per entry `User not found` / `Payment method not found`
 * — raised after the gift cards of earlier entries were already credited, as in tau2.
 */
export const cancelPendingOrder: RetailTool<{ order_id: string; reason: string }> = {
  name: 'cancel_pending_order',
  description:
    "Cancel a pending order. The reason must be 'no longer needed' or 'ordered by mistake'. Every payment is refunded to its original payment method: at once for a gift card, within 5-7 business days otherwise. Returns the cancelled order.",
  parameters: z.strictObject({
    order_id: orderIdArg,
    reason: z.string().describe("Why the order is cancelled: 'no longer needed' or 'ordered by mistake'."),
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, reason }, { state: db }) => {
    const order = getOrder(db, order_id);
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be cancelled');
    if (!(CANCEL_REASONS as readonly string[]).includes(reason)) throw new ToolError('Invalid reason');
    const refunds: OrderPayment[] = [];
    for (const p of order.payment_history) {
      refunds.push({ transaction_type: 'refund', amount: p.amount, payment_method_id: p.payment_method_id });
      const user = getUser(db, order.user_id);
      const method = getPaymentMethod(db, user.user_id, p.payment_method_id);
      if (method.source === 'gift_card') creditGiftCard(db, order.user_id, p.payment_method_id, p.amount);
    }
    const w = db.mut('orders', order_id);
    w.status = 'cancelled';
    w.cancel_reason = reason as (typeof CANCEL_REASONS)[number];
    w.payment_history.push(...refunds);
    return dumpOrder(w);
  },
};

/**
 * `modify_pending_order_address`: replaces the order's shipping address. The status must
 * contain `pending`. Errors `Order not found`, `Non-pending order cannot be modified`.
 */
export const modifyPendingOrderAddress: RetailTool<Address & { order_id: string }> = {
  name: 'modify_pending_order_address',
  description: 'Change the shipping address of a pending order. Returns the updated order.',
  parameters: z.strictObject({ order_id: orderIdArg, ...addressArgs }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (a, { state: db }) => {
    const order = getOrder(db, a.order_id);
    if (!order.status.includes('pending')) throw new ToolError('Non-pending order cannot be modified');
    const w = db.mut('orders', a.order_id);
    w.address = addressOf(a);
    return dumpOrder(w);
  },
};

/**
 * `modify_pending_order_payment`: moves the order's single payment to another saved method.
 * The status must contain `pending`; the history must hold exactly one entry, a `payment`; the
 * new method must differ and, if a gift card, cover the amount. Appends a payment (new method)
 * and a refund (old method) of the same amount; a gift card on either side is debited or
 * credited (rounded to 2 dp). Errors, in order: `Order not found`, `Non-pending order cannot be
 * modified`, `User not found`, `Payment method not found`, `There should be exactly one payment
 * for a pending order`, `The new payment method should be different from the current one`,
 * `Insufficient gift card balance to pay for the order`; a missing old method (`Payment method
 * not found`) is raised after the new entries and the new gift card's debit, as in tau2.
 */
export const modifyPendingOrderPayment: RetailTool<{ order_id: string; payment_method_id: string }> = {
  name: 'modify_pending_order_payment',
  description:
    "Change the payment method of a pending order paid with a single payment. The new method must be another of the user's saved methods; a gift card must have enough balance to cover the order. Returns the updated order.",
  parameters: z.strictObject({ order_id: orderIdArg, payment_method_id: paymentMethodIdArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, payment_method_id }, { state: db }) => {
    const order = getOrder(db, order_id);
    if (!order.status.includes('pending')) throw new ToolError('Non-pending order cannot be modified');
    const method = getPaymentMethod(db, order.user_id, payment_method_id);
    const paid = first(order.payment_history);
    if (order.payment_history.length > 1 || paid.transaction_type !== 'payment') throw new ToolError('There should be exactly one payment for a pending order');
    if (paid.payment_method_id === payment_method_id) throw new ToolError('The new payment method should be different from the current one');
    const amount = paid.amount;
    if (method.source === 'gift_card' && method.balance < amount) throw new ToolError('Insufficient gift card balance to pay for the order');
    const w = db.mut('orders', order_id);
    w.payment_history.push(
      { transaction_type: 'payment', amount, payment_method_id },
      { transaction_type: 'refund', amount, payment_method_id: paid.payment_method_id },
    );
    if (method.source === 'gift_card') creditGiftCard(db, order.user_id, payment_method_id, -amount);
    // tau2 looks the old method up only now, after the writes above.
    const old = getPaymentMethod(db, order.user_id, paid.payment_method_id);
    if (old.source === 'gift_card') creditGiftCard(db, order.user_id, paid.payment_method_id, amount);
    return dumpOrder(w);
  },
};

/**
 * `modify_pending_order_items`: swaps items of a pending order for other variants of the same
 * products. Status exactly `pending`; each id in `item_ids` must occur in the order at least as
 * often as in the list; the lists must have equal length; each new id must differ from the old
 * one and be an available variant of the old item's product; a gift card must cover the price
 * difference Δ = Σ(new − old) (not rounded). Appends one `payment` (Δ > 0) or `refund` (Δ ≤ 0) of
 * |Δ| on the method, debits a gift card by Δ (balance rounded to 2 dp), then renames each item
 * (the first item with that id, in list order) and gives it the price and options of the **last**
 * new variant of the call (tau2's quirk); status becomes `pending (item modified)`. Errors, in
 * order: `Order not found`, `Non-pending order cannot be modified`, `<item_id> not found`, `The
 * number of items to be exchanged should match`, then per pair `The new item id should be
 * different from the old item id`, `Product not found`, `Variant not found`, `New item <id> not
 * found or available`; then `User not found`, `Payment method not found`, `Insufficient gift
 * card balance to pay for the new item`.
 */
export const modifyPendingOrderItems: RetailTool<{ order_id: string; item_ids: string[]; new_item_ids: string[]; payment_method_id: string }> = {
  name: 'modify_pending_order_items',
  description:
    "Swap items of a pending order for other variants (different options) of the same products. This can be done only once per order: include every item to change in one call. The price difference is charged to, or refunded to, the given payment method; a gift card must cover it. Returns the updated order.",
  parameters: z.strictObject({
    order_id: orderIdArg,
    item_ids: itemIdsArg("Item ids in the order to replace, for example ['1008292230']; repeat an id to replace several units."),
    new_item_ids: itemIdsArg("The replacement item ids, one per entry of item_ids and in the same order, for example ['1008292231']."),
    payment_method_id: paymentMethodIdArg,
  }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ order_id, item_ids, new_item_ids, payment_method_id }, { state: db }) => {
    const order = getOrder(db, order_id);
    if (order.status !== 'pending') throw new ToolError('Non-pending order cannot be modified');
    const inOrder = order.items.map((it) => it.item_id);
    for (const id of item_ids) if (countOf(item_ids, id) > countOf(inOrder, id)) throw new ToolError(`${id} not found`);
    if (item_ids.length !== new_item_ids.length) throw new ToolError('The number of items to be exchanged should match');
    let diff = 0;
    let last: Variant | undefined;
    item_ids.forEach((id, i) => {
      const newId = new_item_ids[i];
      if (id === newId) throw new ToolError('The new item id should be different from the old item id');
      const item = order.items.find((it) => it.item_id === id);
      if (!item) throw new ToolError(`Item ${id} not found`);
      const variant = getVariant(db, item.product_id, newId);
      if (!variant.available) throw new ToolError(`New item ${newId} not found or available`);
      diff += variant.price - item.price;
      last = variant;
    });
    const method = getPaymentMethod(db, order.user_id, payment_method_id);
    if (method.source === 'gift_card' && method.balance < diff) throw new ToolError('Insufficient gift card balance to pay for the new item');
    const w = db.mut('orders', order_id);
    w.payment_history.push({ transaction_type: diff > 0 ? 'payment' : 'refund', amount: Math.abs(diff), payment_method_id });
    if (method.source === 'gift_card') creditGiftCard(db, order.user_id, payment_method_id, -diff);
    item_ids.forEach((id, i) => {
      const item = w.items.find((it) => it.item_id === id)!;
      item.item_id = new_item_ids[i];
      item.price = last!.price;
      item.options = { ...last!.options };
    });
    w.status = 'pending (item modified)';
    return dumpOrder(w);
  },
};
