/**
 * `servicegym import tau2-results`: results files in tau2-bench's `Results` shape built here from
 * the gold actions of tau2's own airline and retail tasks (played by the oracle, each simulation
 * recorded with reward 1) agree with servicegym on every deterministic component; a file with
 * deliberate failures agrees where the record is honest and names each disagreement where it is
 * not; the imported run is stored, shown and re-scored from its records.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { runCli } from '../support/cli.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { loadDomain } from '../../src/domains/index.js';
import { runDomainTasks } from '../../src/run/task-run.js';
import type { ChatMessage } from '../../src/spec/messages.js';
import type { Task } from '../../src/spec/task.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs } from '../../src/store/run-log.js';

interface ImportJson {
  run_id: string;
  simulations: number;
  imported: number;
  agreement: { component: string; agree: number; disagree: number; not_judged: number }[];
  disagreements: { simulation_id: string; task_id: string; component: string; tau2: unknown; servicegym: unknown; evidence: string }[];
  skipped: { simulation_id: string; reason: string }[];
  tool_output_differences: unknown[];
}

type Tau2Msg = Record<string, unknown>;

/** A trajectory in tau2's message format (tool calls with parsed arguments; tool messages keyed by the call id), ending with the user's stop. */
function toTau2(messages: readonly ChatMessage[]): Tau2Msg[] {
  const out: Tau2Msg[] = [];
  for (const m of messages) {
    const turn_idx = out.length;
    if (m.role === 'system') continue;
    const byUser = (m as { requestor?: string }).requestor === 'user';
    const userCalls = m.role === 'user' ? ((m as { tool_calls?: { id: string; function: { name: string; arguments: string } }[] }).tool_calls ?? []) : [];
    if (m.role === 'user' && userCalls.length) {
      // dual control: the customer's own tool calls
      out.push({ role: 'user', content: null, tool_calls: userCalls.map((c) => ({ id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments), requestor: 'user' })), turn_idx });
    } else if (m.role === 'user') out.push({ role: 'user', content: m.content, tool_calls: null, turn_idx });
    else if (m.role === 'tool') out.push({ id: m.tool_call_id, role: 'tool', content: m.content, requestor: byUser ? 'user' : 'assistant', error: String(m.content).startsWith('Error'), turn_idx });
    else {
      const calls = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.function.name, arguments: JSON.parse(c.function.arguments), requestor: 'assistant' }));
      out.push({ role: 'assistant', content: m.content ?? null, tool_calls: calls.length ? calls : null, turn_idx, cost: 0 });
    }
  }
  out.push({ role: 'user', content: '###STOP###', tool_calls: null, turn_idx: out.length });
  return out;
}

const rewardInfo = (task: Task, values: Record<string, number>, reward: number) => ({
  reward,
  db_check: { db_match: values.DB === 1, db_reward: values.DB },
  reward_basis: task.evaluation_criteria?.reward_basis ?? ['DB'],
  reward_breakdown: values,
  info: null,
});

function results(domain: string, tasks: Task[], simulations: Record<string, unknown>[]) {
  return {
    timestamp: '2026-11-30T12:00:00',
    info: {
      git_commit: 'fixture',
      num_trials: 1,
      max_steps: 200,
      max_errors: 10,
      user_info: { implementation: 'user_simulator', llm: 'user-llm', llm_args: { temperature: 0 } },
      agent_info: { implementation: 'llm_agent', llm: 'gold-actions', llm_args: { temperature: 0 } },
      environment_info: { domain_name: domain, policy: '(policy)', tool_defs: null },
      seed: 300,
    },
    tasks,
    simulations,
  };
}

/** The oracle's trajectory of every task (gold actions, a confirmation before each write). */
async function goldTrajectories(domain: string): Promise<{ tasks: Task[]; messages: Map<string, ChatMessage[]> }> {
  const loaded = loadDomain(domain, { dataDir: path.join(SHARED, 'peers/tau2', domain) });
  const res = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 2, agent: 'oracle', user: 'personas', runId: 'gold' });
  for (const r of res.records) expect(r.evaluation?.reward_breakdown.DB, r.taskId).toBe(1);
  return { tasks: loaded.tasks, messages: new Map(res.records.map((r) => [r.taskId, r.episode.messages])) };
}

function simulation(task: Task, i: number, messages: Tau2Msg[], info: ReturnType<typeof rewardInfo>, termination = 'user_stop') {
  return { id: `sim-${task.id}-${i}`, task_id: task.id, trial: 0, start_time: '2026-11-30T12:00:00', end_time: '2026-11-30T12:01:00', duration: 60, termination_reason: termination, agent_cost: 0, user_cost: 0, reward_info: info, messages, seed: 300 + i };
}

/** Gold values for a task: 1 for every basis component. */
const gold = (task: Task) => Object.fromEntries((task.evaluation_criteria?.reward_basis ?? ['DB']).map((b) => [b, 1]));

let dir: string;
beforeAll(() => {
  dir = tmpDir('sg-tau2-import-');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function importFile(domain: string, file: string, db: string): Promise<{ code: number; json: ImportJson; err: string; text: string }> {
  const args = ['import', 'tau2-results', file, '--data-dir', path.join(SHARED, 'peers/tau2', domain), '--db', db];
  const j = await runCli([...args, '--json']);
  const t = await runCli([...args, '--no-store']);
  return { code: j.code, json: JSON.parse(j.out || '{}') as ImportJson, err: j.err, text: t.out };
}

describe.skipIf(!HAS_SHARED)(needsShared('import tau2-results'), () => {
  for (const domain of ['airline', 'retail']) {
    it(`agrees 100% with a gold ${domain} results file on every deterministic component, and the run re-scores unchanged`, async () => {
      const { tasks, messages } = await goldTrajectories(domain);
      const sims = tasks.map((t, i) => simulation(t, i, toTau2(messages.get(t.id)!), rewardInfo(t, gold(t), 1)));
      const file = path.join(dir, `${domain}-gold.json`);
      fs.writeFileSync(file, JSON.stringify(results(domain, tasks, sims)));
      const db = path.join(dir, `${domain}.db`);
      const { code, json, err, text } = await importFile(domain, file, db);
      expect(code, err).toBe(0);
      expect([json.imported, json.disagreements, json.skipped, json.tool_output_differences]).toEqual([tasks.length, [], [], []]);
      const db_ = json.agreement.find((a) => a.component === 'DB')!;
      expect(db_).toEqual({ component: 'DB', agree: tasks.length, disagree: 0, not_judged: 0 });
      for (const a of json.agreement) expect(a.disagree, a.component).toBe(0);
      if (domain === 'airline') {
        expect(json.agreement.map((a) => a.component)).toEqual(['DB', 'COMMUNICATE', 'reward']);
        expect(json.agreement.find((a) => a.component === 'reward')).toEqual({ component: 'reward', agree: 50, disagree: 0, not_judged: 0 });
      } else {
        // 112 tasks have NL_ASSERTION in the basis; 72 of them list no assertion (scored 1, as tau2 does), 40 need a judge.
        expect(tasks.filter((t) => (t.evaluation_criteria?.nl_assertions ?? []).length > 0).length).toBe(40);
        expect(json.agreement.find((a) => a.component === 'NL_ASSERTION')).toEqual({ component: 'NL_ASSERTION', agree: 72, disagree: 0, not_judged: 40 });
        expect(json.agreement.find((a) => a.component === 'reward')).toEqual({ component: 'reward', agree: 74, disagree: 0, not_judged: 40 });
        expect(text).toMatch(/^NL_ASSERTION\s+72\/72\s+100%\s+40 not judged \(no judge model\)/m);
      }
      expect(text).toMatch(/^DB\s+\d+\/\d+\s+100%/m);
      expect(text).toContain('servicegym agrees with every recorded reward component');
      const store = RunStore.open(db, { readonly: true });
      try {
        expect(readEpisodeLogs(store, json.run_id).length).toBe(tasks.length);
      } finally {
        store.close();
      }
      const re = await runCli(['rescore', json.run_id, '--db', db, '--data-dir', path.join(SHARED, 'peers/tau2', domain)]);
      expect(re.code, re.out).toBe(0);
      expect(re.out).toContain(`rescore: ${tasks.length}/${tasks.length} evaluations reproduced, 0 with differences`);
    }, 600_000);
  }

  it("agrees 100% with a gold telecom results file where the customer acts on their own phone (dual control)", async () => {
    const dataDir = path.join(SHARED, 'peers/tau2', 'telecom');
    const loaded = loadDomain('telecom', { dataDir });
    const dual = loaded.tasks.filter((t) => (t.evaluation_criteria?.actions ?? []).some((a) => a.requestor === 'user')).slice(0, 4);
    const res = await runDomainTasks({ loaded, tasks: dual, trials: 1, concurrency: 1, agent: 'oracle', user: 'scripted', runId: 'gold-telecom' });
    for (const r of res.records) expect(r.evaluation?.reward, r.taskId).toBe(1);
    const sims = res.records.map((r, i) => simulation(dual[i], i, toTau2(r.episode.messages), rewardInfo(dual[i], gold(dual[i]), 1)));
    for (const sim of sims) expect(sim.messages.some((m) => m.role === 'user' && Array.isArray(m.tool_calls)), sim.id).toBe(true);
    const file = path.join(dir, 'telecom-gold.json');
    fs.writeFileSync(file, JSON.stringify(results('telecom', dual, sims)));
    const { code, json, err } = await importFile('telecom', file, path.join(dir, 'telecom.db'));
    expect(code, err).toBe(0);
    expect([json.imported, json.disagreements, json.skipped, json.tool_output_differences]).toEqual([4, [], [], []]);
    for (const a of json.agreement) expect([a.component, a.disagree, a.not_judged]).toEqual([a.component, 0, 0]);
    expect(json.agreement.find((a) => a.component === 'reward')).toEqual({ component: 'reward', agree: 4, disagree: 0, not_judged: 0 });
  }, 600_000);

  it('names each disagreement of a results file with deliberate failures, and agrees where the record is honest', async () => {
    const { tasks, messages } = await goldTrajectories('airline');
    const loaded = loadDomain('airline', { dataDir: path.join(SHARED, 'peers/tau2/airline') });
    const writes = new Set(loaded.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
    const withWrite = tasks.filter((t) => (t.evaluation_criteria?.actions ?? []).some((a) => writes.has(a.name)));
    const [a, b, c] = withWrite;
    /** The trajectory without its last write call (its assistant message and tool answer). */
    const dropLastWrite = (t: Task): Tau2Msg[] => {
      const ms = toTau2(messages.get(t.id)!);
      const at = ms.map((m, i) => [m, i] as const).filter(([m]) => Array.isArray(m.tool_calls) && (m.tool_calls as { name: string }[]).some((x) => writes.has(x.name))).at(-1)![1];
      return [...ms.slice(0, at), ...ms.slice(at + 2)];
    };
    const sims = [
      simulation(a, 0, dropLastWrite(a), rewardInfo(a, { DB: 0, COMMUNICATE: 1 }, 0)), // honest failure
      simulation(b, 1, toTau2(messages.get(b.id)!), rewardInfo(b, { DB: 0, COMMUNICATE: 1 }, 0)), // gold run recorded as a failure
      simulation(c, 2, dropLastWrite(c), rewardInfo(c, { DB: 1, COMMUNICATE: 1 }, 1)), // failed run recorded as a success
      { ...simulation(tasks[0], 3, toTau2(messages.get(tasks[0].id)!), rewardInfo(tasks[0], gold(tasks[0]), 1)), task_id: 'no-such-task' }, // not in the dataset
    ];
    const file = path.join(dir, 'airline-faulty.json');
    fs.writeFileSync(file, JSON.stringify(results('airline', tasks, sims)));
    const { code, json, text } = await importFile('airline', file, path.join(dir, 'faulty.db'));
    expect(code).toBe(1);
    expect(json.imported).toBe(3);
    expect(json.disagreements.map((d) => [d.simulation_id, d.component, d.tau2, d.servicegym])).toEqual([
      [`sim-${b.id}-1`, 'DB', 0, 1],
      [`sim-${b.id}-1`, 'reward', 0, 1],
      [`sim-${c.id}-2`, 'DB', 1, 0],
      [`sim-${c.id}-2`, 'reward', 1, 0],
    ]);
    expect(json.disagreements[2].evidence).toMatch(/\//);
    expect(json.agreement).toEqual([
      { component: 'DB', agree: 1, disagree: 2, not_judged: 0 },
      { component: 'COMMUNICATE', agree: 3, disagree: 0, not_judged: 0 },
      { component: 'reward', agree: 1, disagree: 2, not_judged: 0 },
    ]);
    expect(json.skipped).toEqual([{ simulation_id: `sim-${tasks[0].id}-3`, task_id: 'no-such-task', reason: `task no-such-task is not in the dataset (${path.join(SHARED, 'peers/tau2/airline')})` }]);
    expect(text).toContain(`disagreement: simulation sim-${c.id}-2 (task ${c.id}, trial 0) DB: tau2 1, servicegym 0 — `);
    expect(text).toContain('import: 3/4 simulations re-scored; 4 disagreement(s)');
  }, 600_000);

  it('refuses a file that is not a tau2 results file, naming the path (exit 2)', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ info: { environment_info: { domain_name: 'airline' } }, tasks: [], simulations: [{ id: 's', task_id: '0' }] }));
    const r = await runCli(['import', 'tau2-results', file, '--data-dir', path.join(SHARED, 'peers/tau2/airline'), '--no-store']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file} at $.simulations[0].termination_reason`);
  });
});
