/**
 * Scripted browser agents for the helpdesk domain on the web surface: each step of a UI script
 * (role + accessible name) becomes one browser tool call whose element ref is looked up in the
 * latest snapshot the surface returned, as a person reading the page would. Episodes run through
 * the orchestrator on the real `web` surface (Chromium) and are scored by the evaluator.
 */
import { ScriptedAgent, call, say, type ScriptEntry } from '../../../src/agents/scripted-agent.js';
import { loadDomain } from '../../../src/domains/index.js';
import type { UiStep } from '../../../src/domains/helpdesk/apps/index.js';
import { evaluateTask } from '../../../src/evaluation/index.js';
import { buildEnvironment, buildUser } from '../../../src/orchestrator/build.js';
import { runEpisode } from '../../../src/orchestrator/episode.js';
import type { ChatMessage } from '../../../src/spec/messages.js';
import { webSurface } from '../../../src/surfaces/web.js';
import { findRef, refLine } from '../../../src/surfaces/web-snapshot.js';

/** The text of the latest tool result (the page's snapshot after the last action). */
function latestSnapshot(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== 'tool') continue;
    const c = m.content as unknown;
    return typeof c === 'string' ? c : (c as { type: string; text?: string }[]).filter((p) => p.type === 'text').map((p) => p.text).join('\n');
  }
  return '';
}

const ROLE_OF: Record<string, string> = { select: 'combobox', check: 'checkbox', uncheck: 'checkbox' };

/** One script step as a browser tool call, its ref found by role and name in the latest snapshot. */
function toolCallFor(step: UiStep): ScriptEntry {
  if (step.action === 'goto') return call('browser_navigate', { url: step.path });
  return (messages) => {
    const snap = latestSnapshot(messages);
    const role = 'role' in step ? step.role : ROLE_OF[step.action];
    const ref = findRef(snap, role, step.name);
    if (!ref) throw new Error(`no ${role} "${step.name}" on the page:\n${snap}`);
    if (step.action === 'click') return call('browser_click', { ref, element: step.name });
    if (step.action === 'fill') return call('browser_type', { ref, text: step.value, element: step.name });
    if (step.action === 'select') return call('browser_select_option', { ref, value: step.option, element: step.name });
    const checked = (refLine(snap, ref) ?? '').includes('[checked]');
    return checked === (step.action === 'check') ? call('browser_snapshot') : call('browser_click', { ref, element: step.name });
  };
}

/** A scripted browser agent: a snapshot, the script's steps, then a closing message. */
export function uiScriptAgent(steps: readonly UiStep[]): ScriptedAgent {
  return new ScriptedAgent([call('browser_snapshot'), ...steps.map(toolCallFor), say('Done: the ticket is handled.')], { systemPrompt: 'Scripted browser agent' });
}

/** Runs `steps` as one ticket-driven episode of task `taskId` on the web surface and evaluates it. */
export async function runUiEpisode(taskId: string, steps: readonly UiStep[]) {
  const loaded = loadDomain('helpdesk');
  const task = loaded.tasks.find((t) => t.id === taskId)!;
  const env = { now: loaded.now!, idSeed: '' };
  const user = buildUser({ loaded, task, trial: 0, user: { kind: 'ticket' } });
  const environment = await buildEnvironment({ loaded, task, env, surface: webSurface });
  const result = await runEpisode({ agent: uiScriptAgent(steps), user, env: environment, maxSteps: steps.length * 2 + 10, deadlineSeconds: 900 });
  const evaluation = await evaluateTask({ loaded, task, trace: result, env });
  return { result, evaluation };
}
