/**
 * The helpdesk's customer sidebar: the requester's shop profile and orders from the shop's
 * internal API, the selected order's line items, shipping line, delivery dates and refunds, the
 * customer's discount codes, and the integration's actions — "Refund shipping" and "Create
 * discount code" — as confirm panels that post back to the helpdesk (which calls the shop).
 */
import { daysLate } from '../rules.js';
import type { DiscountCode } from '../schema.js';
import { day, esc, usd } from './html.js';
import type { ShopClient, ShopCustomerView, ShopOrderView } from './shop-client.js';

/** What the sidebar shows for one ticket page. */
export interface SidebarData {
  customer: ShopCustomerView | null;
  order: ShopOrderView | null;
  codes: DiscountCode[];
  error: string | null;
}

/** Loads the sidebar through the shop's API: the customer by the requester's email, then the selected order and the customer's codes. */
export async function loadSidebar(shop: ShopClient, email: string, orderId: string | undefined): Promise<SidebarData> {
  const cus = await shop.customerByEmail(email);
  if (!cus.ok) return { customer: null, order: null, codes: [], error: cus.error };
  const [order, codes] = await Promise.all([orderId ? shop.order(orderId) : Promise.resolve(null), shop.codesOf(cus.value.customer_id)]);
  const error = (order && !order.ok ? order.error : null) ?? (!codes.ok ? codes.error : null);
  return { customer: cus.value, order: order?.ok ? order.value : null, codes: codes.ok ? codes.value : [], error };
}

function orderDetail(ticketId: string, o: ShopOrderView): string {
  const late = daysLate(o);
  const lateText = late === null ? 'Not delivered yet' : late > 0 ? `Delivered ${late} day${late === 1 ? '' : 's'} late` : 'Delivered on time';
  const shippingLeft = o.shipping_line.price_cents - o.shipping_refunded_cents;
  const base = `/tickets/${esc(ticketId)}?order=${esc(o.order_id)}`;
  return `<section aria-labelledby="h-sel-order"><h3 id="h-sel-order">Order #${esc(o.order_id)}</h3>
<ul>${o.line_items.map((l) => `<li>${l.quantity} × ${esc(l.title)} — ${usd(l.unit_price_cents * l.quantity)}${l.refunded_quantity ? ` (${l.refunded_quantity} refunded)` : ''}</li>`).join('')}</ul>
<dl><dt>Shipping</dt><dd>${esc(o.shipping_line.title)}: ${usd(o.shipping_line.price_cents)}${o.shipping_refunded_cents ? ` (${usd(o.shipping_refunded_cents)} refunded)` : ''}</dd>
<dt>Total</dt><dd>${usd(o.total_cents)}${o.refunded_cents ? ` · ${usd(o.refunded_cents)} refunded` : ''}</dd>
<dt>Carrier</dt><dd>${esc(o.fulfillment.carrier ?? '—')} ${esc(o.fulfillment.tracking_number ?? '')}</dd>
<dt>Promised by</dt><dd>${day(o.fulfillment.promised_by)}</dd><dt>Delivered</dt><dd>${day(o.fulfillment.delivered_on)}</dd></dl>
<p><strong>${lateText}</strong></p>
<div class="row">${shippingLeft > 0 ? `<a href="${base}&action=refund-shipping" role="button">Refund shipping</a>` : '<span class="muted">Shipping fully refunded</span>'}
<a href="${base}&action=discount" role="button">Create discount code</a> <a href="/tickets/${esc(ticketId)}">Hide order details</a></div></section>`;
}

function refundPanel(ticketId: string, o: ShopOrderView): string {
  const left = o.shipping_line.price_cents - o.shipping_refunded_cents;
  return `<form method="post" action="/tickets/${esc(ticketId)}/shop/refund-shipping" class="panel" aria-label="Refund shipping"><input type="hidden" name="order" value="${esc(o.order_id)}">
<p>Refund the shipping charge of <strong>${usd(left)}</strong> on order #${esc(o.order_id)} to the original payment method. Items are not refunded.</p>
<label for="sb-reason">Reason</label><select id="sb-reason" name="reason"><option value="late_delivery">Late delivery</option><option value="shipping_upgrade">Shipping upgrade not delivered</option><option value="goodwill">Goodwill</option></select>
<p><button type="submit">Confirm shipping refund</button></p></form>`;
}

function discountPanel(ticketId: string, o: ShopOrderView, c: ShopCustomerView): string {
  return `<form method="post" action="/tickets/${esc(ticketId)}/shop/discount" class="panel" aria-label="Create discount code"><input type="hidden" name="order" value="${esc(o.order_id)}">
<p>A percentage code for ${esc(c.name.first_name)} ${esc(c.name.last_name)}, linked to order #${esc(o.order_id)}. The shop generates the code.</p>
<label for="sb-percent">Percent off</label><input id="sb-percent" name="percent" type="number" min="1" max="100" value="10">
<label for="sb-usage">Usage</label><select id="sb-usage" name="usage"><option value="single">Single use</option><option value="unlimited">Unlimited</option></select>
<label><input type="checkbox" name="once" value="1" checked> Once per customer</label>
<label><input type="checkbox" name="restrict" value="1" checked> Only this customer can use it</label>
<p><button type="submit">Create code</button></p></form>`;
}

/** The sidebar's HTML; `action` is the open panel (`refund-shipping`, `discount`) if any. */
export function renderSidebar(ticketId: string, d: SidebarData, action: string | undefined): string {
  const err = d.error ? `<p class="flash error" role="alert">Shop: ${esc(d.error)}</p>` : '';
  if (!d.customer) return `<aside class="side" aria-label="Customer"><section class="panel"><h2>Customer</h2>${err}<p class="muted">No shop customer found for this requester.</p></section></aside>`;
  const c = d.customer;
  const orders = c.orders
    .map((o) => `<li><a href="/tickets/${esc(ticketId)}?order=${esc(o.order_id)}" aria-label="Order #${esc(o.order_id)}">#${esc(o.order_id)}</a> · ${usd(o.total_cents)} · ${esc(o.fulfillment_status.replace('_', ' '))}${o.delivered_on ? ` ${day(o.delivered_on)}` : ''}${o.refunded_cents ? ` · ${usd(o.refunded_cents)} refunded` : ''}</li>`)
    .join('');
  const codes = d.codes.length
    ? `<ul>${d.codes.map((x) => `<li><code>${esc(x.code)}</code> · ${x.percent_off}% · used ${x.times_used}/${x.usage_limit ?? '∞'} · ${x.status}</li>`).join('')}</ul>`
    : '<p class="muted">None.</p>';
  const panel = d.order && action === 'refund-shipping' ? refundPanel(ticketId, d.order) : d.order && action === 'discount' ? discountPanel(ticketId, d.order, c) : '';
  return `<aside class="side" aria-label="Customer"><section class="panel"><h2>${esc(c.name.first_name)} ${esc(c.name.last_name)}</h2>${err}
<p class="muted">${esc(c.email)} · customer since ${day(c.created_on)}</p><h3>Orders (${c.orders.length})</h3><ul>${orders}</ul>
${d.order ? orderDetail(ticketId, d.order) : ''}${panel}<h3>Discount codes</h3>${codes}</section></aside>`;
}
