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
 */
import type { ChatMessage } from '../spec/messages.js';
import type { Task } from '../spec/task.js';
import type { Agent, AgentTurn } from './agent.js';
import { ScriptedAgent, call, say, stop } from './scripted-agent.js';
import { deviceInstruction, goldSegments } from '../users/gold-user.js';

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

/** See the module doc. `task.evaluation_criteria` may be absent: the oracle then only reports and stops. */
export class OracleAgent implements Agent {
  private readonly inner: ScriptedAgent;

  constructor(task: Task, opts: OracleAgentOptions = {}) {
    const criteria = task.evaluation_criteria;
    const info = criteria?.communicate_info ?? [];
    const gold = task.servicegym?.gold_messages ?? [];
    const report = [...gold, (opts.report ?? oracleReport)(info)].join('\n');
    const steps = goldSegments(task).flatMap((seg) =>
      seg.requestor === 'user' && !opts.performUserActions
        ? opts.instructUser
          ? [say(deviceInstruction(seg.actions))]
          : []
        : seg.actions.flatMap((a) =>
            opts.confirmWrites?.(a.name) ? [say(oracleConfirmation(a.name, a.arguments)), call(a.name, a.arguments)] : [call(a.name, a.arguments)],
          ),
    );
    this.inner = new ScriptedAgent(
      [...steps, say(report), stop()],
      {
        systemPrompt: opts.systemPrompt ?? `Oracle agent: performs the gold actions of task ${task.id}.`,
        idPrefix: opts.idPrefix ?? 'oracle_',
      },
    );
  }

  systemPrompt(): string {
    return this.inner.systemPrompt();
  }

  step(messages: readonly ChatMessage[]): Promise<AgentTurn> {
    return this.inner.step(messages);
  }
}
