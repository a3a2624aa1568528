/**
 * The user simulator's system prompt (servicegym's own wording; the structure follows tau2:
 * general guidelines, then the scenario, with the instruction fields labelled).
 */
import type { UserScenario } from '../spec/task.js';
import { USER_SIGNAL_TOKENS } from './user.js';

/** General guidelines for playing the customer. */
export const USER_GUIDELINES = [
  'You are playing a customer who is chatting with a customer service agent. Stay in this role for the whole conversation: you are the customer, never the agent.',
  '',
  'How to play the customer:',
  '- Write one message per turn, as a real customer would type it: short, natural, in your own words. Do not copy the scenario text word for word.',
  '- Follow the scenario below strictly. Your goal is the one it describes; do not drift to other requests.',
  '- Never make up facts (names, ids, numbers, dates, preferences) that the scenario does not give you. If the agent asks for something you do not know, say you do not have it.',
  '- Share a piece of information only when the agent asks for it or when the conversation cannot move on without it.',
  '- When the agent asks you to confirm an action, answer the question; then wait for the agent to tell you the outcome before you end the conversation.',
  '',
  'Ending the conversation (write the token exactly, at the end of your message):',
  `- ${USER_SIGNAL_TOKENS.stop} when your goal has been met, or when it clearly cannot be met.`,
  `- ${USER_SIGNAL_TOKENS.transfer} when the agent has transferred you to a human agent.`,
  `- ${USER_SIGNAL_TOKENS.out_of_scope} when the scenario does not tell you enough to answer what the agent needs and you cannot go on.`,
  'Otherwise keep the conversation going and do not write any of these tokens.',
].join('\n');

/** The scenario as labelled lines: persona, then domain, reason for call, known info, unknown info, task instructions. */
export function renderScenario(scenario: UserScenario): string {
  const lines: string[] = [];
  if (scenario.persona) lines.push(`Persona:\n${scenario.persona}`);
  const ins = scenario.instructions;
  if (typeof ins === 'string') {
    lines.push(`Instructions:\n${ins}`);
  } else {
    lines.push(`Domain: ${ins.domain}`);
    lines.push(`Reason for call:\n${ins.reason_for_call}`);
    if (ins.known_info) lines.push(`Known info:\n${ins.known_info}`);
    if (ins.unknown_info) lines.push(`Unknown info:\n${ins.unknown_info}`);
    lines.push(`Task instructions:\n${ins.task_instructions}`);
  }
  return lines.join('\n\n');
}

/**
 * The full system prompt: {@link USER_GUIDELINES}, the scenario in `<scenario>` tags, and, when
 * `modifiers` is non-empty, a `<behaviour>` block listing them (persona modifiers such as
 * "impatient" or "gives vague answers"; they refine how the customer talks, never the goal).
 * A plain-string scenario is used as the instructions.
 */
export function userSystemPrompt(scenario: UserScenario | string, modifiers: readonly string[] = []): string {
  if (typeof scenario === 'string') return makeUserSystemPrompt(scenario, modifiers);
  // A task's scenario is a read-only value: its prompts are made once per object and modifiers.
  let made = userPrompts.get(scenario);
  if (!made) userPrompts.set(scenario, (made = new Map()));
  const key = modifiers.join('\u0000');
  let prompt = made.get(key);
  if (prompt === undefined) made.set(key, (prompt = makeUserSystemPrompt(scenario, modifiers)));
  return prompt;
}

/** Prompts made per scenario object, by their modifiers joined with NUL. */
const userPrompts = new WeakMap<UserScenario, Map<string, string>>();

/** {@link userSystemPrompt}, made afresh. */
function makeUserSystemPrompt(scenario: UserScenario | string, modifiers: readonly string[]): string {
  const sc: UserScenario = typeof scenario === 'string' ? { instructions: scenario } : scenario;
  let out = `${USER_GUIDELINES}\n\n<scenario>\n${renderScenario(sc)}\n</scenario>`;
  if (modifiers.length) {
    out += `\n\n<behaviour>\nAlso play the customer this way:\n${modifiers.map((m) => `- ${m}`).join('\n')}\n</behaviour>`;
  }
  return out;
}
