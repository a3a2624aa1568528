/**
 * The model interface every LLM role (task agent, user simulator, judge, coding agent) calls.
 */
import type { ChatMessage, ChatRequest, ChatResponse, ModelRole } from '../spec/messages.js';
import type { Receipt } from '../spec/receipt.js';

/** A request as built by a caller; the model fills `model` in. */
export type ChatRequestInput = Omit<ChatRequest, 'model'>;

export interface ModelCallResult {
  response: ChatResponse;
  /** Wall (or, in replay, recorded) seconds the call took, retries included. */
  elapsedSeconds: number;
  /** The credential-free receipt of the call. */
  receipt: Receipt;
}

/**
 * One chat-completions endpoint and model. Implementations: the OpenAI-compatible adapter
 * (live), the replay model (cassette) and test doubles. `complete` throws
 * {@link ProviderError} after retries, or {@link ReplayMissError} in replay.
 */
export interface ChatModel {
  /** Provider label written to receipts, e.g. `openai`, `ark`, `mock`. */
  readonly provider: string;
  /** Full chat-completions URL written to receipts (never with credentials). */
  readonly endpoint: string;
  /** Model name sent in `request.model`. */
  readonly model: string;
  /**
   * One call. The receipt keeps the request's messages by reference (no deep copy per call): a
   * caller may append to its message array afterwards, but must not change a message object it
   * has sent (servicegym's agents, simulators and judges never do).
   */
  complete(request: ChatRequestInput, role: ModelRole): Promise<ModelCallResult>;
}

/** Build the wire request: `model` first, then the caller's fields. */
export function withModel(model: string, request: ChatRequestInput): ChatRequest {
  return { model, ...request } as ChatRequest;
}

/** One system message object per prompt text (see {@link systemMessage}); cleared past {@link SYSTEM_MESSAGE_CAP}. */
const systemMessages = new Map<string, ChatMessage>();
const SYSTEM_MESSAGE_CAP = 256;

/**
 * The `{role: 'system', content}` message for a prompt, the same (frozen) object for the same text
 * while it is cached: every episode of a run opens its conversations with one of a few prompts (a
 * domain policy of several KB, a task's user scenario), and a message object's JSON text is made,
 * encoded and hashed once per object (src/util/json-text.ts, src/store/receipt-tables.ts), so
 * sharing the object does that once per prompt instead of once per episode. Frozen because it is
 * shared: a message, once sent, is never changed ({@link ChatModel.complete}).
 */
export function systemMessage(content: string): ChatMessage {
  let m = systemMessages.get(content);
  if (!m) {
    if (systemMessages.size >= SYSTEM_MESSAGE_CAP) systemMessages.clear();
    m = Object.freeze({ role: 'system', content }) as ChatMessage;
    systemMessages.set(content, m);
  }
  return m;
}
