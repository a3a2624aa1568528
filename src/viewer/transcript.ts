/**
 * A stored trajectory (OpenAI chat messages plus the environment's tool log) as the viewer's
 * transcript: customer and agent turns, each tool call with its parsed arguments, each tool
 * output with the name of the call it answers, and errors marked.
 */
import { contentImages, contentText, type Content } from '../spec/content.js';
import type { RunLogMessage, ToolCallRecord } from '../spec/run-log.js';
import type { ToolCallView, TranscriptEntry } from './types.js';

type ToolCall = NonNullable<RunLogMessage['tool_calls']>[number];

function toolCallView(call: ToolCall): ToolCallView {
  try {
    return { id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) as unknown, malformed: false };
  } catch {
    return { id: call.id, name: call.function.name, arguments: call.function.arguments, malformed: true };
  }
}

/** The data URLs of a content value's images, as an optional field (`data:image/…` only: the viewer never loads remote images). */
function images(content: Content | null | undefined): { images?: string[] } {
  const urls = contentImages(content)
    .map((p) => p.image_url.url)
    .filter((u) => /^data:image\/(png|jpeg|gif|webp);base64,/.test(u));
  return urls.length ? { images: urls } : {};
}

/**
 * Builds the transcript of `messages` (system first). A tool output is marked as an error when
 * the matching entry of `toolCalls` (that side's calls, in order) says so, or when its text
 * starts with `Error` as tool errors do. The customer's own tool calls and their outputs (messages
 * marked `requestor: "user"`, dual control) are kept as the customer's. Image parts travel as data
 * URLs. `infraError`, when given, ends the transcript as an error entry.
 */
export function buildTranscript(messages: readonly RunLogMessage[], toolCalls: readonly ToolCallRecord[], infraError?: string | null): TranscriptEntry[] {
  const logs = { assistant: toolCalls.filter((t) => t.requestor !== 'user'), user: toolCalls.filter((t) => t.requestor === 'user') };
  const next = { assistant: 0, user: 0 };
  const callNames = new Map<string, string>();
  const out: TranscriptEntry[] = [];
  for (const m of messages) {
    const textOf = contentText(m.content);
    switch (m.role) {
      case 'system':
        out.push({ kind: 'system', text: textOf });
        break;
      case 'user': {
        const calls = m.requestor === 'user' ? (m.tool_calls ?? []).map(toolCallView) : [];
        for (const c of calls) callNames.set(c.id, c.name);
        out.push({ kind: 'customer', text: textOf, ...(calls.length ? { tool_calls: calls } : {}), ...images(m.content) });
        break;
      }
      case 'assistant': {
        const calls = (m.tool_calls ?? []).map(toolCallView);
        for (const c of calls) callNames.set(c.id, c.name);
        out.push({ kind: 'agent', text: textOf, tool_calls: calls, ...images(m.content) });
        break;
      }
      case 'tool': {
        const side = m.requestor === 'user' ? 'user' : 'assistant';
        const logged = logs[side][next[side]++];
        const callId = m.tool_call_id ?? '';
        out.push({
          kind: 'tool',
          name: callNames.get(callId) ?? logged?.name ?? '',
          call_id: callId,
          output: textOf,
          error: logged?.error === true || /^Error\b/.test(textOf),
          ...(side === 'user' ? { requestor: 'user' as const } : {}),
          ...images(m.content),
        });
        break;
      }
    }
  }
  if (infraError) out.push({ kind: 'error', text: infraError });
  return out;
}
