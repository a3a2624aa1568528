/**
 * Episodes with the LLM agent and the LLM user simulator against the two-role mock server.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LLMAgent, agentWireTools } from '../../src/agents/llm-agent.js';
import { LLMUserSimulator } from '../../src/users/llm-user.js';
import { runEpisode } from '../../src/orchestrator/episode.js';
import { DEFAULT_GREETING } from '../../src/orchestrator/settings.js';
import { UsageTracker } from '../../src/models/usage.js';
import { startTwoRoleMock, last, type Side, type TwoRoleMock } from '../support/two-role-mock.js';
import { tinyEnv, tinyGoldState, tinyShopDomain, tinyTask, TINY_SHOP_POLICY } from '../support/tiny-shop.js';

/** The shop agent: looks the order up, asks to confirm, cancels on a yes, reports. */
const shopAgent: Side = (messages) => {
  const m = last(messages);
  if (m.role === 'user' && /cancel/i.test(m.content)) return { tool_calls: [{ name: 'get_order', arguments: { order_id: 'O1' } }] };
  if (m.role === 'tool' && m.content.includes('"pending"')) return { content: 'Order O1 (desk lamp) totals 42.5. Shall I cancel it and refund 42.5 to your card? Please confirm (yes/no).' };
  if (m.role === 'user' && /go ahead|yes/i.test(m.content)) return { tool_calls: [{ name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } }] };
  if (m.role === 'tool' && m.content.includes('"ticket"')) return { content: 'Done: order O1 is cancelled and 42.5 will be refunded to your card.' };
  return { content: 'Sorry, I did not follow.' };
};

/** The customer: asks to cancel, confirms and stops in the same message (tau2's slip), thanks and stops. */
const hastyCustomer: Side = (messages) => {
  const m = last(messages);
  if (/how can i help/i.test(m.content)) return { content: "Hi, I'd like to cancel my order O1." };
  if (/confirm/i.test(m.content)) return { content: 'Yes, please go ahead. ###STOP###' };
  if (/is cancelled/i.test(m.content)) return { content: 'Great, thanks! ###STOP###' };
  return { content: 'I am not sure. ###OUT-OF-SCOPE###' };
};

let mock: TwoRoleMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

function parties(m: TwoRoleMock, guard = true) {
  const task = tinyTask('cancel_o1');
  return {
    agent: new LLMAgent({ model: m.agentModel, policy: TINY_SHOP_POLICY, tools: agentWireTools(tinyShopDomain), temperature: 0 }),
    user: new LLMUserSimulator({ model: m.userModel, scenario: task.user_scenario, temperature: 0, confirmGuard: guard ? undefined : false }),
  };
}

describe('LLM agent and LLM user simulator', () => {
  it('confirm-then-stop: the stop token is held back, the write happens, the agent reports, then the user stops', async () => {
    mock = await startTwoRoleMock({ agent: shopAgent, user: hastyCustomer });
    const env = tinyEnv();
    const shared = new UsageTracker();
    const ep = await runEpisode({ ...parties(mock), env, usage: shared });

    expect(ep.termination).toBe('user_stop');
    expect(ep.userSignal).toBe('stop');
    expect(ep.toolLog.map((t) => [t.name, t.error, t.mutating])).toEqual([
      ['get_order', false, false],
      ['cancel_order', false, true],
    ]);
    expect(ep.finalState).toEqual(await tinyGoldState(tinyTask('cancel_o1')));
    expect(ep.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(ep.messages[1]).toEqual({ role: 'assistant', content: DEFAULT_GREETING });
    expect(ep.messages[6]).toEqual({ role: 'user', content: 'Yes, please go ahead.' });
    expect(ep.messages[10]).toEqual({ role: 'user', content: 'Great, thanks! ###STOP###' });
    expect(ep.events).toEqual([{ at: 6, kind: 'user_note', detail: expect.stringMatching(/confirm-then-stop guard/) }]);
    expect(ep.finalText).toMatch(/is cancelled/);

    // the agent's system prompt: our instructions, then the policy in tags
    const agentBodies = mock.bodies('agent');
    expect(agentBodies).toHaveLength(4);
    expect(agentBodies[0].messages[0].content).toMatch(/^You are a customer service agent[\s\S]*\n\n<policy>\n# Tiny Shop policy[\s\S]*\n<\/policy>$/);
    expect(agentBodies[0].tools.map((t: any) => t.function.name)).toEqual(['get_order', 'cancel_order', 'transfer_to_human_agents']);
    expect(agentBodies[0].temperature).toBe(0);
    expect(agentBodies[0]).not.toHaveProperty('seed');

    // the simulator sees the conversation with roles flipped, and what the agent actually received
    const userBodies = mock.bodies('user');
    expect(userBodies).toHaveLength(3);
    expect(userBodies[0].messages[0].content).toContain('<scenario>');
    expect(userBodies[0].messages[0].content).toContain('Reason for call:\nYou want to cancel order O1');
    expect(userBodies[0].messages.slice(1)).toEqual([{ role: 'user', content: DEFAULT_GREETING }]);
    expect(userBodies[2].messages.slice(1).map((m: any) => [m.role, m.content.slice(0, 12)])).toEqual([
      ['user', 'Hi! How can '],
      ['assistant', "Hi, I'd like"],
      ['user', 'Order O1 (de'],
      ['assistant', 'Yes, please '],
      ['user', 'Done: order '],
    ]);
    expect(userBodies.every((b) => !b.tools)).toBe(true);

    // receipts and usage per role
    expect(ep.receipts.map((r) => r.kind)).toEqual(['user_simulator', 'task_agent', 'task_agent', 'user_simulator', 'task_agent', 'task_agent', 'user_simulator']);
    expect(ep.usage.task_agent?.calls).toBe(4);
    expect(ep.usage.user_simulator?.calls).toBe(3);
    expect(shared.byRole.user_simulator?.calls).toBe(3);
  });

  it('without the guard the same simulator ends the episode before the write (tau2 behaviour)', async () => {
    mock = await startTwoRoleMock({ agent: shopAgent, user: hastyCustomer });
    const ep = await runEpisode({ ...parties(mock, false), env: tinyEnv() });
    expect(ep.termination).toBe('user_stop');
    expect(ep.toolLog.map((t) => t.name)).toEqual(['get_order']);
    expect(ep.messages[ep.messages.length - 1]).toEqual({ role: 'user', content: 'Yes, please go ahead. ###STOP###' });
  });

  it('malformed tool arguments come back as an Error tool message and the episode continues', async () => {
    mock = await startTwoRoleMock({
      agent: (messages) => {
        const m = last(messages);
        if (m.role === 'user') return { tool_calls: [{ name: 'get_order', arguments: '{"order_id": ' }] };
        if (m.role === 'tool' && m.content.startsWith('Error:')) return { tool_calls: [{ name: 'get_order', arguments: { order_id: 'O1' } }] };
        return { content: 'Your order O1 is pending. Anything else?' };
      },
      user: (messages) => (messages.length <= 2 ? { content: 'What is the status of O1?' } : { content: 'No, thanks. ###STOP###' }),
    });
    const ep = await runEpisode({ ...parties(mock), env: tinyEnv() });
    expect(ep.termination).toBe('user_stop');
    const tools = ep.messages.filter((m) => m.role === 'tool');
    expect(tools[0].content).toMatch(/^Error: arguments for get_order are not valid JSON/);
    expect(tools[1].content).toContain('"status": "pending"');
    expect(ep.toolLog.map((t) => t.error)).toEqual([true, false]);
    // the model's raw arguments are kept in the trajectory as sent
    expect((ep.messages[3] as any).tool_calls[0].function.arguments).toBe('{"order_id": ');
  });

  it('a provider failure of the agent ends the episode as agent_error (or rethrows when asked)', async () => {
    mock = await startTwoRoleMock({ agent: () => ({ status: 500, error: 'upstream down' }), user: hastyCustomer });
    const ep = await runEpisode({ ...parties(mock), env: tinyEnv() });
    expect(ep.termination).toBe('agent_error');
    expect(ep.failure).toMatchObject({ by: 'agent', kind: 'provider', message: expect.stringMatching(/^ProviderError: .*upstream down/) });
    expect(ep.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user']);
    await expect(runEpisode({ ...parties(mock), env: tinyEnv(), modelErrors: 'throw' })).rejects.toThrow(/upstream down/);
  });

  it('a provider failure of the simulator ends the episode as user_error', async () => {
    mock = await startTwoRoleMock({ agent: shopAgent, user: () => ({ status: 503, error: 'sim down' }) });
    const ep = await runEpisode({ ...parties(mock), env: tinyEnv() });
    expect(ep.termination).toBe('user_error');
    expect(ep.failure).toMatchObject({ by: 'user', kind: 'provider' });
  });

  it('the simulator transfer token ends the episode as user_stop when transfers do not end it', async () => {
    mock = await startTwoRoleMock({
      agent: (messages) => {
        const m = last(messages);
        if (m.role === 'user') return { tool_calls: [{ name: 'transfer_to_human_agents', arguments: { summary: 'refund for O2' } }] };
        return { content: 'I have transferred you to a human agent; they will help with the refund.' };
      },
      user: (messages) => (/transferred/.test(last(messages).content) ? { content: '###TRANSFER###' } : { content: 'I want a refund for O2.' }),
    });
    const ep = await runEpisode({ ...parties(mock), env: tinyEnv(), transferEnds: 'never' });
    expect(ep.termination).toBe('user_stop');
    expect(ep.userSignal).toBe('transfer');
    expect(ep.transfer).toEqual({ name: 'transfer_to_human_agents', arguments: { summary: 'refund for O2' } });
  });
});
