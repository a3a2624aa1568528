import { afterEach, describe, expect, it } from 'vitest';
import { runTasks } from '../../src/run/run-tasks.js';
import { LLMAgent, agentWireTools } from '../../src/agents/llm-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { evaluateTask } from '../../src/evaluation/index.js';
import { MalformedResponseError, ProviderError } from '../../src/spec/errors.js';
import type { MockReply } from '../../src/models/mock-server.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tinyShop, tinyShopDomain, tinyShopTasks, TINY_NOW, TINY_SHOP_POLICY } from '../support/tiny-shop.js';

const ENV = { now: TINY_NOW };
const completion = (message: unknown) => ({ raw: { id: 'x', model: 'mock-agent', choices: [{ index: 0, finish_reason: 'stop', message }] } });

/** Malformed answers a model can give (issue 10): each has a `choices` array, so it is the model's output. */
const MALFORMED: Record<string, MockReply> = {
  'content is a number': completion({ role: 'assistant', content: 42 }),
  'a tool call without an id': completion({ role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'get_order', arguments: '{"order_id":"O1"}' } }] }),
  'arguments sent as an object': completion({ role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_order', arguments: { order_id: 'O1' } } }] }),
  'no choices': { raw: { id: 'x', model: 'mock-agent', choices: [] } },
};

let mock: TwoRoleMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

async function runWith(agentReply: (n: number) => MockReply) {
  let n = 0;
  mock = await startTwoRoleMock({ agent: () => agentReply(n++) });
  const tasks = tinyShopTasks.filter((t) => t.id === 'status_o2');
  return runTasks({
    loaded: tinyShop, tasks, trials: 2, concurrency: 1, env: ENV,
    makeAgent: () => new LLMAgent({ model: mock!.agentModel, policy: TINY_SHOP_POLICY, tools: agentWireTools(tinyShopDomain) }),
    makeUser: () => new ScriptedUser(['Was O2 delivered?', 'Thanks ###STOP###']),
    evaluate: (task, trace) => evaluateTask({ loaded: tinyShop, task, trace, env: ENV }),
  });
}

describe('malformed model output is the agent failure', () => {
  for (const [name, reply] of Object.entries(MALFORMED)) {
    it(`${name}: retried once, then an agent_error scored 0 in reward and pass^k, raw bodies kept`, async () => {
      const res = await runWith(() => reply);
      expect(mock!.bodies('agent')).toHaveLength(4); // two episodes, one retry each
      for (const rec of res.records) {
        expect(rec.episode.termination).toBe('agent_error');
        expect(rec.infraError).toBeUndefined();
        expect(rec.episode.failure).toMatchObject({ by: 'agent', kind: 'malformed' });
        expect(rec.episode.failure!.raw).toEqual([(reply as { raw: unknown }).raw, (reply as { raw: unknown }).raw]);
        expect(rec.evaluation?.reward).toBe(0);
      }
      expect(res.summary).toMatchObject({ episodes: 2, scored: 2, infraErrors: 0, rewardMean: 0, passHatK: [{ k: 1, value: 0 }, { k: 2, value: 0 }] });
    });
  }

  it('a malformed answer followed by a good one on the retry is no failure', async () => {
    const res = await runWith((n) => (n % 2 === 0 ? MALFORMED['content is a number'] : { content: 'Yes, O2 was delivered. ###STOP###' }));
    expect(res.records.map((r) => r.episode.termination)).toEqual(['agent_stop', 'agent_stop']);
    expect(res.summary.infraErrors).toBe(0);
  });

  it('a provider fault (error status, or a body without choices) stays an infrastructure error, left out of the scores', async () => {
    const res = await runWith((n) => (n === 0 ? { status: 500, error: 'upstream down' } : { raw: { error: { message: 'overloaded' } } }));
    for (const rec of res.records) {
      expect(rec.episode.failure?.kind).toBe('provider');
      expect(rec.infraError).toBeDefined();
    }
    expect(res.summary).toMatchObject({ episodes: 2, scored: 0, infraErrors: 2, passHatK: [] });
  });

  it('the adapter tells the two apart: MalformedResponseError (a ProviderError subclass) keeps the raw body', async () => {
    mock = await startTwoRoleMock({ agent: () => MALFORMED['no choices'] });
    const err = await mock.agentModel.complete({ messages: [{ role: 'user', content: 'hi' }] }, 'task_agent').catch((e) => e);
    expect(err).toBeInstanceOf(MalformedResponseError);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.raw).toEqual([(MALFORMED['no choices'] as { raw: unknown }).raw]);
    expect(err.message).toMatch(/malformed chat completion.*\$\.choices/);
  });
});

describe('a stored malformed-output episode', () => {
  it('keeps the raw bodies in the store and the viewer shows them beside the failure', async () => {
    const path = await import('node:path');
    const { RunStore } = await import('../../src/store/store.js');
    const { runDomainTasks } = await import('../../src/run/task-run.js');
    const { episodePayload } = await import('../../src/viewer/queries.js');
    const { tmpDir } = await import('../support/paths.js');
    const reply = MALFORMED['arguments sent as an object'];
    mock = await startTwoRoleMock({ agent: () => reply, user: () => ({ content: 'Was O2 delivered?' }) });
    const db = path.join(tmpDir('sg-malformed-'), 'store.db');
    const store = RunStore.open(db);
    try {
      store.saveRun({ id: 'r1', kind: 'run', name: 'run tiny', domain: 'tiny', created_at: '2026-12-01T00:00:00Z', summary: {}, record: null });
      const res = await runDomainTasks({
        loaded: tinyShop, tasks: tinyShopTasks.filter((t) => t.id === 'status_o2'), trials: 1, concurrency: 1, agent: 'llm', user: 'llm',
        agentModel: mock.agentModel, userModel: mock.userModel, store, runId: 'r1',
      });
      expect(res.summary).toMatchObject({ scored: 1, infraErrors: 0, rewardMean: 0 });
      const stored = store.getEpisode('r1', 'status_o2#0')!;
      expect((stored.result as any).termination.failure).toMatchObject({ by: 'agent', kind: 'malformed', raw: [(reply as any).raw, (reply as any).raw] });
      const view = episodePayload(store, 'r1', 'status_o2#0')!;
      expect(view.errors.infra).toBeNull();
      expect(view.facts.find((f) => f.name === 'agent failure (malformed)')?.value).toMatch(/MalformedResponseError: .*also on the retry/);
      expect(view.facts.filter((f) => f.name.startsWith('raw response'))).toHaveLength(2);
    } finally {
      store.close();
    }
  });
});
