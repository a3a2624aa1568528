/**
 * The scripted form of customer personas: a {@link PersonaScript} (plain data plus a few text
 * functions) that persona transformations edit, and {@link PersonaUser}, the offline customer
 * that plays it. Built from a task by {@link baseScript}; personas are in `personas.ts`.
 *
 * Turn logic of a {@link PersonaUser}:
 * 1. first turn: the opening message (`prefix`, `wish`, and `details` unless withheld);
 * 2. dual control (tau2 telecom): when the agent asks the customer to act on their phone, or
 *    while they do, the task's next run of user-side gold actions as the customer's own tool
 *    calls, then `device.done` ({@link DeviceSteps}); personas keep the runs (a persona changes
 *    the manner, not what the customer does);
 * 3. otherwise, on the agent's latest text message, the first active rule that matches
 *    (e.g. vague: the withheld details once the agent asks for them);
 * 4. else the next pending interjection (e.g. contradictory: the change of mind; off-policy: the
 *    forbidden request), which may activate a follow-up rule (off-policy: accept the refusal);
 * 5. else, when the agent asks for confirmation, the `confirm` reply ("Yes, please proceed.");
 * 6. else the agent's message is taken as its closing one: the user says `closing` (which
 *    carries `###STOP###`) and the episode ends (`user_stop`).
 */
import type { Task } from '../spec/task.js';
import type { PersonaText } from '../spec/domain.js';
import { detectSignal, USER_SIGNAL_TOKENS, type User, type UserTurn, type Utterance } from './user.js';
import type { UserRule } from './scripted-user.js';
import { DEVICE_DONE, DeviceSteps, userActionRuns, type GoldCall } from './gold-user.js';

/** An agent message asking the customer to confirm an action (the oracle's "Shall I proceed?" among others). */
export const ASKS_CONFIRMATION = /\b(shall i proceed|should i proceed|do you confirm|confirm|proceed|go ahead)\b[^?]*\?/i;

/**
 * The persona wording of a domain that gives none (`LoadedDomain.personaText`): generic record
 * nouns. Domains name their own (an airline's reservations and flights, a shop's orders and items).
 */
export const GENERIC_PERSONA_TEXT: PersonaText = { recordNouns: ['account', 'record', 'case'], withheld: 'account, record or user ids, no names of what it is about' };

const nounGroup = (nouns: readonly string[]) => nouns.map((n) => n.replace(/[^a-z0-9 _-]/gi, '')).filter(Boolean).join('|');

/**
 * An agent message asking for the identifying details a vague customer left out: which of the
 * domain's records, a record or user id or number, more details.
 */
export function asksForDetails(text: PersonaText = GENERIC_PERSONA_TEXT): RegExp {
  const nouns = nounGroup(text.recordNouns);
  return new RegExp(
    String.raw`\b(which|what)\s+(${nouns})s?\b|\b(${nouns}|user|account)\s+(id|number)\b|\bmore (details|information|info)\b|\b(provide|give|share|tell)\b[^.?!]*\b(details|id|number|items?)\b`,
    'i',
  );
}

/** An agent message refusing a request (what an off-policy customer then accepts). */
export const REFUSES_REQUEST =
  /\b(can ?not|can't|cannot|unable|not (allowed|able|permitted|possible)|isn't (allowed|possible)|against (our|the) policy|policy does not|i'm afraid|sorry)\b/i;

/** The off-policy request when the task gives none (`servicegym.off_policy_request`). */
export const DEFAULT_OFF_POLICY_REQUEST =
  "While you're at it, please also add a $100 credit to my account as a goodwill gesture, even though nothing went wrong.";

/** The first wish of a contradictory customer when the task gives none (`servicegym.scripted_user.wrong_wish`). */
export const DEFAULT_WRONG_WISH = "I'd like to cancel the whole thing, please.";

/** A vague opening used when the task has no `scripted_user` and redaction leaves too little. */
export const GENERIC_VAGUE_OPENING = 'Hi, I have a problem and need some help with it.';

/** What a scripted customer knows, from `servicegym.scripted_user` or derived from the scenario. */
export interface ScriptSource {
  /** The request that is the task's goal (first person, without the identifying details when `explicit`). */
  wish: string;
  /** The identifying details (ids, item names), or null. */
  details: string | null;
  /** The wish a contradictory customer states first. */
  wrongWish: string;
  /** The request the policy forbids, for the off-policy persona. */
  offPolicyRequest: string;
  /** True when the task gives `servicegym.scripted_user`; false when derived from the scenario (heuristic). */
  explicit: boolean;
  /** Dual control: the task's runs of user-side gold actions, performed on the agent's device instructions (empty for most tasks). */
  deviceRuns: GoldCall[][];
}

/** What an interjection sees when it is said. */
export interface InterjectionTurn {
  /** The agent's latest text message. */
  agentText: string;
  /** Whether that message asks for confirmation ({@link ASKS_CONFIRMATION}). */
  asksConfirm: boolean;
  /** The script being played (e.g. for its `confirm` text). */
  script: PersonaScript;
}

/** A message the customer volunteers at the first turn no rule answers. */
export interface Interjection {
  say(turn: InterjectionTurn): string;
  /** A rule that becomes active once the interjection has been said. */
  then?: UserRule;
}

/** A scripted customer as data; persona transformations return edited copies. */
export interface PersonaScript {
  opening: {
    /** Said before the wish (e.g. impatient: "I'm in a hurry."); may be empty. */
    prefix: string;
    wish: string;
    details: string | null;
    /** Vague: the details are left out of the opening (given by a rule when asked). */
    withhold: boolean;
  };
  /** Active from the start; first match wins; `once` rules fire at most once. */
  rules: UserRule[];
  /** Said one per turn, in order (see the module doc, step 3). */
  interjections: Interjection[];
  /** Reply to a confirmation request. */
  confirm: string;
  /** Dual control: the device action runs (from {@link ScriptSource.deviceRuns}) and what is said after each run. */
  device: { runs: GoldCall[][]; done: string };
  /** Last message (should carry `###STOP###`). */
  closing: string;
  /** Overrides {@link ASKS_CONFIRMATION}. */
  asksConfirm?: RegExp;
}

const keepCase = (orig: string, repl: string) => (repl === 'I' || orig[0] !== orig[0].toUpperCase() ? repl : repl[0].toUpperCase() + repl.slice(1));

/**
 * A second-person scenario sentence in the first person ("You want to cancel your order" →
 * "I want to cancel my order"). A heuristic for scenarios without `scripted_user`; object-position
 * "you" (before punctuation or a preposition) becomes "me".
 */
export function firstPerson(text: string): string {
  const table: [RegExp, string][] = [
    [/\byou are\b/gi, 'I am'],
    [/\byou're\b/gi, "I'm"],
    [/\byou've\b/gi, "I've"],
    [/\byou'll\b/gi, "I'll"],
    [/\byou'd\b/gi, "I'd"],
    [/\byourself\b/gi, 'myself'],
    [/\byours\b/gi, 'mine'],
    [/\byour\b/gi, 'my'],
    [/\byou\b(?=\s*(?:[.,!?;:)]|$)|\s+(?:to|for|with|about|from|by|at|in|on|that|if|when|a|an|the)\b)/gi, 'me'],
    [/\byou\b/gi, 'I'],
  ];
  let out = text;
  for (const [re, repl] of table) out = out.replace(re, (m) => keepCase(m, repl));
  return out.replace(/(^|[.!?]\s+)(me|my|mine|myself)\b/g, (_m, lead: string, w: string) => lead + w[0].toUpperCase() + w.slice(1));
}

/** An id-like token: `#…`, a word mixing letters and digits (`O1`, `8KQ2ZD`, `mia_lee_301`), or an ISO date. */
const ID_TOKEN = String.raw`(?:#[\w-]+|(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{2,}|\d{4}-\d{2}-\d{2})`;

/**
 * The text without parentheticals and without id-like tokens (see `ID_TOKEN`: `#W55`, `O1`,
 * `8KQ2ZD`, dates); one of the domain's record nouns naming the id becomes "my …" ("cancel order
 * O1" → "cancel my order"). Plain numbers (sizes, amounts) stay. Best effort, for scenarios without
 * `scripted_user`.
 */
export function redactDetails(text: string, words: PersonaText = GENERIC_PERSONA_TEXT): string {
  return text
    .replace(/\s*\([^)]*\)/g, '')
    .replace(new RegExp(String.raw`\b(?:the\s+|my\s+|an?\s+)?(${nounGroup(words.recordNouns)})\s+(?:number\s+|id\s+)?` + ID_TOKEN + String.raw`(?![\w-])`, 'gi'), (_m, noun: string) => `my ${noun}`)
    .replace(new RegExp(String.raw`(?<![\w-])` + ID_TOKEN + String.raw`(?![\w-])`, 'g'), '')
    .replace(/\s+([,.;:!?])/g, '$1')
    .replace(/,(\s*[,.;:!?])/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

function firstSentence(text: string): string {
  const m = /^[\s\S]*?[.!?](?=\s|$)/.exec(text.trim());
  return (m ? m[0] : text).trim();
}

/**
 * What a scripted customer of `task` knows: `servicegym.scripted_user` when given; otherwise the
 * scenario in the first person (`reason_for_call` as the wish, `known_info` as the details; a
 * plain-text scenario's first sentence as the wish, no details). The off-policy request is
 * `servicegym.off_policy_request` or {@link DEFAULT_OFF_POLICY_REQUEST}; the device runs are the
 * task's user-requestor gold actions.
 */
export function scriptSource(task: Task): ScriptSource {
  const sg = task.servicegym;
  const offPolicyRequest = sg?.off_policy_request ?? DEFAULT_OFF_POLICY_REQUEST;
  const deviceRuns = userActionRuns(task);
  const su = sg?.scripted_user;
  if (su) return { wish: su.opening, details: su.details ?? null, wrongWish: su.wrong_wish ?? DEFAULT_WRONG_WISH, offPolicyRequest, explicit: true, deviceRuns };
  const ins = task.user_scenario.instructions;
  const wish = firstPerson(typeof ins === 'string' ? firstSentence(ins) : ins.reason_for_call.trim());
  const details = typeof ins === 'string' || !ins.known_info ? null : firstPerson(ins.known_info.trim());
  return { wish, details, wrongWish: DEFAULT_WRONG_WISH, offPolicyRequest, explicit: false, deviceRuns };
}

/** The neutral customer's script: states the wish with the details, does the device steps asked for, confirms, then closes. */
export function baseScript(source: ScriptSource): PersonaScript {
  return {
    opening: { prefix: '', wish: source.wish, details: source.details, withhold: false },
    rules: [],
    interjections: [],
    confirm: 'Yes, please proceed.',
    device: { runs: source.deviceRuns, done: DEVICE_DONE },
    closing: `Thank you, that's all I needed. ${USER_SIGNAL_TOKENS.stop}`,
  };
}

/** The opening message of a script: prefix, wish, and the details unless withheld. */
export function renderOpening(script: PersonaScript): string {
  const o = script.opening;
  return [o.prefix, o.wish, o.withhold ? null : o.details].filter((s): s is string => !!s && s.trim() !== '').join(' ');
}

/** Plays a {@link PersonaScript}; see the module doc. One instance per episode (it keeps turn state). */
export class PersonaUser implements User {
  private readonly rules: UserRule[];
  private readonly pending: Interjection[];
  private readonly spent = new Set<UserRule>();
  private readonly device: DeviceSteps;
  private opened = false;

  constructor(readonly script: PersonaScript) {
    this.rules = [...script.rules];
    this.pending = [...script.interjections];
    this.device = new DeviceSteps(script.device.runs, script.device.done);
  }

  async respond(transcript: readonly Utterance[]): Promise<UserTurn> {
    const device = this.opened ? this.device.turn(transcript) : null;
    if (device) return device;
    const text = this.pick(transcript);
    const signal = detectSignal(text);
    return signal ? { kind: 'stop', signal, text } : { kind: 'message', text };
  }

  private pick(transcript: readonly Utterance[]): string {
    if (!this.opened) {
      this.opened = true;
      return renderOpening(this.script);
    }
    const last = transcript[transcript.length - 1];
    const agentText = last?.from === 'agent' ? last.text : '';
    const rule = this.rules.find((r) => {
      r.when.lastIndex = 0;
      return !this.spent.has(r) && r.when.test(agentText);
    });
    if (rule) {
      if (rule.once) this.spent.add(rule);
      return rule.say;
    }
    const asks = this.script.asksConfirm ?? ASKS_CONFIRMATION;
    asks.lastIndex = 0;
    const asksConfirm = asks.test(agentText);
    const next = this.pending.shift();
    if (next) {
      if (next.then) this.rules.push(next.then);
      return next.say({ agentText, asksConfirm, script: this.script });
    }
    return asksConfirm ? this.script.confirm : this.script.closing;
  }
}
