/**
 * The helpdesk's oracle on the web surface (issue 15, "validate gives reward 1 and partial 100%
 * on every web task, in real Chromium"): the scripted routes of `apps/ui-scripts.ts` become the
 * generic browser steps the oracle agent plays, so `validate --domain helpdesk --surface web`
 * works every task through Harbordesk and the shop admin alone.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { ORACLE_UI_SCRIPTS } from '../../../src/domains/helpdesk/apps/ui-scripts.js';
import { browserStepOf, helpdeskUiOracle } from '../../../src/domains/helpdesk/ui-oracle.js';
import { runDomainTasks } from '../../../src/run/task-run.js';
import { closeSharedBrowser } from '../../../src/surfaces/browser-pool.js';
import { webSurface } from '../../../src/surfaces/web.js';
import { CHROMIUM_NEED, lacks, needing } from '../../support/needs.js';

const loaded = loadDomain('helpdesk');

describe('helpdesk UI oracle', () => {
  it('maps every scripted action onto a generic browser step, and covers every task', () => {
    expect(browserStepOf({ action: 'goto', app: 'shop', path: '/orders' })).toEqual({ do: 'navigate', url: '/orders' });
    expect(browserStepOf({ action: 'fill', role: 'spinbutton', name: 'Percent off', value: '10' })).toEqual({ do: 'type', role: 'spinbutton', name: 'Percent off', text: '10' });
    expect(browserStepOf({ action: 'select', name: 'Usage', option: 'Single use' })).toEqual({ do: 'select', role: 'combobox', name: 'Usage', value: 'Single use' });
    expect(browserStepOf({ action: 'uncheck', name: 'Notify customer' })).toEqual({ do: 'check', name: 'Notify customer', checked: false });
    expect(loaded.uiOracle).toBe(helpdeskUiOracle);
    for (const task of loaded.tasks) {
      const steps = helpdeskUiOracle(task);
      expect(steps?.length, task.id).toBe(ORACLE_UI_SCRIPTS[task.id].length + 1);
      expect(steps?.[0]).toEqual({ do: 'snapshot' });
    }
    expect(helpdeskUiOracle({ ...loaded.tasks[0], id: 'NOPE' })).toBeNull();
  });
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('helpdesk oracle in Chromium', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('scores reward 1 and partial 100% on every task through the browser alone', async () => {
    const res = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 3, agent: 'oracle', user: 'personas', runId: 'helpdesk-web-validate', surface: webSurface });
    const scores = Object.fromEntries(res.records.map((r) => [r.taskId, [r.evaluation?.reward, r.evaluation?.partial]]));
    expect(scores).toEqual(Object.fromEntries(loaded.tasks.map((t) => [t.id, [1, 1]])));
    for (const r of res.records) expect(r.episode.toolLog.every((c) => c.name.startsWith('browser_')), r.taskId).toBe(true);
    const t18 = res.records.find((r) => r.taskId === 'T18')!;
    expect(t18.episode.actionLog.filter((a) => a.mutating).map((a) => a.name)).toEqual(['refund_order', 'create_discount_code', 'reply_to_ticket', 'set_ticket_status']);
  }, 600_000);
});
