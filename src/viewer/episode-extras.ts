/**
 * What the episode page shows beyond the transcript and the evaluation, read from the run-log
 * record (src/spec/run-log.ts): the surface, model and wall seconds, the tool-call timeline
 * (each executed call with its turn, marked write or error), which message caused each back-end
 * action (so evidence citing `#N` links to its turn), and the hash of the task as it ran.
 */
import type { EpisodeRunLog } from '../spec/run-log.js';
import type { EpisodeDetail, FieldDiffView, ToolStepView } from './types.js';

/** Message index of each tool call id, by requestor (`assistant` calls in assistant messages, `user` calls in user messages). */
function callTurns(r: EpisodeRunLog): { assistant: number[]; user: number[] } {
  const out = { assistant: [] as number[], user: [] as number[] };
  r.messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const _ of m.tool_calls ?? []) out.assistant.push(i);
    else if (m.role === 'user') for (const _ of m.tool_calls ?? []) out.user.push(i);
  });
  return out;
}

/** The tool-call timeline: the k-th executed call of a requestor is the k-th tool call its messages carry. */
export function toolTimeline(r: EpisodeRunLog): ToolStepView[] {
  const turns = callTurns(r);
  const seen = { assistant: 0, user: 0 };
  return r.tool_calls.map((c) => ({
    step: c.step,
    requestor: c.requestor,
    name: c.name,
    error: c.error,
    mutating: c.mutating,
    turn: turns[c.requestor][seen[c.requestor]++] ?? null,
  }));
}

/** Back-end action seq → the message whose tool call caused it (actions without a recorded cause are left out). */
export function actionTurns(r: EpisodeRunLog): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of r.action_log) if (a.cause) out[String(a.seq)] = a.cause.message_index;
  return out;
}

/** Tool call id → the successful back-end writes it caused, in order (`operation {json args}`); calls without writes are left out. */
export function callWrites(r: EpisodeRunLog): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const a of r.action_log) {
    const id = a.cause?.tool_call_id;
    if (a.mutating && id) (out[id] ??= []).push(`${a.name} ${JSON.stringify(a.arguments)}`);
  }
  return out;
}

/** The start state → final state diff (null when the record has none, e.g. a migrated record). */
function stateDiff(r: EpisodeRunLog): FieldDiffView[] | null {
  return r.final_state ? r.final_state.diff.map((d) => ({ path: d.path, op: d.op, before: d.before, after: d.after })) : null;
}

/** The record-derived parts of an {@link EpisodeDetail}. */
export function episodeExtras(r: EpisodeRunLog): Pick<EpisodeDetail, 'surface' | 'timings' | 'action_turns' | 'tool_timeline' | 'task_sha256' | 'state_diff' | 'call_writes'> {
  return { surface: r.surface, timings: { ...r.timings }, action_turns: actionTurns(r), tool_timeline: toolTimeline(r), task_sha256: r.task.sha256, state_diff: stateDiff(r), call_writes: callWrites(r) };
}
