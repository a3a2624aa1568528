/**
 * A tiny web app over the mini test domain, for the web surface's tests: an order list, an order
 * page that reads through the back-end (`get_order`), and a cancel form (reason text, a reason
 * code drop-down, a confirm checkbox) whose XHR submit calls `cancel_order` and marks itself
 * `aria-busy` while pending; refusals show in a `role="alert"`. The delay of the XHR handler can
 * be set to exercise the surface's wait for loading states.
 */
import { Hono } from 'hono';
import type { WebBackend, WebDomain } from '../../src/surfaces/web-app.js';
import { miniDomain, type MiniState } from './mini-domain.js';

const esc = (s: unknown): string => String(s).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const page = (title: string, body: string): string =>
  `<!doctype html><html><head><title>${esc(title)} | Mini Orders</title></head><body><header><nav aria-label="Main"><a href="/">Orders</a></nav></header><main>${body}</main></body></html>`;

const SUBMIT_JS = `
document.querySelector('form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const form = ev.target;
  form.setAttribute('aria-busy', 'true');
  const body = Object.fromEntries(new FormData(form));
  const res = await fetch(form.action, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const out = await res.json();
  if (out.error) { document.getElementById('err').textContent = out.error; document.getElementById('err').hidden = false; form.removeAttribute('aria-busy'); }
  else location.reload();
});`;

/** Server-side delay of the cancel XHR in ms (tests raise it to check the surface waits). */
export const testAppTiming = { cancelDelayMs: 0 };

function app(backend: WebBackend<MiniState>) {
  const h = new Hono();
  h.get('/', (c) => {
    const rows = backend.state.ids('orders').map((id) => `<li><a href="/orders/${id}">Order ${id}</a></li>`).join('');
    return c.html(page('Orders', `<h1>Orders</h1><ul aria-label="Orders">${rows}</ul>`));
  });
  h.get('/orders/:id', async (c) => {
    const id = c.req.param('id');
    const got = await backend.act('get_order', { order_id: id });
    if (got.error) return c.html(page('Not found', `<h1>Not found</h1><p role="alert">${esc(got.result)}</p>`), 404);
    const o = JSON.parse(got.result) as { status: string; total: number };
    const form = o.status === 'pending'
      ? `<form action="/api/orders/${id}/cancel" aria-label="Cancel order"><label>Reason <input name="reason" required></label>
         <label for="code">Reason code</label><select id="code" name="code"><option value="">--</option><option value="changed_mind">Changed my mind</option><option value="late">Too late</option></select>
         <label><input type="checkbox" name="confirm" value="yes"> Customer confirmed</label>
         <p id="err" role="alert" hidden></p><button type="submit">Cancel order</button></form>`
      : '';
    return c.html(page(`Order ${id}`, `<h1>Order ${esc(id)}</h1><p>Status: <strong aria-label="Status">${esc(o.status)}</strong></p><p>Total: ${esc(o.total)}</p>${form}<script>${SUBMIT_JS}</script>`));
  });
  h.post('/api/orders/:id/cancel', async (c) => {
    const body = (await c.req.json()) as { reason?: string; code?: string; confirm?: string };
    if (testAppTiming.cancelDelayMs) await new Promise((r) => setTimeout(r, testAppTiming.cancelDelayMs));
    if (body.confirm !== 'yes') return c.json({ error: 'Tick "Customer confirmed" first.' });
    const reason = [body.reason, body.code].filter(Boolean).join(' / ');
    const out = await backend.act('cancel_order', { order_id: c.req.param('id'), reason });
    return c.json(out.error ? { error: out.result } : { ok: true });
  });
  return h.fetch;
}

/** The mini domain with the app in front of it. */
export const miniWebDomain: WebDomain<MiniState> = { ...miniDomain, name: 'mini-web', webApp: { name: 'Mini Orders', create: app } };
