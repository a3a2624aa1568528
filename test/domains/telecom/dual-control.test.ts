/**
 * Dual control (tau2 telecom): the customer acts on their own phone. The oracle agent asks for
 * each run of user gold actions and the oracle's customer performs them as its own tool calls
 * (requestor `user`), so a task with interleaved agent and user actions scores 1; the LLM user
 * simulator gets the 30 device tools and its calls and results are part of the trajectory but
 * never of the agent's view.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadTau2Telecom } from '../../../src/domains/telecom/index.js';
import { loadDomain } from '../../../src/domains/index.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { runDomainTasks } from '../../../src/run/task-run.js';
import { call, say, ScriptedAgent } from '../../../src/agents/scripted-agent.js';
import { lintDataset } from '../../../src/evaluation/lint.js';
import { HAS_SHARED, needsShared, SHARED } from '../../support/paths.js';
import { last, startTwoRoleMock, type TwoRoleMock } from '../../support/two-role-mock.js';

const DIR = path.join(SHARED, 'peers', 'tau2', 'telecom');
let mock: TwoRoleMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe.skipIf(!HAS_SHARED)(needsShared('telecom dual control'), () => {
  const loaded = HAS_SHARED ? loadTau2Telecom({ dataDir: DIR }) : undefined!;

  it('oracle: the agent pays-and-resumes, the customer pays and reboots with its own tools; reward 1', async () => {
    const task = loaded.tasks.find((t) => t.id === '[service_issue]overdue_bill_suspension[PERSONA:Easy]')!;
    const res = await runDomainTasks({ loaded, tasks: [task], trials: 1, concurrency: 1, agent: 'oracle', user: 'scripted', runId: 'dual' });
    const rec = res.records[0];
    expect([rec.evaluation?.reward, rec.evaluation?.partial]).toEqual([1, 1]);
    const log = rec.episode.toolLog.map((e) => `${e.requestor}:${e.name}`);
    expect(log).toEqual(['assistant:send_payment_request', 'user:make_payment', 'assistant:resume_line', 'user:reboot_device']);
    expect(rec.episode.toolLog[1].output).toBe('Payment of 65.0 USD has been made for bill B1234321.');
    const userCalls = rec.episode.messages.filter((m: any) => m.role === 'user' && m.requestor === 'user');
    expect(userCalls.map((m: any) => m.tool_calls[0].function.name)).toEqual(['make_payment', 'reboot_device']);
    expect(rec.episode.messages.filter((m: any) => m.role === 'tool' && m.requestor === 'user')).toHaveLength(2);
  });

  it('LLM user simulator: gets the device tools, calls one, sees the result; the agent never sees the call', async () => {
    const task = loaded.tasks.find((t) => t.id === '[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]')!;
    let userTurn = 0;
    let toggled = false;
    mock = await startTwoRoleMock({
      agent: (messages) => (messages.filter((m: any) => m.role === 'user').length < 3 ? { content: 'Please turn on data roaming on your phone.' } : { content: 'Glad it works. ###STOP###' }),
      user: (messages) => {
        userTurn++;
        if (userTurn === 1) return { content: 'My mobile data does not work abroad.' };
        if (!toggled && last(messages).role === 'user') {
          toggled = true;
          return { tool_calls: [{ name: 'toggle_roaming', arguments: {} }] };
        }
        return { content: 'Done, roaming is on now.' };
      },
    });
    const res = await runDomainTasks({ loaded, tasks: [task], trials: 1, concurrency: 1, agent: 'llm', user: 'llm', agentModel: mock.agentModel, userModel: mock.userModel, runId: 'llm-dual' });
    const rec = res.records[0];
    expect(rec.episode.toolLog.map((e) => `${e.requestor}:${e.name}`)).toEqual(['user:toggle_roaming']);
    expect(rec.evaluation?.reward).toBe(1);
    const userBodies = mock.bodies('user');
    expect(userBodies[0].tools.map((t: any) => t.function.name)).toHaveLength(30);
    const afterCall = userBodies.find((b: any) => last(b.messages).role === 'tool');
    expect(last(afterCall.messages).content).toMatch(/^Data Roaming is now ON\.\nStatus Bar: /);
    for (const b of mock.bodies('agent')) {
      expect(b.messages.some((m: any) => m.role === 'tool' || (m.role === 'user' && !m.content))).toBe(false);
      expect(b.tools.map((t: any) => t.function.name)).not.toContain('toggle_roaming');
    }
  });

  it('solo mode: the agent gets the ticket and both tool sets, and performs the device actions itself; reward 1', async () => {
    const solo = loadDomain('telecom', { dataDir: DIR, solo: true });
    expect(solo.domain.soloMode).toBe(true);
    expect(solo.policy.startsWith('<main_policy>\n')).toBe(true);
    const task = solo.tasks.find((t) => t.id === '[service_issue]overdue_bill_suspension[PERSONA:Easy]')!;
    const res = await runDomainTasks({ loaded: solo, tasks: [task], trials: 1, concurrency: 1, agent: 'oracle', user: 'scripted', runId: 'solo' });
    const rec = res.records[0];
    expect([rec.evaluation?.reward, rec.evaluation?.partial]).toEqual([1, 1]);
    expect(rec.episode.messages.find((m) => m.role === 'user')).toEqual({ role: 'user', content: task.ticket });
    expect(rec.episode.toolLog.map((e) => `${e.requestor}:${e.name}`)).toEqual([
      'assistant:send_payment_request', 'assistant:make_payment', 'assistant:resume_line', 'assistant:reboot_device',
    ]);
  });

  it("solo mode: the agent's done call ends the episode (agent_stop) and nothing after it runs; reward 1", async () => {
    const solo = loadDomain('telecom', { dataDir: DIR, solo: true });
    expect(solo.domain.endTools).toEqual(['done']);
    const task = solo.tasks.find((t) => t.id === '[service_issue]overdue_bill_suspension[PERSONA:Easy]')!;
    const gold = (task.evaluation_criteria?.actions ?? []).map((a) => call(a.name, a.arguments));
    const script = [...gold, call('done'), call('toggle_airplane_mode'), say('Anything else?')];
    const res = await runDomainTasks({ loaded: solo, tasks: [task], trials: 1, concurrency: 1, agent: 'oracle', user: 'scripted', runId: 'solo-done', makeAgent: () => new ScriptedAgent(script) });
    const rec = res.records[0];
    expect(rec.episode.termination).toBe('agent_stop');
    expect(rec.episode.agentTurns).toBe(gold.length + 1);
    expect(rec.episode.toolLog.at(-1)?.name).toBe('done');
    expect(rec.episode.toolLog.some((e) => e.name === 'toggle_airplane_mode')).toBe(false);
    expect([rec.evaluation?.reward, rec.evaluation?.partial]).toEqual([1, 1]);
    // outside solo mode there is no done tool to end anything
    expect(loaded.domain.endTools).toBeUndefined();
    expect(loaded.domain.tools.some((t) => t.name === 'done')).toBe(false);
  });

  it('the workflow policy is selectable; variants a domain lacks are refused', () => {
    const wf = loadDomain('telecom', { dataDir: DIR, policy: 'workflow' });
    expect(wf.policy).toContain('<tech_support_policy>');
    expect(wf.policy).not.toBe(loaded.policy);
    expect(() => loadDomain('telecom', { dataDir: DIR, policy: 'nope' })).toThrow(/no policy variant 'nope' \(known: manual, workflow\)/);
    expect(() => loadDomain('airline', { dataDir: path.join(SHARED, 'peers', 'tau2', 'airline'), solo: true })).toThrow(BadInputError);
  });

  it('lint (solo): tasks asserting a refuel amount their ticket never states', async () => {
    const solo = loadDomain('telecom', { dataDir: DIR, solo: true });
    const [f] = solo.lints!(solo.tasks);
    expect([f.rule, f.level, f.task_ids.length]).toEqual(['solo_refuel_amount_unstated', 'warn', 992]);
    expect(loaded.lints!(loaded.tasks)[0].level).toBe('info');
    // and the lint report includes it (on a few tasks: the generic lints replay gold actions)
    const some = solo.tasks.filter((t) => f.task_ids.includes(t.id)).slice(0, 3);
    expect((await lintDataset(solo, { tasks: some })).findings.find((x) => x.rule === 'solo_refuel_amount_unstated')!.task_ids).toHaveLength(3);
  });
});
