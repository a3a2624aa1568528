/**
 * An LLM agent (the local mock model server, scripted from the screens it is shown) drives the GDS
 * terminal end to end through `servicegym run`: it reads the availability screen to pick the first
 * line with two economy seats, sells, cancels, carries the SSR and ends. The episode runs on the
 * terminal surface (the dataset's own, no `--surface` given) and is stored as such, re-scored by
 * `servicegym rescore` with no difference, and shown by the viewer as one monospace screen per
 * step (its API, and the episode page in Chromium).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createViewerApp, startViewer } from '../../../src/viewer/server.js';
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { RunStore } from '../../../src/store/store.js';
import { readEpisodeLogs } from '../../../src/store/run-log.js';
import { closeSharedBrowser, newEpisodeContext } from '../../../src/surfaces/browser-pool.js';
import { episodeHref } from '../../../viewer/src/route.js';
import { buildViewerUi } from '../../support/browser.js';
import { runCli } from '../../support/cli.js';
import { tmpDir } from '../../support/paths.js';
import { startTwoRoleMock, type TwoRoleMock } from '../../support/two-role-mock.js';
import { CHROMIUM_NEED, lacks, needing } from '../../support/needs.js';

let mock: TwoRoleMock;
let saved: string | undefined;
/** The stored run (set by the first test). */
let stored: { db: string; runId: string } | undefined;

/** The agent: a fixed plan whose sell line is read off the availability screen it was shown. */
function agent(messages: any[]) {
  const tools = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  const sent = messages.filter((m) => m.role === 'assistant' && m.tool_calls).length;
  const gds = (command: string) => ({ tool_calls: [{ name: 'gds_command', arguments: { command } }] });
  if (sent === 0) return gds('*LKJ8TQ');
  if (sent === 1) return gds('120OCTJFKORD');
  if (sent === 2) {
    const line = tools[1].split('\n').find((l) => /^\d+ XA/.test(l) && / [YBMHQ][2-9]/.test(l) && !l.includes('CNLD'));
    const m = line!.match(/^(\d+) .* ([YBMHQ])[2-9]/)!;
    return gds(`02${m[2]}${m[1]}`);
  }
  const rest = ['X1', '3WCHR/1-1.1', '6AGENT', 'E'];
  if (sent - 3 < rest.length) return gds(rest[sent - 3]);
  return { content: 'LKJ8TQ is rebooked on XA208 with the wheelchair request carried, ended with received-from AGENT; no ticket reissue.' };
}

beforeAll(async () => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-gds-9191';
  mock = await startTwoRoleMock({ agent, user: (messages) => (messages.length <= 2 ? { content: 'XA204 20OCT JFK-ORD is cancelled; please rebook PNR LKJ8TQ per IRROPS.' } : { content: 'Thanks. ###STOP###' }) });
});
afterAll(async () => {
  await closeSharedBrowser();
  await mock?.close();
  if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
  else process.env.SERVICEGYM_API_KEY = saved;
});

it('an LLM agent drives the terminal through T12 to reward 1; the screens are stored and shown', async () => {
  const db = path.join(tmpDir('sg-gds-llm-'), 'store.db');
  const r = await runCli(['run', '--domain', 'gds', '--tasks', 'T12', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.out);
  expect(out.summary.rewardMean ?? out.summary.reward_mean).toBe(1);
  stored = { db, runId: out.run_id };
  // Recorded on the terminal surface: the gds dataset's own surface.
  const s = RunStore.open(db, { readonly: true });
  const [episode] = readEpisodeLogs(s, out.run_id);
  s.close();
  expect(episode.record.surface).toBe('terminal');
  expect(episode.record.tool_calls.map((t) => t.name)).toEqual(Array(7).fill('gds_command'));
  expect(episode.record.action_log.map((a) => a.name)).toEqual(['sell_segment', 'add_ssr', 'cancel_segment', 'end_transaction']);
  // The model saw only the terminal: one tool, and screens as tool results.
  const first = mock.bodies('agent')[0];
  expect(first.tools.map((t: any) => t.function.name)).toEqual(['gds_command']);
  const uiDir = tmpDir('sg-gds-ui-');
  fs.mkdirSync(path.join(uiDir, 'assets'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html>');
  const res = await createViewerApp({ dbPath: db, uiDir, busyTimeoutMs: 200 }).request(`/api/runs/${encodeURIComponent(out.run_id)}/episodes/${encodeURIComponent('T12#0')}`);
  expect(res.status).toBe(200);
  const detail = (await res.json()) as EpisodeDetail;
  expect(detail.surface).toBe('terminal');
  const body = JSON.stringify(detail);
  expect(body).toContain('3 XA 208  F0 A0 J1 C0 Y0 B0 M2 H0 Q1  JFKORD 1300 1445 738');
  expect(body).toContain('OK 1400 LKJ8TQ');
  // Re-scored from the stored record alone: the entries run again reproduce every action and the evaluation.
  const again = await runCli(['rescore', out.run_id, '--db', db, '--json']);
  expect(again.code, again.err).toBe(0);
  const rescored = JSON.parse(again.out) as { same: number; different: number; outcomes: { differences: string[] }[] };
  expect([rescored.same, rescored.different, rescored.outcomes.flatMap((o) => o.differences)]).toEqual([1, 0, []]);
});

it.skipIf(lacks(CHROMIUM_NEED))(needing('the viewer shows the stored episode as terminal screens, one per step', CHROMIUM_NEED), async () => {
  expect(stored, 'the run test stored the episode').toBeDefined();
  const { db, runId } = stored!;
  const viewer = await startViewer({ dbPath: db, port: 0, uiDir: buildViewerUi() });
  const context = await newEpisodeContext({ viewport: { width: 1400, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${viewer.url}${episodeHref(runId, 'T12#0')}`);
    const screens = page.locator('[data-testid="terminal-screens"] > li');
    await screens.first().waitFor({ timeout: 120_000 });
    expect(await screens.count()).toBe(7);
    expect(await page.locator('.screen-command').allInnerTexts()).toEqual(['> *LKJ8TQ', '> 120OCTJFKORD', '> 02M3', '> X1', '> 3WCHR/1-1.1', '> 6AGENT', '> E']);
    expect(await screens.nth(1).locator('pre.screen').innerText()).toContain('3 XA 208  F0 A0 J1 C0 Y0 B0 M2 H0 Q1  JFKORD 1300 1445 738');
    expect(await screens.nth(6).locator('pre.screen').innerText()).toContain('OK 1400 LKJ8TQ');
    expect(await screens.first().locator('pre.screen').evaluate((pre) => getComputedStyle(pre).fontFamily)).toMatch(/mono/i);
    expect(await page.locator('h3', { hasText: 'Final DB vs gold DB' }).count()).toBe(1);
  } finally {
    await context.close();
    await viewer.close();
  }
}, 300_000);
