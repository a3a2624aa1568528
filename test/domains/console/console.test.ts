/**
 * The service console (seed task T11 and six more) in real Chromium: the oracle, working the
 * console only through the browser tools, scores reward 1 and partial 100% on every task, also
 * under strict evaluation (a gold log_call compares the case and the result, not the agent's
 * words); faulty
 * browser agents get the seed's exact partials (T11 30/40/20/10: an out-of-warranty misjudgement
 * 10%, a return order for the decoy asset 60%, no call log 90%; C01: a return order out of
 * warranty 60%); a form submitted without its required lookup shows field errors and writes
 * nothing. Skipped without Chromium.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { loadServicegymConsole } from '../../../src/domains/console/index.js';
import { checkAsset, editCase, logCall, newReturnOrder, openCase } from '../../../src/domains/console/oracle.js';
import { uiScriptAgent } from '../../../src/agents/ui-oracle.js';
import { goldActionMatches } from '../../../src/evaluation/actions.js';
import { runDomainTasks } from '../../../src/run/task-run.js';
import { closeSharedBrowser } from '../../../src/surfaces/browser-pool.js';
import type { UiStep } from '../../../src/spec/ui-step.js';
import { CHROMIUM_NEED, lacks, needing } from '../../support/needs.js';

const loaded = loadServicegymConsole();
const byId = (id: string) => loaded.tasks.find((t) => t.id === id)!;
const T = 900_000;

describe('console dataset', () => {
  it('has T11 and six more tasks, all on the web surface with UI oracle steps and weights summing to 100', () => {
    expect(loaded.tasks.map((t) => t.id)).toEqual(['T11', 'C01', 'C02', 'C03', 'C04', 'C05', 'C06']);
    expect(loaded.surface).toBe('web');
    for (const t of loaded.tasks) {
      expect(loaded.uiOracle?.(t)?.length, t.id).toBeGreaterThan(5);
      expect(t.servicegym!.partial_credit!.reduce((n, p) => n + p.weight, 0), t.id).toBe(100);
    }
    expect(byId('T11').servicegym!.partial_credit!.map((p) => p.weight)).toEqual([30, 40, 20, 10]);
    expect(loaded.domain.tools.map((t) => t.name)).toEqual(['search_console', 'list_records', 'get_record', 'lookup_records', 'update_case', 'create_return_order', 'log_call', 'post_to_feed', 'create_case', 'create_task']);
  });

  it("a gold log_call (policy 5.1) is matched by the call's case and result, whatever the subject and comments say", () => {
    // T11's oracle logs the call in its own words, as any agent would: policy 5.1 fixes only the result.
    const oracleCall = { name: 'log_call', arguments: { case_number: '00012877', subject: 'Warranty claim: espresso machine not heating', result: 'Resolved', comments: 'In warranty until 2027-03-13; advance replacement RO-10002 created.' } };
    const t11 = byId('T11').evaluation_criteria!.actions!.find((a) => a.name === 'log_call')!;
    expect(goldActionMatches(t11, oracleCall)).toBe(true);
    expect(goldActionMatches(t11, { ...oracleCall, arguments: { ...oracleCall.arguments, result: 'Follow-up needed' } })).toBe(false);
    expect(goldActionMatches(t11, { ...oracleCall, arguments: { ...oracleCall.arguments, case_number: '00012878' } })).toBe(false);
    for (const t of loaded.tasks) {
      const calls = t.evaluation_criteria!.actions!.filter((a) => a.name === 'log_call');
      expect(calls.map((a) => a.compare_args), t.id).toEqual([['case_number', 'result']]);
    }
  });
});

describe.skipIf(lacks(CHROMIUM_NEED))(needing('console in Chromium', CHROMIUM_NEED), () => {
  afterAll(() => closeSharedBrowser());

  it('the oracle scores reward 1 and partial 100% on every task through the browser alone, also strictly (every gold action in the action log)', async () => {
    // Strict: ACTION joins DB in every reward (validate --strict), so each gold action must reach the action log through a form.
    const res = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 4, agent: 'oracle', user: 'personas', runId: 'console-validate', strict: true });
    const scores = Object.fromEntries(res.records.map((r) => [r.taskId, [r.evaluation?.reward, r.evaluation?.partial, r.episode.termination]]));
    expect(scores).toEqual(Object.fromEntries(loaded.tasks.map((t) => [t.id, [1, 1, 'user_stop']])));
    const t11 = res.records.find((r) => r.taskId === 'T11')!;
    expect(t11.episode.toolLog.every((c) => c.name.startsWith('browser_'))).toBe(true);
    expect(t11.episode.actionLog.filter((a) => a.mutating).map((a) => a.name)).toEqual(['update_case', 'create_return_order', 'update_case', 'log_call']);
    expect(res.records.map((r) => [r.taskId, r.evaluation?.checks.find((c) => c.id === 'tau2_action')?.verdict])).toEqual(loaded.tasks.map((t) => [t.id, 'pass']));
  }, T);

  it('faulty browser agents get the seed partials', async () => {
    const say = (text: string): UiStep => ({ do: 'say', text });
    const faults: [task: string, label: string, steps: UiStep[], partial: number][] = [
      ['T11', 'judged out of warranty: paid repair, no RMA', [...openCase('00012877'), ...checkAsset('PB9-44712231', '00012877'), ...editCase({ check: 'Out of Warranty', status: 'Waiting on Customer', resolution: 'Paid Repair Offered' }), ...logCall('Paid repair', 'Follow-up needed', 'Offered paid repair.'), say('I can offer a paid repair.')], 0.1],
      ['T11', 'RMA for the decoy asset', [...openCase('00012877'), ...editCase({ check: 'In Warranty', entitlement: 'ENT-2877-1-1' }), ...newReturnOrder('AP3-10988342', 'Advance Replacement', 'Defective under warranty'), ...editCase({ status: 'Awaiting Return', resolution: 'Advance Replacement' }), ...logCall('Warranty claim', 'Resolved', 'RMA created.'), say('Replacement on its way.')], 0.6],
      ['T11', 'no call logged', [...openCase('00012877'), ...editCase({ check: 'In Warranty', entitlement: 'ENT-2877-1-1' }), ...newReturnOrder('PB9-44712231', 'Advance Replacement', 'Defective under warranty'), ...editCase({ status: 'Awaiting Return', resolution: 'Advance Replacement' }), say('Replacement on its way.')], 0.9],
      ['C01', 'RMA out of warranty', [...openCase('00012878'), ...editCase({ check: 'Out of Warranty', status: 'Waiting on Customer', resolution: 'Paid Repair Offered' }), ...newReturnOrder('PB9-30021877', 'Advance Replacement', 'Defective under warranty'), ...logCall('Leak', 'Follow-up needed', 'x'), say('A paid repair is $149.00.')], 0.6],
    ];
    const res = await Promise.all(faults.map(([task, label, steps]) => runDomainTasks({ loaded, tasks: [byId(task)], trials: 1, concurrency: 1, agent: 'scripted', user: 'personas', runId: label, makeAgent: () => uiScriptAgent([...steps, { do: 'stop' }]) })));
    expect(res.map((r, i) => [faults[i][1], r.records[0].evaluation?.partial])).toEqual(faults.map(([, label, , p]) => [label, p]));
  }, T);

  it('a return order submitted without an asset shows field errors and writes nothing', async () => {
    const steps: UiStep[] = [...openCase('00012877'), { do: 'click', role: 'link', name: 'New Return Order' }, { do: 'click', role: 'button', name: 'Create Return Order' }];
    const res = await runDomainTasks({ loaded, tasks: [byId('T11')], trials: 1, concurrency: 1, agent: 'scripted', user: 'personas', runId: 'form-errors', makeAgent: () => uiScriptAgent(steps) });
    const last = res.records[0].episode.toolLog.at(-1)!;
    expect(last.output).toMatch(/- alert: Review the errors on this page\./);
    expect(last.output).toMatch(/combobox "Asset" \[invalid\]/);
    expect(last.output).toContain('Asset is required.');
    expect(res.records[0].episode.actionLog.some((a) => a.mutating)).toBe(false);
  }, T);
});
