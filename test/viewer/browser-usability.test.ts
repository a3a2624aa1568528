/**
 * The viewer's find / compare / trust features in Chromium (issue 18's viewer items), over a
 * store filled by real runs: the seed campaign replay, airline validate and a faulty scripted
 * run, tau2 retail validated at -j 8 (114 tasks stored in completion order, 40 not judged), the
 * GDS domain validated, a two-task GDS run stored as interrupted with a name and tags, and an
 * airline run against the mock model server (usage by role). Includes keyboard use, WCAG AA
 * contrast computed in the page (both themes), and screenshots of the runs list, a run, an
 * episode, compare and a release page at 1440 and 1024 px with no clipped container.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startViewer, type RunningViewer } from '../../src/viewer/server.js';
import { exportStaticSite } from '../../src/viewer/export.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs } from '../../src/store/run-log.js';
import { acquireRunLock } from '../../src/store/run-lock.js';
import { registryTaskResolver } from '../../src/cli/view-tasks.js';
import { fillLargerViewerStore, TAU2_RETAIL, type LargerViewerStore } from '../support/viewer-store-more.js';
import { buildViewerUi, collectPageErrors, launchChromium, screenshot } from '../support/browser.js';
import { CHROMIUM_NEED, lacks, needing, type Need } from '../support/needs.js';
import { clippedContainers, contrastFailures } from '../support/page-checks.js';
import { SHARED_REASON, tmpDir } from '../support/paths.js';

const enc = encodeURIComponent;
const HAS_RETAIL = fs.existsSync(path.join(TAU2_RETAIL, 'tasks.json'));
/** tau2's retail data, in ../shared. */
const RETAIL_NEED: Need = { present: HAS_RETAIL, reason: SHARED_REASON };
/** Generous waits: the machine may be loaded; tests wait on conditions, never on sleeps. */
const WAIT = { timeout: 60_000 };

let store: LargerViewerStore;
let live: RunningViewer;
let fileBase: string;
let browser: Browser;
let context: BrowserContext;

/** Opens `hash` of the live viewer (or `base`) in a fresh page `width` px wide; returns it and its console errors. */
async function open(hash: string, width = 1440, base = () => live.url): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = collectPageErrors(page);
  await page.goto(`${base()}${hash}`);
  return { page, errors };
}

/** The episode ids of the rows of the episode list, in order. */
const listed = (page: Page) => page.locator('[data-testid="episode-list"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-episode')));

describe.skipIf(lacks(CHROMIUM_NEED, RETAIL_NEED))(needing('servicegym view: find, compare, trust (chromium)', CHROMIUM_NEED, RETAIL_NEED), { timeout: 240_000 }, () => {
  beforeAll(async () => {
    const dir = tmpDir('sg-viewer-use-');
    store = await fillLargerViewerStore(dir);
    const uiDir = buildViewerUi();
    const taskInfo = registryTaskResolver();
    live = await startViewer({ dbPath: store.db, port: 0, uiDir, taskInfo });
    const site = path.join(dir, 'site');
    exportStaticSite({ dbPath: store.db, outDir: site, uiDir, taskInfo });
    fileBase = `file://${path.join(site, 'index.html')}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await live?.close();
  });

  describe('order and size', () => {
    it('lists tasks in natural order (not completion order), draws a 114-task run compact, pages and sorts the list', async () => {
      const { page, errors } = await open(`#/runs/${enc(store.retailId)}`);
      const matrix = page.locator('[data-testid="matrix"]');
      await matrix.locator('a.cell').first().waitFor(WAIT);
      const stored = RunStore.open(store.db, { readonly: true });
      const storedOrder = stored.episodeOutlines(store.retailId).map((o) => o.task_id);
      stored.close();
      const natural = Array.from({ length: 114 }, (_, i) => String(i));
      expect(storedOrder).not.toEqual(natural); // -j 8 stores in completion order
      expect(await matrix.locator('[role="rowheader"]').allInnerTexts()).toEqual(natural);
      expect(await matrix.getAttribute('data-compact')).toBe('yes');
      // Compact: the 114 tasks flow in tiles; the strip would be over 3,000 px high.
      expect((await matrix.boundingBox())!.height).toBeLessThan(900);
      await expect.poll(() => listed(page), WAIT).toHaveLength(50);
      expect((await listed(page)).slice(0, 3)).toEqual(['0#0', '1#0', '2#0']);
      expect(await page.locator('[data-testid="episode-pager"]').first().innerText()).toContain('page 1 of 3 · episodes 1–50 of 114');
      await page.locator('[data-testid="episode-pager"]').first().getByRole('link', { name: 'next →' }).click();
      await expect.poll(() => listed(page), WAIT).toEqual(natural.slice(50, 100).map((t) => `${t}#0`));
      expect(new URL(page.url()).hash).toBe(`#/runs/${enc(store.retailId)}?page=2`);
      // Sort by reward, ascending: the 40 not judged (no reward) come last, so page 1 starts with rewards of 1 in task order.
      await page.locator('a.sort[data-sort="outcome"]').click();
      await expect.poll(() => page.locator('th[aria-sort="ascending"] a').getAttribute('data-sort'), WAIT).toBe('outcome');
      expect(new URL(page.url()).hash).toBe(`#/runs/${enc(store.retailId)}?sort=outcome`);
      await page.locator('a.sort[data-sort="outcome"]').click();
      await expect.poll(() => page.locator('th[aria-sort="descending"]').count(), WAIT).toBe(1);
      expect(errors).toEqual([]);
      await screenshot(page, 'use-retail-compact');
      await page.close();
    });

    it('orders the compare page by task naturally within each change', async () => {
      const { page } = await open(`#/compare/${enc(store.faultyId)}..${enc(store.validateId)}`);
      await page.locator('table[data-testid="compare"]').waitFor(WAIT);
      expect(await page.locator('table[data-testid="compare"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-task')))).toEqual(['T01', 'T02', 'T15', 'T03', 'T17']);
      await page.close();
    });
  });

  describe('find things', () => {
    /** Episodes of a run whose agent called `tool`, read from the store. */
    function episodesCalling(runId: string, tool: string): string[] {
      const s = RunStore.open(store.db, { readonly: true });
      try {
        return readEpisodeLogs(s, runId).filter((e) => e.record.tool_calls.some((c) => c.requestor === 'assistant' && c.name === tool)).map((e) => e.episodeId);
      } finally {
        s.close();
      }
    }

    for (const mode of ['live', 'file'] as const) {
      it(`searches transcripts (${mode}): the hits are the episodes that called the tool, with a snippet, in a shareable URL`, async () => {
        const want = episodesCalling(store.retailId, 'exchange_delivered_order_items');
        expect(want.length).toBeGreaterThan(3);
        const base = mode === 'live' ? () => live.url : () => fileBase;
        const { page, errors } = await open(`#/runs/${enc(store.retailId)}`, 1440, base);
        await page.locator('[data-testid="matrix"] a.cell').first().waitFor(WAIT);
        await page.locator('input[name="q"]').fill('exchange_delivered_order_items');
        await expect.poll(() => page.locator('[data-testid="filter-count"]').innerText(), WAIT).toBe(`${want.length} of 114 episodes`);
        const byTask = (ids: (string | null)[]) => [...ids].sort((a, b) => a!.localeCompare(b!, 'en', { numeric: true }));
        await expect.poll(async () => byTask(await listed(page)), WAIT).toEqual(byTask(want));
        expect(await page.locator('[data-testid="search-snippet"]').first().innerText()).toContain('exchange_delivered_order_items');
        const shared = page.url();
        expect(new URL(shared).hash).toBe(`#/runs/${enc(store.retailId)}?q=exchange_delivered_order_items`);
        const again = await context.newPage();
        await again.goto(shared);
        await expect.poll(() => again.locator('[data-testid="filter-count"]').innerText(), WAIT).toBe(`${want.length} of 114 episodes`);
        await again.close();
        expect(errors).toEqual([]);
        await page.close();
      });
    }

    it('filters by task id, score, label and termination, each in the URL', async () => {
      const { page } = await open(`#/runs/${enc(store.retailId)}?task=11`);
      await expect.poll(() => page.locator('[data-testid="filter-count"]').innerText(), WAIT).toBe('5 of 114 episodes');
      await expect.poll(() => listed(page), WAIT).toEqual(['11#0', '110#0', '111#0', '112#0', '113#0']);
      await page.goto(`${live.url}#/runs/${enc(store.retailId)}`);
      await page.locator('select[name="outcome"]').selectOption('unjudged');
      await expect.poll(() => page.locator('[data-testid="filter-count"]').innerText(), WAIT).toBe('40 of 114 episodes');
      expect(new URL(page.url()).hash).toBe(`#/runs/${enc(store.retailId)}?outcome=unjudged`);
      await page.goto(`${live.url}#/runs/${enc(store.campaignId)}?label=manual`);
      await expect.poll(() => page.locator('[data-testid="filter-count"]').innerText(), WAIT).toBe('10 of 30 episodes');
      await page.close();
    });

    it('searches the runs list and filters it by tag; shows the name and tags a run was started with', async () => {
      const { page } = await open('#/');
      const rows = page.locator('table[data-testid="runs"] tbody tr');
      await rows.first().waitFor(WAIT);
      const ids = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id')));
      const total = (await ids()).length;
      await page.locator('input[name="q"]').fill('gds');
      // Both GDS validate runs.
      await expect.poll(async () => (await ids()).sort(), WAIT).toEqual([store.gdsSmokeId, store.gdsId].sort());
      expect(new URL(page.url()).hash).toBe('#/?q=gds');
      const smoke = page.locator(`tr[data-run-id="${store.gdsSmokeId}"]`);
      expect(await smoke.locator('.run-name a').first().innerText()).toBe('gds smoke');
      expect(await smoke.locator('[data-testid="run-tags"] a').allInnerTexts()).toEqual(['#smoke', '#nightly']);
      // Validate runs are labelled with their surface and strict mode, as run runs are; 'strict' finds them.
      expect(await smoke.locator('[data-testid="run-surface"]').innerText()).toBe('terminal');
      expect(await smoke.locator('[data-testid="run-strict"]').innerText()).toBe('strict');
      const full = page.locator(`tr[data-run-id="${store.gdsId}"]`);
      expect(await full.locator('[data-testid="run-surface"]').innerText()).toBe('terminal');
      expect(await full.locator('[data-testid="run-strict"]').count()).toBe(0);
      await page.locator('input[name="q"]').fill('strict');
      await expect.poll(ids, WAIT).toEqual([store.gdsSmokeId]);
      await page.locator('input[name="q"]').fill('gds');
      await expect.poll(async () => (await ids()).length, WAIT).toBe(2);
      await smoke.locator('[data-testid="run-tags"] a', { hasText: '#nightly' }).click();
      await expect.poll(ids, WAIT).toEqual([store.gdsSmokeId]);
      expect(new URL(page.url()).hash).toBe('#/?tag=nightly');
      expect(await page.locator('select[name="tag"]').inputValue()).toBe('nightly');
      await page.locator('a.clear').click();
      await expect.poll(async () => (await ids()).length, WAIT).toBe(total);
      await page.close();
    });
  });

  describe('cost and time', () => {
    it('shows usage by role for the run and the episode, the tool-call timeline and each turn\'s latency', async () => {
      const { page } = await open(`#/runs/${enc(store.mockRunId)}`);
      const usage = page.locator('[data-testid="usage"]');
      await usage.waitFor(WAIT);
      const row = (role: string) => usage.locator(`tr[data-role="${role}"] td`).allInnerTexts();
      expect((await row('task_agent'))[0]).toBe(String(store.calls.agent));
      expect((await row('user_simulator'))[0]).toBe(String(store.calls.user));
      expect((await row('total'))[0]).toBe(String(store.calls.agent + store.calls.user));
      expect((await row('task_agent'))[4]).toMatch(/^\d+\.\d+ s$/);
      expect((await row('task_agent'))[5]).toBe('n/a'); // no provider-reported cost: never estimated
      await page.locator('[data-testid="episode-list"] tbody tr a').first().click();
      const timeline = page.locator('[data-testid="tool-timeline"] li');
      await timeline.first().waitFor(WAIT);
      expect(await timeline.evaluateAll((lis) => lis.map((li) => li.querySelector('.mono')!.textContent))).toEqual(['get_user_details', 'get_reservation_details']);
      const episodeUsage = page.locator('[data-testid="usage"] tr[data-role="task_agent"] td');
      expect(Number(await episodeUsage.first().innerText())).toBe(3);
      // A timeline step opens its turn in the transcript.
      await timeline.first().locator('a').click();
      await expect.poll(() => page.locator('.turn-slot.cited').getAttribute('data-turn'), WAIT).toBe(String(await page.locator('[data-testid="tool-call"]').first().evaluate((el) => el.closest('li')!.getAttribute('data-turn'))));
      // Beside the timeline, each turn's latency: every agent and customer message a model call produced —
      // all but the agent's fixed greeting (message 1), which no call produced.
      const turns = page.locator('[data-testid="turn-timings"] li');
      const slots = (kind: string) => page.locator(`li.turn-slot.slot-${kind}`).evaluateAll((lis) => lis.map((li) => li.getAttribute('data-turn')));
      const timed = (role: string) => page.locator(`[data-testid="turn-timings"] li[data-role="${role}"]`).evaluateAll((lis) => lis.map((li) => li.getAttribute('data-turn')));
      expect((await slots('agent'))[0]).toBe('1');
      expect(await timed('assistant')).toEqual((await slots('agent')).slice(1));
      expect(await timed('assistant')).toEqual(['3', '5', '7']);
      expect(await timed('user')).toEqual(await slots('customer'));
      for (const text of await turns.allInnerTexts()) expect(text).toMatch(/^#\d+ (agent|customer) \d+\.\d{2} s$/);
      expect(await page.locator('[data-testid="turn-timings-summary"]').innerText()).toMatch(/^\d+ timed turns, \d+\.\d{2} s in all; slowest #\d+ \(\d+\.\d{2} s\)$/);
      // A timed turn opens its message in the transcript.
      const last = turns.last();
      const at = await last.getAttribute('data-turn');
      await last.locator('a').click();
      await expect.poll(() => page.locator('.turn-slot.cited').getAttribute('data-turn'), WAIT).toBe(at);
      await page.close();
    });
  });

  describe('compare that does not mislead', () => {
    it('shows per-task success-rate deltas, the overall delta with its interval and a noise note, pass^k side by side and the configuration diff', async () => {
      const { page, errors } = await open(`#/compare/${enc(store.faultyId)}..${enc(store.validateId)}`);
      const table = page.locator('table[data-testid="compare"]');
      await table.waitFor(WAIT);
      expect(await table.locator('tr[data-task="T15"] [data-testid="rate-delta"]').innerText()).toBe('▲ +100 pts');
      expect(await table.locator('tr[data-task="T01"] [data-testid="rate-delta"]').innerText()).toBe('▲ +50 pts');
      expect(await table.locator('tr[data-task="T03"] [data-testid="rate-delta"]').innerText()).toBe('= 0 pts');
      expect((await page.locator('.chip[data-change="improved"]').textContent())!.replace(/\s+/g, ' ').trim()).toBe('▲ improved 3');
      expect(await page.locator('[data-testid="compare-noise"] .overall-delta').innerText()).toMatch(/Overall success \(pass\^1\) over 5 common tasks: A 0\.600 → B 1\.000, Δ \+0\.400 \(95% CI \[\+\d\.\d{3}, \+?\d\.\d{3}\]\): too few tasks to tell noise from a difference \(5 common tasks; a bootstrap over tasks needs at least 6\)\./);
      expect(await page.locator('[data-testid="compare-noise"]').getAttribute('data-verdict')).toBe('too_few_tasks');
      expect(await page.locator('[data-testid="noise-note"]').innerText()).toMatch(/^Noise note: rerunning the same configuration changes results by chance/);
      // pass^k over the common tasks up to the fewest trials of either run (validate ran 1).
      expect(await page.locator('[data-testid="pass-k-values"] tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/^pass\^1\s+0\.600 \[.*\]\s+1\.000 \[.*\]\s+\+0\.400 \[\+\d\.\d{3}, \+\d\.\d{3}\] too few tasks to tell$/)]);
      const differs = await page.locator('[data-testid="config-diff"] tbody th').allInnerTexts();
      expect(differs).toEqual(expect.arrayContaining(['agent_model', 'trials']));
      expect(differs).not.toContain('domain');
      expect(errors).toEqual([]);
      await page.close();
    });

    it('refuses to compare different task sets until asked, in a shareable URL', async () => {
      const { page } = await open(`#/compare/${enc(store.gdsId)}..${enc(store.retailId)}`);
      const refusal = page.locator('[data-testid="compare-refused"]');
      await refusal.waitFor(WAIT);
      expect(await refusal.locator('h2').innerText()).toMatch(/^These runs are not comparable: different datasets \(A: gds.*; B: retail.*\)$/);
      expect(await refusal.innerText()).toContain('They share 0 tasks; 10 only in A');
      expect(await page.locator('table[data-testid="compare"]').count()).toBe(0);
      expect(await page.locator('[data-testid="config-diff"] tr[data-key="domain"] td').allInnerTexts()).toEqual(['gds', 'retail']);
      await page.goto(`${live.url}#/compare/${enc(store.gdsId)}..${enc(store.gdsSmokeId)}`);
      await refusal.waitFor(WAIT);
      expect(await refusal.innerText()).toContain('different task sets (2 in common, 8 only in A, 0 only in B)');
      expect(await refusal.innerText()).toContain('They share 2 tasks; 8 only in A');
      await refusal.getByRole('link', { name: 'Compare anyway' }).click();
      await page.locator('[data-testid="compare-forced"]').waitFor(WAIT);
      expect(new URL(page.url()).hash).toBe(`#/compare/${enc(store.gdsId)}..${enc(store.gdsSmokeId)}?force=1`);
      expect(await page.locator('table[data-testid="compare"] tbody tr').count()).toBe(10);
      await page.close();
    });
  });

  describe('honest headlines', () => {
    it('marks an interrupted run with the resume command, and the same run as in progress while a process holds its lock', async () => {
      const { page } = await open(`#/runs/${enc(store.gdsSmokeId)}`);
      const note = page.locator('[data-note="interrupted"]');
      await note.waitFor(WAIT);
      expect(await note.innerText()).toContain(`servicegym run --domain gds --resume ${store.gdsSmokeId}`);
      expect(await page.locator('h1 [data-testid="run-status"]').innerText()).toBe('‖ interrupted');
      const lock = acquireRunLock(store.db, store.gdsSmokeId);
      try {
        await page.goto(`${live.url}#/`);
        const status = page.locator(`tr[data-run-id="${store.gdsSmokeId}"] [data-testid="run-status"]`);
        await expect.poll(() => status.getAttribute('data-status'), WAIT).toBe('in_progress');
        await page.goto(`${live.url}#/runs/${enc(store.gdsSmokeId)}`);
        await page.locator('[data-note="in_progress"]').waitFor(WAIT);
      } finally {
        lock.release();
      }
      await page.close();
    });

    it('shows not-judged episodes as not judged, never as failures, and the reward as a lower bound', async () => {
      const { page } = await open('#/');
      const row = page.locator(`tr[data-run-id="${store.retailId}"]`);
      await row.waitFor(WAIT);
      expect((await row.locator('td[data-col="failed"]').innerText()).split('\n')[0]).toBe('0');
      await page.goto(`${live.url}#/runs/${enc(store.retailId)}`);
      const note = page.locator('[data-note="not_judged"]');
      await note.waitFor(WAIT);
      expect(await note.innerText()).toMatch(/^40 episodes were not judged .*not counted as failed.*lower bounds/);
      expect(await page.locator('a.cell[data-outcome="unjudged"]').first().innerText()).toBe('?');
      await page.close();
    });

    it("breaks a campaign's scores down per prompt version", async () => {
      const { page } = await open(`#/runs/${enc(store.campaignId)}`);
      const table = page.locator('[data-testid="by-label"]');
      await table.waitFor(WAIT);
      expect(await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent).slice(0, 3)))).toEqual([
        ['initial', '10', '5 / 10'],
        ['automatic_candidate', '10', '7 / 10'],
        ['manual', '10', '9 / 10'],
      ]);
      await page.close();
    });

    it('says why pass^k stops before the number of trials, and offers --resume', async () => {
      const { page } = await open(`#/runs/${enc(store.infraRunId)}`);
      const note = page.locator('[data-note="pass_k"]');
      await note.waitFor(WAIT);
      expect(await note.innerText()).toBe(
        `pass^k stops at k = 1 of 2 trials: pass^k needs k scored trials of every task, and T01 has only 1 (1 episode left out after infrastructure, harness or evaluation errors). Re-run the missing trials with servicegym run --domain airline --resume ${store.infraRunId}.`,
      );
      // A run whose every trial was scored has no such note.
      await page.goto(`${live.url}#/runs/${enc(store.faultyId)}`);
      await page.locator('[data-testid="matrix"] a.cell').first().waitFor(WAIT);
      expect(await page.locator('[data-note="pass_k"]').count()).toBe(0);
      await page.close();
    });
  });

  describe('evidence you can click', () => {
    it('numbers the turns, links evidence to the turn it cites and highlights it, and shows the task', async () => {
      const { page, errors } = await open(`#/runs/${enc(store.faultyId)}/episodes/${enc('T01#1')}`);
      const check = page.locator('[data-check="reason_stated"]');
      await check.waitFor(WAIT);
      const turns = await page.locator('[data-testid="transcript"] > li .turn-no').allInnerTexts();
      expect(turns).toEqual(turns.map((_, i) => `#${i}`));
      const cite = check.locator('a.cite');
      expect(await cite.first().innerText()).toBe('message 9');
      await cite.click();
      await expect.poll(() => page.locator('.turn-slot.cited').getAttribute('data-turn'), WAIT).toBe('9');
      expect(new URL(page.url()).hash).toBe(`#/runs/${enc(store.faultyId)}/episodes/${enc('T01#1')}?turn=9`);
      expect(await page.locator('li[data-turn="9"]').innerText()).toContain('basic economy');
      const box = (await page.locator('li[data-turn="9"]').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y).toBeLessThan(900);
      // "#N" names back-end action N: it links to the message whose tool call caused it.
      const s = RunStore.open(store.db, { readonly: true });
      const record = readEpisodeLogs(s, store.faultyId).find((e) => e.episodeId === 'T01#1')!.record;
      s.close();
      const action = page.locator('[data-check="tau2_action"] a.cite').first();
      const seq = Number((await action.innerText()).slice(1));
      await action.click();
      await expect.poll(() => page.locator('.turn-slot.cited').getAttribute('data-turn'), WAIT).toBe(String(record.action_log[seq].cause!.message_index));
      const panel = page.locator('[data-testid="task-panel"]');
      expect(await panel.locator('[data-testid="task-scenario"]').innerText()).toContain('mia_lee_301');
      expect(await panel.locator('[data-testid="gold-actions"] li').count()).toBeGreaterThan(0);
      expect(errors).toEqual([]);
      await screenshot(page, 'use-evidence-cited');
      await page.close();
    });
  });

  describe('the score explained', () => {
    it("spells out a tau2 episode's score: which components count, their values, and the reward's and the partial's formulas", async () => {
      const { page, errors } = await open(`#/runs/${enc(store.retailId)}/episodes/${enc('2#0')}`);
      const box = page.locator('[data-testid="score-explained"]');
      await box.waitFor(WAIT);
      const rows = await box.locator('[data-testid="score-components"] tbody tr').evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll('th, td')].slice(0, 3).map((c) => (c as HTMLElement).innerText.trim())),
      );
      expect(rows).toEqual([
        ['DB', 'in the reward basis', '1'],
        ['ENV_ASSERTION', 'diagnostic only', '1'],
        ['COMMUNICATE', 'diagnostic only', '1'],
        ['NL_ASSERTION', 'in the reward basis', 'not judged'],
        ['ACTION', 'diagnostic only', '1'],
      ]);
      expect(await box.locator('[data-testid="reward-explained"] .formula').innerText()).toBe('DB 1 × NL_ASSERTION not judged = not judged');
      expect(await box.locator('[data-testid="reward-explained"] p').innerText()).toContain('run with --judge-model to judge it');
      expect(await box.locator('[data-testid="partial-explained"] .formula').innerText()).toBe('(DB 1 + NL_ASSERTION 0 (not judged)) / 2 = 0.5');
      expect(await box.innerText()).toContain('both numbers are lower bounds');
      // A servicegym task with a partial-credit rubric whose zero-if-failed check failed (the faulty agent's wrong write).
      await page.goto(`${live.url}#/runs/${enc(store.faultyId)}/episodes/${enc('T01#0')}`);
      await page.locator('[data-testid="partial-explained"]').waitFor(WAIT);
      expect(await page.locator('[data-testid="partial-explained"] .formula').innerText()).toMatch(/^0 \(a zero-if-failed check failed; the passed items would give 0\.\d+\)$/);
      expect(await page.locator('[data-testid="partial-explained"] p').innerText()).toBe('A check the task marks zero-if-failed failed, which voids the whole partial credit.');
      expect(errors).toEqual([]);
      await page.close();
    });
  });

  describe('terminal episodes', () => {
    it('shows a GDS episode as one monospace screen per step, with the PNR store diff', async () => {
      const { page, errors } = await open(`#/runs/${enc(store.gdsId)}/episodes/${enc('T12#0')}`);
      const screens = page.locator('[data-testid="terminal-screens"] > li');
      await screens.first().waitFor(WAIT);
      const s = RunStore.open(store.db, { readonly: true });
      const record = readEpisodeLogs(s, store.gdsId).find((e) => e.episodeId === 'T12#0')!.record;
      s.close();
      // validate ran it on the gds dataset's own surface, the terminal.
      expect(record.surface).toBe('terminal');
      const calls = record.tool_calls.filter((c) => c.requestor === 'assistant');
      expect(await screens.count()).toBe(calls.length);
      const first = screens.first();
      expect(await first.locator('.screen-command').innerText()).toBe(`> ${(calls[0].arguments as { command: string }).command}`);
      expect(await first.locator('pre.screen').innerText()).toBe(calls[0].output);
      expect(await first.locator('pre.screen').evaluate((pre) => getComputedStyle(pre).fontFamily)).toMatch(/mono/i);
      expect(await page.locator('h3', { hasText: 'Final DB vs gold DB' }).count()).toBe(1);
      expect(await page.locator('.col-evaluation').innerText()).toMatch(/The final DB equals the gold DB\.|field/);
      expect(errors).toEqual([]);
      await screenshot(page, 'use-gds-screens');
      await page.close();
    });
  });

  describe('downloads', () => {
    it("downloads a run's results as JSON Lines and CSV", async () => {
      const { page } = await open(`#/runs/${enc(store.faultyId)}`);
      await page.locator('[data-testid="downloads"]').waitFor(WAIT);
      const get = async (format: string) => {
        const [download] = await Promise.all([page.waitForEvent('download', WAIT), page.locator(`[data-testid="downloads"] a[data-format="${format}"]`).click()]);
        const file = await download.path();
        return { name: download.suggestedFilename(), text: fs.readFileSync(file!, 'utf8') };
      };
      const jsonl = await get('jsonl');
      expect(jsonl.name).toBe(`${store.faultyId}.jsonl`);
      const records = jsonl.text.trim().split('\n').map((l) => JSON.parse(l));
      expect(records.map((r) => `${r.episode_id}:${r.outcome}`)).toEqual(['T01#0:fail', 'T01#1:pass', 'T02#0:pass', 'T02#1:fail', 'T03#0:partial', 'T03#1:partial', 'T15#0:fail', 'T15#1:fail', 'T17#0:pass', 'T17#1:pass']);
      const csv = await get('csv');
      const lines = csv.text.trim().split('\r\n');
      expect(lines[0]).toBe('run_id,episode_id,task_id,label,trial,outcome,reward,partial,termination,failed_checks,error');
      expect(lines).toHaveLength(11);
      await page.close();
    });
  });

  describe('accessibility', () => {
    it('names every page in its title', async () => {
      const titles: Record<string, string> = {
        '#/': 'Runs · servicegym view',
        [`#/runs/${enc(store.faultyId)}`]: 'Run scripted airline (faulty agents) · servicegym view',
        [`#/runs/${enc(store.faultyId)}/episodes/${enc('T01#0')}`]: 'Episode T01#0 · scripted airline (faulty agents) · servicegym view',
        [`#/compare/${enc(store.faultyId)}..${enc(store.validateId)}`]: `Compare ${store.faultyId} → ${store.validateId} · servicegym view`,
        [`#/optimizer/${enc(store.campaignId)}`]: `Prompt releases ${store.campaignId} · servicegym view`,
      };
      const { page } = await open('#/');
      for (const [hash, title] of Object.entries(titles)) {
        await page.goto(`${live.url}${hash}`);
        await expect.poll(() => page.title(), WAIT).toBe(title);
      }
      await page.close();
    });

    it('is usable by keyboard: skip link, matrix grid with arrow keys, sortable headers, theme toggle', async () => {
      const { page } = await open(`#/runs/${enc(store.faultyId)}`);
      await page.locator('[data-testid="matrix"] a.cell').first().waitFor(WAIT);
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
      // The grid: one tab stop, arrows move, Enter opens.
      expect(await page.locator('[role="grid"]').count()).toBe(1);
      expect(await page.locator('[role="grid"] [role="columnheader"]').allInnerTexts()).toEqual(['task', 't0', 't1']);
      expect(await page.locator('[role="grid"] [role="rowheader"]').allInnerTexts()).toEqual(['T01', 'T02', 'T03', 'T15', 'T17']);
      expect(await page.locator('[role="grid"] a.cell[tabindex="0"]').count()).toBe(1);
      await page.locator('[role="grid"] a.cell[tabindex="0"]').focus();
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-episode'));
      expect(await focused()).toBe('T01#0');
      await page.keyboard.press('ArrowRight');
      expect(await focused()).toBe('T01#1');
      await page.keyboard.press('ArrowDown');
      expect(await focused()).toBe('T02#1');
      await page.keyboard.press('End');
      expect(await focused()).toBe('T02#1');
      await page.keyboard.press('Home');
      expect(await focused()).toBe('T02#0');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toMatch(/^T02, llm, trial 0: passed; reward 1/);
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('h1').innerText(), WAIT).toBe('T02 · llm · trial 0');
      // The theme toggle works from the keyboard.
      await page.locator('[data-testid="theme-toggle"]').focus();
      const before = await page.evaluate(() => document.documentElement.dataset.theme);
      await page.keyboard.press('Space');
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme), WAIT).not.toBe(before);
      await page.close();
    });

    it('tells outcomes apart by more than colour', async () => {
      const { page } = await open(`#/runs/${enc(store.faultyId)}`);
      await page.locator('[data-testid="matrix"] a.cell').first().waitFor(WAIT);
      const text = (o: string) => page.locator(`a.cell[data-outcome="${o}"]`).first().innerText();
      expect(await text('fail')).toMatch(/^✗/);
      expect(await text('partial')).toMatch(/^◐\d+$/);
      expect(await text('pass')).toBe('✓');
      await page.close();
    });

    for (const theme of ['light', 'dark'] as const) {
      it(`meets WCAG AA contrast on every page (${theme} theme)`, async () => {
        const { page } = await open('#/');
        await page.evaluate((t) => localStorage.setItem('servicegym-view-theme', t), theme);
        const pages = [
          ['#/', 'table[data-testid="runs"] tbody tr'],
          [`#/runs/${enc(store.faultyId)}`, '[data-testid="episode-list"] tbody tr'],
          [`#/runs/${enc(store.retailId)}`, '[data-testid="episode-list"] tbody tr'],
          [`#/runs/${enc(store.faultyId)}/episodes/${enc('T01#0')}`, '[data-check]'],
          [`#/compare/${enc(store.faultyId)}..${enc(store.validateId)}`, 'table[data-testid="compare"]'],
          [`#/optimizer/${enc(store.campaignId)}`, 'article.release'],
        ] as const;
        for (const [hash, ready] of pages) {
          await page.goto(`${live.url}${hash}`);
          await page.reload();
          await page.locator(ready).first().waitFor(WAIT);
          expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
          expect({ hash, failures: await contrastFailures(page) }).toEqual({ hash, failures: [] });
        }
        await page.close();
      });
    }

    it('shows the DB diff without clipping at 1024 px', async () => {
      const { page } = await open(`#/runs/${enc(store.faultyId)}/episodes/${enc('T01#0')}`, 1024);
      const diff = page.locator('[data-testid="db-diff"]');
      await diff.waitFor(WAIT);
      const box = (await diff.boundingBox())!;
      const col = (await page.locator('.col-evaluation').boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(col.x + col.width + 1);
      expect(await diff.evaluate((t) => t.scrollWidth <= t.clientWidth + 1)).toBe(true);
      expect(await diff.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth + 1)).toBe(true);
      await page.close();
    });
  });

  describe('screenshots at 1440 and 1024 px', () => {
    const PAGES = [
      ['runs', () => '#/', 'table[data-testid="runs"] tbody tr'],
      ['run', () => `#/runs/${enc(store.faultyId)}`, '[data-testid="episode-list"] tbody tr'],
      ['run-compact', () => `#/runs/${enc(store.retailId)}`, '[data-testid="episode-list"] tbody tr'],
      ['episode', () => `#/runs/${enc(store.faultyId)}/episodes/${enc('T01#0')}`, '[data-testid="db-diff"]'],
      ['compare', () => `#/compare/${enc(store.faultyId)}..${enc(store.validateId)}`, '[data-testid="config-diff"]'],
      ['release', () => `#/optimizer/${enc(store.campaignId)}`, 'article.release'],
    ] as const;
    for (const width of [1440, 1024]) {
      it(`nothing is clipped at ${width} px, and the runs list shows its key columns`, async () => {
        for (const [name, hash, ready] of PAGES) {
          const { page, errors } = await open(hash(), width);
          await page.locator(ready).first().waitFor(WAIT);
          expect({ name, clipped: await clippedContainers(page) }).toEqual({ name, clipped: [] });
          if (name === 'runs') {
            for (const col of ['partial', 'passk', 'failed', 'cost', 'date']) {
              const cell = (await page.locator(`table[data-testid="runs"] tbody tr td[data-col="${col}"]`).first().boundingBox())!;
              expect({ col, right: Math.min(cell.x + cell.width, width) }).toEqual({ col, right: cell.x + cell.width });
            }
          }
          await screenshot(page, `layout-${name}-${width}`);
          expect(errors).toEqual([]);
          await page.close();
        }
      });
    }
  });
});
