/**
 * The web surface when Chromium dies mid-episode: every browser tool then ends the episode as a
 * harness error (never a tool error the agent reads and works around), the environment still
 * closes its app server, and the next episode gets a relaunched browser. Skipped (with the reason)
 * when Chromium is not installed.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { Environment, type ToolLogEntry } from '../../src/env/environment.js';
import { closeSharedBrowser, hasChromium, sharedBrowser } from '../../src/surfaces/browser-pool.js';
import { webSurface, type WebEpisode } from '../../src/surfaces/web.js';
import type { MiniState } from '../support/mini-domain.js';
import { miniWebDomain } from '../support/web-test-app.js';

const NOW = '2026-01-01T00:00:00Z';
const T = 180_000;

async function openEnv(): Promise<Environment<MiniState>> {
  const env = new Environment<MiniState>(miniWebDomain, { now: NOW, surface: webSurface });
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

describe.skipIf(!hasChromium())('web surface when the browser crashes', () => {
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
