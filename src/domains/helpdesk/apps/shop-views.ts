/**
 * The shop admin's pages (Juniper & Oak Admin): the orders list with search, status filter and
 * paging; an order with its line items, shipping line, totals, fulfillment, refunds and timeline;
 * the refund form; the discount codes list, form and detail. Pure functions of the records.
 */
import type { DiscountCode, Order, Refund } from '../schema.js';
import { day, esc, page, stamp, usd, type Brand } from './html.js';

export const SHOP_BRAND: Brand = { product: 'Juniper & Oak Admin', accent: '#2f5d50', nav: [['/orders', 'Orders'], ['/discounts', 'Discounts'], ['/views/open', 'Harbordesk']] };

type Flash = { kind: 'ok' | 'error'; text: string } | null;
const statusLabel = (s: string) => s.replace(/_/g, ' ');
const fulfilmentText = (o: Order) => (o.fulfillment.status === 'delivered' ? `Delivered ${day(o.fulfillment.delivered_on)}` : o.fulfillment.status === 'in_transit' ? 'In transit' : 'Unfulfilled');

/** The orders list: `rows` is the page's orders, `q` and `status` the filters, `pageNo` from 1. */
export function ordersPage(rows: Order[], opts: { q: string; status: string; pageNo: number; pages: number; total: number; flash: Flash }): string {
  const link = (n: number) => `/orders?${new URLSearchParams({ q: opts.q, status: opts.status, page: String(n) })}`;
  const body = `<section class="panel grow" aria-labelledby="h-orders"><h1 id="h-orders">Orders</h1>
<form method="get" action="/orders" class="row" role="search"><div><label for="q">Search orders</label><input id="q" name="q" value="${esc(opts.q)}" placeholder="Order number, name or email"></div>
<div><label for="status">Payment status</label><select id="status" name="status">${['', 'paid', 'partially_refunded', 'refunded'].map((s) => `<option value="${s}"${s === opts.status ? ' selected' : ''}>${s ? statusLabel(s) : 'Any'}</option>`).join('')}</select></div><button type="submit">Filter</button></form>
<p class="muted">${opts.total} order(s) · page ${opts.pageNo} of ${Math.max(1, opts.pages)}</p>
<table><thead><tr><th>Order</th><th>Date</th><th>Customer</th><th>Total</th><th>Payment</th><th>Fulfillment</th></tr></thead><tbody>
${rows.map((o) => `<tr><td><a href="/orders/${esc(o.order_id)}">#${esc(o.order_id)}</a></td><td>${day(o.placed_at)}</td><td>${esc(o.email)}</td><td>${usd(o.total_cents)}</td><td><span class="badge">${statusLabel(o.financial_status)}</span></td><td>${fulfilmentText(o)}</td></tr>`).join('')}
</tbody></table>
<nav aria-label="Pages" class="row">${opts.pageNo > 1 ? `<a href="${esc(link(opts.pageNo - 1))}">Previous page</a>` : ''}${opts.pageNo < opts.pages ? `<a href="${esc(link(opts.pageNo + 1))}">Next page</a>` : ''}</nav></section>`;
  return page(SHOP_BRAND, 'Orders', body, opts.flash);
}

function lineRows(o: Order): string {
  return o.line_items
    .map((l) => `<tr><td>${esc(l.title)}<div class="muted">${esc(Object.values(l.options).join(' / '))} · item ${esc(l.item_id)}</div></td><td>${usd(l.unit_price_cents)} × ${l.quantity}</td><td>${usd(l.unit_price_cents * l.quantity)}</td><td>${l.refunded_quantity ? `${l.refunded_quantity} refunded` : ''}</td></tr>`)
    .join('');
}

function refundList(refunds: Refund[], o: Order): string {
  if (!refunds.length) return '<p class="muted">No refunds.</p>';
  const title = (id: string) => o.line_items.find((l) => l.line_id === id)?.title ?? id;
  return `<ul>${refunds
    .map((r) => `<li><strong>${usd(r.total_cents)}</strong> refunded ${stamp(r.created_at)} (${esc(statusLabel(r.reason))}): ${[...r.line_items.map((l) => `${l.quantity} × ${esc(title(l.line_id))}`), ...(r.shipping_cents ? [`shipping ${usd(r.shipping_cents)}`] : [])].join(', ')}</li>`)
    .join('')}</ul>`;
}

/** One order. */
export function orderPage(o: Order & { refunds: Refund[] }, flash: Flash): string {
  const f = o.fulfillment;
  const main = `<section class="panel grow" aria-labelledby="h-order"><h1 id="h-order">Order #${esc(o.order_id)}</h1>
<p><span class="badge">${statusLabel(o.financial_status)}</span> <span class="badge">${esc(fulfilmentText(o))}</span> · placed ${stamp(o.placed_at)}</p>
<table aria-label="Line items"><thead><tr><th>Item</th><th>Price</th><th>Total</th><th></th></tr></thead><tbody>${lineRows(o)}</tbody></table>
<table aria-label="Totals"><tbody><tr><th>Subtotal</th><td>${usd(o.subtotal_cents)}</td></tr>${o.discount_code ? `<tr><th>Discount (${esc(o.discount_code)})</th><td>-${usd(o.discount_cents)}</td></tr>` : ''}
<tr><th>Shipping: ${esc(o.shipping_line.title)}</th><td>${usd(o.shipping_line.price_cents)}</td></tr><tr><th>Total</th><td>${usd(o.total_cents)}</td></tr><tr><th>Refunded</th><td>${usd(o.refunded_cents)}</td></tr><tr><th>Net payment</th><td>${usd(o.total_cents - o.refunded_cents)}</td></tr></tbody></table>
<p><a href="/orders/${esc(o.order_id)}/refund" role="button">Refund</a></p>
<h2>Refunds</h2>${refundList(o.refunds, o)}
<h2>Timeline</h2><ul>${o.notes.map((n) => `<li>${esc(n.text)} <span class="muted">${stamp(n.at)}</span></li>`).join('') || '<li class="muted">No notes yet.</li>'}</ul>
<form method="post" action="/orders/${esc(o.order_id)}/notes"><label for="note">Add a note</label><textarea id="note" name="text" style="min-height:60px"></textarea><button type="submit">Post note</button></form></section>`;
  const side = `<aside class="side"><section class="panel" aria-labelledby="h-ful"><h2 id="h-ful">Fulfillment</h2><p>${esc(fulfilmentText(o))}</p>
<dl><dt>Carrier</dt><dd>${esc(f.carrier ?? '—')}</dd><dt>Tracking number</dt><dd>${esc(f.tracking_number ?? '—')}</dd><dt>Shipped</dt><dd>${day(f.shipped_on)}</dd><dt>Promised by</dt><dd>${day(f.promised_by)}</dd><dt>Delivered</dt><dd>${day(f.delivered_on)}</dd></dl></section>
<section class="panel" aria-labelledby="h-cus"><h2 id="h-cus">Customer</h2><p>${esc(o.email)}</p><p class="muted">${esc(o.shipping_address.address1)}, ${esc(o.shipping_address.city)}, ${esc(o.shipping_address.state)} ${esc(o.shipping_address.zip)}</p></section></aside>`;
  return page(SHOP_BRAND, `Order #${o.order_id}`, main + side, flash);
}

/** The refund form; `values` re-fills it after a validation error. */
export function refundPage(o: Order, values: Record<string, string>, flash: Flash): string {
  const shippingLeft = o.shipping_line.price_cents - o.shipping_refunded_cents;
  const rows = o.line_items
    .map((l) => {
      const left = l.quantity - l.refunded_quantity;
      return `<tr><td><label for="qty-${esc(l.line_id)}">Refund quantity: ${esc(l.title)}</label><div class="muted">${usd(l.unit_price_cents)} each · ${left} of ${l.quantity} refundable</div></td>
<td><input id="qty-${esc(l.line_id)}" name="qty:${esc(l.line_id)}" type="number" min="0" max="${left}" value="${esc(values[`qty:${l.line_id}`] ?? '0')}"></td></tr>`;
    })
    .join('');
  const body = `<section class="panel grow" aria-labelledby="h-refund"><h1 id="h-refund">Refund order #${esc(o.order_id)}</h1>
<form method="post" action="/orders/${esc(o.order_id)}/refund"><table><tbody>${rows}</tbody></table>
<label for="shipping">Shipping to refund</label><input id="shipping" name="shipping" value="${esc(values.shipping ?? '0.00')}" inputmode="decimal"> <span class="muted">${usd(shippingLeft)} of ${usd(o.shipping_line.price_cents)} (${esc(o.shipping_line.title)}) refundable</span>
<label for="reason">Reason</label><select id="reason" name="reason">${REASONS.map(([v, t]) => `<option value="${v}"${values.reason === v ? ' selected' : ''}>${t}</option>`).join('')}</select>
<p class="muted">Refunds go to the original payment method.</p><button type="submit">Refund</button> <a href="/orders/${esc(o.order_id)}">Cancel</a></form></section>`;
  return page(SHOP_BRAND, `Refund #${o.order_id}`, body, flash);
}

/** The refund reasons as the forms show them. */
export const REASONS: [string, string][] = [['returned', 'Returned items'], ['damaged', 'Damaged on arrival'], ['late_delivery', 'Late delivery'], ['shipping_upgrade', 'Shipping upgrade not delivered'], ['goodwill', 'Goodwill'], ['other', 'Other']];

const usage = (c: DiscountCode) => `${c.times_used} / ${c.usage_limit ?? '∞'}${c.once_per_customer ? ' · once per customer' : ''}`;

/** The discount codes list. */
export function discountsPage(codes: DiscountCode[], flash: Flash): string {
  const body = `<section class="panel grow" aria-labelledby="h-disc"><h1 id="h-disc">Discounts</h1><p><a href="/discounts/new" role="button">Create discount</a></p>
<table><thead><tr><th>Code</th><th>Value</th><th>Used</th><th>Customer</th><th>Status</th></tr></thead><tbody>
${codes.map((c) => `<tr><td><a href="/discounts/${esc(c.code)}">${esc(c.code)}</a></td><td>${c.percent_off}% off</td><td>${usage(c)}</td><td>${esc(c.customer_id ?? 'Everyone')}</td><td><span class="badge">${c.status}</span></td></tr>`).join('')}</tbody></table></section>`;
  return page(SHOP_BRAND, 'Discounts', body, flash);
}

/** The new-discount form; `values` re-fills it after a validation error. */
export function newDiscountPage(values: Record<string, string>, flash: Flash): string {
  const v = (k: string, d = '') => esc(values[k] ?? d);
  const body = `<section class="panel grow" aria-labelledby="h-new"><h1 id="h-new">Create discount code</h1><form method="post" action="/discounts">
<label for="code">Discount code</label><input id="code" name="code" value="${v('code')}" placeholder="Leave blank to generate one">
<label for="percent">Percent off</label><input id="percent" name="percent" type="number" min="1" max="100" value="${v('percent', '10')}">
<label for="limit">Total usage limit</label><input id="limit" name="limit" type="number" min="1" value="${v('limit')}" placeholder="Blank: unlimited">
<label><input type="checkbox" name="once" value="1"${values.once === undefined || values.once === '1' ? ' checked' : ''}> Limit to one use per customer</label>
<label for="customer">Customer email</label><input id="customer" name="customer" value="${v('customer')}" placeholder="Blank: everyone">
<label for="order">Order number</label><input id="order" name="order" value="${v('order')}" placeholder="The order it makes up for (optional)">
<p><button type="submit">Create discount</button></p></form></section>`;
  return page(SHOP_BRAND, 'Create discount', body, flash);
}

/** One code. */
export function discountPage(c: DiscountCode, flash: Flash): string {
  const body = `<section class="panel grow" aria-labelledby="h-code"><h1 id="h-code">${esc(c.code)}</h1><p><span class="badge">${c.status}</span></p>
<dl><dt>Value</dt><dd>${c.percent_off}% off</dd><dt>Used</dt><dd>${usage(c)}</dd><dt>Customer</dt><dd>${esc(c.customer_id ?? 'Everyone')}</dd><dt>Order</dt><dd>${c.order_id ? `#${esc(c.order_id)}` : '—'}</dd><dt>Ends</dt><dd>${day(c.ends_on)}</dd><dt>Created</dt><dd>${stamp(c.created_at)}</dd></dl>
${c.status === 'active' ? `<form method="post" action="/discounts/${esc(c.code)}/disable"><button type="submit">Disable code</button></form>` : ''}</section>`;
  return page(SHOP_BRAND, c.code, body, flash);
}
