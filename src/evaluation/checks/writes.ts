/**
 * The one place confirmation, forbidden-write and extra-write checks read an episode's writes
 * from: the agent's writes in order, each with the index of the message that caused it. Today
 * they come from the tool log aligned with the messages ({@link indexToolCalls}); the back-end
 * action log (src/spec/action-log.ts: `writesOf`, `cause.message_index`) has the same shape, so
 * pointing these checks at it changes only this file.
 */
import { describeCall } from '../trace-index.js';
import type { CheckContext } from './context.js';

/** One write of the agent. */
export interface WriteAction {
  /** Position in the episode's log (`#seq` in evidence). */
  seq: number;
  name: string;
  arguments: unknown;
  /** Index in `messages` of the assistant message whose tool call caused it (null: not from a message). */
  message: number | null;
  /** True when the write succeeded (it changed, or could have changed, state). */
  mutating: boolean;
  /** `#3 cancel_reservation {"reservation_id":"3PZK9W"}` for evidence. */
  label: string;
}

/**
 * The agent's writes in log order: successful write-tool calls (`mutating`), or — with `tools` —
 * every call (failed ones included) of those tools.
 */
export function agentWrites(ctx: Pick<CheckContext, 'calls'>, tools?: readonly string[]): WriteAction[] {
  return ctx.calls
    .filter((c) => c.entry.requestor === 'assistant' && (tools ? tools.includes(c.entry.name) : c.entry.mutating))
    .map((c) => ({ seq: c.step, name: c.entry.name, arguments: c.entry.arguments, message: c.message, mutating: c.entry.mutating, label: describeCall(c) }));
}
