/**
 * The service console web app (Lumen Service Console) for one episode: a hono app over the
 * episode's back-end (see `src/surfaces/web-app.ts`). Routes: `/o/:object` list views,
 * `/r/:object/:id` record pages, `/r/cases/:n/{edit,return-order,log-call,post}` forms,
 * `/search?q=` global search; XHR: `/frag/...` list and related-list fragments,
 * `/api/lookup/:object` lookup suggestions, `POST /api/cases/:n[/return-orders|/calls|/feed]`.
 */
import { Hono } from 'hono';
import type { WebAppDef, WebBackend } from '../../../surfaces/web-app.js';
import { OBJECTS, type ConsoleObject } from '../schema.js';
import type { ConsoleState } from '../state.js';
import { casePage, submitCaseForm } from './forms.js';
import { APP_NAME, esc, page } from './layout.js';
import { listFragment, listPage, recordPage, relatedFragment, searchPage } from './pages.js';

const isObject = (o: string): o is ConsoleObject => (OBJECTS as readonly string[]).includes(o);
const notFound = (what: string) => page('Not found', `<h1>Not found</h1><p role="alert">${esc(what)} was not found.</p>`);
const POST_FORMS: Record<string, string> = { '': 'edit', 'return-orders': 'return-order', calls: 'log-call', feed: 'post' };

/** The app for one episode. */
export function consoleApp(b: WebBackend<ConsoleState>): Hono {
  const h = new Hono();
  h.get('/', (c) => c.redirect('/o/cases?view=open'));
  h.get('/o/:object', (c) => {
    const o = c.req.param('object');
    if (!isObject(o)) return c.html(notFound(`List ${o}`), 404);
    return c.html(listPage(o, c.req.query('view') ?? 'all', Math.max(1, Number(c.req.query('page') ?? 1) || 1)));
  });
  h.get('/frag/list/:object', async (c) => {
    const o = c.req.param('object');
    return isObject(o) ? c.html(await listFragment(b, o, c.req.query('view') ?? 'all', Math.max(1, Number(c.req.query('page') ?? 1) || 1))) : c.text('unknown list', 404);
  });
  h.get('/frag/related/:object/:id/:rel', async (c) => {
    const o = c.req.param('object');
    return isObject(o) ? c.html(await relatedFragment(b, o, c.req.param('id'), Number(c.req.param('rel')))) : c.text('unknown list', 404);
  });
  h.get('/r/cases/:id/:form', (c) => {
    const html = casePage(b, c.req.param('id'), c.req.param('form'));
    return html ? c.html(html) : c.html(notFound(`Case ${c.req.param('id')}`), 404);
  });
  h.get('/r/:object/:id', async (c) => {
    const o = c.req.param('object');
    const html = isObject(o) ? await recordPage(b, o, c.req.param('id')) : null;
    return html ? c.html(html) : c.html(notFound(`Record ${c.req.param('id')}`), 404);
  });
  h.get('/search', async (c) => c.html(await searchPage(b, c.req.query('q') ?? '')));
  h.get('/api/lookup/:object', async (c) => {
    const o = c.req.param('object');
    if (!isObject(o)) return c.json([]);
    const out = await b.act('lookup_records', { object: o, query: c.req.query('q') ?? '', ...(c.req.query('account') ? { account_id: c.req.query('account') } : {}) });
    return c.json(out.error ? [] : JSON.parse(out.result));
  });
  h.post('/api/cases/:id/:what?', async (c) => {
    const form = POST_FORMS[c.req.param('what') ?? ''];
    if (!form) return c.json({ errors: {}, message: 'Unknown action' }, 404);
    const body = (await c.req.json().catch(() => ({}))) as Record<string, string>;
    return c.json(await submitCaseForm(b, c.req.param('id'), form, body));
  });
  return h;
}

/** The console's web app definition (the domain's `webApp`). */
export const consoleWebApp: WebAppDef<ConsoleState> = {
  name: APP_NAME,
  create: (b) => consoleApp(b).fetch,
  startPath: '/o/cases?view=open',
};
