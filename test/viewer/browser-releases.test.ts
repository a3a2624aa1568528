/**
 * The prompt-release page of an optimise run in Chromium (issue 18, item 7), over a store holding
 * a real optimise run (test/support/optimize-store.ts): round 1's three candidates rejected at the
 * gate for four new critical violations each on H5, round 2's fix released to canary and rolled
 * back by the simulated canary at a critical violation on its 15th episode. Checks: reached from
 * the runs list and the run page; versions named by id, never by the prompt file's path; the
 * rolled-back version shown as rolled back with its history; gate stages as tables with p-values
 * rounded; pass^k and the SPRT drawn; critical-violation ids linking to their episodes; keyboard
 * use; WCAG AA contrast in both themes; screenshots at 1440 and 1024 px with nothing clipped.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startViewer, type RunningViewer } from '../../src/viewer/server.js';
import { buildViewerUi, collectPageErrors, launchChromium, screenshot } from '../support/browser.js';
import { clippedContainers, contrastFailures } from '../support/page-checks.js';
import { tmpDir } from '../support/paths.js';
import { storeRolledBackOptimizeRun, type StoredOptimizeRun } from '../support/optimize-store.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const enc = encodeURIComponent;
/** Generous waits: the machine may be loaded; tests wait on conditions, never on sleeps. */
const WAIT = { timeout: 60_000 };
const H5 = 'H5-紧急安全';

let run: StoredOptimizeRun;
let live: RunningViewer;
let browser: Browser;
let context: BrowserContext;
/** Versions of the run: the stable prompt, the three rejected candidates, the rolled-back fix. */
let stable: string;
let rejected: string[];
let fix: string;

async function open(hash: string, width = 1440): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const errors = collectPageErrors(page);
  await page.goto(`${live.url}${hash}`);
  return { page, errors };
}

const releasesHash = () => `#/optimizer/${enc(run.id)}`;
const card = (page: Page, version: string) => page.locator(`article.release[data-release="${version}"]`);

describe.skipIf(lacks(CHROMIUM_NEED))(needing('servicegym view: prompt releases of an optimise run (chromium)', CHROMIUM_NEED), { timeout: 240_000 }, () => {
  beforeAll(async () => {
    const dir = tmpDir('sg-viewer-releases-');
    const db = path.join(dir, 'store.db');
    run = await storeRolledBackOptimizeRun(db);
    const versions = (run.record.releases as { version: string; state: string }[]).map((e) => e.version);
    [stable, ...rejected] = versions.slice(0, 4);
    fix = versions[4];
    live = await startViewer({ dbPath: db, port: 0, uiDir: buildViewerUi() });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  }, 300_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await live?.close();
  });

  it('is reached from the runs list and from the run page', async () => {
    const { page, errors } = await open('#/');
    const row = page.locator(`table[data-testid="runs"] tr[data-run-id="${run.id}"]`);
    await row.waitFor(WAIT);
    await row.getByRole('link', { name: 'releases →' }).click();
    await expect.poll(() => page.title(), WAIT).toBe(`Prompt releases ${run.id} · servicegym view`);
    await page.goto(`${live.url}#/runs/${enc(run.id)}`);
    await page.getByRole('link', { name: 'Prompt releases →' }).click();
    await expect.poll(() => page.evaluate(() => location.hash), WAIT).toBe(releasesHash());
    await page.locator('article.release').first().waitFor(WAIT);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('names versions by id, shows the rolled-back fix as rolled back, and never shows a file path', async () => {
    const { page, errors } = await open(releasesHash());
    await page.locator('[data-testid="versions"] tbody tr').first().waitFor(WAIT);
    const rows = await page.locator('[data-testid="versions"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.trim())),
    );
    expect(rows).toEqual([
      [stable, 'stable prompt at the start of the run', 'stable', '—', '—', '0'],
      [rejected[0], 'candidate of round 1, proposal 0', 'rejected', 'reject at gate', '0.063', '4'],
      [rejected[1], 'candidate of round 1, proposal 1', 'rejected', 'reject at gate', '0.031', '4'],
      [rejected[2], 'candidate of round 1, proposal 2', 'rejected', 'reject at gate', '0.008', '4'],
      [fix, 'candidate of round 2, proposal 3', 'rolled back', 'rollback at canary', '0.008', '1'],
    ]);
    // One card per version; the fix's card tells its whole lifecycle.
    expect(await page.locator('article.release').count()).toBe(5);
    const fixCard = card(page, fix);
    expect(await fixCard.locator('h3').innerText()).toBe(fix);
    expect(await fixCard.locator('header .badge').innerText()).toBe('rolled back');
    expect(await fixCard.evaluate((el) => el.classList.contains('status-rolled_back'))).toBe(true);
    expect(await fixCard.locator('[data-testid="release-history"] li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-state')))).toEqual(['canary', 'rolled_back']);
    const history = await fixCard.locator('[data-testid="release-history"]').innerText();
    expect(history).toContain('release_to_canary at confirm');
    expect(history).toContain('exact one-sided sign test p = 0.008 (α = 0.01)');
    expect(history).toContain(`rollback at canary`);
    expect(history).toContain(`critical violation in canary episode ${H5}#1 (episode 15)`);
    const body = await page.locator('main').innerText();
    expect(body).not.toMatch(/\/[\w.-]+\/[\w.-]+\.txt/);
    expect(body).not.toContain('p = 0.007813');
    expect(body).not.toMatch(/"(screen|gate|confirmation|pass_k)"/);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the gate stages as tables, p-values rounded, and pass^k and the SPRT as charts with their numbers', async () => {
    const { page } = await open(releasesHash());
    const fixCard = card(page, fix);
    await fixCard.locator('[data-testid="gate-stages"]').waitFor(WAIT);
    const stages = await fixCard.locator('[data-testid="gate-stages"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [...tr.querySelectorAll('th, td')].map((c) => (c as HTMLElement).innerText.trim())),
    );
    expect(stages).toEqual([
      ['static', 'pass', '—', '—', '—', '—', '—', '—', 'none'],
      ['screen', 'pass', '8/8', '—', '—', '—', '—', '—', 'none'],
      ['gate look 1', 'pass', '16/16', '+7 / −0 of 8', '0.008', '0.01', '0.125 → 1.000', '0 (≤ 1)', 'none'],
      ['sealed confirmation', 'pass', '16/16', '+6 / −0 of 8', '0.016', '0.05', '0.125 → 0.875', '0 (≤ 1)', 'none'],
      ['canary', 'rollback', '—', '—', '—', '—', '—', '—', '1'],
    ]);
    // Every check of every stage, in a table behind a disclosure.
    await fixCard.locator('.stage-checks summary').click();
    const boundary = fixCard.locator('[data-testid="stage-checks"] tr[data-check="boundary_improved"] td').last();
    expect(await boundary.innerText()).toContain('exact one-sided sign test p = 0.008 (α = 0.01)');
    expect(await fixCard.locator('[data-testid="stage-checks"] tr[data-check="zero_critical_violations"] td').nth(2).innerText()).toBe('✗ failed');
    // pass^k of stable and candidate on the gate cases.
    expect(await fixCard.locator('[data-testid="release-pass-k"] svg polyline').count()).toBe(2);
    const passK = await fixCard.locator('[data-testid="release-pass-k-values"] tbody tr').evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText.split('\t').map((x) => x.trim())));
    expect(passK).toEqual([
      ['pass^1', '0.563', '1.000'],
      ['pass^2', '0.500', '1.000'],
      ['pass^4', '0.500', '1.000'],
    ]);
    // The SPRT: both statistics drawn over 15 episodes, both boundaries, the critical violation marked.
    const sprt = fixCard.locator('[data-testid="sprt-chart"]');
    expect(await sprt.locator('polyline').count()).toBe(2);
    expect(await sprt.locator('line.bound').count()).toBe(2);
    expect(await sprt.locator('.critical-mark').count()).toBe(1);
    expect(await sprt.locator('svg').getAttribute('aria-label')).toContain('After 15 episode(s), 14 resolved: log-likelihood ratio -2.329');
    expect(await sprt.locator('figcaption').innerText()).toContain('drop alarm at 2.944, no-drop boundary -2.944; H0 p = 0.6 (stable), H1 p = 0.5');
    // The rejected candidates' gate look is a table too, with the sign test rounded.
    const look = card(page, rejected[0]).locator('[data-testid="gate-stages"] tr[data-stage="gate look 1"] td');
    expect(await look.evaluateAll((tds) => tds.map((td) => (td as HTMLElement).innerText.trim()))).toEqual(['reject', '16/16', '+6 / −1 of 8', '0.063', '0.01', '0.125 → 0.750', '4 (≤ 1)', '4']);
    await page.close();
  });

  it("links critical-violation ids to their episodes: the gate's rollouts and the canary's", async () => {
    const { page, errors } = await open(releasesHash());
    const rejectedCard = card(page, rejected[0]);
    await rejectedCard.locator('[data-testid="critical-violations"]').waitFor(WAIT);
    const links = rejectedCard.locator('[data-testid="critical-violations"] a');
    expect(await links.allInnerTexts()).toEqual([0, 1, 2, 3].map((t) => `${H5}#${t}`));
    expect(await rejectedCard.locator('[data-testid="critical-violations"] li').first().innerText()).toContain('forbidden write on a mandatory-escalation case: change_flight');
    await links.nth(2).click();
    await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash)), WAIT).toBe(`#/runs/${run.id}/episodes/${rejected[0]}/${H5}#2#trial`);
    await expect.poll(() => page.locator('h1').innerText(), WAIT).toContain(H5);
    expect(await page.locator('[data-check="critical"]').first().innerText()).toContain('change_flight');
    // The canary's violation opens the canary episode itself (stream canary, trial 1).
    await page.goto(`${live.url}${releasesHash()}`);
    const canaryLink = card(page, fix).locator('[data-testid="critical-violations"] a');
    await canaryLink.waitFor(WAIT);
    expect(await canaryLink.innerText()).toBe(`${H5}#1`);
    expect(decodeURIComponent((await canaryLink.getAttribute('href'))!)).toBe(`#/runs/${run.id}/episodes/${fix}/${H5}#1#canary`);
    await canaryLink.click();
    await expect.poll(() => page.locator('h1').innerText(), WAIT).toContain(H5);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('is usable by keyboard: skip link, disclosures, and a critical-violation link opened with Enter', async () => {
    const { page } = await open(releasesHash());
    await page.locator('article.release').first().waitFor(WAIT);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // Tab forward to the fix's checks disclosure and open it with the keyboard.
    const summary = card(page, fix).locator('.stage-checks summary');
    for (let i = 0; i < 200 && !(await summary.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await card(page, fix).locator('.stage-checks').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    // Onwards to the canary's critical-violation link; Enter opens its episode.
    const link = card(page, fix).locator('[data-testid="critical-violations"] a');
    for (let i = 0; i < 200 && !(await link.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => decodeURIComponent(location.hash)), WAIT).toBe(`#/runs/${run.id}/episodes/${fix}/${H5}#1#canary`);
    await page.close();
  });

  for (const theme of ['light', 'dark'] as const) {
    it(`meets WCAG AA contrast with every disclosure open (${theme} theme)`, async () => {
      const { page } = await open('#/');
      await page.evaluate((t) => localStorage.setItem('servicegym-view-theme', t), theme);
      await page.goto(`${live.url}${releasesHash()}`);
      await page.reload();
      await page.locator('[data-testid="sprt-chart"]').waitFor(WAIT);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => ((d as HTMLDetailsElement).open = true)));
      expect(await contrastFailures(page)).toEqual([]);
      await page.close();
    });
  }

  for (const width of [1440, 1024]) {
    it(`nothing is clipped at ${width} px (screenshot)`, async () => {
      const { page, errors } = await open(releasesHash(), width);
      await page.locator('[data-testid="sprt-chart"]').waitFor(WAIT);
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => ((d as HTMLDetailsElement).open = true)));
      expect(await clippedContainers(page)).toEqual([]);
      for (const sel of ['[data-testid="gate-stages"]', '[data-testid="stage-checks"]', '[data-testid="versions"]', '[data-testid="sprt-chart"] svg']) {
        const box = (await page.locator(sel).first().boundingBox())!;
        expect({ sel, right: Math.min(box.x + box.width, width) }).toEqual({ sel, right: box.x + box.width });
      }
      await screenshot(page, `release-optimize-${width}`);
      expect(errors).toEqual([]);
      await page.close();
    });
  }
});
