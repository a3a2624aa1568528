/**
 * Search as one types, in Chromium, over the viewer test store (seed campaign replay, validate
 * run, faulty scripted run). The page's clock is Playwright's (nothing waits on real time) and
 * every search request is held until the test lets it through, so each step is deterministic
 * however loaded the machine is: focusing the box readies the run's index; a burst of keystrokes
 * asks once, after the pause; while a search is on its way the last answer stays listed; a
 * search typed past is cancelled; clearing the box shows every episode without asking.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, Route } from 'playwright-core';
import { startViewer, type RunningViewer } from '../../src/viewer/server.js';
import { RunStore } from '../../src/store/store.js';
import { searchRun } from '../../src/viewer/queries.js';
import { fillViewerStore, type ViewerStore } from '../support/viewer-store.js';
import { buildViewerUi, collectPageErrors, launchChromium } from '../support/browser.js';
import { tmpDir } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';
import { SEARCH_DEBOUNCE_MS } from '../../src/viewer/search.js';

const enc = encodeURIComponent;
/** Generous waits: the machine may be loaded; tests wait on conditions, never on sleeps. */
const WAIT = { timeout: 60_000 };

let store: ViewerStore;
let live: RunningViewer;
let browser: Browser;

/** The episode ids a search of the faulty run answers, from the server's own function. */
function hitsOf(q: string): string[] {
  const s = RunStore.open(store.db, { readonly: true });
  try {
    return searchRun(s, store.faultyId, q)!.hits.map((h) => h.episode_id);
  } finally {
    s.close();
  }
}

/** Search requests of `page`, held until {@link release}d: each query asked, and whether the page cancelled it. */
function holdSearches(page: Page) {
  const asked: { q: string; route: Route; cancelled: boolean }[] = [];
  void page.route('**/api/runs/*/search?*', (route) => {
    asked.push({ q: new URL(route.request().url()).searchParams.get('q') ?? '', route, cancelled: false });
  });
  page.on('requestfailed', (req) => {
    for (const a of asked) if (a.route.request() === req) a.cancelled = true;
  });
  const release = async (q: string) => {
    for (const a of asked.filter((x) => x.q === q)) await a.route.continue().catch(() => undefined);
  };
  return { asked, queries: () => asked.map((a) => a.q), release };
}

/** `read`, after letting the page's clock run one search pause (for a poll: the pause is over by the time the page has set its timer). */
const pause =
  <T,>(page: Page, read: () => T) =>
  async () => {
    await page.clock.runFor(SEARCH_DEBOUNCE_MS);
    return read();
  };

const listed = (page: Page) => page.locator('[data-testid="episode-list"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-episode')));
const count = (page: Page) => page.locator('[data-testid="filter-count"]').innerText();

describe.skipIf(lacks(CHROMIUM_NEED))(needing('search as one types in the viewer (chromium)', CHROMIUM_NEED), { timeout: 240_000 }, () => {
  beforeAll(async () => {
    store = await fillViewerStore(tmpDir('sg-viewer-search-ui-'));
    live = await startViewer({ dbPath: store.db, port: 0, uiDir: buildViewerUi() });
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await live?.close();
  });

  it('asks once typing pauses, keeps the last answer while the next comes, cancels a search typed past, clears at once', async () => {
    const first = hitsOf('refund');
    const second = hitsOf('business');
    const all = hitsOf('T').length; // every task id has a T: every episode
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    expect(first.sort()).not.toEqual(second.sort());
    expect(all).toBeGreaterThan(first.length);

    const page = await browser.newPage();
    const errors = collectPageErrors(page);
    // Paused: no timer of the page fires unless the test runs the clock.
    await page.clock.install({ time: new Date('2026-12-02T12:00:00Z') });
    await page.clock.pauseAt(new Date('2026-12-02T12:00:01Z'));
    const searches = holdSearches(page);
    await page.goto(`${live.url}#/runs/${enc(store.faultyId)}`);
    await expect.poll(() => listed(page), WAIT).toHaveLength(all);
    const box = page.locator('input[name="q"]');

    // Focus readies the index: one blank search, which finds nothing and changes nothing.
    await box.focus();
    await expect.poll(searches.queries, WAIT).toEqual(['']);
    await searches.release('');

    // A burst of keystrokes asks nothing until the pause, then once.
    await page.keyboard.type('refund');
    await expect.poll(() => count(page), WAIT).toBe('searching…');
    expect(new URL(page.url()).hash).toContain('q=refund');
    expect(searches.queries()).toEqual(['']);
    // No answer yet: the list is not blanked meanwhile.
    expect(await listed(page)).toHaveLength(all);
    await expect.poll(pause(page, searches.queries), WAIT).toEqual(['', 'refund']);
    await searches.release('refund');
    await expect.poll(() => count(page), WAIT).toBe(`${first.length} of ${all} episodes`);
    await expect.poll(async () => (await listed(page)).sort(), WAIT).toEqual([...first].sort());

    // The next search is on its way: the last answer stays listed.
    await box.selectText();
    await page.keyboard.type('business');
    await expect.poll(pause(page, searches.queries), WAIT).toEqual(['', 'refund', 'business']);
    expect(await count(page)).toBe('searching…');
    expect((await listed(page)).sort()).toEqual([...first].sort());

    // Typed past before its answer came: that request is cancelled, and only the last query's answer is shown.
    await page.keyboard.type('X');
    await expect.poll(pause(page, searches.queries), WAIT).toEqual(['', 'refund', 'business', 'businessX']);
    await expect.poll(() => searches.asked[2].cancelled, WAIT).toBe(true);
    await searches.release('business');
    await searches.release('businessX');
    await expect.poll(() => count(page), WAIT).toBe(`0 of ${all} episodes`);

    // Back one letter: asked again and answered.
    await page.keyboard.press('Backspace');
    await expect.poll(pause(page, () => searches.queries().at(-1)), WAIT).toBe('business');
    await searches.release('business');
    await expect.poll(async () => (await listed(page)).sort(), WAIT).toEqual([...second].sort());

    // Cleared: every episode at once, nothing asked.
    const asked = searches.asked.length;
    await box.fill('');
    await expect.poll(() => count(page), WAIT).toBe(`${all} of ${all} episodes`);
    expect(searches.asked.length).toBe(asked);
    expect(errors).toEqual([]);
    await page.close();
  });
});
