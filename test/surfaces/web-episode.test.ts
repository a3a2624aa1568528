/**
 * A dataset that runs through the web surface by default (`LoadedDomain.surface`): the episode
 * builder gives the agent the browser tools, and the oracle kind plays the dataset's UI steps
 * (elements found by role and name), so `validate`'s path scores a browser episode against the
 * gold replay of the back-end operations. Skipped without Chromium.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadedDomain } from '../../src/spec/domain.js';
import type { UiStep } from '../../src/spec/ui-step.js';
import { agentToolsOf, surfaceOf } from '../../src/orchestrator/build.js';
import { runDomainTasks } from '../../src/run/task-run.js';
import { closeSharedBrowser } from '../../src/surfaces/browser-pool.js';
import { webSurface } from '../../src/surfaces/web.js';
import { loadSurface } from '../../src/surfaces/catalog.js';
import { miniTask, type MiniState } from '../support/mini-domain.js';
import { miniWebDomain } from '../support/web-test-app.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const task = miniTask({
  id: 'web_cancel',
  evaluation_criteria: { actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } }], reward_basis: ['DB'] },
});
const steps: UiStep[] = [
  { do: 'snapshot' },
  { do: 'click', role: 'link', name: 'Order O1' },
  { do: 'type', role: 'textbox', name: 'Reason', text: 'no longer needed' },
  { do: 'click', role: 'checkbox', name: 'Customer confirmed' },
  { do: 'click', role: 'button', name: 'Cancel order' },
  { do: 'say', text: 'Order O1 is cancelled.' },
  { do: 'stop' },
];
const loaded = (ui: UiStep[]): LoadedDomain<MiniState> => ({ domain: miniWebDomain, mode: 'servicegym', policy: 'Cancel when asked.', tasks: [task], source: 'test', surface: 'web', now: '2026-01-01T00:00:00Z', uiOracle: () => ui });

describe('a web dataset on the run path', () => {
  it("uses the dataset's surface and its browser tools (once the lazy registry has loaded it)", async () => {
    await loadSurface('web');
    expect(surfaceOf({ loaded: loaded(steps) })).toBe(webSurface);
    expect(agentToolsOf(loaded(steps), surfaceOf({ loaded: loaded(steps) })).map((t) => t.function.name)).toContain('browser_click');
  });
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('the oracle through the browser', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('scores reward 1; a script missing an element ends as an agent error naming it', async () => {
    const ok = await runDomainTasks({ loaded: loaded(steps), tasks: [task], trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: 't' });
    expect(ok.records[0].evaluation).toMatchObject({ reward: 1 });
    expect(ok.records[0].episode.actionLog.filter((a) => a.mutating).map((a) => a.name)).toEqual(['cancel_order']);
    const bad = await runDomainTasks({ loaded: loaded([{ do: 'snapshot' }, { do: 'click', role: 'button', name: 'Refund' }]), tasks: [task], trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: 't2' });
    expect(bad.records[0].episode.termination).toBe('agent_error');
    expect(JSON.stringify(bad.records[0].episode.failure)).toMatch(/no button named \\"Refund\\" on the page/);
  }, 180_000);
});
