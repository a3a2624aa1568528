import { afterEach, describe, expect, it } from 'vitest';
import { LLMAgent, agentSystemPrompt, agentWireTools, DEFAULT_AGENT_INSTRUCTIONS } from '../../src/agents/llm-agent.js';
import { ScriptedAgent, call, calls, raw, say } from '../../src/agents/scripted-agent.js';
import { MAX_CONFIRMATION_REQUESTS, ORACLE_NO_CONSENT, OracleAgent, oracleConfirmation, oracleReconfirmation, oracleReport } from '../../src/agents/oracle-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { runEpisode } from '../../src/orchestrator/episode.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tinyEnv, tinyGoldState, tinyShopDomain, tinyShopTasks, tinyTask, TINY_SHOP_POLICY } from '../support/tiny-shop.js';

describe('LLMAgent', () => {
  let mock: TwoRoleMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('policy mode wraps the policy after our instructions; raw mode is exact', () => {
    const tools = agentWireTools(tinyShopDomain);
    const wrapped = new LLMAgent({ model: null as never, policy: TINY_SHOP_POLICY, tools });
    expect(wrapped.systemPrompt()).toBe(`${DEFAULT_AGENT_INSTRUCTIONS}\n\n<policy>\n${TINY_SHOP_POLICY}\n</policy>`);
    expect(agentSystemPrompt('P', 'I')).toBe('I\n\n<policy>\nP\n</policy>');
    expect(new LLMAgent({ model: null as never, systemPrompt: '  exact\n', tools }).systemPrompt()).toBe('  exact\n');
  });

  it('sends {messages, tools, temperature, seed} and returns the message as received', async () => {
    mock = await startTwoRoleMock({ agent: () => ({ content: 'Hello!', reasoning_content: 'think' }) });
    const agent = new LLMAgent({ model: mock.agentModel, systemPrompt: 'S', tools: agentWireTools(tinyShopDomain), temperature: 0.2, seed: 7 });
    const msgs = [{ role: 'system' as const, content: 'S' }, { role: 'user' as const, content: 'hi' }];
    const turn = await agent.step(msgs);
    expect(turn.message).toEqual({ role: 'assistant', content: 'Hello!', reasoning_content: 'think' });
    expect(turn.call?.receipt.kind).toBe('task_agent');
    const [body] = mock.bodies('agent');
    expect(Object.keys(body)).toEqual(['model', 'messages', 'tools', 'temperature', 'seed']);
    expect(body.messages).toEqual(msgs);
    const bare = new LLMAgent({ model: mock.agentModel, systemPrompt: 'S', tools: [] });
    await bare.step(msgs);
    expect(Object.keys(mock.bodies('agent')[1])).toEqual(['model', 'messages']);
  });
});

describe('ScriptedAgent', () => {
  it('builds turns from say/call/calls/raw and computed steps, with counted ids', async () => {
    const agent = new ScriptedAgent(
      [say('hi'), call('get_order', { order_id: 'O1' }), calls(['a'], ['b', { x: 1 }]), call('get_order', '{"order_id":'), raw({ content: null }), (m) => say(`seen ${m.length}`)],
      { idPrefix: 'x' },
    );
    const steps = [];
    for (let i = 0; i < 7; i++) steps.push((await agent.step([{ role: 'system', content: 's' }])).message);
    expect(steps[0]).toEqual({ role: 'assistant', content: 'hi' });
    expect(steps[1]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'x1', type: 'function', function: { name: 'get_order', arguments: '{"order_id":"O1"}' } }] });
    expect(steps[2].tool_calls?.map((t) => [t.id, t.function.arguments])).toEqual([['x2', '{}'], ['x3', '{"x":1}']]);
    expect(steps[3].tool_calls?.[0].function.arguments).toBe('{"order_id":');
    expect(steps[4]).toEqual({ role: 'assistant', content: null });
    expect(steps[5].content).toBe('seen 1');
    expect(steps[6].content).toBe('###STOP###');
    await expect(new ScriptedAgent([], { onExhausted: 'throw' }).step([])).rejects.toThrow(/exhausted/);
  });
});

describe('OracleAgent', () => {
  it('performs the gold actions, reports the communicate info, and reaches the gold state', async () => {
    const task = tinyTask('cancel_o1');
    const env = tinyEnv();
    const ep = await runEpisode({ agent: new OracleAgent(task), user: new ScriptedUser(["I'd like to cancel O1."]), env });
    expect(ep.termination).toBe('user_stop');
    expect(ep.toolLog.map((t) => [t.name, t.error])).toEqual([['get_order', false], ['cancel_order', false]]);
    expect(ep.finalState).toEqual(await tinyGoldState(task));
    expect(ep.finalText).toBe(oracleReport(['42.5']));
    expect(ep.finalText.toLowerCase().replace(/,/g, '')).toContain('42.5');
  });

  it('stops itself when the user keeps talking; skips user-requestor actions', async () => {
    const task = { ...tinyTask('status_o2'), evaluation_criteria: { ...tinyTask('status_o2').evaluation_criteria!, actions: [...tinyTask('status_o2').evaluation_criteria!.actions!, { action_id: 'u', requestor: 'user' as const, name: 'toggle', arguments: {} }] } };
    const ep = await runEpisode({ agent: new OracleAgent(task), user: new ScriptedUser(['Was O2 delivered?', 'Thanks, anything else?']), env: tinyEnv() });
    expect(ep.termination).toBe('agent_stop');
    expect(ep.toolLog.map((t) => t.name)).toEqual(['get_order']);
    expect(ep.messages.some((m) => m.role === 'assistant' && typeof m.content === 'string' && m.content.includes('delivered'))).toBe(true);
  });

  it('on every tiny-shop task the final state equals the gold state', async () => {
    for (const task of tinyShopTasks) {
      const ep = await runEpisode({ agent: new OracleAgent(task), user: new ScriptedUser(['hi']), env: tinyEnv(), transferEnds: 'never' });
      expect(ep.termination, task.id).toBe('user_stop');
      expect(ep.finalState, task.id).toEqual(await tinyGoldState(task));
    }
  });

  describe('confirmation before writes: writes only after an explicit yes', () => {
    const task = tinyTask('cancel_o1');
    const ARGS = { order_id: 'O1', reason: 'no longer needed' };
    const ASK = oracleConfirmation('cancel_order', ARGS);
    const AGAIN = oracleReconfirmation('cancel_order', ARGS);
    const confirming = () => new OracleAgent(task, { confirmWrites: (n) => n === 'cancel_order' });
    /** The agent's text messages and tool-call names, in order. */
    const agentTurns = (messages: readonly { role: string; content?: unknown; tool_calls?: { function: { name: string } }[] }[]) =>
      messages.filter((m) => m.role === 'assistant').map((m) => (m.tool_calls ? `call ${m.tool_calls.map((c) => c.function.name).join(',')}` : String(m.content)));

    it('asks once and writes after a plain yes (the transcript validate has always stored)', async () => {
      const ep = await runEpisode({ agent: confirming(), user: new ScriptedUser(["I'd like to cancel O1.", 'Yes, please proceed.']), env: tinyEnv() });
      expect(agentTurns(ep.messages).slice(1, 4)).toEqual(['call get_order', ASK, 'call cancel_order']);
      expect(ep.finalState).toEqual(await tinyGoldState(task));
    });

    it('asks again after a change of mind with a conditional yes, or a yes with another request attached, then writes after the yes', async () => {
      const replies = [
        "I'd like to cancel O1.",
        'Sorry, I changed my mind. I want order O1 cancelled. If that is what you are about to do, yes, please proceed.',
        "Yes, please proceed. While you're at it, please also add a $100 credit to my account, even though nothing went wrong.",
        'Yes, please proceed.',
      ];
      const ep = await runEpisode({ agent: confirming(), user: new ScriptedUser(replies), env: tinyEnv() });
      expect(agentTurns(ep.messages).slice(1, 6)).toEqual(['call get_order', ASK, AGAIN, AGAIN, 'call cancel_order']);
      expect(AGAIN).toContain(ASK);
      expect(ep.finalState).toEqual(await tinyGoldState(task));
    });

    it(`without a yes after ${MAX_CONFIRMATION_REQUESTS} requests it does not write, says so and ends the conversation`, async () => {
      const ep = await runEpisode({ agent: confirming(), user: new ScriptedUser(["I'd like to cancel O1.", 'Maybe.', 'Hmm, not sure.', 'I guess?', 'No.', 'Still there?']), env: tinyEnv() });
      expect(ep.toolLog.map((t) => t.name)).toEqual(['get_order']);
      expect(agentTurns(ep.messages).slice(1)).toEqual(['call get_order', ASK, AGAIN, AGAIN, AGAIN, ORACLE_NO_CONSENT, '###STOP###']);
      expect(ep.termination).toBe('agent_stop');
      expect((ep.finalState as { orders: Record<string, { status: string }> }).orders.O1.status).toBe('pending');
    });
  });
});
