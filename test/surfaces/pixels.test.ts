/**
 * The pixel surface in a real browser (skipped with a reason when Chromium is absent): the
 * oracle from TellerLink/32's layout scores reward 1 and partial 100% on every pixel task (T20,
 * C01-C04); faulty scripted agents, one per T20 rubric item, get exactly the seed's partials;
 * the agent's observations hold images and fixed captions only, never the page's text; an LLM
 * agent against the mock model server completes T20 from scripted clicks, is stored, and is
 * re-scored from the stored record, and the model's requests carry OpenAI image parts.
 *
 * Timeouts are generous and nothing waits on a sleep of its own: the surface waits for the app to
 * settle, so the tests hold on a loaded machine.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ScriptedAgent, call, say, stop } from '../../src/agents/scripted-agent.js';
import { loadServicegymBank } from '../../src/domains/banking/index.js';
import { crmPageHtml } from '../../src/domains/banking/crm/page.js';
import { Environment } from '../../src/env/environment.js';
import { evaluateTask } from '../../src/evaluation/compose.js';
import { taskInitialState } from '../../src/evaluation/initial-state.js';
import { resolveLiveModelConfig } from '../../src/models/config.js';
import { startMockServer } from '../../src/models/mock-server.js';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import { runDomainTasks } from '../../src/run/task-run.js';
import type { ChatMessage } from '../../src/spec/messages.js';
import type { Task } from '../../src/spec/task.js';
import { RunStore } from '../../src/store/store.js';
import { closeSharedBrowser, newEpisodeContext } from '../../src/surfaces/browser-pool.js';
import { startViewer } from '../../src/viewer/server.js';
import { episodeHref } from '../../viewer/src/route.js';
import { buildViewerUi } from '../support/browser.js';
import { createPixelSurface } from '../../src/surfaces/pixels.js';
import { tmpDir } from '../support/paths.js';
import { imageSize, observationTexts, pageTexts } from '../support/pixel-frames.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';


const loaded = loadServicegymBank();
const task = (id: string) => loaded.tasks.find((t) => t.id === id)!;
const PIXEL_TASKS = ['T20', 'C01', 'C02', 'C03', 'C04'];
const T = 600_000;

afterAll(async () => {
  await closeSharedBrowser();
});

/** T20 with its gold changed: what a faulty agent does instead (its oracle clicks follow the changed gold). */
function faulty(change: (gold: Record<string, any>[]) => Record<string, any>[]): Task {
  const t = structuredClone(task('T20'));
  t.evaluation_criteria!.actions = change(t.evaluation_criteria!.actions as never) as never;
  return t;
}

describe.skipIf(lacks(CHROMIUM_NEED))(needing('the pixel surface over TellerLink/32', CHROMIUM_NEED), () => {
  const surface = createPixelSurface({ latencyMs: 30 });

  it('validate: the layout oracle scores reward 1 and partial 100% on every pixel task; observations are frames only', async () => {
    const res = await runDomainTasks({ loaded, tasks: PIXEL_TASKS.map(task), trials: 1, concurrency: 2, agent: 'oracle', user: 'personas', runId: 'pixels-validate', surface });
    const scores = Object.fromEntries(res.records.map((r) => [r.taskId, [r.evaluation?.reward ?? r.harnessError ?? r.infraError, r.evaluation?.partial]]));
    expect(scores).toEqual(Object.fromEntries(PIXEL_TASKS.map((id) => [id, [1, 1]])));
    const t20 = res.records.find((r) => r.taskId === 'T20')!;
    // Every back-end action came from a click or a key, and the writes are banking's own tools.
    expect(t20.episode.actionLog.filter((a) => a.mutating).map((a) => a.name)).toEqual(['update_mailing_address', 'block_card', 'order_replacement_card', 'record_call_outcome']);
    // No text of the page's DOM reaches the agent: observations are captions and images.
    const seen = observationTexts(t20.episode.messages);
    expect(seen.length).toBeGreaterThan(40);
    for (const text of seen) expect(text).toMatch(/^(Screenshot|Done: [^\n]*)\. Screen 1024x768:$|^call_script\.pdf, page \d+ of \d+:$/);
    const dom = pageTexts(crmPageHtml());
    expect(dom).toContain('Caller Verification');
    const all = seen.join('\n');
    for (const s of [...dom, 'VERIFIED', 'NINA BERG', 'nina_berg_871', 'Mailing address saved', 'ORD-87101', 'Retrieving customer record']) expect(all).not.toContain(s);
    // Frames are JPEG at the fixed resolution; the document's pages are PNG.
    const sizes = t20.episode.messages.flatMap((m) => (m.role === 'tool' && Array.isArray(m.content) ? m.content.filter((p) => p.type === 'image_url').map((p) => imageSize(p.image_url.url)) : []));
    expect(sizes[0]).toEqual({ mime: 'image/png', width: 816, height: 1056 });
    expect(new Set(sizes.slice(1).map((s) => JSON.stringify(s)))).toEqual(new Set([JSON.stringify({ mime: 'image/jpeg', width: 1024, height: 768 })]));
  }, T);

  it("faulty scripted agents get T20's seed partials: fee waived 65%, address not saved 70%, verification skipped 80%, no outcome code 85%", async () => {
    const variants: Record<string, Task> = {
      fee_waived_for_standard: faulty((g) => g.map((a) => (a.name === 'order_replacement_card' ? { ...a, arguments: { ...a.arguments, waive_expedited_fee: true } } : a))),
      address_not_saved: faulty((g) => g.filter((a) => a.name !== 'update_mailing_address')),
      verification_skipped: faulty((g) => g.filter((a) => a.name !== 'verify_identity')),
      no_outcome_code: faulty((g) => g.filter((a) => a.name !== 'record_call_outcome')),
    };
    const agents = Object.fromEntries(Object.entries(variants).map(([k, t]) => [k, surface.oracle!(loaded.domain, t)]));
    const names = Object.keys(variants);
    const res = await runDomainTasks({
      loaded, tasks: [task('T20')], trials: names.length, concurrency: 2, agent: 'scripted', user: 'personas', runId: 'pixels-faulty', surface,
      makeAgent: (_t, trial) => new ScriptedAgent([...agents[names[trial]].map((c) => call(c.name, c.arguments)), say('Done.'), stop()]),
    });
    const partials = Object.fromEntries(res.records.map((r) => [names[r.trial], r.evaluation?.partial ?? r.harnessError ?? r.infraError]));
    expect(partials).toEqual({ fee_waived_for_standard: 0.65, address_not_saved: 0.7, verification_skipped: 0.8, no_outcome_code: 0.85 });
    for (const r of res.records) expect(r.evaluation?.reward).toBe(0);
  }, T);

  it('an LLM agent on the mock model server completes T20 from scripted clicks; stored, re-scored, images in OpenAI format', async () => {
    const steps = surface.oracle!(loaded.domain, task('T20'));
    const server = await startMockServer({
      // The step is read from the request (tool calls made so far), so a retried request gets the same answer.
      handler: (body) => {
        const index = (body.messages as ChatMessage[]).filter((m) => m.role === 'assistant' && m.tool_calls?.length).length;
        return index < steps.length ? { tool_calls: [{ name: steps[index].name, arguments: steps[index].arguments }] } : { content: 'Your call is complete: address updated, replacement card on its way.' };
      },
    });
    const dir = tmpDir('sg-pixels-');
    const store = RunStore.open(path.join(dir, 'runs.db'));
    try {
      const cfg = resolveLiveModelConfig({ model: 'mock-cua', provider: 'mock', timeout: 600, maxRetries: 3, bodyTimeout: 600, callDeadline: 1800 }, { SERVICEGYM_BASE_URL: server.url, SERVICEGYM_API_KEY: 'test-fake-key' });
      store.saveRun({ id: 'pixels-llm', kind: 'run', name: 'run banking', domain: 'banking', created_at: '2026-10-02T18:00:00Z', summary: { surface: 'pixels' }, record: null });
      const res = await runDomainTasks({ loaded, tasks: [task('T20')], trials: 1, concurrency: 1, agent: 'llm', user: 'personas', agentModel: new OpenAICompatibleModel(cfg), runId: 'pixels-llm', store, surface, imageDelivery: 'user_message' });
      const rec = res.records[0];
      expect([rec.evaluation?.reward, rec.evaluation?.partial], `${rec.episode.termination} ${rec.infraError ?? rec.harnessError ?? JSON.stringify(rec.episode.failure ?? null)}`).toEqual([1, 1]);
      // The model saw the screenshots as OpenAI image parts: here in user messages after the tool results.
      const last = server.requests[server.requests.length - 1].body.messages as ChatMessage[];
      const userImages = last.filter((m) => m.role === 'user' && Array.isArray(m.content)).flatMap((m) => (m.content as { type: string; image_url?: { url: string } }[]).filter((p) => p.type === 'image_url'));
      expect(userImages.length).toBeGreaterThan(40);
      expect(userImages[userImages.length - 1].image_url!.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
      expect(last.filter((m) => m.role === 'tool').every((m) => !JSON.stringify(m.content).includes('image_url'))).toBe(true);
      // Stored, and re-scored from the stored record alone: the action log replayed on the task's start state.
      const row = store.episodes('pixels-llm')[0];
      expect(row.reward).toBe(1);
      const stored = row.result as { messages: ChatMessage[]; action_log: any[] };
      const env = { now: loaded.now!, idSeed: '' };
      const replay = new Environment(loaded.domain, { ...env, state: await taskInitialState(loaded.domain, task('T20'), env) });
      for (const [i, a] of stored.action_log.filter((x) => x.mutating).entries()) await replay.execute({ id: `r${i}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } }, 'assistant');
      const again = await evaluateTask({ loaded, task: task('T20'), trace: { messages: stored.messages, actionLog: stored.action_log, termination: row.termination as never, finalState: replay.state }, env });
      expect([again.reward, again.partial]).toEqual([1, 1]);
      // The viewer shows the episode as a filmstrip: one frame per computer action, each click drawn.
      const viewer = await startViewer({ dbPath: path.join(dir, 'runs.db'), port: 0, uiDir: buildViewerUi() });
      const context = await newEpisodeContext({ viewport: { width: 1400, height: 900 } });
      try {
        const page = await context.newPage();
        await page.goto(`${viewer.url}${episodeHref('pixels-llm', row.episode_id)}`);
        await page.getByTestId('filmstrip').waitFor({ timeout: 120_000 });
        expect(await page.getByTestId('film-frame').count()).toBe(steps.filter((c) => c.name === 'computer').length);
        expect(await page.locator('.film-click').count()).toBeGreaterThan(20);
        expect(await page.locator('.film-label').allTextContents()).toContain('type "1457 Grand Ave"');
      } finally {
        await context.close();
        await viewer.close();
      }
    } finally {
      store.close();
      await server.close();
    }
  }, T);
});
