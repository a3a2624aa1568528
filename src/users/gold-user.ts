/**
 * The oracle's customer for tasks where the customer acts too (tau2 telecom's dual control): it
 * opens the conversation, answers the oracle agent's confirmation requests with yes, and when the
 * agent asks it to act on its own device (a message containing {@link DEVICE_INSTRUCTION_MARKER})
 * it performs the task's next run of consecutive user-requestor gold actions as its own tool
 * calls, one call per turn, then says it is done. When the agent's report ends the conversation,
 * it stops. With this user and the oracle agent, `validate` proves every task solvable with the
 * gold agent and user actions, each executed by its own side.
 */
import type { ToolCall } from '../spec/messages.js';
import type { Task } from '../spec/task.js';
import type { User, UserTurn, Utterance } from './user.js';

/** What the oracle agent's device instructions begin with. */
export const DEVICE_INSTRUCTION_MARKER = 'On your phone, please do the following';

/** The oracle agent's instruction for one run of user actions (names and arguments, in order). */
export function deviceInstruction(actions: readonly { name: string; arguments: unknown }[]): string {
  return `${DEVICE_INSTRUCTION_MARKER}: ${actions.map((a) => `${a.name} ${JSON.stringify(a.arguments)}`).join('; ')}. Tell me when you are done.`;
}

/** The task's gold actions grouped into runs of consecutive actions of one requestor. */
export function goldSegments(task: Task): { requestor: 'assistant' | 'user'; actions: { name: string; arguments: Record<string, unknown> }[] }[] {
  const out: { requestor: 'assistant' | 'user'; actions: { name: string; arguments: Record<string, unknown> }[] }[] = [];
  for (const a of task.evaluation_criteria?.actions ?? []) {
    const last = out[out.length - 1];
    if (last && last.requestor === a.requestor) last.actions.push({ name: a.name, arguments: a.arguments });
    else out.push({ requestor: a.requestor, actions: [{ name: a.name, arguments: a.arguments }] });
  }
  return out;
}

const CONFIRM = /\b(shall I proceed|do you confirm|confirm)\b[^?]*\?/i;

/** See the module doc. */
export class GoldUser implements User {
  private readonly runs: { name: string; arguments: Record<string, unknown> }[][];
  private pending: { name: string; arguments: Record<string, unknown> }[] = [];
  private acting = false;
  private opened = false;
  private seq = 0;

  constructor(task: Task, private readonly opening = 'Hello, I need help with a problem.') {
    this.runs = goldSegments(task)
      .filter((s) => s.requestor === 'user')
      .map((s) => s.actions);
  }

  async respond(transcript: readonly Utterance[]): Promise<UserTurn> {
    if (this.acting) {
      const next = this.pending.shift();
      if (next) return { kind: 'tool_calls', calls: [this.toolCall(next)] };
      this.acting = false;
      return { kind: 'message', text: 'Done, I have done that on my phone.' };
    }
    if (!this.opened) {
      this.opened = true;
      return { kind: 'message', text: this.opening };
    }
    const last = transcript[transcript.length - 1];
    if (last?.from === 'agent' && last.text.includes(DEVICE_INSTRUCTION_MARKER) && this.runs.length > 0) {
      this.pending = [...this.runs.shift()!];
      this.acting = true;
      return this.respond(transcript);
    }
    if (last?.from === 'agent' && CONFIRM.test(last.text)) return { kind: 'message', text: 'Yes, please proceed.' };
    return { kind: 'stop', signal: 'stop', text: null };
  }

  private toolCall(a: { name: string; arguments: Record<string, unknown> }): ToolCall {
    return { id: `user_${this.seq++}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } };
  }
}
