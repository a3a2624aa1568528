/**
 * The web surface when Chromium dies mid-episode or the app itself fails (a handler that throws):
 * the episode ends as a harness error (never a tool error or error page the agent reads and
 * works around), the environment still closes its app server, and the next episode gets a
 * relaunched browser. Malformed URLs name their scheme. Skipped (with the reason) when Chromium
 * is not installed.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Hono } from 'hono';
import { Environment, type ToolLogEntry } from '../../src/env/environment.js';
import { closeSharedBrowser, sharedBrowser } from '../../src/surfaces/browser-pool.js';
import { webSurface, type WebEpisode } from '../../src/surfaces/web.js';
import type { WebDomain } from '../../src/surfaces/web-app.js';
import type { MiniState } from '../support/mini-domain.js';
import { miniWebDomain } from '../support/web-test-app.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const NOW = '2026-01-01T00:00:00Z';
const T = 180_000;

/** The test app with two broken routes: `/bug` throws in a hono handler, `/raw` throws from the handler itself. */
const brokenDomain: WebDomain<MiniState> = {
  ...miniWebDomain,
  webApp: {
    name: 'Broken',
    create: (backend) => {
      const inner = miniWebDomain.webApp.create(backend);
      const h = new Hono();
      h.get('/bug', () => {
        throw new TypeError("Cannot read properties of undefined (reading 'status')");
      });
      h.all('*', (c) => inner(c.req.raw));
      return (req) => {
        if (new URL(req.url).pathname === '/raw') throw new Error('raw failure');
        return h.fetch(req);
      };
    },
  },
};

async function openEnv(domain: WebDomain<MiniState> = miniWebDomain): Promise<Environment<MiniState>> {
  const env = new Environment<MiniState>(domain, { now: NOW, surface: webSurface });
  await env.open();
  return env;
}
const run = (env: Environment<MiniState>, name: string, args: unknown, i: number): Promise<ToolLogEntry> =>
  env.execute({ id: `c${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }, 'assistant', { message_index: i });

/** Kills this process's Chromium (the browser process is a child of this process). */
function killChromium(): void {
  const ps = execFileSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]).toString();
  for (const line of ps.split('\n')) {
    const [pid, comm] = line.trim().split(/\s+/);
    if (comm && /chrom/.test(comm)) process.kill(Number(pid), 'SIGKILL');
  }
}

describe.skipIf(lacks(CHROMIUM_NEED))(needing('web surface when the browser crashes', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it.each([
    ['browser_navigate', { url: '/orders/O1' }],
    ['browser_press_key', { key: 'Enter' }],
    ['browser_click', { ref: 'e1' }],
  ])('%s after a crash is a harness error; the next episode works', async (tool, args) => {
    const env = await openEnv();
    const ep = (env as unknown as { resource: WebEpisode }).resource;
    const browser = await sharedBrowser();
    expect((await run(env, 'browser_snapshot', {}, 1)).error).toBe(false);
    killChromium();
    for (let i = 0; i < 600 && browser.isConnected(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(browser.isConnected()).toBe(false);
    const out = await run(env, tool, args, 2);
    expect(out.harnessError).toMatch(/closed|crash/i);
    expect(env.harnessFault).toMatchObject({ tool });
    await env.close();
    await expect(fetch(ep.origin + '/')).rejects.toThrow();

    const next = await openEnv();
    try {
      const snap = await run(next, 'browser_snapshot', {}, 1);
      expect(snap.output).toContain('- heading "Orders" [level=1]');
      expect(next.harnessFault).toBeNull();
    } finally {
      await next.close();
    }
    expect((await sharedBrowser()).contexts()).toHaveLength(0);
  }, T);
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('web surface when the app fails', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  // Hono's default error handler logs a throwing handler's error (console.error, stack and all):
  // captured here, so a passing run prints nothing, and checked, so the crash is still reported.
  it.each([
    ['/bug', /GET \/bug answered 500/, ["TypeError: Cannot read properties of undefined (reading 'status')"]],
    ['/raw', /GET \/raw threw raw failure/, []],
  ])('a page whose handler throws (%s) ends the episode as a harness error', async (url, fault, logged) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const env = await openEnv(brokenDomain);
    try {
      expect((await run(env, 'browser_snapshot', {}, 1)).error).toBe(false);
      const out = await run(env, 'browser_navigate', { url }, 2);
      expect(out.harnessError).toMatch(fault);
      expect(env.harnessFault).toMatchObject({ tool: 'browser_navigate' });
      expect(consoleError.mock.calls.map((args) => args.map(String).join(' '))).toEqual(logged);
    } finally {
      consoleError.mockRestore();
      await env.close();
    }
  }, T);

  it('names the scheme of a javascript: or file: URL it refuses (a tool error)', async () => {
    const env = await openEnv();
    try {
      const js = await run(env, 'browser_navigate', { url: 'javascript:alert(1)' }, 1);
      expect(js).toMatchObject({ error: true, output: expect.stringMatching(/^Error: navigation to javascript: URLs is not allowed/) });
      expect((await run(env, 'browser_navigate', { url: 'file:///etc/passwd' }, 2)).output).toMatch(/^Error: navigation to file: URLs is not allowed/);
      expect(env.harnessFault).toBeNull();
    } finally {
      await env.close();
    }
  }, T);
});
