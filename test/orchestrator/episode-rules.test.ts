/**
 * Termination rules of the episode loop, with scripted agents and users (no model).
 */
import { describe, expect, it } from 'vitest';
import { ScriptedAgent, call, calls, raw, say, stop } from '../../src/agents/scripted-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import type { User } from '../../src/users/user.js';
import { runEpisode, type EpisodeOptions } from '../../src/orchestrator/episode.js';
import { resolveEpisodeSettings } from '../../src/orchestrator/settings.js';
import { tinyEnv, tinyShopDomain } from '../support/tiny-shop.js';
import { Environment } from '../../src/env/environment.js';

const run = (agent: ScriptedAgent, user: User, extra: Partial<EpisodeOptions> = {}) => runEpisode({ agent, user, env: tinyEnv(), ...extra });
const chatty = () => new ScriptedUser(['Hello'], { rules: [{ when: /./, say: 'Go on.' }] });

describe('transfer', () => {
  const script = () => new ScriptedAgent([call('transfer_to_human_agents', { summary: 'refund for O2' }), say('You are now being transferred to a colleague.'), say('never sent')]);

  it('after_reply (default): the hand-off message is recorded, then the episode ends', async () => {
    const ep = await run(script(), new ScriptedUser(['Refund O2 please', 'more']));
    expect(ep.termination).toBe('transfer');
    expect(ep.transfer).toEqual({ name: 'transfer_to_human_agents', arguments: { summary: 'refund for O2' } });
    expect(ep.messages.map((m) => m.role)).toEqual(['system', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(ep.messages[4].content).toBe('Transfer successful');
    expect(ep.finalText).toBe('You are now being transferred to a colleague.');
  });

  it('after_reply: tool calls in the hand-off turn still run', async () => {
    const agent = new ScriptedAgent([call('transfer_to_human_agents', { summary: 's' }), call('get_order', { order_id: 'O2' }), say('x')]);
    const ep = await run(agent, new ScriptedUser(['hi']));
    expect(ep.termination).toBe('transfer');
    expect(ep.toolLog.map((t) => t.name)).toEqual(['transfer_to_human_agents', 'get_order']);
  });

  it('on_call: ends right after the transfer call; configurable tool names; a failed transfer call does not count', async () => {
    const agent = new ScriptedAgent([call('transfer_to_human_agents', {}), call('get_order', { order_id: 'O1' }), say('ok')]);
    const ep = await run(agent, new ScriptedUser(['hi', 'bye ###STOP###']), { transferEnds: 'on_call', transferTools: ['get_order'] });
    expect(ep.termination).toBe('transfer');
    expect(ep.transfer).toEqual({ name: 'get_order', arguments: { order_id: 'O1' } });
    expect(ep.toolLog.map((t) => [t.name, t.error])).toEqual([['transfer_to_human_agents', true], ['get_order', false]]);
  });

  it('never: the conversation goes on', async () => {
    const ep = await run(script(), new ScriptedUser(['Refund O2 please', 'ok ###STOP###']), { transferEnds: 'never' });
    expect(ep.termination).toBe('user_stop');
    expect(ep.transfer?.name).toBe('transfer_to_human_agents');
  });
});

describe("end tools (tau2 solo mode's done)", () => {
  const ending = () => new Environment({ ...tinyShopDomain, endTools: ['get_order'] }, { now: '2026-01-01T00:00:00Z' });
  it('a successful call of an end tool ends the episode as agent_stop after its batch; later turns never run', async () => {
    const agent = new ScriptedAgent([calls(['get_order', { order_id: 'O1' }], ['get_order', { order_id: 'O2' }]), call('cancel_order', { order_id: 'O1' }), say('never sent')]);
    const ep = await run(agent, chatty(), { env: ending() });
    expect(ep.termination).toBe('agent_stop');
    expect(ep.toolLog.map((t) => t.name)).toEqual(['get_order', 'get_order']);
    expect(ep.agentTurns).toBe(1);
  });
  it('a failed call of an end tool does not end it', async () => {
    const agent = new ScriptedAgent([call('get_order', { order_id: 'NOPE' }), stop()]);
    const ep = await run(agent, chatty(), { env: ending() });
    expect(ep.toolLog.map((t) => [t.name, t.error])).toEqual([['get_order', true]]);
    expect(ep.agentTurns).toBe(2);
  });
});

describe('stops and limits', () => {
  it('agent_stop: an agent text with ###STOP### ends the episode and is not shown to the user', async () => {
    const ep = await run(new ScriptedAgent([say('All set. ###STOP###')]), new ScriptedUser(['hi', 'never']));
    expect(ep.termination).toBe('agent_stop');
    expect(ep.messages[ep.messages.length - 1]).toEqual({ role: 'assistant', content: 'All set. ###STOP###' });
  });

  it('user_stop: a scripted user out of replies stops without a message; the seed single-message user', async () => {
    const ep = await run(new ScriptedAgent([say('Hello, how can I help?')]), new ScriptedUser(['My flight?']), { greeting: null });
    expect(ep.termination).toBe('user_stop');
    expect(ep.messages).toEqual([
      { role: 'system', content: 'Scripted agent.' },
      { role: 'user', content: 'My flight?' },
      { role: 'assistant', content: 'Hello, how can I help?' },
    ]);
  });

  it('max_steps counting agent turns: at most maxSteps agent turns', async () => {
    const agent = new ScriptedAgent(Array.from({ length: 20 }, () => call('get_order', { order_id: 'O1' })));
    const ep = await run(agent, new ScriptedUser(['hi']), { maxSteps: 3, stepCounting: 'agent_turns' });
    expect(ep.termination).toBe('max_steps');
    expect(ep.agentTurns).toBe(3);
    expect(ep.toolLog).toHaveLength(3);
  });

  it('max_steps counting messages (tau2): user, agent and tool-result batches each count; never between a call and its result', async () => {
    const agent = new ScriptedAgent(Array.from({ length: 20 }, () => call('get_order', { order_id: 'O1' })));
    // user(1) agent(2) tools(3) agent(4) tools(5): ends after the tool results that reach 5
    const ep = await run(agent, new ScriptedUser(['hi']), { maxSteps: 4 });
    expect(ep.termination).toBe('max_steps');
    expect(ep.steps).toBe(5);
    expect(ep.messages[ep.messages.length - 1].role).toBe('tool');
    const talk = await run(new ScriptedAgent(Array.from({ length: 20 }, () => say('and?'))), chatty(), { maxSteps: 4 });
    expect(talk.termination).toBe('max_steps');
    expect(talk.steps).toBe(4);
  });

  it('a pending transfer turns the step limit into transfer', async () => {
    const ep = await run(new ScriptedAgent([call('transfer_to_human_agents', { summary: 's' }), say('bye')]), new ScriptedUser(['hi']), { maxSteps: 1, stepCounting: 'agent_turns' });
    expect(ep.termination).toBe('transfer');
  });

  it('too_many_errors: consecutive by default (a good result resets), total on request', async () => {
    const bad = call('get_order', { order_id: 'nope' });
    const good = call('get_order', { order_id: 'O1' });
    const script = () => new ScriptedAgent([bad, bad, good, bad, bad, say('sorry')]);
    const consecutive = await run(script(), new ScriptedUser(['hi']), { maxErrors: 3 });
    expect(consecutive.termination).toBe('user_stop');
    const total = await run(script(), new ScriptedUser(['hi']), { maxErrors: 3, errorCounting: 'total' });
    expect(total.termination).toBe('too_many_errors');
    expect(total.toolLog).toHaveLength(4);
    const many = await run(new ScriptedAgent(Array.from({ length: 12 }, () => bad)), new ScriptedUser(['hi']));
    expect(many.termination).toBe('too_many_errors');
    expect(many.toolLog).toHaveLength(10);
  });

  it('parallel tool calls run in order, each answered by its own tool message', async () => {
    const ep = await run(new ScriptedAgent([calls(['get_order', { order_id: 'O1' }], ['get_order', { order_id: 'O2' }]), say('done')]), new ScriptedUser(['hi']));
    expect(ep.messages.filter((m) => m.role === 'tool').map((m) => (m as any).tool_call_id)).toEqual(['call_1', 'call_2']);
    expect(ep.toolLog.map((t) => (t.arguments as any).order_id)).toEqual(['O1', 'O2']);
  });
});

describe('protocol errors', () => {
  it('an empty agent message is an agent_error', async () => {
    const ep = await run(new ScriptedAgent([raw({ content: '  ' })]), new ScriptedUser(['hi']));
    expect(ep.termination).toBe('agent_error');
    expect(ep.failure).toMatchObject({ by: 'agent', kind: 'protocol' });
  });

  it('text plus tool calls: allowed by default (the text is not shown to the user), an agent_error on request', async () => {
    const mixed = () => new ScriptedAgent([raw({ content: 'Let me check.', tool_calls: [{ id: 'c9', type: 'function', function: { name: 'get_order', arguments: '{"order_id":"O1"}' } }] }), say('It is pending.')]);
    const ok = await run(mixed(), new ScriptedUser(['hi']));
    expect(ok.termination).toBe('user_stop');
    expect(ok.toolLog).toHaveLength(1);
    const strict = await run(mixed(), new ScriptedUser(['hi']), { mixedMessages: 'agent_error' });
    expect(strict.termination).toBe('agent_error');
    expect(strict.toolLog).toHaveLength(0);
  });

  it('an empty user message is a user_error; an exception in agent code is an internal agent_error', async () => {
    const ep = await run(new ScriptedAgent([say('x')]), new ScriptedUser(['']));
    expect(ep.termination).toBe('user_error');
    const boom = await run(new ScriptedAgent([() => { throw new TypeError('bad step'); }]), new ScriptedUser(['hi']));
    expect(boom.failure).toEqual({ by: 'agent', kind: 'internal', message: 'TypeError: bad step' });
  });
});

describe('settings', () => {
  it('defaults follow tau2 with the greeting on; bad limits are rejected', () => {
    expect(resolveEpisodeSettings({})).toEqual({
      greeting: 'Hi! How can I help you today?', maxSteps: 200, stepCounting: 'messages', maxErrors: 10, errorCounting: 'consecutive',
      transferTools: ['transfer_to_human_agents'], transferEnds: 'after_reply', mixedMessages: 'allow', modelErrors: 'end', deadlineSeconds: null,
    });
    expect(() => resolveEpisodeSettings({ maxSteps: 0 })).toThrow(RangeError);
    expect(() => resolveEpisodeSettings({ deadlineSeconds: 0 })).toThrow(RangeError);
  });

  it('the scripted agent stops when its script runs out', async () => {
    const ep = await run(new ScriptedAgent([say('hello')]), new ScriptedUser(['hi', 'and?']));
    expect(ep.termination).toBe('agent_stop');
    expect(stop().kind).toBe('say');
  });
});
