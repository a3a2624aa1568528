import { afterEach, describe, expect, it } from 'vitest';
import { runTasks, type EpisodeRecord } from '../../src/run/run-tasks.js';
import { summarizeRun } from '../../src/run/summary.js';
import { LLMAgent, agentWireTools } from '../../src/agents/llm-agent.js';
import { OracleAgent } from '../../src/agents/oracle-agent.js';
import { ScriptedAgent, say } from '../../src/agents/scripted-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { evaluateTask } from '../../src/evaluation/index.js';
import type { Task } from '../../src/spec/task.js';
import type { EpisodeResult } from '../../src/orchestrator/episode.js';
import { isDeepStrictEqual } from 'node:util';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { tinyGoldState, tinyShop, type TinyShopState, tinyShopDomain, tinyShopTasks, TINY_NOW, TINY_SHOP_POLICY } from '../support/tiny-shop.js';

const ENV = { now: TINY_NOW };
const openers: Record<string, string> = { cancel_o1: 'Please cancel O1.', refund_o2: 'Refund O2 please.', status_o2: 'Was O2 delivered?' };
const user = (task: Task) => new ScriptedUser([openers[task.id]]);
/** A toy evaluator: reward 1 when the episode ended by a stop and reached the gold state. */
const toy = async (task: Task, ep: EpisodeResult<TinyShopState>) => {
  const ok = (ep.termination === 'user_stop' || ep.termination === 'agent_stop') && isDeepStrictEqual(ep.finalState, await tinyGoldState(task));
  return { reward: ok ? 1 : 0, partial: ok ? 1 : 0.5 };
};

let mock: TwoRoleMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

describe('runTasks', () => {
  it('the oracle agent scores 1 on every tiny-shop task with the evaluator (transfers left to the user, as in tau2)', async () => {
    const res = await runTasks({
      loaded: tinyShop, tasks: tinyShopTasks, trials: 2, concurrency: 3, env: ENV,
      makeAgent: (task) => new OracleAgent(task),
      makeUser: (task) => new ScriptedUser([openers[task.id], 'Anything else? ###STOP###']),
      evaluate: (task, trace) => evaluateTask({ loaded: tinyShop, task, trace, env: ENV }),
      episode: { transferEnds: 'never' },
    });
    expect(res.records.map((r) => [r.taskId, r.trial])).toEqual([['cancel_o1', 0], ['cancel_o1', 1], ['refund_o2', 0], ['refund_o2', 1], ['status_o2', 0], ['status_o2', 1]]);
    expect(res.records.map((r) => r.evaluation?.reward)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(res.summary).toMatchObject({ episodes: 6, scored: 6, rewardMean: 1, partialMean: 1, passHatK: [{ k: 1, value: 1 }, { k: 2, value: 1 }] });
  });

  it('runs at most `concurrency` episodes at once and streams every record, one callback at a time', async () => {
    mock = await startTwoRoleMock({ agent: () => ({ content: 'Noted. ###STOP###' }) }, { delayMs: 15 });
    let inFlight = 0, peak = 0, inCallback = 0, peakCallback = 0;
    const streamed: EpisodeRecord[] = [];
    const res = await runTasks({
      loaded: tinyShop, tasks: tinyShopTasks, trials: 3, concurrency: 2, env: ENV,
      makeAgent: () => {
        peak = Math.max(peak, ++inFlight);
        return new LLMAgent({ model: mock!.agentModel, policy: TINY_SHOP_POLICY, tools: agentWireTools(tinyShopDomain) });
      },
      makeUser: user,
      evaluate: (task, ep) => {
        inFlight--;
        return toy(task, ep);
      },
      onEpisode: async (rec) => {
        peakCallback = Math.max(peakCallback, ++inCallback);
        await new Promise((r) => setTimeout(r, 5));
        streamed.push(rec);
        inCallback--;
      },
    });
    expect(peak).toBe(2);
    expect(peakCallback).toBe(1);
    expect(streamed).toHaveLength(9);
    expect(res.records).toHaveLength(9);
    expect(res.usage.task_agent?.calls).toBe(9);
    expect(res.records.every((r) => r.episode.termination === 'agent_stop')).toBe(true);
  });

  it('keepRecords: false streams every episode and keeps none, with the same summary and usage (issue 17: episodes leave memory)', async () => {
    mock = await startTwoRoleMock({ agent: (messages) => (/O2 delivered/.test(last(messages).content) ? { status: 500, error: 'boom' } : { content: 'Done. ###STOP###' }) });
    const run = (keepRecords: boolean | undefined, streamed: EpisodeRecord[]) =>
      runTasks({
        loaded: tinyShop, tasks: tinyShopTasks, trials: 2, concurrency: 3, env: ENV, keepRecords,
        makeAgent: () => new LLMAgent({ model: mock!.agentModel, policy: TINY_SHOP_POLICY, tools: [] }),
        makeUser: user,
        evaluate: toy,
        onEpisode: (rec) => void streamed.push(rec),
      });
    const keptStream: EpisodeRecord[] = [];
    const droppedStream: EpisodeRecord[] = [];
    const kept = await run(undefined, keptStream);
    const dropped = await run(false, droppedStream);
    expect(kept.records).toHaveLength(6);
    expect(dropped.records).toEqual([]);
    expect(droppedStream).toHaveLength(6);
    expect(dropped.summary).toEqual(kept.summary);
    expect(dropped.summary).toMatchObject({ episodes: 6, infraErrors: 2 });
    const calls = (r: typeof kept) => Object.fromEntries(Object.entries(r.usage).map(([role, u]) => [role, [u!.calls, u!.prompt_tokens, u!.completion_tokens]]));
    expect(calls(dropped)).toEqual(calls(kept));
    expect(dropped.usage.task_agent?.calls).toBe(4) // the 2 failed calls are not usage;
  });

  it('a provider failure becomes an agent_error episode while the others finish; it is left out of the scores', async () => {
    mock = await startTwoRoleMock({
      agent: (messages) => (/O2 delivered/.test(last(messages).content) ? { status: 500, error: 'boom' } : { content: 'Done. ###STOP###' }),
    });
    const res = await runTasks({
      loaded: tinyShop, tasks: tinyShopTasks, trials: 1, concurrency: 3, env: ENV,
      makeAgent: () => new LLMAgent({ model: mock!.agentModel, policy: TINY_SHOP_POLICY, tools: [] }),
      makeUser: user,
      evaluate: toy,
    });
    const byTask = Object.fromEntries(res.records.map((r) => [r.taskId, r]));
    expect(byTask.status_o2.episode.termination).toBe('agent_error');
    expect(byTask.status_o2.infraError).toMatch(/ProviderError.*boom/);
    expect(byTask.cancel_o1.episode.termination).toBe('agent_stop');
    expect(byTask.refund_o2.episode.termination).toBe('agent_stop');
    expect(res.summary).toMatchObject({ episodes: 3, scored: 2, infraErrors: 1, terminations: { agent_stop: 2, agent_error: 1 } });
  });

  it('resumes: finished pairs are skipped and counted with their scores', async () => {
    const started: string[] = [];
    const res = await runTasks({
      loaded: tinyShop, tasks: tinyShopTasks.slice(0, 1), trials: 3, concurrency: 1, env: ENV,
      finished: [{ taskId: 'cancel_o1', trial: 1, termination: 'user_stop', reward: 1, partial: 1 }],
      makeAgent: (task, trial) => {
        started.push(`${task.id}#${trial}`);
        return new ScriptedAgent([say('I cannot help. ###STOP###')]);
      },
      makeUser: user,
      evaluate: toy,
    });
    expect(started).toEqual(['cancel_o1#0', 'cancel_o1#2']);
    expect(res.skipped).toBe(1);
    expect(res.records.map((r) => r.trial)).toEqual([0, 2]);
    expect(res.summary.episodes).toBe(3);
    expect(res.summary.rewardMean).toBeCloseTo(1 / 3);
    expect(res.summary.passHatK.map((p) => p.value)).toEqual([1 / 3, 0, 0]);
  });

  it('resumes: a finished pair whose evaluation threw stays an evaluation error, and kept usage is counted', async () => {
    const keptUsage = { task_agent: { calls: 7, prompt_tokens: 70, completion_tokens: 7, total_tokens: 77, latency_seconds: 1, provider_reported_cost_usd: null, provider_reported_cost_observations: 0 } };
    const res = await runTasks({
      loaded: tinyShop, tasks: tinyShopTasks.slice(0, 1), trials: 2, concurrency: 1, env: ENV,
      finished: [{ taskId: 'cancel_o1', trial: 1, termination: 'user_stop', reward: null, partial: null, evaluationError: true, usage: keptUsage }],
      makeAgent: () => new ScriptedAgent([say('I cannot help. ###STOP###')]),
      makeUser: user,
      evaluate: toy,
    });
    expect(res.summary).toMatchObject({ episodes: 2, evaluationErrors: 1, unjudged: 0 });
    expect(res.usage.task_agent?.calls).toBe(7);
  });

  it('records setup and evaluator failures instead of crashing; a failing onEpisode stops the run', async () => {
    const res = await runTasks({
      loaded: tinyShop, tasks: tinyShopTasks, trials: 1, concurrency: 2, env: ENV,
      makeAgent: () => new ScriptedAgent([say('bye ###STOP###')]),
      makeUser: (task) => {
        if (task.id === 'refund_o2') throw new Error('no persona');
        return user(task);
      },
      evaluate: (task, ep) => {
        if (task.id === 'status_o2') throw new Error('judge exploded');
        return toy(task, ep);
      },
    });
    const byTask = Object.fromEntries(res.records.map((r) => [r.taskId, r]));
    expect(byTask.refund_o2.episode).toMatchObject({ termination: 'agent_error', messages: [] });
    expect(byTask.refund_o2.infraError).toMatch(/episode setup failed: Error: no persona/);
    expect(byTask.status_o2.evaluationError).toBe('Error: judge exploded');
    expect(res.summary).toMatchObject({ scored: 1, infraErrors: 1, evaluationErrors: 1 });

    let calls = 0;
    await expect(
      runTasks({
        loaded: tinyShop, tasks: tinyShopTasks, trials: 2, concurrency: 1, env: ENV,
        makeAgent: () => new ScriptedAgent([say('bye ###STOP###')]),
        makeUser: user,
        evaluate: toy,
        onEpisode: () => {
          calls++;
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(calls).toBe(1);
  });

  it('rejects bad options before running anything', async () => {
    const base = { loaded: tinyShop, tasks: tinyShopTasks, trials: 1, concurrency: 1, makeAgent: () => new ScriptedAgent([]), makeUser: user, evaluate: toy };
    await expect(runTasks({ ...base, trials: 0 })).rejects.toThrow(/trials/);
    await expect(runTasks({ ...base, concurrency: 0 })).rejects.toThrow(/concurrency/);
    await expect(runTasks({ ...base, tasks: [tinyShopTasks[0], tinyShopTasks[0]] })).rejects.toThrow(/more than once/);
  });
});

describe('summarizeRun', () => {
  it('pass^k per task C(c,k)/C(n,k), averaged; null rewards count as failures; infra errors are dropped', () => {
    const o = (taskId: string, reward: number | null, extra = {}) => ({ taskId, trial: 0, termination: 'user_stop' as const, reward, partial: reward ?? 0, infraError: false, evaluationError: false, ...extra });
    const s = summarizeRun([o('A', 1), o('A', 1), o('A', 0), o('B', 1), o('B', null), o('B', 1), o('B', 1, { infraError: true, termination: 'agent_error' })]);
    expect(s.passHatK.map((p) => p.k)).toEqual([1, 2, 3]);
    expect(s.passHatK[0].value).toBeCloseTo(2 / 3);
    expect(s.passHatK[1].value).toBeCloseTo(1 / 3);
    expect(s.passHatK[2].value).toBe(0);
    expect(s).toMatchObject({ episodes: 7, scored: 6, infraErrors: 1, unjudged: 1, terminations: { user_stop: 6, agent_error: 1 } });
    expect(s.rewardMean).toBeCloseTo(4 / 6);
    expect(summarizeRun([]).passHatK).toEqual([]);
  });
});
