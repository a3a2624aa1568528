/**
 * Seed task T11 worked by an LLM agent through the browser tools (`servicegym run --surface
 * web-screenshot` against the local mock model server): the mock model plays the calls a model
 * would make from what it is shown — every element ref comes from the snapshot in the request,
 * the warranty decision from the entitlement's end date on the asset page, the return order's
 * number and ship-to address from the pages — and asks the customer before creating the return
 * order. The episode scores the seed's 100%; the model's requests carried the screenshots as
 * image parts; `rescore` reproduces the stored evaluation; the viewer's API serves the episode
 * with one screenshot per browser action and the store's diff. Skipped without Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServicegymConsole } from '../../../src/domains/console/index.js';
import type { MockReply } from '../../../src/models/mock-server.js';
import { closeSharedBrowser } from '../../../src/surfaces/browser-pool.js';
import { findRef } from '../../../src/util/snapshot-refs.js';
import { createViewerApp } from '../../../src/viewer/server.js';
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { runCli } from '../../support/cli.js';
import { tmpDir } from '../../support/paths.js';
import { last, startTwoRoleMock, type TwoRoleMock } from '../../support/two-role-mock.js';
import { CHROMIUM_NEED, lacks, needing } from '../../support/needs.js';


const KEY = 'test-fake-key-console-1111';
const TODAY = loadServicegymConsole().now!.slice(0, 10);
const T = 900_000;

/** The text parts of a request message's content. */
const textOf = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.filter((p: any) => p.type === 'text').map((p: any) => p.text).join('\n') : '');

/** What the model has seen so far, read from the request alone. */
interface Seen {
  /** The latest tool answer (the page as the model last saw it). */
  page: string;
  /** Every tool answer, oldest first. */
  pages: string[];
}

/** The values a careful model reads off the pages: the asset link of the case, its active entitlement, the ship-to, the return order. */
function reading(pages: string[]): { assetLink?: string; serial?: string; entitlement?: { title: string; id: string; end: string }; shipTo?: string; returnOrder?: string } {
  const out: ReturnType<typeof reading> = {};
  for (const p of pages) {
    const lines = p.split('\n');
    const asset = lines.findIndex((l) => l.trim() === '- term "Asset"');
    if (asset >= 0 && /^Page: Case /m.test(p)) {
      const link = lines.slice(asset + 1, asset + 4).map((l) => /- link "([^"]+)"/.exec(l)?.[1]).find(Boolean);
      if (link) [out.assetLink, out.serial] = [link, /\(([^)]+)\)$/.exec(link)?.[1]];
    }
    const region = p.indexOf('- region "Entitlements"');
    if (region >= 0 && /^Page: Asset /m.test(p)) {
      const block = p.slice(region).split(/\n {2}- region /)[0];
      const row = block.split(/\n\s+- row\n/)[2];
      const cells = [...(row ?? '').matchAll(/- cell "([^"]*)"/g)].map((m) => m[1]);
      if (cells.length >= 5 && cells[4] === 'Active') out.entitlement = { title: cells[0], id: cells[0].split(' · ')[0], end: cells[3] };
    }
    const ship = /- text: Ships to: (.+)$/m.exec(p);
    if (ship) out.shipTo = ship[1];
    const ro = /- link "(RO-\d+)"/.exec(p.slice(p.indexOf('- region "Return Orders"')));
    if (ro && /^Page: Case /m.test(p) && p.includes('- region "Return Orders"')) out.returnOrder = ro[1];
  }
  return out;
}

type Move = (seen: Seen) => MockReply;

/** A browser tool call on the element of `role` and `name` in the page the model was shown last. */
function act(tool: string, role: string, name: (s: Seen) => string, extra: (s: Seen) => Record<string, unknown> = () => ({}), exact = true): Move {
  return (seen) => {
    const want = name(seen);
    const ref = findRef(seen.page, role, want, { exact });
    if (!ref) return { content: `I cannot find the ${role} "${want}" on this page.` };
    return { tool_calls: [{ name: tool, arguments: { ref, element: `${role} "${want}"`, ...extra(seen) } }] };
  };
}
const click = (role: string, name: string | ((s: Seen) => string), exact = true) => act('browser_click', role, typeof name === 'string' ? () => name : name, undefined, exact);
const type = (role: string, name: string, text: string | ((s: Seen) => string), submit = false) => act('browser_type', role, () => name, (s) => ({ text: typeof text === 'string' ? text : text(s), ...(submit ? { submit } : {}) }));
const select = (name: string, value: string | ((s: Seen) => string)) => act('browser_select_option', 'combobox', () => name, (s) => ({ value: typeof value === 'string' ? value : value(s) }));
const read = (s: Seen) => reading(s.pages);
const inWarranty = (s: Seen) => {
  const e = read(s).entitlement;
  return !!e && e.end >= TODAY;
};

/** The agent's moves, one per assistant turn after the greeting. */
const MOVES: Move[] = [
  () => ({ tool_calls: [{ name: 'browser_screenshot', arguments: {} }] }),
  type('searchbox', 'Search the console', '00012877', true),
  click('link', 'Case 00012877'),
  click('link', (s) => read(s).assetLink ?? 'the Asset field'),
  click('link', '00012877'),
  click('link', 'Edit'),
  select('Entitlement Check', (s) => (inWarranty(s) ? 'In Warranty' : 'Out of Warranty')),
  type('combobox', 'Entitlement', (s) => read(s).entitlement?.id ?? ''),
  click('option', (s) => read(s).entitlement?.id ?? '', false),
  click('button', 'Save'),
  (s) => ({ content: `Thanks, Dana. Your espresso machine (serial ${read(s).serial}) is covered by its ${read(s).entitlement?.title} until ${read(s).entitlement?.end}. I can ship you an advance replacement right away; shall I create the return order?` }),
  click('link', 'New Return Order'),
  type('combobox', 'Asset', (s) => read(s).serial ?? ''),
  click('option', (s) => read(s).serial ?? '', false),
  select('Return Type', 'Advance Replacement'),
  select('Reason', 'Defective under warranty'),
  click('button', 'Create Return Order'),
  click('link', 'Edit'),
  select('Status', 'Awaiting Return'),
  select('Resolution', 'Advance Replacement'),
  click('button', 'Save'),
  click('link', 'Log a Call'),
  type('textbox', 'Subject', 'Warranty claim: espresso machine not heating'),
  select('Call Result', 'Resolved'),
  type('textbox', 'Comments', (s) => `In warranty until ${read(s).entitlement?.end}; advance replacement ${read(s).returnOrder} created.`),
  click('button', 'Save Call'),
  (s) => ({ content: `All set: return order ${read(s).returnOrder} sends an advance replacement to ${read(s).shipTo}. Please send the old machine back once the new one arrives.` }),
];

function agent(messages: any[]): MockReply {
  const pages = messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
  const k = messages.filter((m) => m.role === 'assistant').length - 1;
  const move = MOVES[k];
  return move ? move({ page: pages.at(-1) ?? '', pages }) : { content: 'Is there anything else I can help with?' };
}

function user(messages: any[]): MockReply {
  const mine = messages.filter((m) => m.role === 'assistant').length;
  const heard = textOf(last(messages).content);
  if (mine === 0) return { content: "Hi, I'm Dana Whitfield, calling about case 00012877: my ProBrew 900 espresso machine stopped heating water." };
  if (/shall I create the return order\?/.test(heard)) return { content: 'Yes, please do.' };
  if (/All set/.test(heard)) return { content: 'Great, thank you! ###STOP###' };
  return { content: 'Okay.' };
}

describe.skipIf(lacks(CHROMIUM_NEED))(needing('an LLM agent works T11 through the browser', CHROMIUM_NEED), () => {
  let mock: TwoRoleMock;
  let saved: string | undefined;
  beforeAll(async () => {
    saved = process.env.SERVICEGYM_API_KEY;
    process.env.SERVICEGYM_API_KEY = KEY;
    mock = await startTwoRoleMock({ agent, user });
  });
  afterAll(async () => {
    await mock?.close();
    await closeSharedBrowser();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
  });

  it('completes T11 from the refs it was shown; stored with screenshots, re-scored, served by the viewer', async () => {
    const db = path.join(tmpDir('sg-console-llm-'), 'store.db');
    const r = await runCli(['run', '--domain', 'console', '--surface', 'web-screenshot', '--tasks', 'T11', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--timeout', '600', '--db', db, '-q', '--json', '-j', '1']);
    expect(r.err).toBe('');
    const out = JSON.parse(r.out);
    expect([r.code, out.summary.rewardMean ?? out.summary.reward_mean]).toEqual([0, 1]);

    // The model had the browser tools only, and saw the pages as snapshots plus JPEG screenshots in the tool messages.
    const bodies = mock.bodies('agent');
    expect(bodies[0].tools.map((t: any) => t.function.name).sort()).toEqual(['browser_click', 'browser_navigate', 'browser_press_key', 'browser_screenshot', 'browser_select_option', 'browser_snapshot', 'browser_type']);
    const final = bodies.at(-1).messages as any[];
    const toolMessages = final.filter((m) => m.role === 'tool');
    const calls = final.filter((m) => m.role === 'assistant' && m.tool_calls).flatMap((m) => m.tool_calls);
    expect(toolMessages.length).toBe(calls.length);
    expect(calls.length).toBe(MOVES.length - 2);
    for (const m of toolMessages) {
      const images = (m.content as any[]).filter((p) => p.type === 'image_url');
      expect(images).toHaveLength(1);
      expect(images[0].image_url.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    }
    // Every ref the model used was in the snapshot it had just been shown (refs are read, never known in advance).
    const ordered = final.filter((m) => m.role === 'tool' || (m.role === 'assistant' && m.tool_calls));
    let shown = '';
    for (const m of ordered) {
      if (m.role === 'tool') shown = textOf(m.content);
      else for (const c of m.tool_calls) {
        const ref = JSON.parse(c.function.arguments).ref;
        if (ref) expect(shown, `${c.function.name} ${ref}`).toContain(`[ref=${ref}]`);
      }
    }

    // Re-scored from the stored record alone: the same evaluation.
    const again = await runCli(['rescore', out.run_id, '--db', db, '--json']);
    const rescored = JSON.parse(again.out);
    expect([again.code, rescored.same, rescored.different, rescored.skipped]).toEqual([0, 1, 0, 0]);

    // The viewer serves the episode: each browser action's answer with its screenshot, the rubric, the store's diff.
    const uiDir = tmpDir('sg-console-ui-');
    fs.mkdirSync(path.join(uiDir, 'assets'));
    fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>view</title>');
    const res = await createViewerApp({ dbPath: db, uiDir, busyTimeoutMs: 200 }).request(`/api/runs/${encodeURIComponent(out.run_id)}/episodes/${encodeURIComponent('T11#0')}`);
    expect(res.status).toBe(200);
    const detail = (await res.json()) as EpisodeDetail;
    expect(detail.surface).toBe('web-screenshot');
    const toolEntries = detail.transcript.filter((e) => e.kind === 'tool');
    expect(toolEntries).toHaveLength(calls.length);
    for (const e of toolEntries) expect(e.kind === 'tool' && e.images?.[0]).toMatch(/^data:image\/jpeg;base64,/);
    expect(detail.rubric.map((i) => [i.id, i.verdict])).toEqual([['entitlement', 'pass'], ['rma', 'pass'], ['case', 'pass'], ['call_log', 'pass']]);
    expect(detail.db_diff).toEqual([]);
    const changed = Object.fromEntries((detail.state_diff ?? []).filter((d) => d.path.startsWith('/cases/00012877/')).map((d) => [d.path, [d.before, d.after]]));
    expect(changed).toMatchObject({ '/cases/00012877/entitlement_check': ['Not Checked', 'In Warranty'], '/cases/00012877/entitlement_id': [null, 'ENT-2877-1-1'], '/cases/00012877/status': ['New', 'Awaiting Return'] });
    const added = (detail.state_diff ?? []).filter((d) => d.op === 'add').map((d) => d.path);
    expect(added.some((p) => p.startsWith('/return_orders/'))).toBe(true);
    // Each form submit is the browser click that caused the back-end write.
    const writes = Object.values(detail.call_writes ?? {}).map((w) => w.map((x) => x.split(' ')[0]));
    expect(writes).toEqual([['update_case'], ['create_return_order'], ['update_case'], ['log_call']]);
    expect(fs.readFileSync(db).includes(KEY)).toBe(false);
  }, T);
});
