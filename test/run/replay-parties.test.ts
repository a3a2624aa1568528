/**
 * The replay agent and replay user are registered kinds (`replay` in src/agents/index.ts and
 * src/users/index.ts): the episode builder makes them from a recorded trajectory; the replay user
 * plays the customer's own tool calls (dual control) as tool-call turns.
 */
import { describe, expect, it } from 'vitest';
import { agentKinds, getAgentKind } from '../../src/agents/index.js';
import { getUserKind, userKinds } from '../../src/users/index.js';
import { buildAgent, buildUser } from '../../src/orchestrator/build.js';
import { BadInputError } from '../../src/spec/errors.js';
import type { ChatMessage } from '../../src/spec/messages.js';
import { loadDomain } from '../../src/domains/index.js';

const trajectory = [
  { role: 'system', content: 'You are a recorded agent.' },
  { role: 'assistant', content: 'Hi! How can I help you today?' },
  { role: 'user', content: 'My phone has no signal.' },
  { role: 'assistant', content: 'Please restart your phone.' },
  { role: 'user', content: '', tool_calls: [{ id: 'u1', type: 'function', function: { name: 'reboot_device', arguments: '{}' } }], requestor: 'user' },
  { role: 'tool', tool_call_id: 'u1', content: 'Device rebooted.', requestor: 'user' },
  { role: 'user', content: 'Done, it works now. ###STOP###' },
] as ChatMessage[];

describe('replay kinds in the registries', () => {
  const loaded = loadDomain('airline');
  const task = loaded.tasks[0];

  it('are registered beside the others and need no model', () => {
    expect(Object.keys(agentKinds)).toContain('replay');
    expect(Object.keys(userKinds)).toContain('replay');
    expect([getAgentKind('replay').needsModel, getUserKind('replay').needsModel]).toEqual([false, false]);
  });

  it('the builder makes them from a trajectory; without one it refuses with BadInputError', async () => {
    const agent = buildAgent({ loaded, task, trial: 0, agent: { kind: 'replay', trajectory } });
    expect(agent.systemPrompt()).toBe('You are a recorded agent.');
    // The greeting is the orchestrator's; the first agent turn is the second assistant message.
    expect((await agent.step([]).then((t) => t.message)).content).toBe('Please restart your phone.');
    expect(() => buildAgent({ loaded, task, trial: 0, agent: { kind: 'replay' } })).toThrow(BadInputError);
    expect(() => buildUser({ loaded, task, trial: 0, user: { kind: 'replay' } })).toThrow(BadInputError);
  });

  it("the replay user says the recorded messages and performs the customer's own tool calls, then stops", async () => {
    const user = buildUser({ loaded, task, trial: 0, user: { kind: 'replay', trajectory } });
    expect(await user.respond([])).toEqual({ kind: 'message', text: 'My phone has no signal.' });
    expect(await user.respond([])).toEqual({ kind: 'tool_calls', calls: [{ id: 'u1', type: 'function', function: { name: 'reboot_device', arguments: '{}' } }] });
    expect(await user.respond([])).toEqual({ kind: 'stop', signal: 'stop', text: 'Done, it works now. ###STOP###' });
    expect(await user.respond([])).toEqual({ kind: 'stop', signal: 'stop', text: null });
  });
});
