/**
 * Personas (src/users/personas.ts, persona-user.ts): the registry and parser, the scripted
 * customers' conversation shapes, the derivation from a scenario, and the LLM form reaching the
 * simulator's prompt.
 */
import { describe, expect, it } from 'vitest';
import { PERSONAS, SEED_PERSONAS, parsePersonas, personaModifiers, personaScript, scriptedPersonaUser } from '../../src/users/personas.js';
import { DEVICE_DONE, deviceInstruction } from '../../src/users/gold-user.js';
import { DEFAULT_OFF_POLICY_REQUEST, DEFAULT_WRONG_WISH, firstPerson, redactDetails, scriptSource } from '../../src/users/persona-user.js';
import { LLMUserSimulator } from '../../src/users/llm-user.js';
import type { User, UserTurn, Utterance } from '../../src/users/user.js';
import { BadInputError } from '../../src/spec/errors.js';
import { TaskSchema } from '../../src/spec/task.js';
import { tinyTask } from '../support/tiny-shop.js';
import { DETAILS, OFF_POLICY_REQUEST, OPENING, WRONG_WISH, personaTask } from '../support/persona-shop.js';
import type { ChatModel } from '../../src/models/chat-model.js';
import type { PersonaText } from '../../src/spec/domain.js';

/** A shop's persona wording (as a domain gives it through `LoadedDomain.personaText`). */
const SHOP_WORDS: PersonaText = { recordNouns: ['order', 'item', 'product'], withheld: 'order or user ids, no item or product names' };

const CONFIRM = 'Before I go ahead: I will cancel order O1 and refund $42.50. Shall I proceed?';
const DONE = 'Order O1 is cancelled; $42.50 will be refunded.';

/** Plays `user` against the agent's texts in order; returns the user's turns. */
async function play(user: User, agentTexts: string[]): Promise<UserTurn[]> {
  const transcript: Utterance[] = [{ from: 'agent', text: 'Hi! How can I help you today?' }];
  const turns: UserTurn[] = [];
  for (let i = 0; ; i++) {
    const t = await user.respond(transcript);
    turns.push(t);
    if (t.kind === 'stop' || i >= agentTexts.length) return turns;
    transcript.push({ from: 'user', text: t.kind === 'message' ? t.text : '' }, { from: 'agent', text: agentTexts[i] });
  }
}
const texts = (turns: UserTurn[]) => turns.map((t) => (t.kind === 'tool_calls' ? null : t.text));

describe('registry and parsing', () => {
  it('has the seed personas and plain, each with a summary', () => {
    expect(Object.keys(PERSONAS)).toEqual(['plain', 'impatient', 'vague', 'contradictory', 'off-policy']);
    expect(SEED_PERSONAS).toEqual(['impatient', 'vague', 'contradictory', 'off-policy']);
    for (const [id, p] of Object.entries(PERSONAS)) expect([p.id, p.summary.length > 10]).toEqual([id, true]);
  });

  it('parses lists and + combinations, normalising spaces', () => {
    expect(parsePersonas('impatient, vague + contradictory ,off-policy')).toEqual(['impatient', 'vague+contradictory', 'off-policy']);
    expect(parsePersonas(['plain'])).toEqual(['plain']);
  });

  it('rejects unknown (all named), repeated and empty lists with BadInputError', () => {
    expect(() => parsePersonas('impatient,grumpy,x+vague')).toThrow(BadInputError);
    expect(() => parsePersonas('impatient,grumpy,x+vague')).toThrow(/unknown persona\(s\): 'grumpy', 'x'.*known: plain, impatient, vague, contradictory, off-policy/);
    expect(() => parsePersonas('vague,vague')).toThrow(/listed twice/);
    expect(() => parsePersonas(' , ')).toThrow(/no personas/);
    expect(() => parsePersonas('impatient,vague+')).toThrow(/persona 'vague\+' has an empty part: join persona ids with '\+'/);
  });
});

describe('scripted personas: conversation shapes', () => {
  it('plain: opening with the details, yes to the confirmation, stop at the closing message', async () => {
    const turns = await play(scriptedPersonaUser('plain', personaTask, SHOP_WORDS), [CONFIRM, DONE]);
    expect(texts(turns)).toEqual([`${OPENING} ${DETAILS}`, 'Yes, please proceed.', "Thank you, that's all I needed. ###STOP###"]);
    expect(turns.map((t) => t.kind)).toEqual(['message', 'message', 'stop']);
  });

  it('impatient: says to hurry, still answers the confirmation', async () => {
    const t = texts(await play(scriptedPersonaUser('impatient', personaTask, SHOP_WORDS), [CONFIRM, DONE]));
    expect(t[0]).toMatch(/hurry.*be quick/i);
    expect(t[0]).toContain(DETAILS);
    expect(t[1]).toMatch(/^Yes, go ahead\. Please hurry\.$/);
    expect(t[2]).toContain('###STOP###');
  });

  it('vague: opens without the details and gives them only once asked', async () => {
    const turns = texts(await play(scriptedPersonaUser('vague', personaTask, SHOP_WORDS), ['Sure. Which order is it?', CONFIRM, DONE]));
    expect(turns[0]).toBe(OPENING);
    expect(turns[0]).not.toMatch(/O1|desk lamp/);
    expect(turns[1]).toBe(DETAILS);
    expect(turns.slice(2)).toEqual(['Yes, please proceed.', "Thank you, that's all I needed. ###STOP###"]);
  });

  it('vague: never volunteers the details when the agent does not ask', async () => {
    const turns = texts(await play(scriptedPersonaUser('vague', personaTask, SHOP_WORDS), [CONFIRM, DONE]));
    expect(turns.join('\n')).not.toContain(DETAILS);
  });

  it('contradictory: states the wrong wish first, then changes their mind to the goal', async () => {
    const turns = texts(await play(scriptedPersonaUser('contradictory', personaTask, SHOP_WORDS), ['Let me look that up. Anything else?', CONFIRM, DONE]));
    expect(turns[0]).toBe(`${WRONG_WISH} ${DETAILS}`);
    expect(turns[1]).toBe(`Sorry, I changed my mind. ${OPENING}`);
    expect(turns[2]).toBe('Yes, please proceed.');
  });

  it('contradictory: a correction arriving at a confirmation request confirms only the corrected wish', async () => {
    const turns = texts(await play(scriptedPersonaUser('contradictory', personaTask, SHOP_WORDS), [CONFIRM, DONE]));
    expect(turns[1]).toMatch(/^Sorry, I changed my mind\. .*If that is what you are about to do, yes, please proceed\.$/);
  });

  it('off-policy: adds the forbidden request after the main one, accepts the refusal and carries on', async () => {
    const turns = texts(await play(scriptedPersonaUser('off-policy', personaTask, SHOP_WORDS), [CONFIRM, "I'm sorry, I can't cancel someone else's order.", DONE]));
    expect(turns[0]).toBe(`${OPENING} ${DETAILS}`);
    expect(turns[1]).toBe(`Yes, please proceed. ${OFF_POLICY_REQUEST}`);
    expect(turns[2]).toMatch(/understood/i);
    expect(turns[3]).toContain('###STOP###');
  });

  it('composes: impatient+vague withholds the details and hurries', async () => {
    const turns = texts(await play(scriptedPersonaUser('impatient+vague', personaTask, SHOP_WORDS), ['What is the order number?', CONFIRM, DONE]));
    expect(turns[0]).toBe(`I'm in a hurry, so please be quick. ${OPENING}`);
    expect(turns[1]).toBe(DETAILS);
    expect(turns[2]).toBe('Yes, go ahead. Please hurry.');
  });

  it('composes all four: hurried wrong wish, correction, then the off-policy request', async () => {
    const s = personaScript('impatient+vague+contradictory+off-policy', personaTask, SHOP_WORDS);
    expect(s.interjections).toHaveLength(2);
    const turns = texts(await play(scriptedPersonaUser('impatient+vague+contradictory+off-policy', personaTask, SHOP_WORDS), [CONFIRM, CONFIRM, DONE]));
    expect(turns[0]).toBe(`I'm in a hurry, so please be quick. ${WRONG_WISH}`);
    expect(turns[1]).toMatch(/^Sorry, I changed my mind\./);
    expect(turns[2]).toBe(`Yes, go ahead. Please hurry. ${OFF_POLICY_REQUEST}`);
  });
});

describe('derived from the scenario (no scripted_user)', () => {
  it('first person from reason_for_call and known_info; default wrong wish and off-policy request', () => {
    const src = scriptSource(tinyTask('cancel_o1'));
    expect(src).toEqual({ wish: 'I want to cancel order O1 because I no longer need it.', details: 'My order id is O1.', wrongWish: DEFAULT_WRONG_WISH, offPolicyRequest: DEFAULT_OFF_POLICY_REQUEST, explicit: false, deviceRuns: [] });
    expect(scriptSource(tinyTask('status_o2')).wish).toBe('Ask whether order O2 was delivered.');
  });

  it('a vague derived opening has the ids redacted; the full request comes when asked', async () => {
    const turns = texts(await play(scriptedPersonaUser('vague', tinyTask('cancel_o1'), SHOP_WORDS), ['Which order would that be?']));
    expect(turns[0]).toBe('I want to cancel my order because I no longer need it.');
    expect(turns[1]).toBe('I want to cancel order O1 because I no longer need it. My order id is O1.');
  });

  it('firstPerson and redactDetails', () => {
    expect(firstPerson('You are Mia. If the agent asks you, give your user id.')).toBe('I am Mia. If the agent asks me, give my user id.');
    expect(redactDetails('Move reservation 8KQ2ZD (JFK to SEA) to 2026-10-21, size 8.5.', { recordNouns: ['reservation'], withheld: 'reservation ids' })).toBe('Move my reservation to, size 8.5.');
    // Without the domain's record nouns the id goes, the noun stays as it was.
    expect(redactDetails('Cancel order O1 today.')).toBe('Cancel order today.');
    expect(redactDetails('Cancel order O1 today.', SHOP_WORDS)).toBe('Cancel my order today.');
  });

  it('the task fields are optional and validated', () => {
    const base = { id: 'x', user_scenario: { instructions: 'hi' }, servicegym: { checks: [{ id: 'a', kind: 'db_gold' }], partial_credit: [{ id: 'a', weight: 100, description: 'a', checks: ['a'] }] } };
    expect(TaskSchema.parse(base).servicegym?.scripted_user).toBeUndefined();
    expect(() => TaskSchema.parse({ ...base, servicegym: { ...base.servicegym, scripted_user: { details: 'x' } } })).toThrow();
    expect(() => TaskSchema.parse({ ...base, servicegym: { ...base.servicegym, scripted_user: { opening: 'o', extra: 1 } } })).toThrow();
    expect(() => TaskSchema.parse({ ...base, servicegym: { ...base.servicegym, off_policy_request: '' } })).toThrow();
  });
});

describe('LLM form', () => {
  const model = {} as ChatModel; // never called: only the prompt is read

  it('one instruction per persona part, with the task specifics; none for plain', () => {
    expect(personaModifiers('plain', personaTask, SHOP_WORDS)).toEqual([]);
    const [imp, vag] = personaModifiers('impatient+vague', personaTask, SHOP_WORDS);
    expect(imp).toMatch(/impatient.*hurry.*confirm it/s);
    expect(vag).toContain(DETAILS);
    expect(personaModifiers('contradictory', personaTask, SHOP_WORDS)[0]).toContain(WRONG_WISH);
    expect(personaModifiers('off-policy', personaTask, SHOP_WORDS)[0]).toContain(OFF_POLICY_REQUEST);
    expect(personaModifiers('off-policy', tinyTask('cancel_o1'), SHOP_WORDS)[0]).toContain(DEFAULT_OFF_POLICY_REQUEST);
  });

  it("reaches the simulator's system prompt in its behaviour block", () => {
    const sim = new LLMUserSimulator({ model, scenario: personaTask.user_scenario, modifiers: personaModifiers('vague+off-policy', personaTask, SHOP_WORDS) });
    const behaviour = sim.systemPrompt().split('<behaviour>')[1];
    expect(behaviour).toContain('You are vague.');
    expect(behaviour).toContain(OFF_POLICY_REQUEST);
  });
});

describe('dual control: every persona does the device steps the agent asks for', () => {
  /** personaTask with two runs of customer-side gold actions (as tau2 telecom's device tools). */
  const RUN1 = [{ name: 'toggle_airplane_mode', arguments: { enabled: false } }, { name: 'run_connection_check', arguments: {} }];
  const RUN2 = [{ name: 'restart_phone', arguments: {} }];
  const deviceTask = TaskSchema.parse({
    ...personaTask,
    evaluation_criteria: {
      ...personaTask.evaluation_criteria,
      actions: [
        ...personaTask.evaluation_criteria!.actions!,
        ...RUN1.map((a, i) => ({ action_id: `u${i}`, requestor: 'user', ...a })),
        { action_id: 'x', name: 'get_order', arguments: { order_id: 'O1' } },
        ...RUN2.map((a, i) => ({ action_id: `v${i}`, requestor: 'user', ...a })),
      ],
    },
  });

  /** Plays `user` against the agent's texts; a tool-call turn gets its results back (as the orchestrator does) before the next agent text. */
  async function playDevice(user: User, agentTexts: string[]): Promise<UserTurn[]> {
    const transcript: Utterance[] = [{ from: 'agent', text: 'Hi! How can I help you today?' }];
    const turns: UserTurn[] = [];
    let i = 0;
    for (;;) {
      const t = await user.respond(transcript);
      turns.push(t);
      if (t.kind === 'stop') return turns;
      if (t.kind === 'tool_calls') {
        for (const c of t.calls) transcript.push({ from: 'tool', text: 'ok', toolCall: c });
        continue;
      }
      if (i >= agentTexts.length) return turns;
      transcript.push({ from: 'user', text: t.text }, { from: 'agent', text: agentTexts[i++] });
    }
  }
  const shape = (turns: UserTurn[]) => turns.map((t) => (t.kind === 'tool_calls' ? t.calls.map((c) => `${c.id} ${c.function.name} ${c.function.arguments}`).join(' | ') : t.text));

  it('the scenario source holds the runs; each persona keeps them', () => {
    expect(scriptSource(deviceTask).deviceRuns).toEqual([RUN1, RUN2]);
    for (const id of [...Object.keys(PERSONAS), 'impatient+vague+contradictory+off-policy']) expect(personaScript(id, deviceTask, SHOP_WORDS).device.runs, id).toEqual([RUN1, RUN2]);
  });

  for (const id of [...Object.keys(PERSONAS), 'impatient+vague+contradictory+off-policy']) {
    it(`${id}: performs each run as its own tool calls when asked, then says it is done`, async () => {
      const turns = shape(await playDevice(scriptedPersonaUser(id, deviceTask, SHOP_WORDS), [deviceInstruction(RUN1), deviceInstruction(RUN2), DONE]));
      const done = id.startsWith('impatient') ? 'Done. Please hurry.' : DEVICE_DONE;
      expect(turns.slice(1, 6)).toEqual([
        'user_0 toggle_airplane_mode {"enabled":false}',
        'user_1 run_connection_check {}',
        done,
        'user_2 restart_phone {}',
        done,
      ]);
    });
  }

  it('without device runs a device instruction is an ordinary message (plain closes on it)', async () => {
    const turns = texts(await play(scriptedPersonaUser('plain', personaTask, SHOP_WORDS), [deviceInstruction(RUN1)]));
    expect(turns[1]).toContain('###STOP###');
  });
});

