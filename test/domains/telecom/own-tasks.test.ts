/**
 * servicegym's own telecom dataset (Kestrel Mobile): seed task T07 (seeds/001_14d444b6cd11c72e.txt)
 * and the K tasks, run with scripted agents and customers who act on their own phone, through the
 * machinery `validate` uses (`runTasks` with the dataset's "now", `evaluateTask` with the same env).
 * Faulty agents (the agent tries the customer's step itself, tells the wrong step, skips the
 * eligibility check, adds an ineligible pass) and a faulty customer (says "done" without doing it)
 * get the exact partial scores T07's 40/40/20 implies.
 */
import { describe, expect, it } from 'vitest';
import { call, ScriptedAgent, say, type ScriptStep } from '../../../src/agents/scripted-agent.js';
import { loadDomain } from '../../../src/domains/index.js';
import { evaluateTask } from '../../../src/evaluation/compose.js';
import type { TaskEvaluation } from '../../../src/evaluation/types.js';
import { runTasks } from '../../../src/run/run-tasks.js';
import { TASK_RUN_SETTINGS } from '../../../src/run/task-run.js';
import type { ToolCall } from '../../../src/spec/messages.js';
import { DEVICE_INSTRUCTION_MARKER, deviceInstruction } from '../../../src/users/gold-user.js';
import type { User, UserTurn, Utterance } from '../../../src/users/user.js';

const loaded = loadDomain('telecom');
const env = { now: loaded.now!, idSeed: '' };

/**
 * A customer who does on the phone what the agent's device instruction says (every listed call,
 * one per turn, then "Done."), says yes to confirmation requests, and otherwise stops. With
 * `lazy`, it answers a device instruction with "Done." without touching the phone.
 */
class PhoneCustomer implements User {
  private pending: { name: string; arguments: unknown }[] = [];
  private opened = false;
  private seq = 0;
  constructor(private readonly opening: string, private readonly lazy = false) {}

  async respond(transcript: readonly Utterance[]): Promise<UserTurn> {
    const next = this.pending.shift();
    if (next) return { kind: 'tool_calls', calls: [this.call(next)] };
    const last = transcript[transcript.length - 1];
    if (!this.opened) {
      this.opened = true;
      return { kind: 'message', text: this.opening };
    }
    if (last?.from === 'tool') return { kind: 'message', text: 'Done, I did that on my phone.' };
    if (last?.from === 'agent' && last.text.includes(DEVICE_INSTRUCTION_MARKER)) {
      if (this.lazy) return { kind: 'message', text: 'Done, I did that on my phone.' };
      const list = last.text.slice(last.text.indexOf(': ') + 2, last.text.lastIndexOf('. Tell me'));
      this.pending = list.split('; ').map((s) => ({ name: s.slice(0, s.indexOf(' ')), arguments: JSON.parse(s.slice(s.indexOf(' ') + 1)) }));
      return this.respond(transcript);
    }
    if (last?.from === 'agent' && /shall I proceed\?/i.test(last.text)) return { kind: 'message', text: 'Yes, please proceed.' };
    return { kind: 'stop', signal: 'stop', text: null };
  }

  private call(a: { name: string; arguments: unknown }): ToolCall {
    return { id: `phone_${++this.seq}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } };
  }
}

interface Outcome {
  partial: number;
  reward: number;
  failed: string[];
  evaluation: TaskEvaluation;
}

async function play(taskId: string, script: ScriptStep[], opts: { lazy?: boolean } = {}): Promise<Outcome> {
  const task = loaded.tasks.find((t) => t.id === taskId)!;
  const result = await runTasks<TaskEvaluation>({
    loaded,
    tasks: [task],
    trials: 1,
    concurrency: 1,
    makeAgent: () => new ScriptedAgent(script),
    makeUser: () => new PhoneCustomer(task.servicegym!.scripted_user!.opening, opts.lazy),
    env,
    episode: TASK_RUN_SETTINGS,
    evaluate: (t, episode) => evaluateTask({ loaded, task: t, trace: episode, env }),
  });
  const rec = result.records[0];
  if (rec.infraError || rec.evaluationError) throw new Error(String(rec.infraError ?? rec.evaluationError));
  expect(rec.episode.agentTurns).toBe(script.length);
  const ids = new Set(task.servicegym!.checks.map((c) => c.id));
  const evaluation = rec.evaluation!;
  return { partial: Math.round((evaluation.partial ?? 0) * 1000) / 1000, reward: evaluation.reward ?? -1, failed: evaluation.checks.filter((c) => ids.has(c.id) && c.verdict === 'fail').map((c) => c.id), evaluation };
}

const score = (o: Outcome) => ({ partial: o.partial, reward: o.reward, failed: o.failed });

// ---- T07: 40 device fixed via correct instructions / 40 roaming pass added correctly / 20 eligibility checked
const ZOE = { customer_id: 'zoe_adams_773' };
const reads = [call('get_customer', ZOE), call('get_line', { line_id: 'L-77301' })];
const checkPlan = call('get_plan', { plan_id: 'PL-TRAVEL' });
const checkBills = call('list_bills', ZOE);
const FIX = [
  { name: 'set_data_roaming', arguments: { enabled: true } },
  { name: 'reset_apn_to_default', arguments: {} },
  { name: 'restart_phone', arguments: {} },
  { name: 'run_connection_check', arguments: {} },
];
const instruct = (steps = FIX) => say(deviceInstruction(steps));
const ask = (what = 'the Europe Pass 7 days ($25.00)') => say(`I will add ${what} to 503-555-0173, charged to your November bill. Shall I proceed?`);
const addPass = (pass_id = 'RP-EU7') => call('add_roaming_pass', { line_id: 'L-77301', pass_id });
const DONE = say('Your data works again and the Europe Pass 7 days is on your line.');

describe('T07 restore mobile data abroad and add a roaming pass within plan rules', () => {
  it('the dataset: fourteen tasks, now 2026-11-12 10:30 US Eastern, hundreds of customers', () => {
    expect(loaded.mode).toBe('servicegym');
    expect(loaded.now).toBe('2026-11-12T10:30:00');
    expect(loaded.tasks.map((t) => t.id)).toEqual(['T07', 'K01', 'K02', 'K03', 'K04', 'K05', 'K06', 'K07', 'K08', 'K09', 'K10', 'K11', 'K12', 'K13']);
    const t07 = loaded.tasks[0].servicegym!.partial_credit.map((r) => [r.id, r.weight]);
    expect(t07).toEqual([['device_fixed', 40], ['pass_added', 40], ['eligibility', 20]]);
  });

  it('perfect: 100%, reward 1', async () => {
    expect(score(await play('T07', [...reads, checkPlan, checkBills, instruct(), ask(), addPass(), DONE]))).toEqual({ partial: 1, reward: 1, failed: [] });
  });

  it("the agent performs the customer's step itself (its device calls fail): loses the device item (40)", async () => {
    const o = await play('T07', [...reads, checkPlan, checkBills, ...FIX.map((s) => call(s.name, s.arguments)), ask(), addPass(), DONE]);
    expect(score(o)).toEqual({ partial: 0.6, reward: 0, failed: ['device_roaming_on', 'device_apn_correct', 'connectivity_passes', 'customer_ran_check'] });
    // the agent's own calls of device tools were refused; only the customer's connection check counts
    expect(o.evaluation.checks.find((c) => c.id === 'customer_ran_check')?.evidence).toMatch(/run_connection_check/);
  });

  it('the agent tells the wrong step (mobile data instead of data roaming and the APN): loses the device item (40)', async () => {
    const wrong = [{ name: 'set_mobile_data', arguments: { enabled: true } }, { name: 'restart_phone', arguments: {} }, { name: 'run_connection_check', arguments: {} }];
    expect(score(await play('T07', [...reads, checkPlan, checkBills, instruct(wrong), ask(), addPass(), DONE]))).toEqual({ partial: 0.6, reward: 0, failed: ['device_roaming_on', 'device_apn_correct', 'connectivity_passes'] });
  });

  it('the customer says "done" without doing the step: loses the device item (40)', async () => {
    expect(score(await play('T07', [...reads, checkPlan, checkBills, instruct(), ask(), addPass(), DONE], { lazy: true }))).toEqual({
      partial: 0.6, reward: 0, failed: ['device_roaming_on', 'device_apn_correct', 'connectivity_passes', 'customer_ran_check'],
    });
  });

  it('the pass added without the eligibility check: loses the eligibility item (20), DB still gold', async () => {
    expect(score(await play('T07', [...reads, instruct(), ask(), addPass(), DONE]))).toEqual({ partial: 0.8, reward: 1, failed: ['plan_checked', 'bills_checked', 'plan_before_pass', 'bills_before_pass'] });
  });

  it('the plan checked only after the pass was added: loses the eligibility item (20)', async () => {
    expect(score(await play('T07', [...reads, checkBills, instruct(), ask(), addPass(), checkPlan, DONE]))).toEqual({ partial: 0.8, reward: 1, failed: ['plan_before_pass'] });
  });

  it('a pass her plan is not eligible for (the 30-day Europe pass): loses the pass item (40)', async () => {
    expect(score(await play('T07', [...reads, checkPlan, checkBills, instruct(), ask('the Europe Pass 30 days ($60.00)'), addPass('RP-EU30'), DONE]))).toEqual({ partial: 0.6, reward: 0, failed: ['pass_added', 'pass_charged'] });
  });

  it('no pass at all: loses the pass item (40)', async () => {
    expect(score(await play('T07', [...reads, checkPlan, checkBills, instruct(), DONE]))).toEqual({ partial: 0.6, reward: 0, failed: ['pass_added', 'pass_charged'] });
  });
});

describe('K01/K02: a pass on an ineligible plan or over an overdue bill', () => {
  const fixK01 = say(deviceInstruction([{ name: 'set_data_roaming', arguments: { enabled: true } }, { name: 'run_connection_check', arguments: {} }]));
  const k01 = [call('get_customer', { customer_id: 'marco_reyes_415' }), call('get_line', { line_id: 'L-41501' }), call('get_plan', { plan_id: 'PL-BASIC' }), fixK01];
  it('K01 perfect: fixed, no pass, reason given: 100%', async () => {
    expect(score(await play('K01', [...k01, say('Data works now. The Europe pass is not available on your Basic plan, so I cannot add it.')]))).toEqual({ partial: 1, reward: 1, failed: [] });
  });
  it('K01 pass added on the ineligible Basic plan: loses the pass item (40)', async () => {
    const o = await play('K01', [...k01, say('I will add the Europe Pass 7 days ($25.00). Shall I proceed?'), call('add_roaming_pass', { line_id: 'L-41501', pass_id: 'RP-EU7' }), say('Added.')]);
    expect(score(o)).toEqual({ partial: 0.6, reward: 0, failed: ['no_pass', 'refusal_explained'] });
  });
  it('K02 pass added over an overdue bill: loses the pass item (40)', async () => {
    const fix = say(deviceInstruction([{ name: 'set_mobile_data', arguments: { enabled: true } }, { name: 'run_connection_check', arguments: {} }]));
    const o = await play('K02', [
      call('get_customer', { customer_id: 'hana_tanaka_302' }), call('get_line', { line_id: 'L-30201' }), call('get_plan', { plan_id: 'PL-TRAVEL' }), call('list_bills', { customer_id: 'hana_tanaka_302' }),
      fix, say('I will add the World Pass 7 days ($45.00). Shall I proceed?'), call('add_roaming_pass', { line_id: 'L-30201', pass_id: 'RP-WORLD7' }), say('Added.'),
    ]);
    expect(score(o)).toEqual({ partial: 0.6, reward: 0, failed: ['no_pass', 'overdue_explained'] });
  });
});

describe('K04/K05: suspended lines', () => {
  const ines = { customer_id: 'ines_costa_640' };
  const reads4 = [call('get_customer', ines), call('get_line', { line_id: 'L-64001' }), call('list_bills', ines)];
  it('K04 resumed before the customer paid: loses the resume item (40)', async () => {
    const o = await play('K04', [
      ...reads4, say('I will resume line 208-555-0640. Shall I proceed?'), call('resume_line', { line_id: 'L-64001' }),
      call('send_payment_request', { customer_id: 'ines_costa_640', bill_id: 'B-640-09' }), say(deviceInstruction([{ name: 'pay_payment_request', arguments: {} }, { name: 'restart_phone', arguments: {} }, { name: 'run_connection_check', arguments: {} }])),
      say('All set.'),
    ]);
    expect(score(o)).toEqual({ partial: 0.6, reward: 1, failed: ['paid_before_resume'] });
  });
  it('K05 resumed on a promise to pay: loses everything but the explanation (30)', async () => {
    const o = await play('K05', [call('get_customer', { customer_id: 'kofi_okoro_227' }), call('get_line', { line_id: 'L-22701' }), call('resume_line', { line_id: 'L-22701' }), say('Resumed; please pay the overdue bill next week.')]);
    expect(score(o)).toEqual({ partial: 0.3, reward: 0, failed: ['not_resumed', 'no_resume_call', 'nothing_written'] });
  });
});
