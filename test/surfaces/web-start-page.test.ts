/**
 * The web surface's start page (a console's list view loads its rows over XHR after the page's
 * load event): the episode opens only once the page has settled, so the agent's first snapshot
 * shows the rows whatever the machine's load, and the rows' back-end read is the harness's doing
 * (requestor `system`, no cause), never a refusal shown in the page as "could not be loaded".
 * A start page whose app fails is loaded again; one that keeps failing makes the environment
 * fail to open (a harness error). A page request that comes with no browser action in progress
 * after the episode opened is the harness's fault, not the agent's. Skipped without Chromium.
 */
import { Hono } from 'hono';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { Environment } from '../../src/env/environment.js';
import { HarnessError } from '../../src/spec/errors.js';
import { closeSharedBrowser } from '../../src/surfaces/browser-pool.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';
import type { WebBackend, WebDomain } from '../../src/surfaces/web-app.js';
import { webSurface } from '../../src/surfaces/web.js';
import { miniDomain, type MiniState } from '../support/mini-domain.js';

/** What the list region's handler does: fail (500) the first `failures` times, answer after `delayMs`, count its requests. */
const fragment = { failures: 0, delayMs: 0, requests: 0, laterFetchMs: 0 };

const LOAD_JS = `
const region = document.getElementById('rows');
fetch('/frag/rows').then((r) => r.ok ? r.text() : Promise.reject(new Error('HTTP ' + r.status)))
  .then((h) => { region.innerHTML = h; region.removeAttribute('aria-busy'); })
  .catch(() => { region.innerHTML = '<p role="alert">This list could not be loaded.</p>'; region.removeAttribute('aria-busy'); });
const later = Number(document.body.dataset.later);
if (later) setTimeout(() => fetch('/frag/rows'), later);`;

function app(backend: WebBackend<MiniState>) {
  const h = new Hono();
  h.get('/', (c) => c.html(`<!doctype html><html><head><title>Orders</title></head><body data-later="${fragment.laterFetchMs}"><main><h1>Orders</h1><section aria-label="Order list"><div id="rows" aria-busy="true"></div></section></main><script>${LOAD_JS}</script></body></html>`));
  h.get('/frag/rows', async (c) => {
    fragment.requests++;
    if (fragment.failures > 0) {
      fragment.failures--;
      return c.text('boom', 500);
    }
    // The read happens when the request arrives; the answer comes later (a slow server or a loaded machine).
    const got = await backend.act('get_order', { order_id: 'O1' });
    if (fragment.delayMs) await new Promise((r) => setTimeout(r, fragment.delayMs));
    if (got.error) return c.html('<p role="alert">This list could not be loaded.</p>');
    const o = JSON.parse(got.result) as { status: string };
    return c.html(`<ul aria-label="Orders"><li><a href="/orders/O1">Order O1</a> (${o.status})</li></ul>`);
  });
  return h.fetch;
}

const domain: WebDomain<MiniState> = { ...miniDomain, name: 'mini-lazy', webApp: { name: 'Mini Lazy', create: app } };
const NOW = '2026-01-01T00:00:00Z';
const snapshot = (env: Environment<MiniState>) => env.execute({ id: 'c1', type: 'function', function: { name: 'browser_snapshot', arguments: '{}' } }, 'assistant', { message_index: 1 });

beforeEach(() => Object.assign(fragment, { failures: 0, delayMs: 0, requests: 0, laterFetchMs: 0 }));

describe.skipIf(lacks(CHROMIUM_NEED))(needing('the web surface waits for its start page', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('opens once the rows have loaded: the first snapshot shows them, their read is a system action', async () => {
    fragment.delayMs = 400; // the answer arrives well after the load event
    const firsts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const env = new Environment<MiniState>(domain, { now: NOW, surface: webSurface });
      await env.open();
      try {
        expect(env.actionLog).toEqual([{ seq: 0, requestor: 'system', name: 'get_order', arguments: { order_id: 'O1' }, result: expect.stringContaining('"status": "pending"'), error: false, mutating: false }]);
        const first = await snapshot(env);
        expect(first.error).toBe(false);
        expect(first.output).toContain('link "Order O1"');
        expect(first.output).not.toMatch(/could not be loaded|still loading/);
        firsts.push(first.output);
      } finally {
        await env.close();
      }
    }
    expect(new Set(firsts).size).toBe(1);
  }, 120_000);

  it('loads a start page whose app failed again, and fails to open (a harness error) when it keeps failing', async () => {
    fragment.failures = 1;
    const env = new Environment<MiniState>(domain, { now: NOW, surface: webSurface });
    await env.open();
    try {
      expect(fragment.requests).toBe(2);
      expect((await snapshot(env)).output).toContain('link "Order O1"');
    } finally {
      await env.close();
    }

    fragment.failures = 99;
    const broken = new Environment<MiniState>(domain, { now: NOW, surface: webSurface });
    const err = await broken.open().then(() => null, (e: unknown) => e);
    expect(err).toBeInstanceOf(HarnessError);
    expect(String((err as Error).message)).toMatch(/surface web failed to open: .*the start page \/ did not load \(2 attempts; the last: the web app failed: GET \/frag\/rows answered 500\)/);
    expect(broken.isOpen).toBe(false);
  }, 120_000);

  it('a page request with no browser action in progress after opening is a harness error, not a refusal', async () => {
    fragment.laterFetchMs = 300; // a timer fetch after the page settled, before any browser action
    const env = new Environment<MiniState>(domain, { now: NOW, surface: webSurface });
    await env.open();
    try {
      const t0 = Date.now();
      while (fragment.requests < 2 && Date.now() - t0 < 30_000) await new Promise((r) => setTimeout(r, 20));
      expect(fragment.requests).toBe(2);
      // the request's read found no cause: the next tool call ends the episode as a harness error
      await new Promise((r) => setTimeout(r, 0));
      const entry = await snapshot(env);
      expect(entry.harnessError).toMatch(/the page called get_order with no browser action in progress/);
      expect(env.harnessFault).not.toBeNull();
    } finally {
      await env.close();
    }
  }, 120_000);
});
