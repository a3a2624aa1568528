/**
 * The viewer in a real browser (Debian chromium driven by playwright-core), over a store filled
 * by real runs: the seed campaign replay, a validate run (all perfect) and a scripted run with
 * faulty agents. Every check runs twice: against the live server on 127.0.0.1 (port 0), and
 * against the static export opened from file://. Each test saves a screenshot under
 * test-output/viewer/.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startViewer, type RunningViewer } from '../../src/viewer/server.js';
import { exportStaticSite } from '../../src/viewer/export.js';
import { RunStore } from '../../src/store/store.js';
import { fillViewerStore, type ViewerStore } from '../support/viewer-store.js';
import { buildViewerUi, collectPageErrors, launchChromium, screenshot } from '../support/browser.js';
import { tmpDir } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const enc = encodeURIComponent;

let store: ViewerStore;
let uiDir: string;
let live: RunningViewer;
let fileBase: string;
let browser: Browser;

/** The two ways of opening the viewer: the same checks must pass on both. */
const MODES = [
  { name: 'live server', slug: 'live', base: () => live.url },
  { name: 'static export (file://)', slug: 'file', base: () => fileBase },
] as const;

describe.skipIf(lacks(CHROMIUM_NEED))(needing('servicegym view in chromium', CHROMIUM_NEED), () => {
  beforeAll(async () => {
    const dir = tmpDir('sg-viewer-browser-');
    store = await fillViewerStore(dir);
    uiDir = buildViewerUi();
    live = await startViewer({ dbPath: store.db, port: 0, uiDir });
    const site = path.join(dir, 'site');
    exportStaticSite({ dbPath: store.db, outDir: site, uiDir });
    fileBase = `file://${path.join(site, 'index.html')}`;
    browser = await launchChromium();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await live?.close();
  });

  describe.each(MODES)('$name', (mode) => {
    let context: BrowserContext;
    let page: Page;
    let errors: string[];
    let requests: string[];

    beforeAll(async () => {
      context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    });
    afterAll(async () => {
      await context?.close();
    });

    /** Opens `hash` of the viewer in a fresh page, 1400 px wide (or `width`). */
    async function open(hash: string, width = 1400): Promise<Page> {
      page = await context.newPage();
      if (width !== 1400) await page.setViewportSize({ width, height: 900 });
      errors = collectPageErrors(page);
      requests = [];
      page.on('request', (r) => requests.push(r.url()));
      await page.goto(`${mode.base()}${hash}`);
      return page;
    }

    /**
     * Saves the screenshot `<mode>-<name>.png`, checks the page logged no error and fetched
     * nothing from elsewhere (the export: only file:// URLs; live: only the viewer), closes it.
     */
    async function done(name: string) {
      await screenshot(page, `${mode.slug}-${name}`);
      expect(errors).toEqual([]);
      const origin = mode.slug === 'file' ? 'file://' : live.url;
      expect(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:'))).toEqual([]);
      await page.close();
    }

    it('the run list shows the right counts', async () => {
      await open('#/');
      const rows = page.locator('table[data-testid="runs"] tbody tr');
      await rows.first().waitFor();
      expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id')))).toEqual([store.validateId, store.faultyId, store.campaignId]);
      const cells = async (id: string) =>
        page.locator(`tr[data-run-id="${id}"]`).evaluate((tr) =>
          ['size', 'episodes', 'reward', 'partial', 'passk', 'failed'].map((c) => (tr.querySelector(`td[data-col="${c}"]`)!.firstChild!.textContent ?? '').trim()),
        );
      // The size cell's first text node is "5 × 1"; React splits it, so read the cell's own text.
      const size = async (id: string) => (await page.locator(`tr[data-run-id="${id}"] td[data-col="size"]`).evaluate((td) => [...td.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(''))).trim();
      expect(await size(store.validateId)).toBe('5 × 1');
      expect(await size(store.faultyId)).toBe('5 × 2');
      expect(await size(store.campaignId)).toBe('10 × 1');
      expect((await cells(store.validateId)).slice(1)).toEqual(['5', '1.000', '100%', '1.00', '0']);
      expect((await cells(store.faultyId)).slice(1)).toEqual(['10', '0.600', '73.5%', '0.60 · 0.40', '4']);
      expect((await cells(store.campaignId)).slice(1)).toEqual(['30', '0.700', '—', '0.70', '9']);
      await expect(page.locator(`tr[data-run-id="${store.faultyId}"]`).innerText()).resolves.toContain('scripted-faulty');
      // Each run is labelled with the command that made it: a validate run is not called "run".
      const command = (id: string) => page.locator(`tr[data-run-id="${id}"] td[data-label="domain"] .sub`).evaluate((d) => (d.firstChild?.textContent ?? '').trim());
      expect([await command(store.validateId), await command(store.faultyId), await command(store.campaignId)]).toEqual(['validate', 'run', 'campaign']);
      await done('runs');
    });

    it('a run shows its matrix coloured by outcome, the pass^k chart, and filters that can be shared', async () => {
      await open(`#/runs/${store.faultyId}`);
      const cells = page.locator('[data-testid="matrix"] a.cell');
      await cells.first().waitFor();
      expect(await cells.evaluateAll((as) => as.map((a) => `${a.getAttribute('data-episode')}:${a.getAttribute('data-outcome')}`))).toEqual([
        'T01#0:fail', 'T01#1:pass', 'T02#0:pass', 'T02#1:fail', 'T03#0:partial', 'T03#1:partial', 'T15#0:fail', 'T15#1:fail', 'T17#0:pass', 'T17#1:pass',
      ]);
      expect(await page.locator('[data-testid="pass-k-chart"] svg').getAttribute('aria-label')).toBe('pass^k: pass^1 0.600, pass^2 0.400');
      await page.getByLabel('failed only').check();
      await expect.poll(() => page.locator('[data-testid="filter-count"]').innerText()).toBe('6 of 10 episodes');
      await page.locator('select[name="check"]').selectOption('total_stated');
      await expect.poll(() => page.locator('[data-testid="filter-count"]').innerText()).toBe('2 of 10 episodes');
      // The list is a deferred render, so it may trail the count by a frame: wait for it.
      await expect
        .poll(() => page.locator('[data-testid="episode-list"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-episode'))))
        .toEqual(['T15#0', 'T15#1']);
      expect(new URL(page.url()).hash).toBe(`#/runs/${store.faultyId}?failed=1&check=total_stated`);
      await done('run');
    });

    it("a failed episode's page shows the failing check, its weight and its evidence", async () => {
      await open(`#/runs/${store.faultyId}/episodes/${enc('T01#0')}`);
      const check = page.locator('[data-check="reason_stated"]');
      await check.waitFor();
      const stored = RunStore.open(store.db, { readonly: true });
      const row = stored.getEpisode(store.faultyId, 'T01#0')!;
      stored.close();
      const evaluation = (row.result as { evaluation: { checks: { id: string; evidence: string }[] } }).evaluation;
      const evidence = (id: string) => evaluation.checks.find((c) => c.id === id)!.evidence;
      expect(await check.locator('.badge').innerText()).toBe('✗ fail');
      expect(await check.locator('.check-weight').innerText()).toBe('weight 20 (reason)');
      expect(await check.locator('.evidence').innerText()).toBe(evidence('reason_stated'));
      const untouched = page.locator('[data-check="reservation_untouched"]');
      expect(await untouched.locator('.check-weight').innerText()).toBe('weight 60 (no_state_change)');
      expect(await untouched.locator('.evidence').innerText()).toBe(evidence('reservation_untouched'));
      expect(evidence('reservation_untouched')).toContain('/reservations/8KQ2ZD/flights/0/date: before "2026-10-20", after "2026-10-21"');
      expect(await page.locator('[data-testid="episode-meta"]').innerText()).toContain('failed tau2_db, db_unchanged_gold, reservation_untouched, reason_stated');
      expect(await page.locator('[data-testid="episode-meta"]').innerText()).not.toContain('diagnostic');
      const calls = await page.locator('[data-testid="tool-call"] .call-name').allInnerTexts();
      expect(calls).toEqual(['get_user_details', 'get_reservation_details', 'update_reservation_flights']);
      await done('episode-failed');
    });

    it("an episode's header lists only the checks that count as failed, tau2_action (not in the basis) as diagnostic", async () => {
      await open(`#/runs/${store.faultyId}/episodes/${enc('T03#0')}`);
      const meta = page.locator('[data-testid="episode-meta"]');
      await expect.poll(() => meta.innerText()).toContain('failed certificate_after_verification, delay_checked, verified_before_cancel · diagnostic: tau2_action');
      expect(await meta.innerText()).not.toMatch(/failed[^·]*tau2_action/);
      // The Checks panel counts the same checks (8 count, 3 of them failed); the 5 diagnostics are listed apart.
      const counted = page.locator('[data-testid="checks"]');
      const diagnostic = page.locator('[data-testid="diagnostic-checks"]');
      expect(await counted.locator('xpath=preceding-sibling::h3').innerText()).toBe('Checks 3 failed of 8');
      expect(await diagnostic.locator('xpath=preceding-sibling::h3').innerText()).toBe('Diagnostic checks 1 failed of 5');
      expect(await counted.locator('[data-check="tau2_action"]').count()).toBe(0);
      expect(await diagnostic.locator('[data-check]').evaluateAll((els) => els.map((e) => e.getAttribute('data-check')))).toEqual(['tau2_action', 'tau2_env_assertion', 'tau2_communicate', 'tau2_nl_assertion', 'db_all']);
      await done('episode-diagnostic-checks');
    });

    it('the DB diff shows the changed field, gold against episode', async () => {
      await open(`#/runs/${store.faultyId}/episodes/${enc('T01#0')}`);
      const rows = page.locator('[data-testid="db-diff"] tbody tr');
      await rows.first().waitFor();
      expect(await rows.first().locator('td').allInnerTexts()).toEqual(['/reservations/8KQ2ZD/flights/0/date', '"2026-10-20"', '"2026-10-21"']);
      expect(await rows.count()).toBe(3);
      await page.locator('[data-testid="db-diff"]').scrollIntoViewIfNeeded();
      await done('episode-db-diff');
    });

    it('marks a malformed tool call and its error output in the transcript', async () => {
      await open(`#/runs/${store.faultyId}/episodes/${enc('T01#1')}`);
      const bad = page.locator('[data-testid="tool-output"].is-error');
      await bad.first().waitFor();
      expect(await bad.count()).toBe(1);
      expect(await bad.textContent()).toMatch(/^tool · get_user_detailserror\{?Error: arguments for get_user_details are not valid JSON/);
      expect(await page.locator('[data-testid="tool-call"].is-error').innerText()).toContain('malformed arguments');
      await done('episode-error');
    });

    it('moves between episodes with j/k and the arrow keys, and back to the run with u', async () => {
      await open(`#/runs/${store.faultyId}/episodes/${enc('T01#0')}`);
      const heading = page.locator('h1');
      await expect.poll(() => heading.innerText()).toBe('T01 · llm · trial 0');
      await page.keyboard.press('j');
      await expect.poll(() => heading.innerText()).toBe('T01 · llm · trial 1');
      expect(new URL(page.url()).hash).toBe(`#/runs/${store.faultyId}/episodes/${enc('T01#1')}`);
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => heading.innerText()).toBe('T02 · llm · trial 0');
      await page.keyboard.press('k');
      await expect.poll(() => heading.innerText()).toBe('T01 · llm · trial 1');
      await page.keyboard.press('ArrowLeft');
      await expect.poll(() => heading.innerText()).toBe('T01 · llm · trial 0');
      await page.keyboard.press('u');
      await expect.poll(() => heading.innerText()).toBe('scripted airline (faulty agents)');
      await done('keyboard');
    });

    it('the compare page lists the tasks that improved and the prompt diff', async () => {
      await open(`#/compare/${store.faultyId}..${store.validateId}`);
      const table = page.locator('table[data-testid="compare"]');
      await table.waitFor();
      const byChange = (c: string) => table.locator(`tr[data-change="${c}"]`).evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-task')));
      expect(await byChange('improved')).toEqual(['T01', 'T02', 'T15']);
      expect(await byChange('regressed')).toEqual([]);
      expect(await byChange('same')).toEqual(['T03', 'T17']);
      expect(await page.locator('.chip[data-change="improved"]').textContent()).toBe('▲ improved 3');
      expect(await table.locator('tr[data-task="T01"]').innerText()).toMatch(/T01\s+▲ improved\s+1\/2 passed · reward 0\.500 · partial 50%\s+1\/1 passed · reward 1\.000 · partial 100%\s+▲ \+50 pts\s+▲ \+50 pts/);
      // B is validate's oracle, whose one-line prompt names each task: not diffed, and the page says why.
      expect(await page.locator('[data-testid="unified-diff"]').count()).toBe(0);
      expect(await page.getByText("Prompts not diffed: B's agent (gold-action oracle (plays the gold actions)) has a prompt per task, not one prompt under test.").count()).toBe(1);
      await done('compare');
    });

    it('the seed campaign page shows 5/5·0/5, 5/5·2/5, 5/5·4/5, the gate checks and the patch', async () => {
      await open(`#/optimizer/${store.campaignId}`);
      const table = page.locator('table[data-testid="campaign-table"]');
      await table.waitFor();
      const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
      expect(rows).toEqual([
        ['初始 prompt(优化前)', '5/5', '0/5'],
        ['自动优化后 prompt', '5/5', '2/5'],
        ['人工调优版(对照)', '5/5', '4/5'],
      ]);
      expect(rows.map((r) => r.slice(1).join('·'))).toEqual(['5/5·0/5', '5/5·2/5', '5/5·4/5']);
      const releases = page.locator('article.release');
      expect(await releases.evaluateAll((as) => as.map((a) => `${a.getAttribute('data-release')}:${a.querySelector('.badge')!.textContent}`))).toEqual([
        'initial:stable',
        'automatic_candidate:canary',
        'manual:control',
      ]);
      expect(await page.locator('[data-testid="release-scores"]').allInnerTexts()).toEqual([
        'holdout 5/5 · boundary 0/5 · episodes',
        'holdout 5/5 · boundary 2/5 · episodes',
        'holdout 5/5 · boundary 4/5 · episodes',
      ]);
      expect(await page.locator('[data-testid="gate-checks"] li.ok').count()).toBe(5);
      const patch = await page.locator('[data-testid="unified-diff"]').innerText();
      expect(patch).toContain('--- system_prompt.txt (before)\n+++ system_prompt.txt (after)\n@@ -12,8 +12,8 @@');
      expect(patch).toContain('-3. 关于人工转接：仅当请求无法在你的行动范围内处理时，才转接人工客服。');
      expect(patch).toContain('+3. 关于人工转接：仅当乘客明确要求人工客服或遇到紧急安全情况时，才转接人工客服。');
      expect(await page.locator('[data-testid="edit"]').count()).toBe(2);
      await screenshot(page, `${mode.slug}-campaign`);
      // An edit's evidence links open the episode it cites.
      await page.locator('[data-testid="edit"]').first().locator('summary').click();
      await page.locator('[data-testid="edit"]').first().getByRole('link', { name: 'initial/B1-不可退票要退款' }).click();
      await page.locator('[data-check="transfer_decision"]').waitFor();
      expect(await page.locator('[data-check="transfer_decision"] .badge').innerText()).toBe('✗ fail');
      expect(await page.locator('[data-check="transfer_decision"] .evidence').innerText()).toMatch(/^不应转接：却转接了 ✗（过度转接）/);
      await done('campaign-evidence');
    });

    it('is one column in a narrow window', async () => {
      await open(`#/runs/${store.faultyId}/episodes/${enc('T01#0')}`, 420);
      const transcript = page.locator('.col-transcript');
      const evaluation = page.locator('.col-evaluation');
      await evaluation.waitFor();
      const t = (await transcript.boundingBox())!;
      const e = (await evaluation.boundingBox())!;
      expect(e.y).toBeGreaterThanOrEqual(t.y + t.height);
      expect(Math.abs(e.x - t.x)).toBeLessThan(2);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
      await screenshot(page, `${mode.slug}-narrow-episode`);
      await page.goto(`${mode.base()}#/`);
      await page.locator('table[data-testid="runs"] tbody tr').first().waitFor();
      expect(await page.locator('table[data-testid="runs"] thead').isVisible()).toBe(false);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(420);
      await done('narrow-runs');
    });
  });

  describe('live server only', () => {
    it('shows a new run without a reload', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(live.url);
      await page.locator(`tr[data-run-id="${store.faultyId}"]`).waitFor();
      const w = RunStore.open(store.db);
      try {
        w.saveRun({ id: 'appeared-later', kind: 'run', name: 'appeared later', domain: 'airline', created_at: '2999-01-01T00:00:00Z', summary: {}, record: null });
        await page.locator('tr[data-run-id="appeared-later"]').waitFor({ timeout: 30_000 });
        await screenshot(page, 'live-new-run');
      } finally {
        w.close();
        const raw = new Database(store.db);
        raw.prepare("DELETE FROM runs WHERE id = 'appeared-later'").run();
        raw.close();
        await context.close();
      }
    });

    it.each([
      ['missing', 'The run store cannot be read', /no servicegym store exists at this path/],
      ['from an older schema', 'The run store cannot be read', /this store is from an older servicegym schema \(v0, this is v4\)/],
      ['locked', 'The run store cannot be read', /the store is locked by another process/],
    ])('a store that is %s gives a clear message on every page, not a blank page', async (what, title, message) => {
      const dir = tmpDir('sg-viewer-bad-');
      let db = path.join(dir, 'none.db');
      let release = () => {};
      if (what === 'from an older schema') {
        db = path.join(dir, 'old.db');
        const raw = new Database(db);
        raw.exec('CREATE TABLE runs (id TEXT)');
        raw.close();
      } else if (what === 'locked') {
        db = store.db;
        const raw = new Database(db);
        raw.pragma('locking_mode = EXCLUSIVE');
        raw.exec('BEGIN EXCLUSIVE');
        raw.exec('UPDATE runs SET name = name');
        release = () => {
          raw.exec('COMMIT');
          raw.close();
        };
      }
      const viewer = await startViewer({ dbPath: db, port: 0, uiDir, busyTimeoutMs: 200 });
      const context = await browser.newContext();
      try {
        for (const hash of ['#/', `#/runs/${enc(store.faultyId)}`]) {
          const page = await context.newPage();
          await page.goto(`${viewer.url}${hash}`);
          const alert = page.getByRole('alert');
          await alert.waitFor();
          expect(await alert.locator('h1').innerText()).toBe(title);
          expect(await alert.locator('.problem-message').innerText()).toMatch(message);
          await screenshot(page, `live-store-${what.replace(/ /g, '-')}${hash === '#/' ? '' : '-run'}`);
        }
      } finally {
        release();
        await context.close();
        await viewer.close();
      }
    });
  });
});
