/**
 * A browser harness for the helpdesk domain's apps: a surface whose one tool performs a scripted
 * UI step (role + accessible name) in a real Chromium page, with the apps served for the episode
 * and every back-end operation a step causes recorded against that step. Episodes run through the
 * orchestrator and are scored by the evaluator, as any episode is.
 */
import { z } from 'zod';
import type { BrowserContext, Page } from 'playwright-core';
import { ScriptedAgent, call, say } from '../../../src/agents/scripted-agent.js';
import { loadDomain } from '../../../src/domains/index.js';
import { HELPDESK_WEB_APPS, serveApps, type ServedApps } from '../../../src/domains/helpdesk/apps/index.js';
import type { UiStep } from '../../../src/domains/helpdesk/apps/ui-scripts.js';
import type { HelpdeskDb } from '../../../src/domains/helpdesk/index.js';
import { evaluateTask } from '../../../src/evaluation/index.js';
import { buildEnvironment, buildUser } from '../../../src/orchestrator/build.js';
import { runEpisode } from '../../../src/orchestrator/episode.js';
import type { Surface } from '../../../src/spec/surface.js';
import { ToolError, type ToolContext, type ToolDef } from '../../../src/spec/tool.js';
import { newEpisodeContext } from '../../../src/surfaces/browser-pool.js';

/** Generous: a loaded 2-core machine can be slow, and a timeout here would be a flake. */
const STEP_TIMEOUT_MS = 60_000;

interface Resource {
  served: ServedApps;
  context: BrowserContext;
  page: Page;
  current: { ctx: ToolContext<HelpdeskDb> | null };
}

/** Performs one step on the page and waits until the page it leads to has loaded. */
async function perform(r: Resource, step: UiStep): Promise<void> {
  const p = r.page;
  if (step.action === 'goto') {
    await p.goto(`${r.served.origins[step.app]}${step.path}`, { timeout: STEP_TIMEOUT_MS });
  } else if (step.action === 'click') {
    await p.getByRole(step.role, { name: step.name, exact: true }).click({ timeout: STEP_TIMEOUT_MS });
  } else if (step.action === 'fill') {
    await p.getByRole(step.role, { name: step.name, exact: true }).fill(step.value, { timeout: STEP_TIMEOUT_MS });
  } else if (step.action === 'select') {
    await p.getByRole('combobox', { name: step.name, exact: true }).selectOption({ label: step.option }, { timeout: STEP_TIMEOUT_MS });
  } else {
    await p.getByRole('checkbox', { name: step.name, exact: true }).setChecked(step.action === 'check', { timeout: STEP_TIMEOUT_MS });
  }
  await p.waitForLoadState('load', { timeout: STEP_TIMEOUT_MS });
}

const uiStep: ToolDef<HelpdeskDb, { step: UiStep }> = {
  name: 'ui_step',
  description: 'Perform one scripted browser action.',
  parameters: z.strictObject({ step: z.any() }),
  kind: 'write',
  requestor: 'assistant',
  records: 'self',
  invoke: async ({ step }, ctx) => {
    const r = ctx.surface as Resource;
    r.current.ctx = ctx;
    try {
      await perform(r, step);
    } catch (e) {
      throw new ToolError(`${JSON.stringify(step)} failed: ${(e as Error).message.split('\n')[0]}`);
    } finally {
      r.current.ctx = null;
    }
    const flash = await r.page.locator('[role=alert], [role=status]').allInnerTexts();
    return `${await r.page.title()}${flash.length ? ` | ${flash.join(' | ')}` : ''}`;
  },
};

/** The harness surface: the apps are served and a browser context opened per episode, and always closed. */
export const uiScriptSurface: Surface = {
  name: 'ui-script',
  description: 'scripted browser steps over the helpdesk apps (tests)',
  tools: () => [uiStep as ToolDef<any>],
  open: async ({ state, now }) => {
    const current: Resource['current'] = { ctx: null };
    const served = await serveApps(
      HELPDESK_WEB_APPS,
      {
        state: () => state as HelpdeskDb,
        now,
        act: async (name, args) => (current.ctx ? current.ctx.act(name, args) : { result: 'Error: no agent step is running', error: true }),
      },
      'test-integration-token',
    );
    try {
      const context = await newEpisodeContext();
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      return { served, context, page, current } satisfies Resource;
    } catch (e) {
      await served.close();
      throw e;
    }
  },
  close: async (res) => {
    const r = res as Resource;
    await r.context.close().catch(() => undefined);
    await r.served.close();
  },
};

/** Runs `steps` as one ticket-driven episode of task `taskId` and evaluates it. */
export async function runUiEpisode(taskId: string, steps: UiStep[]) {
  const loaded = loadDomain('helpdesk');
  const task = loaded.tasks.find((t) => t.id === taskId)!;
  const env = { now: loaded.now!, idSeed: '' };
  const agent = new ScriptedAgent([...steps.map((s) => call('ui_step', { step: s })), say('Done: the ticket is handled.')], { systemPrompt: 'UI script' });
  const user = buildUser({ loaded, task, trial: 0, user: { kind: 'ticket' } });
  const environment = await buildEnvironment({ loaded, task, env, surface: uiScriptSurface });
  const result = await runEpisode({ agent, user, env: environment, maxSteps: steps.length * 2 + 10, deadlineSeconds: 900 });
  const evaluation = await evaluateTask({ loaded, task, trace: result, env });
  return { result, evaluation };
}
