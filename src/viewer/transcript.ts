/**
 * A stored trajectory (OpenAI chat messages plus the environment's tool log) as the viewer's
 * transcript: customer and agent turns, each tool call with its parsed arguments, each tool
 * output with the name of the call it answers, and errors marked.
 */
import type { ToolCallView, TranscriptEntry } from './types.js';

type Loose = Record<string, unknown>;

const isPart = (p: unknown): p is Loose => typeof p === 'object' && p !== null && typeof (p as Loose).type === 'string';
const isParts = (value: unknown): value is Loose[] => Array.isArray(value) && value.every(isPart);

/** A message content's text: a string, or the text parts of a content-part list joined with newlines. */
const asText = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value == null) return '';
  if (isParts(value)) return value.flatMap((p) => (p.type === 'text' && typeof p.text === 'string' ? [p.text] : [])).join('\n');
  return JSON.stringify(value);
};

/** The image parts' URLs of a content value, `data:image/…` only (the viewer never loads remote images). */
const imagesOf = (value: unknown): string[] =>
  isParts(value)
    ? value.flatMap((p) => {
        const url = p.type === 'image_url' ? (p.image_url as Loose | undefined)?.url : undefined;
        return typeof url === 'string' && /^data:image\/(png|jpeg|gif|webp);base64,/.test(url) ? [url] : [];
      })
    : [];
const withImages = <T extends object>(entry: T, content: unknown): T => {
  const images = imagesOf(content);
  return images.length ? { ...entry, images } : entry;
};

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
 * the matching entry of `toolLog` (that side's calls, in order) says so, or when its text starts
 * with `Error` as tool errors do. The customer's own tool calls and their outputs (messages marked
 * `requestor: "user"`, dual control) are kept as the customer's. `infraError`, when given, ends
 * the transcript as an error entry.
 */
export function buildTranscript(messages: unknown, toolLog: unknown, infraError?: string | null): TranscriptEntry[] {
  const list = Array.isArray(messages) ? (messages as Loose[]) : [];
  const log = Array.isArray(toolLog) ? (toolLog as Loose[]) : [];
  const logs = { assistant: log.filter((t) => t.requestor !== 'user'), user: log.filter((t) => t.requestor === 'user') };
  const next = { assistant: 0, user: 0 };
  const callNames = new Map<string, string>();
  const out: TranscriptEntry[] = [];
  for (const m of list) {
    switch (m.role) {
      case 'system':
        out.push({ kind: 'system', text: asText(m.content) });
        break;
      case 'user': {
        const calls = m.requestor === 'user' && Array.isArray(m.tool_calls) ? (m.tool_calls as Loose[]).map(toolCallView) : [];
        for (const c of calls) callNames.set(c.id, c.name);
        out.push(withImages({ kind: 'customer', text: asText(m.content), ...(calls.length ? { tool_calls: calls } : {}) }, m.content));
        break;
      }
      case 'assistant': {
        const calls = (Array.isArray(m.tool_calls) ? (m.tool_calls as Loose[]) : []).map(toolCallView);
        for (const c of calls) callNames.set(c.id, c.name);
        out.push({ kind: 'agent', text: asText(m.content), tool_calls: calls });
        break;
      }
      case 'tool': {
        const output = asText(m.content);
        const side = m.requestor === 'user' ? 'user' : 'assistant';
        const logged = logs[side][next[side]++];
        const callId = asText(m.tool_call_id);
        out.push(
          withImages(
            {
              kind: 'tool' as const,
              name: callNames.get(callId) ?? asText(logged?.name),
              call_id: callId,
              output,
              error: logged?.error === true || /^Error\b/.test(output),
              ...(side === 'user' ? { requestor: 'user' as const } : {}),
            },
            m.content,
          ),
        );
        break;
      }
      default:
        out.push({ kind: 'error', text: `unrecognised message: ${asText(m)}` });
    }
  }
  if (infraError) out.push({ kind: 'error', text: infraError });
  return out;
}
