/**
 * The oracle's customer for tasks where the customer acts too (tau2 telecom's dual control): it
 * opens the conversation, answers the oracle agent's confirmation requests with yes, and when the
 * agent asks it to act on its own device (a message containing {@link DEVICE_INSTRUCTION_MARKER})
 * it performs the task's next run of consecutive user-requestor gold actions as its own tool
 * calls, one call per turn, then says it is done. When the agent's report ends the conversation,
 * it stops. With this user and the oracle agent, `validate` proves every task solvable with the
 * gold agent and user actions, each executed by its own side.
 *
 * The device part is {@link DeviceSteps}, which the scripted persona customers
 * (`persona-user.ts`) share: a persona changes how the customer talks, never what they do on
 * their phone.
 */
import type { ToolCall } from '../spec/messages.js';
import type { Task } from '../spec/task.js';
import type { User, UserTurn, Utterance } from './user.js';

/** What the oracle agent's device instructions begin with. */
export const DEVICE_INSTRUCTION_MARKER = 'On your phone, please do the following';

/** What the customer says once a run of device actions is done (default of {@link DeviceSteps}). */
export const DEVICE_DONE = 'Done, I have done that on my phone.';

/** One gold action: a tool name and its arguments. */
export interface GoldCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The oracle agent's instruction for one run of user actions (names and arguments, in order). */
export function deviceInstruction(actions: readonly { name: string; arguments: unknown }[]): string {
  return `${DEVICE_INSTRUCTION_MARKER}: ${actions.map((a) => `${a.name} ${JSON.stringify(a.arguments)}`).join('; ')}. Tell me when you are done.`;
}

/** The task's gold actions grouped into runs of consecutive actions of one requestor. */
export function goldSegments(task: Task): { requestor: 'assistant' | 'user'; actions: GoldCall[] }[] {
  const out: { requestor: 'assistant' | 'user'; actions: GoldCall[] }[] = [];
  for (const a of task.evaluation_criteria?.actions ?? []) {
    const last = out[out.length - 1];
    if (last && last.requestor === a.requestor) last.actions.push({ name: a.name, arguments: a.arguments });
    else out.push({ requestor: a.requestor, actions: [{ name: a.name, arguments: a.arguments }] });
  }
  return out;
}

/** The task's runs of consecutive user-requestor gold actions, in order (empty without dual control). */
export function userActionRuns(task: Task): GoldCall[][] {
  return goldSegments(task)
    .filter((s) => s.requestor === 'user')
    .map((s) => s.actions);
}

/**
 * The customer's device work in a dual-control episode: when the agent's latest message asks
 * for it ({@link DEVICE_INSTRUCTION_MARKER}), the next run of `runs` is performed as the
 * customer's own tool calls, one per turn (ids `user_0`, `user_1`, … per episode), then `done` is
 * said. One instance per episode (it keeps turn state).
 */
export class DeviceSteps {
  private readonly runs: GoldCall[][];
  private pending: GoldCall[] = [];
  private acting = false;
  private seq = 0;

  constructor(runs: readonly (readonly GoldCall[])[], private readonly done: string = DEVICE_DONE) {
    this.runs = runs.map((r) => [...r]);
  }

  /**
   * The customer's turn when device work is under way or just asked for (the next tool call, or
   * `done` once the run is over); null when the turn is not about the device, so the caller
   * answers it. A device instruction after the last run is not device work (null).
   */
  turn(transcript: readonly Utterance[]): UserTurn | null {
    if (!this.acting) {
      const last = transcript[transcript.length - 1];
      if (last?.from !== 'agent' || !last.text.includes(DEVICE_INSTRUCTION_MARKER) || this.runs.length === 0) return null;
      this.pending = this.runs.shift()!;
      this.acting = true;
    }
    const next = this.pending.shift();
    if (next) return { kind: 'tool_calls', calls: [this.toolCall(next)] };
    this.acting = false;
    return { kind: 'message', text: this.done };
  }

  private toolCall(a: GoldCall): ToolCall {
    return { id: `user_${this.seq++}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } };
  }
}

const CONFIRM = /\b(shall I proceed|do you confirm|confirm)\b[^?]*\?/i;

/** See the module doc. */
export class GoldUser implements User {
  private readonly device: DeviceSteps;
  private opened = false;

  constructor(task: Task, private readonly opening = 'Hello, I need help with a problem.') {
    this.device = new DeviceSteps(userActionRuns(task));
  }

  async respond(transcript: readonly Utterance[]): Promise<UserTurn> {
    if (!this.opened) {
      this.opened = true;
      return { kind: 'message', text: this.opening };
    }
    const device = this.device.turn(transcript);
    if (device) return device;
    const last = transcript[transcript.length - 1];
    if (last?.from === 'agent' && CONFIRM.test(last.text)) return { kind: 'message', text: 'Yes, please proceed.' };
    return { kind: 'stop', signal: 'stop', text: null };
  }
}
