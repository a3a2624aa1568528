/**
 * The user-simulator registry: an explicit map from kind to factory (`llm`, `scripted`,
 * `personas`, `ticket`, and — registered beside them — `replay`). The episode builder asks the registry,
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
import { GoldUser } from './gold-user.js';
import { ReplayUser } from './replay-user.js';
import { toWireTool } from '../env/wire-tools.js';
import type { ChatMessage, WireTool } from '../spec/messages.js';

/** The customer's own tools (dual control: the device tools of tau2 telecom), as OpenAI `tools[]`; empty for most domains. */
export function userSideTools(loaded: LoadedDomain<any>): WireTool[] {
  return loaded.domain.tools.filter((t) => t.requestor === 'user').map(toWireTool);
}

/** Whether the task's gold has actions the customer performs on their own side (dual control). */
export function userActs(loaded: LoadedDomain<any>, task: Task): boolean {
  return loaded.domain.tools.some((t) => t.requestor === 'user') && (task.evaluation_criteria?.actions ?? []).some((a) => a.requestor === 'user');
}

/**
 * Solo mode's only "customer" (tau2 solo): opens with the task's ticket and says nothing more, so
 * the episode ends (`user_stop`) at the agent's first text reply. Throws BadInputError for a task
 * without a ticket.
 */
export function ticketUser(task: Task): User {
  if (!task.ticket) throw new BadInputError(`task ${task.id} has no ticket, which solo mode needs`);
  return new ScriptedUser([task.ticket]);
}

/** The offline customer when no script or persona is given: the gold customer with user-side gold actions, else the confirming customer. */
function offlineCustomer(c: UserContext): User {
  return userActs(c.loaded, c.task) ? new GoldUser(c.task) : confirmingUser(c.loaded);
}

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
  /** The recorded trajectory a `replay` customer plays back (its user messages and own tool calls). */
  trajectory?: readonly ChatMessage[];
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
      const modifiers = [...(c.modifiers ?? []), ...(c.persona ? personaModifiers(c.persona, c.task, c.loaded.personaText) : [])];
      const tools = userSideTools(c.loaded);
      return new LLMUserSimulator({ model: c.model, scenario: c.task.user_scenario, modifiers, temperature: c.temperature, seed: c.seed, tools: tools.length ? tools : undefined });
    },
  },
  scripted: {
    description: "fixed replies (default: the domain's opening line, then yes to every confirmation request)",
    needsModel: false,
    create: (c) => (c.replies ? new ScriptedUser(c.replies, { rules: c.rules }) : offlineCustomer(c)),
  },
  personas: {
    description: 'the offline customer of a persona (impatient, vague, contradictory, off-policy), from the task',
    needsModel: false,
    create: (c) => (c.persona ? scriptedPersonaUser(c.persona, c.task, c.loaded.personaText) : offlineCustomer(c)),
  },
  replay: {
    description: "a recorded trajectory's user turns, in order, the customer's own tool calls included",
    needsModel: false,
    create: (c) => {
      if (!c.trajectory) throw new BadInputError('the replay user simulator needs a recorded trajectory');
      return new ReplayUser(c.trajectory);
    },
  },
  ticket: {
    description: "no live customer: the task's ticket opens the episode and the agent's replies go to the ticket (helpdesk work); the episode ends at the agent's first text message",
    needsModel: false,
    create: (c) => ticketUser(c.task),
  },
};

/** The kind registered under `name`; throws {@link BadInputError} listing the known kinds. */
export function getUserKind(name: string): UserKind {
  const k = userKinds[name];
  if (!k) throw new BadInputError(`unknown user simulator '${name}' (known: ${Object.keys(userKinds).join(', ')})`);
  return k;
}
