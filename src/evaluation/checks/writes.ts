/**
 * The one place confirmation and extra-write checks read an episode's writes from: the agent's
 * writes in order, each with the index of the message that caused it — read from the back-end
 * action log (src/spec/action-log.ts; `ctx.calls` is {@link indexActions} over it, each entry's
 * `cause.message_index` giving the message), so they hold whatever surface caused the write.
 */
import { describeCall, isRecord, jsonEqual, type indexActions } from '../trace-index.js';
import type { CheckResult } from '../types.js';
import type { CheckContext, CheckOf } from './context.js';

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

/**
 * `no_extra_writes`: every successful agent write is matched, in order, to a distinct gold write
 * action (requestor assistant) of the same tool whose `keys` arguments — those present in both —
 * are JSON-equal; unmatched writes are extra. Evidence names the extra writes, or counts the
 * matched ones.
 */
export function checkNoExtraWrites(check: CheckOf<'no_extra_writes'>, ctx: CheckContext): CheckResult {
  const writeTools = new Set(ctx.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
  const gold = (ctx.task.evaluation_criteria?.actions ?? []).filter((a) => a.requestor !== 'user' && writeTools.has(a.name));
  const used = new Set<number>();
  const arg = (v: unknown, k: string) => (isRecord(v) ? v[k] : undefined);
  const extra = agentWrites(ctx).filter((w) => {
    const i = gold.findIndex(
      (g, j) => !used.has(j) && g.name === w.name && check.keys.every((k) => arg(w.arguments, k) === undefined || g.arguments[k] === undefined || jsonEqual(arg(w.arguments, k), g.arguments[k])),
    );
    if (i < 0) return true;
    used.add(i);
    return false;
  });
  const keys = check.keys.length ? ` (matched on ${check.keys.join(', ')})` : '';
  if (extra.length === 0) return { id: check.id, kind: check.kind, verdict: 'pass', evidence: `every write matches a gold write action${keys}: ${used.size} of ${gold.length}` };
  return { id: check.id, kind: check.kind, verdict: 'fail', evidence: `write(s) beyond the gold actions${keys}: ${extra.map((w) => w.label).join(', ')}` };
}
