/**
 * The helpdesk domain's web app over HTTP (no browser): one origin with the Harbordesk and shop
 * admin paths; pages read the state, and every write and single-record read goes through the
 * back-end (`act`); the shop's internal API needs the integration token (the browser has none);
 * validation errors keep the form and say what is wrong; forms carry the loading-state script.
 */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import type { HelpdeskDb } from '../../../src/domains/helpdesk/index.js';
import { SHOP_PATHS } from '../../../src/domains/helpdesk/apps/index.js';
import { invokeTool } from '../../../src/env/dispatch.js';
import type { WebDomain } from '../../../src/surfaces/web-app.js';
import type { ActionOutcome } from '../../../src/spec/tool.js';

const loaded = loadDomain('helpdesk');
const domain = loaded.domain as WebDomain<HelpdeskDb>;

/** The app over a fresh state, with a back-end that runs the domain's operations and logs them. */
function open() {
  const state = domain.state!.fork(domain.initialState());
  const log: { name: string; args: unknown; error: boolean }[] = [];
  const act = async (name: string, args: unknown): Promise<ActionOutcome> => {
    const tool = domain.tools.find((t) => t.name === name)!;
    const parsed = tool.parameters.safeParse(args);
    if (!parsed.success) {
      log.push({ name, args, error: true });
      return { result: `Error: ${parsed.error.issues[0].message}`, error: true };
    }
    const out = await invokeTool(tool, parsed.data, { state, now: loaded.now!, nextId: (p) => p, act, record: () => undefined }, domain.outputStyle);
    log.push({ name, args, error: out.error });
    return { result: out.output, error: out.error };
  };
  const fetch = domain.webApp.create({ state, now: loaded.now!, act });
  const get = (path: string) => fetch(new Request(`http://127.0.0.1${path}`));
  const post = (path: string, form: Record<string, string>) => fetch(new Request(`http://127.0.0.1${path}`, { method: 'POST', body: new URLSearchParams(form) }));
  return { state, log, get, post, fetch };
}

describe('one origin, two products', () => {
  it('routes the shop admin paths to the shop and everything else to Harbordesk; the top bars switch between them', async () => {
    expect(['/orders', '/orders/1207', '/discounts/new', '/internal/api/customers'].every((p) => SHOP_PATHS.test(p))).toBe(true);
    expect(['/views/open', '/tickets/5521', '/ordersx'].some((p) => SHOP_PATHS.test(p))).toBe(false);
    const app = open();
    const inbox = await (await app.get('/views/open')).text();
    expect(inbox).toContain('<title>Open tickets · Harbordesk</title>');
    expect(inbox).toContain('#5521 Order #1207 arrived 6 days late');
    expect(inbox).toContain('href="/orders">Shop admin</a>');
    const orders = await (await app.get('/orders?q=1207')).text();
    expect(orders).toContain('Juniper &amp; Oak Admin');
    expect(orders).toContain('1 order(s)');
    expect((await app.get('/')).headers.get('location')).toBe('/views/open');
  });
});

describe('Harbordesk', () => {
  it('the ticket page reads the ticket through the back-end and the sidebar through the shop API', async () => {
    const app = open();
    const html = await (await app.get('/tickets/5521?order=1207')).text();
    expect(app.log.map((a) => a.name)).toEqual(['get_ticket', 'find_customer', 'get_order', 'list_discount_codes']);
    expect(html).toContain('Delivered 6 days late');
    expect(html).toContain('Standard (3-6 business days): $8.95');
    expect(html).toContain('role="button">Refund shipping</a>');
    expect(html).toContain("f.setAttribute('aria-busy', 'true')"); // the loading state on submit
  });

  it('applying a macro fills what the helpdesk knows and asks for the rest; sending with an empty variable is refused and keeps the text', async () => {
    const app = open();
    const page = await (await app.get('/tickets/5521?macro=late-delivery-apology')).text();
    expect(page).toContain('Hi Dana,');
    expect(page).toContain('Sam at Juniper &amp; Oak');
    expect(page).toContain('<label for="var-discount_code">Discount code</label>');
    const body = 'Hi Dana, order #{{order.number}}: {{discount_code}}';
    const res = await app.post('/tickets/5521/reply', { body, macro_id: 'late-delivery-apology', 'var:order.number': '1207', 'var:discount_code': '', after: 'closed' });
    expect(res.status).toBe(422);
    const again = await res.text();
    expect(again).toContain('role="alert">Fill in the macro variable(s) before sending: discount_code');
    expect(again).toContain('value="1207"');
    expect(app.state.get('tickets', '5521')!.status).toBe('open');
  });

  it('"Send and close" sends the filled macro (CRLF line breaks as LF) and closes the ticket', async () => {
    const app = open();
    const res = await app.post('/tickets/5521/reply', { body: 'Hi Dana,\r\n\r\ncode {{discount_code}}', macro_id: 'late-delivery-apology', 'var:discount_code': 'SORRY-ZS6PYR', after: 'closed' });
    expect(res.status).toBe(303);
    expect(decodeURIComponent(res.headers.get('location')!.replace(/\+/g, ' '))).toBe('/tickets/5521?ok=Reply sent and ticket closed');
    const t = app.state.get('tickets', '5521')!;
    expect(t.messages.at(-1)).toMatchObject({ body: 'Hi Dana,\n\ncode SORRY-ZS6PYR', macro_id: 'late-delivery-apology', public: true });
    expect(t.status).toBe('closed');
    expect(t.tags).toEqual(['late-delivery']);
  });

  it('the sidebar refunds the shipping left and creates a generated single-use code through the shop API', async () => {
    const app = open();
    expect((await app.post('/tickets/5521/shop/refund-shipping', { order: '1207', reason: 'late_delivery' })).status).toBe(303);
    expect(app.state.get('refunds', 'RF-1207-1')).toMatchObject({ line_items: [], shipping_cents: 895, reason: 'late_delivery' });
    const again = await app.post('/tickets/5521/shop/refund-shipping', { order: '1207', reason: 'late_delivery' });
    expect(decodeURIComponent(again.headers.get('location')!.replace(/\+/g, ' '))).toContain('error=The shipping of order #1207 was already refunded');
    expect(app.state.get('orders', '1207')!.refund_ids).toEqual(['RF-1207-1']);
    const made = await app.post('/tickets/5521/shop/discount', { order: '1207', percent: '10', usage: 'single', once: '1', restrict: '1' });
    expect(decodeURIComponent(made.headers.get('location')!.replace(/\+/g, ' '))).toContain('ok=Discount code SORRY-ZS6PYR created');
    expect(app.state.get('discount_codes', 'SORRY-ZS6PYR')).toMatchObject({ percent_off: 10, usage_limit: 1, once_per_customer: true, customer_id: 'cus_4471', order_id: '1207' });
    const bad = await app.post('/tickets/5521/shop/discount', { order: '1207', percent: '0', usage: 'single' });
    expect(decodeURIComponent(bad.headers.get('location')!.replace(/\+/g, ' '))).toContain('error=Percent off must be a whole number from 1 to 100');
  });
});

describe('shop admin', () => {
  it('the internal API refuses a request without the integration token (the browser has none)', async () => {
    const app = open();
    const res = await app.get('/internal/api/customers?email=dana.whitfield@example.com');
    expect(res.status).toBe(401);
    expect(app.log).toEqual([]);
  });

  it('the refund form validates amounts and shows the back-end refusal; a valid refund redirects to the order', async () => {
    const app = open();
    const bad = await app.post('/orders/1240/refund', { 'qty:li-1240-1': 'two', shipping: '0', reason: 'returned' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Refund quantity for Soy candle, cedar &amp; fig must be a whole number');
    const over = await app.post('/orders/1240/refund', { 'qty:li-1240-1': '5', shipping: '0', reason: 'returned' });
    expect(await over.text()).toContain('has 4 refundable unit(s), not 5');
    const money = await app.post('/orders/1240/refund', { 'qty:li-1240-1': '0', shipping: 'lots', reason: 'returned' });
    expect(await money.text()).toContain('Shipping to refund must be an amount like 8.95');
    const ok = await app.post('/orders/1240/refund', { 'qty:li-1240-1': '2', 'qty:li-1240-2': '0', shipping: '0.00', reason: 'returned' });
    expect(ok.status).toBe(303);
    expect(app.state.get('refunds', 'RF-1240-1')).toMatchObject({ line_items: [{ line_id: 'li-1240-1', quantity: 2, amount_cents: 4980 }], shipping_cents: 0, total_cents: 4980 });
    const page = await (await app.get('/orders/1240')).text();
    expect(page).toContain('$49.80</strong> refunded');
  });

  it('the discount form looks the customer up through the back-end, generates the code and disables one', async () => {
    const app = open();
    const unknown = await app.post('/discounts', { percent: '15', limit: '1', once: '1', customer: 'nobody@example.com', order: '', code: '' });
    expect(await unknown.text()).toContain('No shop customer with email nobody@example.com');
    const made = await app.post('/discounts', { percent: '15', limit: '1', once: '1', customer: 'grace.park@example.com', order: '#1245', code: '' });
    expect(made.headers.get('location')).toMatch(/^\/discounts\/SORRY-GUHMFG\?ok=/);
    expect(app.state.get('discount_codes', 'SORRY-GUHMFG')).toMatchObject({ percent_off: 15, usage_limit: 1, once_per_customer: true, customer_id: 'cus_4530', order_id: '1245' });
    await app.post('/discounts/HARVEST-20/disable', {});
    expect(app.state.get('discount_codes', 'HARVEST-20')!.status).toBe('disabled');
    expect(app.log.map((a) => a.name)).toEqual(['find_customer', 'find_customer', 'create_discount_code', 'disable_discount_code']);
  });

  it('the orders list filters and pages', async () => {
    const app = open();
    const first = await (await app.get('/orders')).text();
    expect(first).toMatch(/\d+ order\(s\) · page 1 of \d+/);
    expect(first).toContain('Next page');
    const refunded = await (await app.get('/orders?status=partially_refunded')).text();
    expect(refunded).toContain('#1176');
    expect(refunded).not.toContain('>#1207<');
  });
});
