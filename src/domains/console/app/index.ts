/**
 * The service console web app (Lumen Service Console) for one episode: a hono app over the
 * episode's back-end (see `src/surfaces/web-app.ts`). Routes: `/o/:object` list views,
 * `/r/:object/:id` record pages, `/r/cases/:n/{edit,return-order,log-call,follow-up,post}` forms,
 * `/o/cases/new` the New Case form, `/search?q=` global search; XHR: `/frag/...` list,
 * related-list and workspace-tab fragments, `/api/lookup/:object` lookup suggestions,
 * `POST /api/cases/:n[/return-orders|/calls|/tasks|/feed]`, `POST /api/new-case`,
 * `POST /ui/tabs/close`.
 *
 * Workspace tabs: every record page opened adds a tab (the latest {@link MAX_TABS}, in opening
 * order); they live with the episode's app (the browser session's workspace), not in the
 * back-end's store.
 */
import { Hono } from 'hono';
import type { WebAppDef, WebBackend } from '../../../surfaces/web-app.js';
import { OBJECTS, type ConsoleObject } from '../schema.js';
import type { ConsoleState } from '../state.js';
import { casePage, submitCaseForm } from './forms.js';
import { APP_NAME, esc, LABELS, page } from './layout.js';
import { newCasePage, submitNewCase } from './new-case.js';
import { titleOf } from '../tools.js';
import { listFragment, listPage, recordPage, relatedFragment, searchPage } from './pages.js';

const isObject = (o: string): o is ConsoleObject => (OBJECTS as readonly string[]).includes(o);
const notFound = (what: string) => page('Not found', `<h1>Not found</h1><p role="alert">${esc(what)} was not found.</p>`);
const POST_FORMS: Record<string, string> = { '': 'edit', 'return-orders': 'return-order', calls: 'log-call', tasks: 'follow-up', feed: 'post' };

/** Most workspace tabs kept open; opening one more closes the oldest. */
export const MAX_TABS = 8;

/** The episode's workspace tabs: record pages opened, oldest first. */
function workspace() {
  const tabs: { href: string; title: string }[] = [];
  return {
    open(href: string, title: string) {
      if (tabs.some((t) => t.href === href)) return;
      tabs.push({ href, title });
      if (tabs.length > MAX_TABS) tabs.shift();
    },
    /** Closes `href`'s tab; answers the tab to show next (the one after it, else before it), if any. */
    close(href: string): string | null {
      const i = tabs.findIndex((t) => t.href === href);
      if (i < 0) return null;
      tabs.splice(i, 1);
      return (tabs[i] ?? tabs[i - 1])?.href ?? null;
    },
    html(current: string): string {
      if (!tabs.length) return '<p class="ws-empty">No records open</p>';
      return tabs.map((t) => `<span class="ws-tab"><a role="tab" href="${esc(t.href)}" aria-selected="${t.href === current}">${esc(t.title)}</a><button type="button" aria-label="Close tab ${esc(t.title)}" data-close="${esc(t.href)}">×</button></span>`).join('');
    },
  };
}

/** The app for one episode. */
export function consoleApp(b: WebBackend<ConsoleState>): Hono {
  const h = new Hono();
  const tabs = workspace();
  h.get('/', (c) => c.redirect('/o/cases?view=open'));
  h.get('/o/cases/new', (c) => c.html(newCasePage(b, c.req.query('account'))));
  h.post('/api/new-case', async (c) => c.json(await submitNewCase(b, (await c.req.json().catch(() => ({}))) as Record<string, string>)));
  h.get('/frag/tabs', (c) => c.html(tabs.html(c.req.query('current') ?? '')));
  h.post('/ui/tabs/close', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as { href?: string };
    return c.json({ next: tabs.close(String(body.href ?? '')) });
  });
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
    const id = c.req.param('id');
    const html = isObject(o) ? await recordPage(b, o, id) : null;
    if (!html) return c.html(notFound(`Record ${id}`), 404);
    tabs.open(`/r/${o}/${encodeURIComponent(id)}`, `${LABELS[o as ConsoleObject][1]} ${o === 'cases' ? id : titleOf(b.state.db, o as ConsoleObject, id)}`);
    return c.html(html);
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
