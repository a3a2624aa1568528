/**
 * A run that stopped before every planned episode started (`--max-cost` here; Ctrl-C and SIGTERM
 * store the same `halted`) in a real browser: the runs list marks it stopped and says why and how
 * many episodes did not start, and the run page says so with the resume command — on the live
 * server and in the static export (file://). The run is made against the mock model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startViewer, type RunningViewer } from '../../src/viewer/server.js';
import { exportStaticSite } from '../../src/viewer/export.js';
import { RunStore } from '../../src/store/store.js';
import { startTwoRoleMock } from '../support/two-role-mock.js';
import { buildViewerUi, collectPageErrors, launchChromium, screenshot } from '../support/browser.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const WAIT = { timeout: 60_000 };

let dir: string;
let live: RunningViewer;
let fileBase: string;
let browser: Browser;
let reason: string;

const MODES = [
  { name: 'live server', slug: 'live', base: () => live.url },
  { name: 'static export (file://)', slug: 'file', base: () => fileBase },
] as const;

describe.skipIf(lacks(CHROMIUM_NEED))(needing('a stopped run in the viewer (chromium)', CHROMIUM_NEED), () => {
  beforeAll(async () => {
    dir = tmpDir('sg-viewer-stopped-');
    const db = path.join(dir, 'store.db');
    const saved = process.env.SERVICEGYM_API_KEY;
    process.env.SERVICEGYM_API_KEY = 'test-fake-key-viewer-9191';
    // Every completion reports $0.01: --max-cost $0.02 stops the run after its first episode (-j 1), 3 of 4 not started.
    const mock = await startTwoRoleMock(
      { agent: () => ({ content: 'Basic economy cannot be changed. ###STOP###' }), user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }) },
      { cost: 0.01 },
    );
    try {
      const r = await runCli(['run', '--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '--run-id', 'stopped-run', '-q', '--max-cost', '0.02']);
      expect(r.code, r.err).toBe(1);
    } finally {
      await mock.close();
      if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
      else process.env.SERVICEGYM_API_KEY = saved;
    }
    const store = RunStore.open(db, { readonly: true });
    const halted = (store.getRun('stopped-run')!.summary as { halted: { reason: string; not_started: number } }).halted;
    store.close();
    expect(halted.not_started).toBe(3);
    reason = halted.reason;
    const uiDir = buildViewerUi();
    live = await startViewer({ dbPath: db, port: 0, uiDir });
    const site = path.join(dir, 'site');
    exportStaticSite({ dbPath: db, outDir: site, uiDir });
    fileBase = `file://${path.join(site, 'index.html')}`;
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await live?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(MODES)('$name: the runs list and the run page say the run stopped, why, how many episodes did not start, and how to continue', async (mode) => {
    const page: Page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const errors = collectPageErrors(page);
    try {
      await page.goto(`${mode.base()}#/`);
      const row = page.locator('tr[data-run-id="stopped-run"]');
      await row.waitFor(WAIT);
      expect(await row.getAttribute('data-status')).toBe('stopped');
      const badge = row.locator('[data-testid="run-status"]');
      expect([await badge.innerText(), await badge.getAttribute('class')]).toEqual(['■ stopped', 'badge tone-warn']);
      expect(await badge.getAttribute('title')).toBe(`stopped: ${reason} — 3 episodes not started; continue with: servicegym run --domain airline --resume stopped-run`);
      expect(await row.locator('[data-testid="run-halted"]').innerText()).toBe(`stopped: ${reason} — 3 episodes not started`);
      await screenshot(page, `${mode.slug}-stopped-runs`);

      await page.goto(`${mode.base()}#/runs/stopped-run`);
      const note = page.locator('[data-note="stopped"]');
      await note.waitFor(WAIT);
      expect(await note.innerText()).toBe(
        `stopped: ${reason} — 3 episodes not started: the run stopped before every planned episode started, so its scores cover only the 1 episode stored. Continue it with servicegym run --domain airline --resume stopped-run.`,
      );
      expect(await page.locator('h1 [data-testid="run-status"]').innerText()).toBe('■ stopped');
      await screenshot(page, `${mode.slug}-stopped-run`);
      expect(errors).toEqual([]);
    } finally {
      await page.close();
    }
  }, 120_000);
});
