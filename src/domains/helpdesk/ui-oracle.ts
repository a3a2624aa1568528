/**
 * The helpdesk's oracle on the web surfaces: each task's scripted route through Harbordesk and the
 * Juniper & Oak shop admin (`apps/ui-scripts.ts`, addressed by role and accessible name) as the
 * generic browser steps the oracle agent plays (`spec/ui-step.ts`). Both apps share one origin, so
 * a `goto` is a navigation to the app's path.
 */
import type { Task } from '../../spec/task.js';
import type { UiStep } from '../../spec/ui-step.js';
import { ORACLE_UI_SCRIPTS, type UiStep as HelpdeskUiStep } from './apps/ui-scripts.js';

/** One scripted helpdesk action as a generic browser step. */
export function browserStepOf(step: HelpdeskUiStep): UiStep {
  switch (step.action) {
    case 'goto':
      return { do: 'navigate', url: step.path };
    case 'click':
      return { do: 'click', role: step.role, name: step.name };
    case 'fill':
      return { do: 'type', role: step.role, name: step.name, text: step.value };
    case 'select':
      return { do: 'select', role: 'combobox', name: step.name, value: step.option };
    case 'check':
    case 'uncheck':
      return { do: 'check', name: step.name, checked: step.action === 'check' };
  }
}

/**
 * The oracle's browser steps for `task` (a first snapshot, then its scripted route), or null for a
 * task without one (the API oracle then performs its gold actions).
 */
export function helpdeskUiOracle(task: Task): UiStep[] | null {
  const script = ORACLE_UI_SCRIPTS[task.id];
  return script ? [{ do: 'snapshot' }, ...script.map(browserStepOf)] : null;
}
