/**
 * Harbordesk, the helpdesk app over the episode's state: inbox views, ticket pages with the
 * thread, replies and internal notes (macros with variables), status and tags, and the customer
 * sidebar, which reaches the shop only through the shop's internal API (`ShopClient`). Every
 * write, and each ticket read, is a back-end operation through `act`, recorded in the action log.
 */
import { Hono, type Context } from 'hono';
import { renderMacro } from '../rules.js';
import type { Macro, RefundReason, Ticket } from '../schema.js';
import type { HelpdeskDb } from '../tools-common.js';
import { AGENT_USER } from '../data/seed-records.js';
import type { WebFetch } from '../../../surfaces/web-app.js';
import { readJson, type AppParts, type WebBackend } from './app-host.js';
import { errorText, flashOf, usd, withQuery } from './html.js';
import { inboxPage, ticketPage, VIEWS, type Composer } from './helpdesk-views.js';
import { ShopClient } from './shop-client.js';
import { loadSidebar, renderSidebar } from './sidebar.js';

type Flash = { kind: 'ok' | 'error'; text: string } | null;

function counts(db: HelpdeskDb): Record<string, number> {
  const out: Record<string, number> = { all: 0, open: 0, pending: 0, closed: 0 };
  for (const id of db.ids('tickets')) {
    out.all++;
    out[db.get('tickets', id)!.status]++;
  }
  return out;
}

const macrosOf = (db: HelpdeskDb): Macro[] => db.ids('macros').map((id) => db.get('macros', id)!);

/** The composer with a macro applied: its body with the variables the helpdesk knows filled in. */
function applied(db: HelpdeskDb, t: Ticket, macroId: string | undefined): Composer {
  const macro = macroId ? db.get('macros', macroId) ?? null : null;
  if (!macro) return { body: '', macro: null, vars: {} };
  const first = db.get('requesters', t.requester_id)?.name.split(' ')[0] ?? '';
  return { body: renderMacro(macro.body, { 'customer.first_name': first, 'agent.first_name': AGENT_USER.first_name }), macro, vars: {} };
}

/** Renders a ticket page (reading the ticket through the back-end) with the sidebar. */
async function showTicket(c: Context, b: WebBackend<HelpdeskDb>, shop: ShopClient, id: string, composer: Composer | null, flash: Flash, status = 200) {
  const r = await readJson<Ticket>(b, 'get_ticket', { ticket_id: id });
  if (!r.ok) return c.redirect(withQuery('/views/open', { error: r.error }));
  const db = b.state;
  const t = r.value;
  const requester = db.get('requesters', t.requester_id);
  const side = renderSidebar(t.ticket_id, await loadSidebar(shop, requester?.email ?? '', c.req.query('order')), c.req.query('action'));
  const html = ticketPage(t, requester, macrosOf(db), composer ?? applied(db, t, c.req.query('macro')), side, counts(db), flash);
  return c.html(html, status as 200);
}

async function formOf(c: Context): Promise<Record<string, string>> {
  return Object.fromEntries(Object.entries(await c.req.parseBody()).map(([k, v]) => [k, String(v)]));
}

/** Sends a reply or an internal note from the composer's form; closes the ticket after "Send and close". */
async function reply(c: Context, b: WebBackend<HelpdeskDb>, shop: ShopClient) {
  const id = c.req.param('id')!;
  const f = await formOf(c);
  const macro = f.macro_id ? b.state.get('macros', f.macro_id) ?? null : null;
  const vars = Object.fromEntries(Object.entries(f).filter(([k]) => k.startsWith('var:')).map(([k, v]) => [k.slice(4), v]));
  // Browsers submit a textarea's line breaks as CRLF; the thread keeps LF.
  const text = (f.body ?? '').replace(/\r\n/g, '\n');
  const body = macro ? renderMacro(text, vars) : text;
  const out = f.note === '1' ? await b.act('add_internal_note', { ticket_id: id, body }) : await b.act('reply_to_ticket', { ticket_id: id, body, macro_id: macro?.macro_id ?? null });
  if (out.error) return showTicket(c, b, shop, id, { body: f.body ?? '', macro, vars }, { kind: 'error', text: errorText(out.result) }, 422);
  let done = f.note === '1' ? 'Internal note added' : 'Reply sent';
  if (f.after === 'closed' && b.state.get('tickets', id)?.status !== 'closed') {
    const closed = await b.act('set_ticket_status', { ticket_id: id, status: 'closed' });
    done += closed.error ? `, but the ticket was not closed: ${errorText(closed.result)}` : ' and ticket closed';
  }
  return c.redirect(withQuery(`/tickets/${id}`, { ok: done }), 303);
}

/** The sidebar's "Refund shipping": the shipping still refundable on the order, through the shop's API. */
async function refundShipping(c: Context, shop: ShopClient) {
  const id = c.req.param('id')!;
  const f = await formOf(c);
  const back = (params: Record<string, string>) => c.redirect(withQuery(`/tickets/${id}`, { order: f.order, ...params }), 303);
  const o = await shop.order(f.order ?? '');
  if (!o.ok) return back({ error: o.error });
  const left = o.value.shipping_line.price_cents - o.value.shipping_refunded_cents;
  if (left === 0) return back({ error: `The shipping of order #${o.value.order_id} was already refunded` });
  const r = await shop.refund(o.value.order_id, { line_items: [], shipping_cents: left, reason: (f.reason ?? 'late_delivery') as RefundReason });
  return r.ok ? back({ ok: `Shipping refunded: ${usd(r.value.total_cents)} on order #${o.value.order_id}` }) : back({ error: r.error, action: 'refund-shipping' });
}

/** The sidebar's "Create discount code", through the shop's API. */
async function createCode(c: Context, b: WebBackend<HelpdeskDb>, shop: ShopClient) {
  const id = c.req.param('id')!;
  const f = await formOf(c);
  const back = (params: Record<string, string>) => c.redirect(withQuery(`/tickets/${id}`, { order: f.order, ...params }), 303);
  const percent = Number(f.percent);
  if (!Number.isInteger(percent) || percent < 1 || percent > 100) return back({ error: 'Percent off must be a whole number from 1 to 100', action: 'discount' });
  const t = b.state.get('tickets', id);
  const email = t ? b.state.get('requesters', t.requester_id)?.email ?? '' : '';
  const cus = await shop.customerByEmail(email);
  if (!cus.ok) return back({ error: cus.error });
  const r = await shop.createCode({ percent_off: percent, usage_limit: f.usage === 'unlimited' ? null : 1, once_per_customer: f.once === '1', customer_id: f.restrict === '1' ? cus.value.customer_id : null, order_id: f.order || null, code: null });
  return r.ok ? back({ ok: `Discount code ${r.value.code} created` }) : back({ error: r.error, action: 'discount' });
}

function routes(app: Hono, ctx: AppParts): void {
  const b = ctx.backend;
  const shop = new ShopClient(ctx.shopFetch, ctx.integrationToken);
  const flash = (c: Context) => flashOf((k) => c.req.query(k));
  app.get('/', (c) => c.redirect('/views/open'));
  app.get('/views/:view', (c) => {
    const view = c.req.param('view');
    if (!VIEWS.some(([v]) => v === view)) return c.redirect(withQuery('/views/open', { error: `No view named ${view}` }));
    const db = b.state;
    const tickets = db
      .ids('tickets')
      .map((id) => db.get('tickets', id)!)
      .filter((t) => view === 'all' || t.status === view)
      .sort((x, y) => y.updated_at.localeCompare(x.updated_at) || y.ticket_id.localeCompare(x.ticket_id))
      .map((t) => ({ t, r: db.get('requesters', t.requester_id) }));
    return c.html(inboxPage(view, tickets, counts(db), flash(c)));
  });
  app.get('/tickets/:id', (c) => showTicket(c, b, shop, c.req.param('id'), null, flash(c)));
  app.post('/tickets/:id/reply', (c) => reply(c, b, shop));
  app.post('/tickets/:id/status', async (c) => {
    const out = await b.act('set_ticket_status', { ticket_id: c.req.param('id'), status: (await formOf(c)).status });
    return c.redirect(withQuery(`/tickets/${c.req.param('id')}`, out.error ? { error: errorText(out.result) } : { ok: 'Status updated' }), 303);
  });
  const tagRoute = (path: string, op: string, done: string) =>
    app.post(path, async (c) => {
      const out = await b.act(op, { ticket_id: c.req.param('id'), tag: (await formOf(c)).tag ?? '' });
      return c.redirect(withQuery(`/tickets/${c.req.param('id')}`, out.error ? { error: errorText(out.result) } : { ok: done }), 303);
    });
  tagRoute('/tickets/:id/tags', 'add_ticket_tag', 'Tag added');
  tagRoute('/tickets/:id/tags/remove', 'remove_ticket_tag', 'Tag removed');
  app.post('/tickets/:id/shop/refund-shipping', (c) => refundShipping(c, shop));
  app.post('/tickets/:id/shop/discount', (c) => createCode(c, b, shop));
}

/** Harbordesk's handler for one episode. */
export function createHelpdeskApp(parts: AppParts): WebFetch {
  const app = new Hono();
  routes(app, parts);
  return app.fetch;
}
