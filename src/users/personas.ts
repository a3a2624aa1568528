/**
 * Customer personas: composable modifiers of a task's user scenario, for running one task
 * across several kinds of customer (seed task R05.12.01.02-T16: impatient, vague, contradictory,
 * and one adding an off-policy request; every episode must still end in the gold state).
 *
 * Each persona has two forms:
 * - LLM form ({@link Persona.instructions}): instruction text appended to the LLM user
 *   simulator's prompt through its `modifiers` (the `<behaviour>` block of `userSystemPrompt`);
 * - scripted form ({@link Persona.script}): a transformation of a {@link PersonaScript}, played
 *   offline by {@link PersonaUser} (validate, tests).
 *
 * A persona id is a registry name or several joined by `+` (`impatient+vague`): the parts apply
 * in order (LLM: one modifier each; scripted: the transformations composed). `plain` is the
 * neutral customer (no modifier), e.g. as a control. Runs record the id with each episode.
 *
 * Task fields used (the task's `servicegym` block, all optional): `off_policy_request` — what the
 * off-policy persona asks for (default {@link DEFAULT_OFF_POLICY_REQUEST}); `scripted_user` —
 * `{opening, details?, wrong_wish?}` for the scripted form and to make the LLM instructions
 * concrete (without it the scripted customer is derived from the scenario, see `scriptSource`).
 */
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';
import type { User } from './user.js';
import type { PersonaText } from '../spec/domain.js';
import {
  asksForDetails,
  baseScript,
  GENERIC_PERSONA_TEXT,
  GENERIC_VAGUE_OPENING,
  PersonaUser,
  redactDetails,
  REFUSES_REQUEST,
  scriptSource,
  type PersonaScript,
  type ScriptSource,
} from './persona-user.js';

export { DEFAULT_OFF_POLICY_REQUEST, DEFAULT_WRONG_WISH, PersonaUser, scriptSource, type PersonaScript, type ScriptSource } from './persona-user.js';

/** What a persona form sees: the task, what its scripted customer knows, and the domain's persona wording. */
export interface PersonaContext {
  task: Task;
  source: ScriptSource;
  words: PersonaText;
}

/** One persona: its LLM form and its scripted form. */
export interface Persona {
  /** Registry name. */
  id: string;
  /** One line for help texts and reports. */
  summary: string;
  /** LLM form: one behaviour instruction for the user simulator (empty for `plain`). */
  instructions(ctx: PersonaContext): string;
  /** Scripted form: an edited copy of `script` (never mutates it). */
  script(script: PersonaScript, ctx: PersonaContext): PersonaScript;
}

const quote = (s: string) => `"${s.replace(/"/g, "'")}"`;

const plain: Persona = {
  id: 'plain',
  summary: 'the neutral customer of the scenario (no modifier)',
  instructions: () => '',
  script: (s) => s,
};

const impatient: Persona = {
  id: 'impatient',
  summary: 'terse and in a hurry, pushes the agent to be quick, still answers and confirms',
  instructions: () =>
    'You are impatient and short on time. Write very short messages, skip pleasantries, and push the agent to hurry up (for example "please be quick"). ' +
    'Impatience never changes what you want: still answer every question the agent asks accurately, and when the agent asks you to confirm an action that matches your goal, confirm it.',
  script: (s) => ({
    ...s,
    opening: { ...s.opening, prefix: [s.opening.prefix, "I'm in a hurry, so please be quick."].filter(Boolean).join(' ') },
    confirm: 'Yes, go ahead. Please hurry.',
    device: { ...s.device, done: 'Done. Please hurry.' },
    closing: s.closing.replace(/^Thank you, that's all I needed\./, 'Finally. Thanks, that is all.'),
  }),
};

const vague: Persona = {
  id: 'vague',
  summary: 'opens without the key details (ids, item names) and gives them only when asked',
  instructions: ({ source, words }) =>
    `You are vague. Open the conversation by saying roughly what you want, but leave out the specifics: no ${words.withheld}, no amounts. ` +
    'Give each specific only when the agent asks for it, and then give it accurately.' +
    (source.explicit && source.details ? ` The specifics you hold back until asked: ${quote(source.details)}.` : ''),
  script: (s, { source, words }) => {
    const full = [source.wish, source.details].filter(Boolean).join(' ');
    // A derived wish may name ids: redact them (falling back to a generic opening when little is left).
    const redacted = redactDetails(s.opening.wish, words);
    const wish = source.explicit ? s.opening.wish : redacted.length >= 12 ? redacted : GENERIC_VAGUE_OPENING;
    return {
      ...s,
      opening: { ...s.opening, wish, withhold: true },
      rules: [...s.rules, { when: asksForDetails(words), say: source.explicit ? source.details ?? "Sorry, that's all I can tell you." : full, once: true }],
    };
  },
};

const contradictory: Persona = {
  id: 'contradictory',
  summary: 'states one wish, then changes their mind and gives the final wish (the task goal)',
  instructions: ({ source }) =>
    'You change your mind once. In your first message ask for something different from your real goal' +
    (source.explicit ? ` (say something like ${quote(source.wrongWish)})` : '') +
    '. After the agent replies, say you have changed your mind and state your real goal from the scenario instead. ' +
    'From then on keep to the real goal: it is the only thing that should be done, and you must not let the agent carry out your first wish.',
  // Scripted: the correction comes at the first agent message no rule answers. When that message
  // is a confirmation request (the oracle asks before its first write), the customer confirms
  // only conditionally: "if that is what you are about to do, yes" — an agent that had planned
  // the first wish must re-plan; the oracle (which only ever does the goal) may proceed.
  script: (s, { source, words }) => ({
    ...s,
    opening: { ...s.opening, wish: source.wrongWish },
    interjections: [
      ...s.interjections,
      {
        say: ({ asksConfirm, script }) => {
          const real = script.opening.withhold && !source.explicit ? redactDetails(source.wish, words) : source.wish;
          return `Sorry, I changed my mind. ${real}` + (asksConfirm ? ' If that is what you are about to do, yes, please proceed.' : '');
        },
      },
    ],
  }),
};

const offPolicy: Persona = {
  id: 'off-policy',
  summary: 'after the main request, adds a request the policy forbids; accepts the refusal and carries on',
  instructions: ({ source }) =>
    `Once you have made your main request, also ask for this: ${quote(source.offPolicyRequest)}. ` +
    'Ask for it once and do not insist. If the agent refuses, accept the refusal and carry on with your main request until it is done; do not end the conversation early because of the refusal.',
  script: (s, { source }) => ({
    ...s,
    interjections: [
      ...s.interjections,
      {
        say: ({ asksConfirm, script }) => (asksConfirm ? `${script.confirm} ` : '') + source.offPolicyRequest,
        then: { when: REFUSES_REQUEST, say: 'Okay, understood. Never mind that, then.', once: true },
      },
    ],
  }),
};

/** The persona registry (an explicit map; ids are the CLI names). */
export const PERSONAS: Record<string, Persona> = {
  plain,
  impatient,
  vague,
  contradictory,
  'off-policy': offPolicy,
};

/** The seed task's four personas, in its episode order. */
export const SEED_PERSONAS: readonly string[] = ['impatient', 'vague', 'contradictory', 'off-policy'];

/**
 * The personas of an id (`impatient+vague` → [impatient, vague]).
 * @throws BadInputError naming unknown parts and the known ones
 */
export function personaParts(id: string): Persona[] {
  const parts = id.split('+').map((p) => p.trim());
  const unknown = parts.filter((p) => !Object.prototype.hasOwnProperty.call(PERSONAS, p));
  if (unknown.length) throw new BadInputError(`unknown persona(s): ${unknown.map((u) => `'${u}'`).join(', ')} in '${id}' (known: ${Object.keys(PERSONAS).join(', ')}; combine with '+')`);
  return parts.map((p) => PERSONAS[p]);
}

/**
 * Parses a persona list: `'impatient,vague+contradictory'` (or an array of ids) → normalised ids
 * (`['impatient', 'vague+contradictory']`, spaces removed).
 * @throws BadInputError for an empty list, an id with an empty `+` part, an unknown persona (all named) or a repeated id
 */
export function parsePersonas(list: string | readonly string[]): string[] {
  const ids = (typeof list === 'string' ? list.split(',') : [...list]).map((s) => s.split('+').map((p) => p.trim()).join('+')).filter((s) => s !== '');
  if (ids.length === 0) throw new BadInputError(`no personas given (known: ${Object.keys(PERSONAS).join(', ')})`);
  const gap = ids.find((id) => id.split('+').includes(''));
  if (gap !== undefined) throw new BadInputError(`persona '${gap}' has an empty part: join persona ids with '+', e.g. impatient+vague (known: ${Object.keys(PERSONAS).join(', ')})`);
  const unknown = [...new Set(ids.flatMap((id) => id.split('+')).filter((p) => !Object.prototype.hasOwnProperty.call(PERSONAS, p)))];
  if (unknown.length) throw new BadInputError(`unknown persona(s): ${unknown.map((u) => `'${u}'`).join(', ')} (known: ${Object.keys(PERSONAS).join(', ')}; combine with '+')`);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new BadInputError(`persona '${dup}' is listed twice (use --trials for repeated episodes)`);
  return ids;
}

function context(task: Task, words: PersonaText | undefined): PersonaContext {
  return { task, source: scriptSource(task), words: words ?? GENERIC_PERSONA_TEXT };
}

/**
 * LLM form: the simulator modifiers of persona `id` for `task` (pass as
 * `LLMUserSimulatorOptions.modifiers`). `words`: the domain's persona wording (`LoadedDomain.personaText`).
 */
export function personaModifiers(id: string, task: Task, words?: PersonaText): string[] {
  const ctx = context(task, words);
  return personaParts(id).map((p) => p.instructions(ctx)).filter((s) => s !== '');
}

/** Scripted form: the neutral script of `task` with persona `id`'s transformations applied in order (`words`: as {@link personaModifiers}). */
export function personaScript(id: string, task: Task, words?: PersonaText): PersonaScript {
  const ctx = context(task, words);
  return personaParts(id).reduce((s, p) => p.script(s, ctx), baseScript(ctx.source));
}

/** A fresh offline customer playing persona `id` on `task` (one per episode). */
export function scriptedPersonaUser(id: string, task: Task, words?: PersonaText): User {
  return new PersonaUser(personaScript(id, task, words));
}
