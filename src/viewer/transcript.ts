/**
 * A stored trajectory (OpenAI chat messages plus the environment's tool log) as the viewer's
 * transcript: customer and agent turns, each tool call with its parsed arguments, each tool
 * output with the name of the call it answers, and errors marked.
 */
import type { ToolCallView, TranscriptEntry } from './types.js';

type Loose = Record<string, unknown>;

const asText = (value: unknown): string => (typeof value === 'string' ? value : value == null ? '' : JSON.stringify(value));

function toolCallView(call: Loose): ToolCallView {
  const fn = (call.function ?? {}) as Loose;
  const raw = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {});
  try {
    return { id: asText(call.id), name: asText(fn.name), arguments: JSON.parse(raw) as unknown, malformed: false };
  } catch {
    return { id: asText(call.id), name: asText(fn.name), arguments: raw, malformed: true };
  }
}

/**
 * Builds the transcript of `messages` (system first). A tool output is marked as an error when
 * the matching entry of `toolLog` (the agent's calls, in order) says so, or when its text starts
 * with `Error` as tool errors do. `infraError`, when given, ends the transcript as an error entry.
 */
export function buildTranscript(messages: unknown, toolLog: unknown, infraError?: string | null): TranscriptEntry[] {
  const list = Array.isArray(messages) ? (messages as Loose[]) : [];
  const agentLog = (Array.isArray(toolLog) ? (toolLog as Loose[]) : []).filter((t) => t.requestor !== 'user');
  const callNames = new Map<string, string>();
  const out: TranscriptEntry[] = [];
  let toolIndex = 0;
  for (const m of list) {
    switch (m.role) {
      case 'system':
        out.push({ kind: 'system', text: asText(m.content) });
        break;
      case 'user':
        out.push({ kind: 'customer', text: asText(m.content) });
        break;
      case 'assistant': {
        const calls = (Array.isArray(m.tool_calls) ? (m.tool_calls as Loose[]) : []).map(toolCallView);
        for (const c of calls) callNames.set(c.id, c.name);
        out.push({ kind: 'agent', text: asText(m.content), tool_calls: calls });
        break;
      }
      case 'tool': {
        const output = asText(m.content);
        const logged = agentLog[toolIndex++];
        const callId = asText(m.tool_call_id);
        out.push({
          kind: 'tool',
          name: callNames.get(callId) ?? asText(logged?.name),
          call_id: callId,
          output,
          error: logged?.error === true || /^Error\b/.test(output),
        });
        break;
      }
      default:
        out.push({ kind: 'error', text: `unrecognised message: ${asText(m)}` });
    }
  }
  if (infraError) out.push({ kind: 'error', text: infraError });
  return out;
}
