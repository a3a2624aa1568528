/**
 * The web surface in real Chromium over a tiny app (test/support/web-test-app.ts): the snapshot's
 * roles, names, values and refs; click, type, select, press key and navigate; writes from a form
 * submit reaching the action log with the click as their cause; the wait for loading states;
 * stale refs and foreign origins refused as tool errors; screenshots as image parts; two
 * concurrent episodes isolated; the context and app server closed with the environment.
 * Skipped (with the reason) when Chromium is not installed.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Environment, type ToolLogEntry } from '../../src/env/environment.js';
import { closeSharedBrowser, sharedBrowser } from '../../src/surfaces/browser-pool.js';
import { getSurface } from '../../src/surfaces/index.js';
import { WebEpisode, webScreenshotSurface, webSurface } from '../../src/surfaces/web.js';
import { findRef, refLine } from '../../src/surfaces/web-snapshot.js';
import { miniDomain, type MiniState } from '../support/mini-domain.js';
import { miniWebDomain, testAppTiming } from '../support/web-test-app.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const NOW = '2026-01-01T00:00:00Z';
const T = 120_000;
let seq = 0;

async function openEnv(surface = webSurface): Promise<Environment<MiniState>> {
  const env = new Environment<MiniState>(miniWebDomain, { now: NOW, surface });
  await env.open();
  return env;
}
const run = (env: Environment<MiniState>, name: string, args: unknown = {}, messageIndex = ++seq): Promise<ToolLogEntry> =>
  env.execute({ id: `c${messageIndex}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }, 'assistant', { message_index: messageIndex });
const ref = (out: string, role: string, name: string): string => {
  const r = findRef(out, role, name);
  if (!r) throw new Error(`no ${role} "${name}" in:\n${out}`);
  return r;
};

describe('web surface registry and tools', () => {
  it('registers web and web-screenshot with the browser tools and refuses a domain without an app', () => {
    expect(getSurface('web')).toBe(webSurface);
    expect(webSurface.tools(miniWebDomain).map((t) => t.name)).toEqual(['browser_snapshot', 'browser_click', 'browser_type', 'browser_select_option', 'browser_press_key', 'browser_navigate']);
    expect(getSurface('web-screenshot').tools(miniWebDomain).map((t) => t.name)).toContain('browser_screenshot');
    expect(webSurface.tools(miniWebDomain).every((t) => t.records === 'self' && t.requestor === 'assistant')).toBe(true);
    expect(() => webSurface.tools(miniDomain)).toThrow(/has no web app/);
  });

  it('finds refs by role and exact or partial name', () => {
    const snap = '- main\n  - link "Order O1" [ref=e3]\n  - button "Cancel order" [ref=e9]\n  - textbox "Reason" [required] [ref=e7]: "x"';
    expect(findRef(snap, 'button', 'Cancel order')).toBe('e9');
    expect(findRef(snap, 'textbox', 'Reason')).toBe('e7');
    expect(findRef(snap, 'link', 'O1', { exact: false })).toBe('e3');
    expect(findRef(snap, 'link', 'O1')).toBeNull();
    expect(refLine(snap, 'e7')).toBe('- textbox "Reason" [required] [ref=e7]: "x"');
  });
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('web surface in Chromium', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('drives a form through the browser; the submit is a back-end write caused by the click', async () => {
    const env = await openEnv();
    try {
      const home = await run(env, 'browser_snapshot');
      expect(home.output).toMatch(/^Page: Orders \| Mini Orders\nURL: \/\n/);
      expect(home.output).toContain('- navigation "Main"');
      expect(home.output).toMatch(/- heading "Orders" \[level=1\]/);
      const order = await run(env, 'browser_click', { ref: ref(home.output, 'link', 'Order O1') });
      expect(order.output).toMatch(/^Acted on: - link "Order O1" \[ref=e\d+\]/);
      expect(order.output).toContain('URL: /orders/O1');
      expect(order.output).toMatch(/- textbox "Reason" \[required\] \[ref=e\d+\]/);
      expect(order.output).toMatch(/- combobox "Reason code" \[ref=e\d+\]: "--"\n\s+- option "--" \[selected\] \(value ""\)\n\s+- option "Changed my mind" \(value "changed_mind"\)/);

      const typed = await run(env, 'browser_type', { ref: ref(order.output, 'textbox', 'Reason'), text: 'found it cheaper' });
      expect(typed.output).toMatch(/- textbox "Reason" \[required\] \[ref=e\d+\]: "found it cheaper"/);
      const unknown = await run(env, 'browser_select_option', { ref: ref(typed.output, 'combobox', 'Reason code'), value: 'Lost it' });
      expect(unknown).toMatchObject({ error: true });
      expect(unknown.output).toContain(`no option 'Lost it'; the options are: "--", "Changed my mind"`);
      const byValue = await run(env, 'browser_select_option', { ref: ref(typed.output, 'combobox', 'Reason code'), value: 'changed_mind' });
      expect(byValue.output).toMatch(/combobox "Reason code" \[ref=e\d+\]: "Changed my mind"/);
      const notSelect = await run(env, 'browser_select_option', { ref: ref(byValue.output, 'textbox', 'Reason'), value: 'x' });
      expect(notSelect.output).toContain('not a drop-down');
      const selected = await run(env, 'browser_select_option', { ref: ref(byValue.output, 'combobox', 'Reason code'), value: 'Changed my mind' });
      expect(selected.output).toMatch(/combobox "Reason code" \[ref=e\d+\]: "Changed my mind"/);

      // Refused by the app (not confirmed): the alert shows, nothing was written.
      const refused = await run(env, 'browser_click', { ref: ref(selected.output, 'button', 'Cancel order') });
      expect(refused.output).toContain('- alert: Tick "Customer confirmed" first.');
      expect(refused.mutating).toBe(false);

      const ticked = await run(env, 'browser_click', { ref: ref(refused.output, 'checkbox', 'Customer confirmed') });
      expect(ticked.output).toMatch(/checkbox "Customer confirmed" \[checked\]/);
      testAppTiming.cancelDelayMs = 400; // the surface must wait for the busy form, not answer early
      const clickAt = 50;
      const done = await run(env, 'browser_click', { ref: ref(ticked.output, 'button', 'Cancel order') }, clickAt);
      testAppTiming.cancelDelayMs = 0;
      expect(done.output).toMatch(/- text: Status:\n\s+- text: cancelled/);
      expect(done.mutating).toBe(true);
      expect(env.state.get('orders', 'O1')!.status).toBe('cancelled');
      const writes = env.actionLog.filter((a) => a.mutating);
      expect(writes.map((a) => [a.name, a.arguments, a.cause?.message_index])).toEqual([['cancel_order', { order_id: 'O1', reason: 'found it cheaper / changed_mind' }, clickAt]]);
      // Page loads read through the back-end too.
      expect(env.actionLog.filter((a) => a.name === 'get_order' && a.cause?.message_index === clickAt).length).toBeGreaterThan(0);
    } finally {
      await env.close();
    }
  }, T);

  it('refuses stale refs, foreign origins and bad URLs as tool errors; press_key and navigate work', async () => {
    const env = await openEnv();
    try {
      const home = await run(env, 'browser_snapshot');
      const link = ref(home.output, 'link', 'Order O2');
      const nav = await run(env, 'browser_navigate', { url: '/orders/O3' });
      expect(nav.output).toMatch(/^Navigated to: \/orders\/O3\nPage: Order O3/);
      const stale = await run(env, 'browser_click', { ref: link });
      expect(stale).toMatchObject({ error: true });
      expect(stale.output).toMatch(/^Error: element e\d+ is not on the current page/);
      expect((await run(env, 'browser_click', { ref: 'button' })).output).toMatch(/is not an element ref/);
      expect((await run(env, 'browser_navigate', { url: 'https://example.com/' })).output).toMatch(/^Error: navigation to https:\/\/example.com is not allowed/);
      const reason = ref(nav.output, 'textbox', 'Reason');
      await run(env, 'browser_type', { ref: reason, text: 'abc' });
      const pressed = await run(env, 'browser_press_key', { key: 'Backspace' });
      expect(pressed.output).toMatch(/^Pressed: Backspace/);
      expect(pressed.output).toMatch(/textbox "Reason" \[required\] \[ref=e\d+\]: "ab"/);
      // A page link to another origin is blocked by the context too.
      const ep = (env as unknown as { resource: WebEpisode }).resource;
      const res = await ep.page.evaluate(`fetch('http://127.0.0.1:9/').then(() => 'reached', () => 'blocked')`);
      expect(res).toBe('blocked');
      expect(env.actionLog.some((a) => a.mutating)).toBe(false);
    } finally {
      await env.close();
    }
  }, T);

  it('answers with a JPEG screenshot part in snapshot+screenshot mode', async () => {
    const env = await openEnv(webScreenshotSurface);
    try {
      const shot = await run(env, 'browser_screenshot');
      expect(shot.parts?.map((p) => p.type)).toEqual(['text', 'image_url']);
      expect(shot.parts?.[1]).toMatchObject({ image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,\/9j\//) } });
      expect(shot.output).toContain('- heading "Orders" [level=1]');
    } finally {
      await env.close();
    }
  }, T);

  it('keeps two concurrent episodes apart: own state, own app, own browser context', async () => {
    const [a, b] = await Promise.all([openEnv(), openEnv()]);
    try {
      const epA = (a as unknown as { resource: WebEpisode }).resource;
      const epB = (b as unknown as { resource: WebEpisode }).resource;
      expect(epA.origin).not.toBe(epB.origin);
      expect(epA.context).not.toBe(epB.context);
      await epA.context.addCookies([{ name: 'k', value: 'a', url: epA.origin }]);
      const cancelIn = async (env: Environment<MiniState>, id: string) => {
        const p = await run(env, 'browser_navigate', { url: `/orders/${id}` });
        const t = await run(env, 'browser_type', { ref: ref(p.output, 'textbox', 'Reason'), text: 'no longer needed' });
        const c = await run(env, 'browser_click', { ref: ref(t.output, 'checkbox', 'Customer confirmed') });
        return run(env, 'browser_click', { ref: ref(c.output, 'button', 'Cancel order') });
      };
      await Promise.all([cancelIn(a, 'O1'), cancelIn(b, 'O3')]);
      expect(a.state.get('orders', 'O1')!.status).toBe('cancelled');
      expect(a.state.get('orders', 'O3')!.status).toBe('pending');
      expect(b.state.get('orders', 'O3')!.status).toBe('cancelled');
      expect(b.state.get('orders', 'O1')!.status).toBe('pending');
      const seenByB = await run(b, 'browser_navigate', { url: '/orders/O1' });
      expect(seenByB.output).toMatch(/- text: Status:\n\s+- text: pending/);
      expect(await epB.context.cookies()).toEqual([]);
      expect(a.actionLog.filter((x) => x.mutating).map((x) => x.arguments)).toEqual([{ order_id: 'O1', reason: 'no longer needed' }]);
      expect(b.actionLog.filter((x) => x.mutating).map((x) => x.arguments)).toEqual([{ order_id: 'O3', reason: 'no longer needed' }]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, T);

  it('closes the browser context and stops the app server with the environment', async () => {
    const env = await openEnv();
    const ep = (env as unknown as { resource: WebEpisode }).resource;
    const browser = await sharedBrowser();
    const before = browser.contexts().length;
    expect(before).toBeGreaterThan(0);
    await env.close();
    expect(browser.contexts()).not.toContain(ep.context);
    await expect(fetch(ep.origin + '/')).rejects.toThrow();
    expect(env.harnessFault).toBeNull();
  }, T);
});
