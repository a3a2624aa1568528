/**
 * The console oracle: for each task, the browser steps a careful agent takes, addressing every
 * element by role and accessible name as the page shows it (never by ref or URL, except the
 * global search box) — proof that each task is solvable through the console alone. The steps
 * mirror the task's gold actions: the same records, written through the same forms.
 */
import type { Task } from '../../spec/task.js';
import type { UiStep } from '../../spec/ui-step.js';

const click = (role: string, name: string, exact = true): UiStep => ({ do: 'click', role, name, exact });
const type = (role: string, name: string, text: string, submit = false): UiStep => ({ do: 'type', role, name, text, submit });
const select = (name: string, value: string): UiStep => ({ do: 'select', role: 'combobox', name, value });
const say = (text: string): UiStep => ({ do: 'say', text });

/** Finds a case with the global search and opens it. */
export const openCase = (n: string): UiStep[] => [{ do: 'snapshot' }, type('searchbox', 'Search the console', n, true), click('link', `Case ${n}`)];

/** From a case page: opens its asset (link text contains the serial), reads its entitlements, comes back by the asset's Cases list. */
export const checkAsset = (serial: string, n: string): UiStep[] => [click('link', serial, false), click('link', n)];

/** Chooses a lookup suggestion: types the query, clicks the option containing `option`. */
export const lookup = (field: string, query: string, option: string): UiStep[] => [type('combobox', field, query), click('option', option, false)];

/** Edit Case with the given picklist values and lookups, then Save. */
export function editCase(values: { status?: string; check?: string; entitlement?: string; resolution?: string; parent?: string }): UiStep[] {
  return [
    click('link', 'Edit'),
    ...(values.status ? [select('Status', values.status)] : []),
    ...(values.check ? [select('Entitlement Check', values.check)] : []),
    ...(values.entitlement ? lookup('Entitlement', values.entitlement, values.entitlement) : []),
    ...(values.resolution ? [select('Resolution', values.resolution)] : []),
    ...(values.parent ? lookup('Parent Case', values.parent, `Case ${values.parent}`) : []),
    click('button', 'Save'),
  ];
}

/** New Return Order for the asset of `serial`. */
export const newReturnOrder = (serial: string, type_: string, reason: string): UiStep[] => [click('link', 'New Return Order'), ...lookup('Asset', serial, serial), select('Return Type', type_), select('Reason', reason), click('button', 'Create Return Order')];

/** Log a Call with a subject, result and comments. */
export const logCall = (subject: string, result: string, comments: string): UiStep[] => [click('link', 'Log a Call'), type('textbox', 'Subject', subject), select('Call Result', result), type('textbox', 'Comments', comments), click('button', 'Save Call')];

/** The oracle's steps by task id (the words it says are the task's gold messages). */
export const CONSOLE_ORACLE_STEPS: Record<string, UiStep[]> = {
  T11: [
    ...openCase('00012877'), ...checkAsset('PB9-44712231', '00012877'),
    ...editCase({ check: 'In Warranty', entitlement: 'ENT-2877-1-1' }),
    ...newReturnOrder('PB9-44712231', 'Advance Replacement', 'Defective under warranty'),
    ...editCase({ status: 'Awaiting Return', resolution: 'Advance Replacement' }),
    ...logCall('Warranty claim: espresso machine not heating', 'Resolved', 'In warranty until 2027-03-13; advance replacement RO-10002 created.'),
  ],
  C01: [
    ...openCase('00012878'), ...checkAsset('PB9-30021877', '00012878'),
    ...editCase({ check: 'Out of Warranty', status: 'Waiting on Customer', resolution: 'Paid Repair Offered' }),
    ...logCall('Out of warranty: paid repair offered', 'Follow-up needed', 'Warranty ended 2026-06-29; offered paid repair at $149.00.'),
  ],
  C02: [
    ...openCase('00012879'), ...checkAsset('CK5-77120455', '00012879'),
    ...editCase({ check: 'In Warranty', entitlement: 'ENT-2879-1-2' }),
    ...newReturnOrder('CK5-77120455', 'Advance Replacement', 'Defective under warranty'),
    ...editCase({ status: 'Awaiting Return', resolution: 'Advance Replacement' }),
    ...logCall('Refrigerator not cooling: covered by extended protection', 'Resolved', 'Extended Protection to 2028-01-09; advance replacement created.'),
  ],
  C03: [
    ...openCase('00012886'),
    ...editCase({ status: 'Closed', resolution: 'Duplicate', parent: '00012880' }),
    click('link', 'Case 00012880'), ...checkAsset('SW8-51200987', '00012880'),
    ...editCase({ check: 'In Warranty', entitlement: 'ENT-2880-1-1' }),
    ...newReturnOrder('SW8-51200987', 'Advance Replacement', 'Defective under warranty'),
    ...editCase({ status: 'Awaiting Return', resolution: 'Advance Replacement' }),
    ...logCall('Washer not draining (duplicate 00012886 closed)', 'Resolved', 'Closed 00012886 as duplicate; advance replacement created on 00012880.'),
  ],
  C04: [
    ...openCase('00012881'), ...checkAsset('PB9-66120048', '00012881'),
    ...editCase({ check: 'Not Covered - Exclusion', entitlement: 'ENT-2881-1-1', status: 'Waiting on Customer', resolution: 'Paid Repair Offered' }),
    ...logCall('Accidental damage: paid repair offered', 'Follow-up needed', 'Drop damage is excluded; offered paid repair at $149.00.'),
  ],
  C05: [
    ...openCase('00012882'),
    ...logCall('Replacement status enquiry', 'Resolved', 'RO-10001 already shipped; no second return order.'),
  ],
  C06: [
    ...openCase('00012883'), ...checkAsset('QD7-90017734', '00012883'),
    ...editCase({ check: 'In Warranty', entitlement: 'ENT-2883-1-1' }),
    ...newReturnOrder('QD7-90017734', 'Advance Replacement', 'Dead on arrival'),
    ...editCase({ status: 'Awaiting Return', resolution: 'Advance Replacement' }),
    ...logCall('New dryer dead on arrival', 'Resolved', 'Bought 2026-11-17; advance replacement created (dead on arrival).'),
  ],
};

/** The oracle's steps for a task: its browser steps, the gold messages to the customer, then stop; null for an unknown task. */
export function consoleUiOracle(task: Task): UiStep[] | null {
  const steps = CONSOLE_ORACLE_STEPS[task.id];
  if (!steps) return null;
  const gold = task.servicegym?.gold_messages ?? [];
  return [...steps, ...(gold.length ? [say(gold.join('\n'))] : []), { do: 'stop' }];
}
