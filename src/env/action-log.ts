/**
 * The action log of an API-surface episode recorded before the action log existed: each tool
 * call was one back-end action, and its cause is found by aligning the tool-call log with the
 * assistant messages' tool calls (the k-th assistant-requested entry is the k-th tool call in
 * message order). Used to read and re-score trajectories that carry only tool calls.
 */
import type { ActionLogEntry } from '../spec/action-log.js';
import { BadInputError } from '../spec/errors.js';
import type { ChatMessage } from '../spec/messages.js';
import type { ToolLogEntry } from './environment.js';

/**
 * The action log implied by an API-surface tool-call log. Trailing tool calls of the messages
 * without a log entry (never executed because the episode ended) are ignored. Throws
 * BadInputError when a name differs at some position, or when the log holds more assistant
 * calls than the messages do.
 */
export function actionLogFromToolCalls(messages: readonly ChatMessage[], toolLog: readonly Pick<ToolLogEntry, 'requestor' | 'name' | 'arguments' | 'output' | 'error' | 'mutating'>[]): ActionLogEntry[] {
  const out: ActionLogEntry[] = toolLog.map((t, seq) => ({ seq, requestor: t.requestor, name: t.name, arguments: t.arguments, result: t.output, error: t.error, mutating: t.mutating }));
  const agent = out.filter((a) => a.requestor === 'assistant');
  let k = 0;
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    for (const tc of m.tool_calls ?? []) {
      const a = agent[k++];
      if (!a) return;
      if (a.name !== tc.function.name) {
        throw new BadInputError(`trace: tool call ${tc.id} (${tc.function.name}) in message ${i} does not match tool log entry #${a.seq} (${a.name})`);
      }
      a.cause = { message_index: i, tool_call_id: tc.id };
    }
  });
  if (k < agent.length) {
    const a = agent[k];
    throw new BadInputError(`trace: tool log entry #${a.seq} (${a.name}) has no tool call in the messages`);
  }
  return out;
}
