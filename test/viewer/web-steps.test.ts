/**
 * The viewer's browser steps of a web-surface episode: per browser action, the action, the
 * excerpt of the snapshot it acted on (the element's line marked), the writes it caused and the
 * page it led to with its screenshot; and the store's changes from start to end. The step model
 * is checked on a small transcript; the page on the console's T11 worked by the oracle on the
 * `web-screenshot` surface, in Chromium (skipped with a reason when Chromium is absent).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadServicegymConsole } from '../../src/domains/console/index.js';
import { runDomainTasks } from '../../src/run/task-run.js';
import { RunStore } from '../../src/store/store.js';
import { closeSharedBrowser, newEpisodeContext } from '../../src/surfaces/browser-pool.js';
import { getSurface } from '../../src/surfaces/index.js';
import { startViewer } from '../../src/viewer/server.js';
import type { TranscriptEntry } from '../../src/viewer/types.js';
import { episodeHref } from '../../viewer/src/route.js';
import { actionText, webSteps } from '../../viewer/src/web-steps.js';
import { buildViewerUi, collectPageErrors, screenshot } from '../support/browser.js';
import { tmpDir } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const T = 900_000;
const WAIT = { timeout: 120_000 };

const page = (title: string, url: string, outline: string[]) => ['Acted on: -', `Page: ${title}`, `URL: ${url}`, 'Snapshot:', ...outline].join('\n');
const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, name, arguments: args, malformed: false });

describe('web steps from a transcript', () => {
  const first = page('Case 1', '/r/cases/1', ['- main', '  - heading "Case 1" [level=1]', '  - link "Edit" [ref=e4]', '  - link "Log a Call" [ref=e5]', '  - region "Details"', '    - term "Status"', '    - definition "New"', '  - region "Feed"']);
  const form = page('Edit Case', '/r/cases/1/edit', ['- main', '  - form "Edit Case 1"', '    - combobox "Status" [ref=e9]: "New"', '      - option "New" [selected]', '      - option "Closed"', '    - button "Save" [ref=e10]', '    - link "Cancel" [ref=e11]']);
  const entries: TranscriptEntry[] = [
    { kind: 'system', text: 'policy' },
    { kind: 'agent', text: '', tool_calls: [call('c1', 'browser_snapshot', {})] },
    { kind: 'tool', name: 'browser_snapshot', call_id: 'c1', output: first, error: false, images: ['data:image/jpeg;base64,AAA'] },
    { kind: 'agent', text: '', tool_calls: [call('c2', 'browser_click', { ref: 'e4', element: 'link "Edit"' })] },
    { kind: 'tool', name: 'browser_click', call_id: 'c2', output: form, error: false, images: ['data:image/jpeg;base64,BBB'] },
    { kind: 'agent', text: '', tool_calls: [call('c3', 'browser_click', { ref: 'e4', element: 'link "Edit"' })] },
    { kind: 'tool', name: 'browser_click', call_id: 'c3', output: 'Error: element e4 is not on the current page', error: true },
    { kind: 'agent', text: '', tool_calls: [call('c4', 'browser_select_option', { ref: 'e9', value: 'Closed', element: 'combobox "Status"' }), call('c5', 'browser_click', { ref: 'e10', element: 'button "Save"' })] },
    { kind: 'tool', name: 'browser_select_option', call_id: 'c4', output: form, error: false },
    { kind: 'tool', name: 'browser_click', call_id: 'c5', output: first, error: false },
  ];
  const steps = webSteps(entries, { c5: ['update_case {"case_number":"1","status":"Closed"}'] });

  it('pairs each browser call with its answer: action, page, screenshot, writes', () => {
    expect(steps.map((s) => [s.turn, s.action, s.page, s.url, s.screenshot, s.error, s.writes.length])).toEqual([
      [2, 'read the page (snapshot)', 'Case 1', '/r/cases/1', 'data:image/jpeg;base64,AAA', false, 0],
      [4, 'click link "Edit" (e4)', 'Edit Case', '/r/cases/1/edit', 'data:image/jpeg;base64,BBB', false, 0],
      [6, 'click link "Edit" (e4)', null, null, null, true, 0],
      [8, 'select "Closed" in combobox "Status" (e9)', 'Edit Case', '/r/cases/1/edit', null, false, 0],
      [9, 'click button "Save" (e10)', 'Case 1', '/r/cases/1', null, false, 1],
    ]);
  });

  it('excerpts the snapshot the agent acted on: three lines either side of the ref, the ref line marked', () => {
    expect(steps[0].excerpt).toBeNull();
    expect(steps[1].excerpt).toEqual({ lines: ['- main', '  - heading "Case 1" [level=1]', '  - link "Edit" [ref=e4]', '  - link "Log a Call" [ref=e5]', '  - region "Details"', '    - term "Status"'], focus: 2 });
    // The stale ref was acted on in the form page (no line with e4 there); after the error the agent still sees the form.
    expect(steps[2].excerpt).toBeNull();
    expect(steps[3].excerpt?.lines[steps[3].excerpt.focus]).toBe('    - combobox "Status" [ref=e9]: "New"');
    expect(steps[4].excerpt).toEqual({ lines: ['    - combobox "Status" [ref=e9]: "New"', '      - option "New" [selected]', '      - option "Closed"', '    - button "Save" [ref=e10]', '    - link "Cancel" [ref=e11]'], focus: 3 });
  });

  it('words every browser action', () => {
    expect(actionText(call('x', 'browser_type', { ref: 'e2', text: '00012877', submit: true, element: 'searchbox "Search"' }))).toBe('type "00012877" into searchbox "Search" (e2), then Enter');
    expect(actionText(call('x', 'browser_press_key', { key: 'Escape' }))).toBe('press Escape');
    expect(actionText(call('x', 'browser_navigate', { url: '/o/cases' }))).toBe('navigate to /o/cases');
    expect(actionText(call('x', 'browser_screenshot', {}))).toBe('look at the page (screenshot)');
  });
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('the web step view in Chromium', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it("shows T11's browser steps with excerpts, writes and screenshots, and the console store's changes", async () => {
    const loaded = loadServicegymConsole();
    const dir = tmpDir('sg-web-steps-');
    const db = path.join(dir, 'runs.db');
    const store = RunStore.open(db);
    let toolCalls: { name: string; arguments: unknown }[];
    try {
      store.saveRun({ id: 'web-view', kind: 'run', name: 'validate console', domain: 'console', created_at: '2026-11-20T18:00:00Z', summary: { surface: 'web-screenshot' }, record: null });
      const res = await runDomainTasks({ loaded, tasks: [loaded.tasks.find((t) => t.id === 'T11')!], trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: 'web-view', store, surface: getSurface('web-screenshot') });
      expect(res.records[0].evaluation?.reward).toBe(1);
      toolCalls = res.records[0].episode.toolLog;
    } finally {
      store.close();
    }
    const viewer = await startViewer({ dbPath: db, port: 0, uiDir: buildViewerUi() });
    const context = await newEpisodeContext({ viewport: { width: 1400, height: 900 } });
    try {
      const p = await context.newPage();
      const errors = collectPageErrors(p);
      await p.goto(`${viewer.url}${episodeHref('web-view', 'T11#0')}`);
      const steps = p.getByTestId('web-step');
      await steps.first().waitFor(WAIT);
      expect(await p.locator('h2', { hasText: 'Browser steps' }).count()).toBe(1);
      expect(await steps.count()).toBe(toolCalls.length);
      // The Save Call step: the excerpt marks the button it clicked, the call it logged, the case page it led to, its screenshot.
      const save = steps.filter({ hasText: 'click button "Save Call"' });
      expect(await save.count()).toBe(1);
      expect((await save.locator('.web-focus').innerText()).trim()).toMatch(/^- button "Save Call" \[ref=e\d+\]$/);
      expect(await save.locator('pre.web-excerpt').innerText()).toContain('textbox "Comments"');
      expect(await save.locator('.web-writes').innerText()).toMatch(/^✎ log_call \{"case_number":"00012877"/);
      expect(await save.locator('.web-page').innerText()).toContain('/r/cases/00012877');
      const img = save.locator('img.web-shot');
      await img.scrollIntoViewIfNeeded();
      await p.waitForFunction((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth > 0, await img.elementHandle(), WAIT);
      expect(await img.evaluate((el) => [(el as HTMLImageElement).naturalWidth, (el as HTMLImageElement).naturalHeight])).toEqual([1280, 800]);
      // Four steps wrote to the back-end: two case edits, the return order, the call.
      expect(await p.locator('.web-step-write .web-writes li').allInnerTexts()).toEqual([
        expect.stringMatching(/^✎ update_case /), expect.stringMatching(/^✎ create_return_order /), expect.stringMatching(/^✎ update_case /), expect.stringMatching(/^✎ log_call /),
      ]);
      // The store's changes: the case fields, the new return order and the call task.
      const diff = await p.getByTestId('state-diff').innerText();
      for (const s of ['/cases/00012877/entitlement_check', 'In Warranty', '/cases/00012877/status', 'Awaiting Return', '/return_orders/RO-10002', '(absent)']) expect(diff).toContain(s);
      expect(errors).toEqual([]);
      await screenshot(p, 'web-steps-t11');
    } finally {
      await context.close();
      await viewer.close();
    }
  }, T);
});
