import { afterEach, describe, expect, it } from 'vitest';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { LLMUserSimulator, DEFAULT_OPENING_CUE } from '../../src/users/llm-user.js';
import { userSystemPrompt, USER_GUIDELINES } from '../../src/users/user-prompt.js';
import { guardConfirmThenStop } from '../../src/users/confirm-guard.js';
import { detectSignal } from '../../src/users/user.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tinyTask } from '../support/tiny-shop.js';

const agentSaid = (text: string) => [{ from: 'user' as const, text: 'hi' }, { from: 'agent' as const, text }];

describe('ScriptedUser', () => {
  it('says its replies in order, then stops without a message', async () => {
    const u = new ScriptedUser(['one', 'two']);
    expect(await u.respond([])).toEqual({ kind: 'message', text: 'one' });
    expect(await u.respond(agentSaid('a'))).toEqual({ kind: 'message', text: 'two' });
    expect(await u.respond(agentSaid('b'))).toEqual({ kind: 'stop', signal: 'stop', text: null });
  });

  it('rules on the agent message come first; once-rules fire once', async () => {
    const u = new ScriptedUser(['open', 'next'], { rules: [{ when: /user id/i, say: 'It is ana_1.', once: true }, { when: /confirm/g, say: 'yes' }] });
    expect((await u.respond([])).kind).toBe('message');
    expect(await u.respond(agentSaid('Your user id?'))).toMatchObject({ text: 'It is ana_1.' });
    expect(await u.respond(agentSaid('Your user id?'))).toMatchObject({ text: 'next' });
    expect(await u.respond(agentSaid('please confirm'))).toMatchObject({ text: 'yes' });
    expect(await u.respond(agentSaid('please confirm'))).toMatchObject({ text: 'yes' }); // a /g regex does not alternate
  });

  it('a reply with a stop token (default or custom) ends the conversation with that message', async () => {
    expect(await new ScriptedUser(['bye ###STOP###']).respond([])).toEqual({ kind: 'stop', signal: 'stop', text: 'bye ###STOP###' });
    expect(await new ScriptedUser(['<<END>>'], { stopToken: '<<END>>' }).respond([])).toMatchObject({ kind: 'stop', signal: 'stop' });
    expect(await new ScriptedUser(['###TRANSFER###']).respond([])).toMatchObject({ kind: 'stop', signal: 'transfer' });
    expect(() => new ScriptedUser([])).toThrow();
  });
});

describe('user prompt and tokens', () => {
  it('renders the structured scenario with labelled fields, persona first, modifiers last', () => {
    const p = userSystemPrompt(tinyTask('cancel_o1').user_scenario, ['You are impatient.', 'You answer vaguely.']);
    expect(p.startsWith(USER_GUIDELINES)).toBe(true);
    const order = ['<scenario>', 'Persona:\nAna', 'Domain: tiny-shop', 'Reason for call:\n', 'Known info:\n', 'Unknown info:\n', 'Task instructions:\n', '</scenario>', '<behaviour>', '- You are impatient.', '- You answer vaguely.'];
    const at = order.map((s) => p.indexOf(s));
    expect(at.every((i) => i >= 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    for (const t of ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###']) expect(p).toContain(t);
  });

  it('a plain string is the instructions; no behaviour block without modifiers', () => {
    const p = userSystemPrompt('Ask about O2.');
    expect(p).toContain('<scenario>\nInstructions:\nAsk about O2.\n</scenario>');
    expect(p).not.toContain('<behaviour>');
  });

  it('detects the signals', () => {
    expect(detectSignal('ok ###STOP###')).toBe('stop');
    expect(detectSignal('###OUT-OF-SCOPE###')).toBe('out_of_scope');
    expect(detectSignal('fine')).toBeNull();
  });
});

describe('confirm-then-stop guard', () => {
  const ask = 'I will cancel order O1 and refund 42.5. Shall I proceed (yes/no)?';
  it('keeps a confirming reply open when the agent asked to confirm', () => {
    expect(guardConfirmThenStop(ask, 'Yes, please go ahead. ###STOP###')).toBe('Yes, please go ahead.');
    expect(guardConfirmThenStop(ask, '###STOP### yes')).toBe('yes');
  });
  it('does not apply otherwise', () => {
    expect(guardConfirmThenStop('Your order is cancelled.', 'Thanks! ###STOP###')).toBeNull();
    expect(guardConfirmThenStop(ask, 'No, do not do that. ###STOP###')).toBeNull();
    expect(guardConfirmThenStop(ask, '###STOP###')).toBeNull();
    expect(guardConfirmThenStop(ask, 'Yes please')).toBeNull();
    expect(guardConfirmThenStop(undefined, 'Yes ###STOP###')).toBeNull();
    expect(guardConfirmThenStop(ask, 'Great ###STOP###', { confirms: /great/i })).toBe('Great');
  });
  it('does not fire on a refusal that contains an agreement word', () => {
    expect(guardConfirmThenStop(ask, "No, that's not okay. ###STOP###")).toBeNull();
    expect(guardConfirmThenStop(ask, 'Yes but not the card ###STOP###')).toBeNull();
    expect(guardConfirmThenStop(ask, 'Maybe, I guess. ###STOP###')).toBeNull();
  });
  it('does not fire on a closing offer', () => {
    expect(guardConfirmThenStop('Is there anything else I can help you with?', 'No, thanks, bye ###STOP###')).toBeNull();
    expect(guardConfirmThenStop('Would you like me to help with anything else?', 'Okay, thanks! ###STOP###')).toBeNull();
    expect(guardConfirmThenStop('Done: 3PZK9W is cancelled. Anything else?', 'Yes that is all ###STOP###')).toBeNull();
    // A confirmation request followed by a closing line is still a confirmation request.
    expect(guardConfirmThenStop('I will cancel 3PZK9W for a $420 refund. Shall I proceed? Anything else you need?', 'Yes, go ahead ###STOP###')).toBe('Yes, go ahead');
  });
});

describe('LLMUserSimulator', () => {
  let mock: TwoRoleMock | undefined;
  afterEach(async () => {
    await mock?.close();
    mock = undefined;
  });

  it('sends an opening cue when the agent has not spoken, flips roles, and reports its calls as user_simulator', async () => {
    const replies = ['Hi, cancel O1 please.', 'Sure. ###OUT-OF-SCOPE###'];
    mock = await startTwoRoleMock({ agent: () => ({ content: 'unused' }), user: () => ({ content: replies.shift()! }) });
    const sim = new LLMUserSimulator({ model: mock.userModel, scenario: 'Cancel O1.', seed: 300, modifiers: ['You are terse.'] });
    const t1 = await sim.respond([]);
    expect(t1).toMatchObject({ kind: 'message', text: 'Hi, cancel O1 please.' });
    expect(t1.call?.receipt.kind).toBe('user_simulator');
    const t2 = await sim.respond([{ from: 'user', text: 'Hi, cancel O1 please.' }, { from: 'agent', text: 'Your user id?' }]);
    expect(t2).toMatchObject({ kind: 'stop', signal: 'out_of_scope', text: 'Sure. ###OUT-OF-SCOPE###' });
    const [b1, b2] = mock.bodies('user');
    expect(b1.messages).toEqual([{ role: 'system', content: sim.systemPrompt() }, { role: 'user', content: DEFAULT_OPENING_CUE }]);
    expect(b2.messages.slice(1)).toEqual([
      { role: 'user', content: DEFAULT_OPENING_CUE },
      { role: 'assistant', content: 'Hi, cancel O1 please.' },
      { role: 'user', content: 'Your user id?' },
    ]);
    expect(b1.seed).toBe(300);
    expect(b1).not.toHaveProperty('temperature');
    expect(sim.systemPrompt()).toContain('- You are terse.');
  });

  it('an empty reply comes back as an empty message (the orchestrator makes it a user_error)', async () => {
    mock = await startTwoRoleMock({ agent: () => ({ content: 'x' }), user: () => ({ content: '' }) });
    const sim = new LLMUserSimulator({ model: mock.userModel, scenario: 'x' });
    expect(await sim.respond([])).toMatchObject({ kind: 'message', text: '' });
  });
});

describe('LLMUserSimulator request messages', () => {
  it('flips roles and makes each utterance\'s messages once, making fresh ones when an utterance changed', () => {
    const sim = new LLMUserSimulator({ model: { provider: 'none', model: 'none', complete: async () => { throw new Error('no calls'); } } as never, scenario: 'Cancel O1.' });
    const call = { id: 'c1', type: 'function' as const, function: { name: 'check', arguments: '{}' } };
    const t: { from: 'agent' | 'user' | 'tool'; text: string; toolCall?: typeof call }[] = [{ from: 'agent', text: 'Hi!' }, { from: 'user', text: 'Cancel O1.' }, { from: 'tool', text: 'ok', toolCall: call }];
    const first = sim.messagesFor(t);
    expect(first).toEqual([
      { role: 'system', content: sim.systemPrompt() },
      { role: 'user', content: 'Hi!' },
      { role: 'assistant', content: 'Cancel O1.' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
    t.push({ from: 'agent', text: 'Done.' });
    const second = sim.messagesFor(t);
    expect(second.slice(0, 5).every((m, i) => m === first[i])).toBe(true);
    expect(second[5]).toEqual({ role: 'user', content: 'Done.' });
    t[1].text = 'Cancel O2.';
    const third = sim.messagesFor(t);
    expect(third[2]).toEqual({ role: 'assistant', content: 'Cancel O2.' });
    expect(third[2]).not.toBe(first[2]);
    expect(sim.messagesFor([{ from: 'user', text: 'Hello' }])[1]).toEqual({ role: 'user', content: DEFAULT_OPENING_CUE });
  });
});
