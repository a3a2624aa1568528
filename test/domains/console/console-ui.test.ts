/**
 * The console's workspace and forms beyond the seed tasks' route, worked through the browser
 * tools by scripted agents (elements by role and accessible name): workspace tabs (every record
 * opened gets a tab; a tab switches back; closing the current tab goes to the next), the New Case
 * form (required fields, a contact of another account refused, then the case opened) and the
 * New Task form (a due date before today refused, then the follow-up created), each refusal a
 * field error with nothing written. Skipped without Chromium.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { uiScriptAgent } from '../../../src/agents/ui-oracle.js';
import { loadServicegymConsole } from '../../../src/domains/console/index.js';
import { checkAsset, lookup, openCase } from '../../../src/domains/console/oracle.js';
import { runDomainTasks } from '../../../src/run/task-run.js';
import type { UiStep } from '../../../src/spec/ui-step.js';
import { closeSharedBrowser } from '../../../src/surfaces/browser-pool.js';
import { CHROMIUM_NEED, lacks, needing } from '../../support/needs.js';


const loaded = loadServicegymConsole();
const T11 = loaded.tasks.find((t) => t.id === 'T11')!;
const T = 900_000;
const click = (role: string, name: string, exact = true): UiStep => ({ do: 'click', role, name, exact });
const type = (role: string, name: string, text: string): UiStep => ({ do: 'type', role, name, text });

/** Plays `steps` in one episode; answers each browser call's output and the back-end writes. */
async function play(runId: string, steps: UiStep[]) {
  const res = await runDomainTasks({ loaded, tasks: [T11], trials: 1, concurrency: 1, agent: 'scripted', user: 'personas', runId, makeAgent: () => uiScriptAgent([...steps, { do: 'stop' }]) });
  const ep = res.records[0].episode;
  expect(ep.termination, JSON.stringify(ep.failure ?? null)).toBe('agent_stop');
  return { outputs: ep.toolLog.map((c) => String(c.output)), writes: ep.actionLog.filter((a) => a.mutating).map((a) => [a.name, a.arguments]) };
}

/** The lines under the workspace tab bar in an output, refs left out. */
const tabBar = (out: string) => {
  const lines = out.split('\n');
  const at = lines.findIndex((l) => l.startsWith('- tablist "Workspace tabs"'));
  const end = lines.findIndex((l, i) => i > at && l.startsWith('- main'));
  return lines.slice(at + 1, end).map((l) => l.trim().replace(/ \[ref=e\d+\]/, ''));
};

describe.skipIf(lacks(CHROMIUM_NEED))(needing('console workspace and forms in Chromium', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('workspace tabs: each record opened gets a tab, a tab switches back, closing the current tab goes to the next', async () => {
    const asset = 'Asset ProBrew 900 Espresso Machine (PB9-44712231)';
    const { outputs, writes } = await play('console-tabs', [
      ...openCase('00012877'), click('link', 'PB9-44712231', false),
      click('tab', 'Case 00012877'),
      click('button', `Close tab ${asset}`),
      click('link', 'PB9-44712231', false),
      click('tab', 'Case 00012877'),
      click('button', 'Close tab Case 00012877'),
    ]);
    const [, , toCase, toAsset, backToCase, closedAsset, reopened, switched, closedCase] = outputs;
    expect(tabBar(outputs[0])).toEqual(['- text: No records open']);
    expect(tabBar(toCase)).toEqual(['- tab "Case 00012877" [selected]', '- button "Close tab Case 00012877"']);
    expect(tabBar(toAsset)).toEqual(['- tab "Case 00012877"', '- button "Close tab Case 00012877"', `- tab "${asset}" [selected]`, `- button "Close tab ${asset}"`]);
    expect(backToCase).toMatch(/^URL: \/r\/cases\/00012877$/m);
    expect(tabBar(backToCase)[0]).toBe('- tab "Case 00012877" [selected]');
    expect(closedAsset).toMatch(/^URL: \/r\/cases\/00012877$/m);
    expect(tabBar(closedAsset)).toEqual(['- tab "Case 00012877" [selected]', '- button "Close tab Case 00012877"']);
    expect(tabBar(reopened).filter((l) => l.startsWith('- tab'))).toEqual(['- tab "Case 00012877"', `- tab "${asset}" [selected]`]);
    expect(switched).toMatch(/^URL: \/r\/cases\/00012877$/m);
    // The closed tab was the current one: the console shows the next (the asset's).
    expect(closedCase).toMatch(/^URL: \/r\/assets\/AST-2877-1$/m);
    expect(tabBar(closedCase)).toEqual([`- tab "${asset}" [selected]`, `- button "Close tab ${asset}"`]);
    expect(writes).toEqual([]);
  }, T);

  it('New Case: required fields and a contact of another account are field errors; then the case is opened', async () => {
    const { outputs, writes } = await play('console-new-case', [
      { do: 'snapshot' }, click('link', 'New Case'), click('button', 'Save Case'),
      ...lookup('Account', 'Whitfield', 'Dana Whitfield (Household)'), ...lookup('Contact', 'Oyelaran', 'Marcus Oyelaran'), type('textbox', 'Subject', 'Kettle lid will not close'),
      click('button', 'Save Case'),
      ...lookup('Contact', 'Whitfield', 'Dana Whitfield'), ...lookup('Asset', 'AP3-10988342', 'AP3-10988342'), { do: 'select', role: 'combobox', name: 'Priority', value: 'High' },
      click('button', 'Save Case'),
    ]);
    const empty = outputs[2];
    expect(empty).toMatch(/- alert: Review the errors on this page\./);
    for (const e of ['Account is required.', 'Contact is required.', 'Subject is required.']) expect(empty).toContain(e);
    expect(empty).toMatch(/combobox "Account" \[invalid\] \[collapsed\]/);
    expect(empty).toMatch(/textbox "Subject" \[required\] \[invalid\]/);
    expect(empty).toMatch(/button "Save Case" \[ref=e\d+\]/);
    const crossed = outputs[8];
    expect(crossed).toContain('Contact must belong to the account.');
    expect(crossed).not.toContain('Subject is required.');
    const opened = outputs.at(-1)!;
    expect(opened).toMatch(/^Page: Case 00012887 \|/m);
    expect(opened).toContain('- heading "Case 00012887" [level=1]');
    expect(opened).toContain('- tab "Case 00012887" [selected]');
    expect(writes).toEqual([['create_case', { account_id: 'ACC-2877', contact_id: 'CON-2877', asset_id: 'AST-2877-2', subject: 'Kettle lid will not close', priority: 'High', origin: 'Phone' }]]);
  }, T);

  it('New Task: a due date before today is a field error; then the open follow-up is on the case', async () => {
    const { outputs, writes } = await play('console-follow-up', [
      ...openCase('00012877'), click('link', 'New Task'),
      type('textbox', 'Subject', 'Call back when the replacement ships'), type('textbox', 'Due Date', '2026-11-19'), click('button', 'Save Task'),
      type('textbox', 'Due Date', '2026-11-27'), click('button', 'Save Task'),
      ...checkAsset('PB9-44712231', '00012877'),
    ]);
    const refused = outputs[6];
    expect(refused).toContain('Due Date cannot be before today (2026-11-20).');
    expect(refused).toMatch(/textbox "Due Date" \[required\] \[invalid\]/);
    const saved = outputs[8];
    expect(saved).toMatch(/^URL: \/r\/cases\/00012877$/m);
    expect(saved).toMatch(/- cell "Follow-up"\n\s+- cell "Open"/);
    expect(saved).toContain('Follow-up task TSK-');
    expect(writes).toEqual([['create_task', { case_number: '00012877', subject: 'Call back when the replacement ships', due: '2026-11-27' }]]);
  }, T);
});
