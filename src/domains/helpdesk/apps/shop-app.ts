/**
 * The shop admin app (Juniper & Oak Admin) over the episode's state: orders list and detail,
 * refunds, discount codes, order notes — and the shop's internal API, which the helpdesk's
 * customer sidebar calls with the integration token (as a real helpdesk integration does); the
 * browser gets no token, so the agent cannot use that API. Every write, and every read of a
 * single record, is a back-end operation through `act`, recorded in the action log.
 */
import { Hono, type Context } from 'hono';
import type { DiscountCode, Order, Refund } from '../schema.js';
import type { HelpdeskDb } from '../tools-common.js';
import type { WebFetch } from '../../../surfaces/web-app.js';
import { readJson, type AppParts, type WebBackend } from './app-host.js';
import { errorText, flashOf, usd, withQuery } from './html.js';
import { discountPage, discountsPage, newDiscountPage, orderPage, ordersPage, refundPage } from './shop-views.js';

const PAGE_SIZE = 25;

/** Dollars typed in a form (`8.95`, `$8.95`, `8`) as cents, or null when it is not an amount. */
export function parseDollars(text: string): number | null {
  const m = /^\s*\$?\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(text);
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null;
}

/** The form's fields as strings. */
async function formOf(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  return Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)]));
}

/** The orders matching the list's search and filter, newest first. */
function listOrders(db: HelpdeskDb, q: string, status: string): Order[] {
  const needle = q.trim().toLowerCase().replace(/^#/, '');
  return db
    .ids('orders')
    .map((id) => db.get('orders', id)!)
    .filter((o) => (!status || o.financial_status === status) && (!needle || o.order_id.includes(needle) || o.email.includes(needle) || (db.get('customers', o.customer_id)?.name.last_name.toLowerCase() ?? '').includes(needle)))
    .sort((a, b) => b.placed_at.localeCompare(a.placed_at));
}

/** The shop's internal API (JSON, token required): what the helpdesk integration calls. */
function internalApi(ctx: Omit<AppParts, 'shopFetch'>): Hono {
  const api = new Hono();
  const b = ctx.backend;
  api.use('*', async (c, next) => {
    if (c.req.header('x-integration-token') !== ctx.integrationToken) return c.json({ error: 'unauthorized: this API is for installed integrations' }, 401);
    await next();
  });
  const reply = async (c: Context, name: string, args: unknown) => {
    const out = await b.act(name, args);
    return out.error ? c.json({ error: errorText(out.result) }, 422) : c.json(JSON.parse(out.result));
  };
  api.get('/customers', (c) => reply(c, 'find_customer', { email: c.req.query('email') ?? '' }));
  api.get('/orders/:id', (c) => reply(c, 'get_order', { order_id: c.req.param('id') }));
  api.post('/orders/:id/refunds', async (c) => reply(c, 'refund_order', { order_id: c.req.param('id'), ...(await c.req.json()) }));
  api.get('/discount_codes', (c) => reply(c, 'list_discount_codes', { customer_id: c.req.query('customer_id') ?? '' }));
  api.post('/discount_codes', async (c) => reply(c, 'create_discount_code', await c.req.json()));
  return api;
}

/** Refund form fields → `refund_order` arguments, or a validation message. */
function refundArgs(o: Order, f: Record<string, string>): { args: unknown } | { error: string } {
  const line_items: { line_id: string; quantity: number }[] = [];
  for (const l of o.line_items) {
    const raw = (f[`qty:${l.line_id}`] ?? '0').trim() || '0';
    if (!/^\d+$/.test(raw)) return { error: `Refund quantity for ${l.title} must be a whole number` };
    if (Number(raw) > 0) line_items.push({ line_id: l.line_id, quantity: Number(raw) });
  }
  const shipping = parseDollars(f.shipping ?? '0');
  if (shipping === null) return { error: 'Shipping to refund must be an amount like 8.95' };
  return { args: { order_id: o.order_id, line_items, shipping_cents: shipping, reason: f.reason ?? 'other' } };
}

/** Discount form fields → `create_discount_code` arguments, or a validation message (the customer looked up by email through the back-end). */
async function discountArgs(b: WebBackend<HelpdeskDb>, f: Record<string, string>): Promise<{ args: unknown } | { error: string }> {
  const percent = Number(f.percent);
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) return { error: 'Percent off must be a whole number from 1 to 100' };
  const limitText = (f.limit ?? '').trim();
  if (limitText && !/^[1-9]\d*$/.test(limitText)) return { error: 'Total usage limit must be a whole number of at least 1, or blank for unlimited' };
  let customer_id: string | null = null;
  const email = (f.customer ?? '').trim().toLowerCase();
  if (email) {
    const found = await readJson<{ customer_id: string }>(b, 'find_customer', { email });
    if (!found.ok) return { error: found.error };
    customer_id = found.value.customer_id;
  }
  const order = (f.order ?? '').trim().replace(/^#/, '');
  return { args: { percent_off: percent, usage_limit: limitText ? Number(limitText) : null, once_per_customer: f.once === '1', customer_id, order_id: order || null, code: (f.code ?? '').trim() || null } };
}

/** The admin's pages. */
function adminRoutes(app: Hono, ctx: Omit<AppParts, 'shopFetch'>): void {
  const b = ctx.backend;
  const flash = (c: Context) => flashOf((k) => c.req.query(k));
  app.get('/', (c) => c.redirect('/orders'));
  app.get('/orders', (c) => {
    const q = c.req.query('q') ?? '';
    const status = c.req.query('status') ?? '';
    const all = listOrders(b.state, q, status);
    const pages = Math.ceil(all.length / PAGE_SIZE);
    const pageNo = Math.min(Math.max(1, Number(c.req.query('page')) || 1), Math.max(1, pages));
    return c.html(ordersPage(all.slice((pageNo - 1) * PAGE_SIZE, pageNo * PAGE_SIZE), { q, status, pageNo, pages, total: all.length, flash: flash(c) }));
  });
  app.get('/orders/:id', async (c) => {
    const r = await readJson<Order & { refunds: Refund[] }>(b, 'get_order', { order_id: c.req.param('id') });
    return r.ok ? c.html(orderPage(r.value, flash(c))) : c.redirect(withQuery('/orders', { error: r.error }));
  });
  app.get('/orders/:id/refund', async (c) => {
    const o = b.state.get('orders', c.req.param('id'));
    return o ? c.html(refundPage(o, {}, flash(c))) : c.redirect(withQuery('/orders', { error: `Order ${c.req.param('id')} not found` }));
  });
  app.post('/orders/:id/refund', async (c) => {
    const o = b.state.get('orders', c.req.param('id'));
    if (!o) return c.redirect(withQuery('/orders', { error: `Order ${c.req.param('id')} not found` }));
    const f = await formOf(c);
    const parsed = refundArgs(o, f);
    if ('error' in parsed) return c.html(refundPage(o, f, { kind: 'error', text: parsed.error }), 422);
    const out = await b.act('refund_order', parsed.args);
    if (out.error) return c.html(refundPage(o, f, { kind: 'error', text: errorText(out.result) }), 422);
    const r = JSON.parse(out.result) as Refund;
    return c.redirect(withQuery(`/orders/${o.order_id}`, { ok: `Refunded ${usd(r.total_cents)} (${r.refund_id})` }), 303);
  });
  app.post('/orders/:id/notes', async (c) => {
    const out = await b.act('add_order_note', { order_id: c.req.param('id'), text: (await formOf(c)).text ?? '' });
    return c.redirect(withQuery(`/orders/${c.req.param('id')}`, out.error ? { error: `Note not saved: ${errorText(out.result)}` } : { ok: 'Note added' }), 303);
  });
  app.get('/discounts', (c) => {
    const db = b.state;
    const codes: DiscountCode[] = db.ids('discount_codes').map((id) => db.get('discount_codes', id)!).sort((x, y) => y.created_at.localeCompare(x.created_at) || x.code.localeCompare(y.code));
    return c.html(discountsPage(codes, flash(c)));
  });
  app.get('/discounts/new', (c) => c.html(newDiscountPage({}, flash(c))));
  app.post('/discounts', async (c) => {
    const f = await formOf(c);
    f.once ??= '0';
    const parsed = await discountArgs(b, f);
    if ('error' in parsed) return c.html(newDiscountPage(f, { kind: 'error', text: parsed.error }), 422);
    const out = await b.act('create_discount_code', parsed.args);
    if (out.error) return c.html(newDiscountPage(f, { kind: 'error', text: errorText(out.result) }), 422);
    const code = (JSON.parse(out.result) as DiscountCode).code;
    return c.redirect(withQuery(`/discounts/${code}`, { ok: `Discount code ${code} created` }), 303);
  });
  app.get('/discounts/:code', async (c) => {
    const r = await readJson<DiscountCode>(b, 'get_discount_code', { code: c.req.param('code') });
    return r.ok ? c.html(discountPage(r.value, flash(c))) : c.redirect(withQuery('/discounts', { error: r.error }));
  });
  app.post('/discounts/:code/disable', async (c) => {
    const out = await b.act('disable_discount_code', { code: c.req.param('code') });
    return c.redirect(withQuery(`/discounts/${c.req.param('code')}`, out.error ? { error: errorText(out.result) } : { ok: 'Discount code disabled' }), 303);
  });
}

/** The shop admin's handler for one episode: its pages and its internal API. */
export function createShopAdminApp(parts: Omit<AppParts, 'shopFetch'>): WebFetch {
  const app = new Hono();
  app.route('/internal/api', internalApi(parts));
  adminRoutes(app, parts);
  return app.fetch;
}
