/**
 * The oracle agent: performs a task's gold actions and reports what the task says must be
 * communicated, so a perfect run scores 1 (a check of the task and of the evaluator, and a
 * ceiling for reports).
 *
 * Turns: one tool call per gold action whose requestor is `assistant`, in the task's order
 * (user-requestor actions are the user's to perform: skipped, or with `instructUser` asked of
 * the customer in one message per run of consecutive user actions) — with `confirmWrites`, each
 * write is preceded by a text message that summarises it and asks the customer to confirm
 * (policy: explicit "yes" before every write); then one text message with the task's
 * `servicegym.gold_messages` and every `communicate_info` string verbatim (tau2's communicate
 * rule matches substrings, case-insensitively, after removing commas from the message only);
 * then, if the conversation goes on, `###STOP###` (an `agent_stop`).
 *
 * Confirmation, as a policy-following agent obtains it: the write is made only after the
 * customer's reply to the request is an explicit yes by the confirmation classifier
 * (src/evaluation/confirmation/classify.ts) — the same reading the `confirmation_before_write`
 * check makes. A reply that is not (a change of mind with a conditional yes, a yes with another
 * request attached, a hedge, a no) gets the request again ({@link oracleReconfirmation}), up to
 * {@link MAX_CONFIRMATION_REQUESTS} requests in all; without a yes by then the oracle makes no
 * further call, says so ({@link ORACLE_NO_CONSENT}) and ends the conversation.
 */
import type { AssistantMessage, ChatMessage, ToolCall } from '../spec/messages.js';
import type { Task } from '../spec/task.js';
import { AGENT_STOP_TOKEN, type Agent, type AgentTurn } from './agent.js';
import { call, say, stop, type ScriptStep } from './scripted-agent.js';
import { deviceInstruction, goldSegments } from '../users/gold-user.js';
import { classifyReply } from '../evaluation/confirmation/classify.js';
import { textOf } from '../evaluation/trace-index.js';

/** The oracle's report: every info string on its own line, or a plain closing line when there is none. */
export function oracleReport(info: readonly string[]): string {
  if (info.length === 0) return 'Your request has been taken care of.';
  return `Your request has been taken care of. The details:\n${info.map((s) => `- ${s}`).join('\n')}`;
}

/** The confirmation request the oracle sends before a write (answered by validate's scripted user): the call, with amounts in cents also in dollars. */
export function oracleConfirmation(name: string, args: unknown): string {
  // Amounts kept in cents (`amount_cents: 28573`) are also said in dollars, as a person reads them.
  const money = Object.entries(args && typeof args === 'object' ? (args as Record<string, unknown>) : {})
    .filter(([k, v]) => /_cents$/.test(k) && Number.isInteger(v))
    .map(([k, v]) => `${k.replace(/_cents$/, '').replace(/_/g, ' ')} $${((v as number) / 100).toFixed(2)}`);
  return `Before I go ahead: I will call ${name} with ${JSON.stringify(args)}${money.length ? ` (${money.join(', ')})` : ''}. Shall I proceed?`;
}

/** The request again, after a reply that was not an explicit yes: it asks for a clear answer and names the write in full once more. */
export function oracleReconfirmation(name: string, args: unknown): string {
  return `I need a clear yes or no before I make this change, and this change is the only one I will make. ${oracleConfirmation(name, args)}`;
}

/** How many times the oracle asks to confirm one write before it gives up without writing. */
export const MAX_CONFIRMATION_REQUESTS = 4;

/** What the oracle says when no explicit yes came for a write (it then ends the conversation without the write). */
export const ORACLE_NO_CONSENT = 'Without your clear confirmation I will not make this change, so I have left everything as it is.';

/** Presentation options; the actions and the info always come from the task. */
export interface OracleAgentOptions {
  /** `messages[0]`; default names the task. */
  systemPrompt?: string;
  /** Tool-call id prefix; default `oracle_`. */
  idPrefix?: string;
  /** Builds the final report from `communicate_info`; default {@link oracleReport}. */
  report?: (info: readonly string[]) => string;
  /** Tool names that write: each such gold action is preceded by a confirmation request. */
  confirmWrites?: (toolName: string) => boolean;
  /**
   * Ask the customer to perform each run of user-requestor gold actions on their device (a
   * `deviceInstruction` message, answered by `GoldUser`); default false: they are skipped.
   */
  instructUser?: boolean;
  /** Perform the user-requestor gold actions itself, as tool calls (tau2 solo mode); default false. */
  performUserActions?: boolean;
}

/** One entry of the oracle's plan: a plain turn, or a write made only once the customer confirms it. */
type PlanEntry = { kind: 'turn'; step: ScriptStep } | { kind: 'confirmed'; name: string; arguments: Record<string, unknown> };

/** The customer's last text message after the agent's last text message (the reply to it), or null. */
function replyToLastRequest(messages: readonly ChatMessage[]): string | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === 'user' && textOf(m) !== '') return textOf(m);
    if (m.role === 'assistant' && textOf(m) !== '') return null;
  }
  return null;
}

/** See the module doc. `task.evaluation_criteria` may be absent: the oracle then only reports and stops. */
export class OracleAgent implements Agent {
  private plan: PlanEntry[];
  private next = 0;
  /** Confirmation requests made for the write at `next` (0: not asked yet). */
  private asked = 0;
  private ids = 0;
  private readonly prompt: string;
  private readonly idPrefix: string;

  constructor(task: Task, opts: OracleAgentOptions = {}) {
    const criteria = task.evaluation_criteria;
    const info = criteria?.communicate_info ?? [];
    const gold = task.servicegym?.gold_messages ?? [];
    const report = [...gold, (opts.report ?? oracleReport)(info)].join('\n');
    const turn = (step: ScriptStep): PlanEntry => ({ kind: 'turn', step });
    const steps = goldSegments(task).flatMap((seg): PlanEntry[] =>
      seg.requestor === 'user' && !opts.performUserActions
        ? opts.instructUser
          ? [turn(say(deviceInstruction(seg.actions)))]
          : []
        : seg.actions.map((a) => (opts.confirmWrites?.(a.name) ? { kind: 'confirmed', name: a.name, arguments: a.arguments } : turn(call(a.name, a.arguments)))),
    );
    this.plan = [...steps, turn(say(report)), turn(stop())];
    this.prompt = opts.systemPrompt ?? `Oracle agent: performs the gold actions of task ${task.id}.`;
    this.idPrefix = opts.idPrefix ?? 'oracle_';
  }

  systemPrompt(): string {
    return this.prompt;
  }

  /** The next turn of the plan (see the module doc); after the plan, `###STOP###`. */
  async step(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    const entry = this.plan[this.next];
    if (entry === undefined) return { message: { role: 'assistant', content: AGENT_STOP_TOKEN } };
    if (entry.kind === 'turn') {
      this.next++;
      return { message: this.render(entry.step) };
    }
    return { message: this.render(this.confirmedWrite(entry, messages)) };
  }

  /** A confirmed write's turn: the request, the request again after a reply that is not a yes, the call after a yes, or giving up. */
  private confirmedWrite(entry: Extract<PlanEntry, { kind: 'confirmed' }>, messages: readonly ChatMessage[]): ScriptStep {
    if (this.asked === 0) {
      this.asked = 1;
      return say(oracleConfirmation(entry.name, entry.arguments));
    }
    const reply = replyToLastRequest(messages);
    if (reply !== null && classifyReply(reply).label === 'yes') {
      this.asked = 0;
      this.next++;
      return call(entry.name, entry.arguments);
    }
    if (this.asked < MAX_CONFIRMATION_REQUESTS) {
      this.asked++;
      return say(oracleReconfirmation(entry.name, entry.arguments));
    }
    // No consent: no write, and nothing after it; the conversation ends.
    this.plan = [...this.plan.slice(0, this.next), { kind: 'turn', step: stop() }];
    return say(ORACLE_NO_CONSENT);
  }

  private render(step: ScriptStep): AssistantMessage {
    if (step.kind === 'say') return { role: 'assistant', content: step.text };
    if (step.kind === 'raw') return { role: 'assistant', ...step.message };
    return { role: 'assistant', content: null, tool_calls: step.calls.map((c) => this.toolCall(c.name, c.arguments)) };
  }

  private toolCall(name: string, args: unknown): ToolCall {
    return { id: `${this.idPrefix}${++this.ids}`, type: 'function', function: { name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) } };
  }
}
