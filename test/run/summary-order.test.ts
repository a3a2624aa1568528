import { describe, expect, it } from 'vitest';
import { runTasks, type FinishedEpisode } from '../../src/run/run-tasks.js';
import { summarizeRun, type EpisodeOutcome } from '../../src/run/summary.js';
import { ScriptedAgent, say } from '../../src/agents/scripted-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { tinyShop, tinyShopTasks, TINY_NOW } from '../support/tiny-shop.js';

// Partials whose float sum depends on the order: 0.3 + 0.2 + 0.1 = 0.6, 0.1 + 0.2 + 0.3 = 0.6000000000000001.
const SCORES = [0.3, 0.2, 0.1];
const naiveSum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);

const outcome = (trial: number, termination: EpisodeOutcome['termination']): EpisodeOutcome => ({
  taskId: 'cancel_o1', trial, termination, reward: SCORES[trial], partial: SCORES[trial], infraError: false, evaluationError: false,
});

describe('the run summary is a pure function of the set of episodes (determinism rule)', () => {
  it('summarizeRun gives byte-identical JSON for the same outcomes in two orders', () => {
    expect(naiveSum(SCORES)).not.toBe(naiveSum([...SCORES].reverse())); // the orders really differ in the last digits
    const inOrder = [outcome(0, 'user_stop'), outcome(1, 'agent_stop'), outcome(2, 'user_stop')];
    const a = JSON.stringify(summarizeRun(inOrder));
    const b = JSON.stringify(summarizeRun([...inOrder].reverse()));
    expect(b).toBe(a);
    // The canonical order (task id, then trial) is the order a non-resumed run sums in: its numbers are unchanged.
    expect(summarizeRun(inOrder).partialMean).toBe(0.6 / 3);
    expect(Object.keys(summarizeRun([...inOrder].reverse()).terminations)).toEqual(['user_stop', 'agent_stop']);
  });

  const cost = (usd: number) => ({ task_agent: { calls: 1, prompt_tokens: 10, completion_tokens: 1, total_tokens: 11, latency_seconds: usd, provider_reported_cost_usd: usd, provider_reported_cost_observations: 1 } });
  const kept = (trial: number): FinishedEpisode => ({ taskId: 'cancel_o1', trial, termination: 'agent_stop', reward: SCORES[trial], partial: SCORES[trial], usage: cost(SCORES[trial]) });
  const run = (finished: FinishedEpisode[]) =>
    runTasks({
      loaded: tinyShop, tasks: tinyShopTasks.slice(0, 1), trials: 3, concurrency: 1, env: { now: TINY_NOW }, finished,
      makeAgent: () => new ScriptedAgent([say('I cannot help. ###STOP###')]),
      makeUser: () => new ScriptedUser(['Please cancel O1.']),
      evaluate: async (_task, _ep, trial) => ({ reward: SCORES[trial], partial: SCORES[trial] }),
    });

  it('a resumed run prints the summary of a run that never stopped, whatever order its episodes were kept in', async () => {
    const fresh = await run([]);
    const resumed = await run([kept(2), kept(1)]); // trial 0 runs again, then the kept ones in store order
    expect(fresh.summary.partialMean).toBe(0.6 / 3);
    expect(JSON.stringify(resumed.summary)).toBe(JSON.stringify(fresh.summary));
  });

  it('kept usage (costs, latencies) is summed in the same order whatever order it was kept in', async () => {
    const a = await run([kept(0), kept(1), kept(2)]);
    const b = await run([kept(2), kept(0), kept(1)]);
    expect(a.skipped).toBe(3);
    expect(JSON.stringify({ summary: b.summary, usage: b.usage })).toBe(JSON.stringify({ summary: a.summary, usage: a.usage }));
    expect(a.usage.task_agent?.provider_reported_cost_usd).toBe(0.6); // 0.3 + 0.2 + 0.1, in trial order
  });
});
