/**
 * The customer's own tool calls (tau2 telecom's dual control): the user side calls device tools
 * in the same environment as the agent, with requestor `user`. They are part of the trajectory —
 * a `user` message carrying `tool_calls` and one `tool` message per result, both marked
 * `requestor: "user"` — and of the tool log, but the agent never sees them: its view of the
 * conversation drops them (tau2: "tool-call turns are not shown to the agent"). The customer sees
 * each result as a `tool` utterance of its own transcript.
 */
import type { Environment } from '../env/environment.js';
import type { ChatMessage, ToolCall } from '../spec/messages.js';
import type { Utterance } from '../users/user.js';

/** Whether a trajectory message belongs to the customer's own tool use. */
export function isUserToolMessage(m: ChatMessage): boolean {
  return (m as { requestor?: unknown }).requestor === 'user';
}

/** The conversation as the agent sees it: without the customer's own tool calls and results. */
export function agentView(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.some(isUserToolMessage) ? messages.filter((m) => !isUserToolMessage(m)) : (messages as ChatMessage[]);
}

/**
 * Executes the customer's tool calls in order (requestor `user`), appending the calls and their
 * results to `messages` and the results to the customer's `transcript`. Returns how many calls
 * ended in an error. Rejects only with the environment's HarnessError (closed environment).
 */
export async function runUserToolCalls(env: Environment<any>, calls: readonly ToolCall[], messages: ChatMessage[], transcript: Utterance[]): Promise<number> {
  let errors = 0;
  const index = messages.length;
  messages.push({ role: 'user', content: '', tool_calls: calls.map((c) => ({ ...c })), requestor: 'user' } as ChatMessage);
  for (const tc of calls) {
    const entry = await env.execute(tc, 'user', { message_index: index });
    messages.push({ role: 'tool', tool_call_id: tc.id, content: entry.output, requestor: 'user' } as ChatMessage);
    transcript.push({ from: 'tool', text: entry.output, toolCall: tc, error: entry.error });
    if (entry.error) errors++;
  }
  return errors;
}
