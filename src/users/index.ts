/**
 * The user-simulator registry: an explicit map from kind to factory (`llm`, `scripted`,
 * `personas`, and — registered beside them — `replay`). The episode builder asks the registry,
 * never an `if` on the kind.
 */
import type { LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import type { Task } from '../spec/task.js';
import type { ChatModel } from '../models/chat-model.js';
import type { User } from './user.js';
import { LLMUserSimulator } from './llm-user.js';
import { ScriptedUser, type UserRule } from './scripted-user.js';
import { personaModifiers, scriptedPersonaUser } from './personas.js';

/** What a user factory gets for one episode. */
export interface UserContext {
  loaded: LoadedDomain<any>;
  task: Task;
  trial: number;
  /** The simulator's model (kinds that need one: `llm`). */
  model?: ChatModel;
  temperature?: number;
  seed?: number;
  /** Extra behaviour instructions for the LLM simulator (before any persona's). */
  modifiers?: string[];
  /** The persona this episode plays (`personas`; with `llm`, its instructions are added). */
  persona?: string;
  /** A `scripted` customer's replies in order; default: the domain's opening line, then yes to every confirmation request. */
  replies?: string[];
  rules?: UserRule[];
}

/** One registered user kind. */
export interface UserKind {
  description: string;
  needsModel: boolean;
  /** Builds a fresh user for one episode; throws BadInputError when the context lacks what the kind needs. */
  create(ctx: UserContext): User;
}

/** What a scripted customer says to open when the domain names no opening line. */
export const GENERIC_OPENING = 'Hello, I need help.';

/** The rule of the confirming customer: "yes" to every confirmation request (validate's user). */
export const CONFIRM_RULE: UserRule = { when: /\b(shall I proceed|do you confirm|confirm)\b[^?]*\?/i, say: 'Yes, please proceed.' };

/** The confirming customer: the domain's opening line (`LoadedDomain.customerOpening`), then yes to every confirmation request. */
export function confirmingUser(loaded: Pick<LoadedDomain<any>, 'customerOpening'>): User {
  return new ScriptedUser([loaded.customerOpening ?? GENERIC_OPENING], { rules: [CONFIRM_RULE] });
}

export const userKinds: Record<string, UserKind> = {
  llm: {
    description: "a model plays the task's user scenario (with the persona's instructions, if any)",
    needsModel: true,
    create: (c) => {
      if (!c.model) throw new BadInputError('the llm user simulator needs a model (--user-model)');
      const modifiers = [...(c.modifiers ?? []), ...(c.persona ? personaModifiers(c.persona, c.task) : [])];
      return new LLMUserSimulator({ model: c.model, scenario: c.task.user_scenario, modifiers, temperature: c.temperature, seed: c.seed });
    },
  },
  scripted: {
    description: "fixed replies (default: the domain's opening line, then yes to every confirmation request)",
    needsModel: false,
    create: (c) => (c.replies ? new ScriptedUser(c.replies, { rules: c.rules }) : confirmingUser(c.loaded)),
  },
  personas: {
    description: 'the offline customer of a persona (impatient, vague, contradictory, off-policy), from the task',
    needsModel: false,
    create: (c) => (c.persona ? scriptedPersonaUser(c.persona, c.task) : confirmingUser(c.loaded)),
  },
  // Registration point: the replay user (a recorded trajectory's user turns) registers here.
};

/** The kind registered under `name`; throws {@link BadInputError} listing the known kinds. */
export function getUserKind(name: string): UserKind {
  const k = userKinds[name];
  if (!k) throw new BadInputError(`unknown user simulator '${name}' (known: ${Object.keys(userKinds).join(', ')})`);
  return k;
}
