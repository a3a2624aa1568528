/**
 * A scripted browser agent: plays {@link UiStep}s (click, type, select, check, press, navigate,
 * say, stop) on the web surface, finding each element by role and accessible name in the latest
 * snapshot the surface answered with — the oracle of web tasks (it proves a task solvable through
 * the UI alone) and the base of hand-written faulty browser agents.
 *
 * An element the page does not show is the script's failure: the step throws (the episode ends
 * as an agent error naming the missing element), never clicks something else.
 */
import type { ChatMessage } from '../spec/messages.js';
import { contentText } from '../spec/content.js';
import type { UiStep } from '../spec/ui-step.js';
import { findRef, refLine } from '../util/snapshot-refs.js';
import { AGENT_STOP_TOKEN } from './agent.js';
import { ScriptedAgent, call, say, type ScriptEntry, type ScriptStep } from './scripted-agent.js';

/** The text of the latest tool answer (the page as the agent last saw it); '' before any. */
export function latestSnapshot(messages: readonly ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'tool') return contentText(messages[i].content);
  return '';
}

/** The ref of the element, or an Error naming what the page lacked. */
function refIn(messages: readonly ChatMessage[], role: string, name: string, exact = true): string {
  const snap = latestSnapshot(messages);
  const ref = findRef(snap, role, name, { exact });
  if (!ref) throw new Error(`browser script: no ${role} ${exact ? 'named' : 'containing'} "${name}" on the page (${snap.split('\n', 2).join(' / ') || 'no snapshot yet'})`);
  return ref;
}

/** One UI step as a scripted-agent entry (a function of the trajectory for element steps). */
export function uiEntry(step: UiStep): ScriptEntry {
  switch (step.do) {
    case 'say':
      return say(step.text);
    case 'stop':
      return say(AGENT_STOP_TOKEN);
    case 'snapshot':
      return call('browser_snapshot', {});
    case 'navigate':
      return call('browser_navigate', { url: step.url });
    case 'press':
      return call('browser_press_key', { key: step.key });
    case 'click':
      return (m): ScriptStep => call('browser_click', { ref: refIn(m, step.role, step.name, step.exact), element: `${step.role} "${step.name}"` });
    case 'type':
      return (m): ScriptStep => call('browser_type', { ref: refIn(m, step.role, step.name, step.exact), text: step.text, ...(step.submit ? { submit: true } : {}), element: `${step.role} "${step.name}"` });
    case 'select':
      return (m): ScriptStep => call('browser_select_option', { ref: refIn(m, step.role, step.name, step.exact), value: step.value, element: `${step.role} "${step.name}"` });
    case 'check':
      return (m): ScriptStep => {
        const ref = refIn(m, 'checkbox', step.name, step.exact);
        const isChecked = (refLine(latestSnapshot(m), ref) ?? '').includes('[checked]');
        return isChecked === step.checked ? call('browser_snapshot', {}) : call('browser_click', { ref, element: `checkbox "${step.name}"` });
      };
  }
}

/** A scripted agent playing `steps` (then stopping); `systemPrompt` names it in the trajectory. */
export function uiScriptAgent(steps: readonly UiStep[], systemPrompt = 'Scripted browser agent.'): ScriptedAgent {
  return new ScriptedAgent(steps.map(uiEntry), { systemPrompt, idPrefix: 'ui_' });
}
