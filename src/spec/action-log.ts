/**
 * The back-end action log: every read and write the back-end performed during an episode,
 * whatever the surface that caused it (architecture notes, "The back-end action log is what checks
 * read"). On the API surface one agent tool call is one action; on a terminal, web or pixel
 * surface one agent action (a command line, a click) may cause zero or several back-end actions
 * (an end-transaction entry commits a PNR; a form submit calls the app's write). Ordering,
 * confirmation-before-write and forbidden-write checks read this log, never the agent's tool calls.
 */
import { z } from 'zod';

/** Who caused an action: the agent, the customer (dual control: the user's own device tools), or the harness (task initialisation). */
export const ActionRequestorSchema = z.enum(['assistant', 'user', 'system']);
export type ActionRequestor = z.infer<typeof ActionRequestorSchema>;

/**
 * The step that caused an action: the index in the episode's `messages` of the assistant (or
 * user) message whose tool call caused it, and that tool call's id. Absent for `system` actions.
 */
export const ActionCauseSchema = z.strictObject({
  message_index: z.number().int().nonnegative(),
  tool_call_id: z.string().optional(),
});
export type ActionCause = z.infer<typeof ActionCauseSchema>;

/** One back-end action. */
export const ActionLogEntrySchema = z.strictObject({
  /** 0-based position in the episode's action log. */
  seq: z.number().int().nonnegative(),
  requestor: ActionRequestorSchema,
  /** The back-end operation, named as the API domain names its tool (e.g. `cancel_reservation`). */
  name: z.string(),
  /** The operation's arguments as the back-end received them (parsed JSON). */
  arguments: z.unknown(),
  /** What the back-end answered, as the API tool would return it (text; `Error: …` on error). */
  result: z.string(),
  error: z.boolean(),
  /** True when the operation is a write and succeeded (it changed, or could have changed, state). */
  mutating: z.boolean(),
  cause: ActionCauseSchema.optional(),
});
export type ActionLogEntry = z.infer<typeof ActionLogEntrySchema>;

/** The mutating actions of a log, in order (what forbidden-write and confirmation checks read). */
export function writesOf(log: readonly ActionLogEntry[]): ActionLogEntry[] {
  return log.filter((a) => a.mutating);
}
