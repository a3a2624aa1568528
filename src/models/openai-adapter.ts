/**
 * The OpenAI-compatible adapter: any chat-completions endpoint (OpenAI, vLLM, Ollama, LiteLLM,
 * OpenRouter, Ark, …) over HTTP.
 *
 * Retries ({@link postJsonWithRetries}): 408/409/429/5xx, timeouts, stalled, truncated and non-JSON
 * bodies, with exponential backoff (0.5 s doubling, at most 8 s, jitter) or the server's
 * `retry-after-ms` / `retry-after` capped at `maxRetryAfterSeconds`; `maxRetries` bounds the count
 * and `callDeadlineSeconds` the time. 401/403 are not retried. A call that needed retries records
 * them in its receipt (`retries`). The request body is sent exactly as given and the response body
 * is kept as received (the key's value redacted), so the receipt is the wire exchange minus the
 * credential.
 */
import { ChatResponseSchema, type ChatRequest, type ChatResponse, type ModelRole } from '../spec/messages.js';
import { isChatResponse } from './response-check.js';
import { jsonPath, MalformedResponseError, ProviderError } from '../spec/errors.js';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel, ChatRequestInput, ModelCallResult } from './chat-model.js';
import { withModel } from './chat-model.js';
import type { LiveModelConfig } from './config.js';
import { postJsonWithRetries, TransportError, type TransportOptions } from './transport.js';
import { redactSecrets, redactUrlCredentials } from '../util/redact.js';
import { elementJson } from '../util/json-text.js';

/** A {@link ChatModel} on any OpenAI-compatible endpoint; the key stays in memory, never in receipts. */
export class OpenAICompatibleModel implements ChatModel {
  readonly provider: string;
  readonly endpoint: string;
  readonly model: string;
  private readonly transport: TransportOptions;
  private readonly apiKey: string;

  constructor(cfg: LiveModelConfig) {
    this.provider = redactUrlCredentials(cfg.provider);
    const wire = new URL(cfg.baseURL);
    wire.pathname = `${wire.pathname.replace(/\/+$/, '')}/chat/completions`;
    // What receipts and messages show: the URL with any credential query value redacted.
    this.endpoint = redactUrlCredentials(wire.toString());
    this.model = cfg.model;
    this.apiKey = cfg.apiKey;
    this.transport = {
      url: wire.toString(),
      headers: cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {},
      timeoutMs: cfg.timeoutSeconds * 1000,
      bodyTimeoutMs: (cfg.bodyTimeoutSeconds ?? 30) * 1000,
      maxRetries: cfg.maxRetries,
      maxRetryAfterMs: (cfg.maxRetryAfterSeconds ?? 60) * 1000,
      deadlineMs: (cfg.callDeadlineSeconds ?? 600) * 1000,
    };
  }

  /** `text` without the key's value or URL credentials. */
  private redact(text: string): string {
    return redactSecrets(text, [this.apiKey]);
  }

  /** Sends one request; throws {@link ProviderError} when every attempt failed. */
  async complete(input: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    // A snapshot of the request's lists: callers keep appending to their message arrays after the
    // call returns. The messages themselves are shared, not copied (see ChatModel.complete).
    const request = snapshot(withModel(this.model, input));
    const started = performance.now();
    let body: unknown;
    let retries: Receipt['retries'];
    try {
      ({ body, retries } = await postJsonWithRetries(request, this.transport));
    } catch (e) {
      const t = e instanceof TransportError ? e : undefined;
      // A provider may echo the credential in its error text (e.g. "Incorrect API key provided: …"):
      // it must never reach a log, the store or a receipt.
      throw new ProviderError(this.redact(`${role} call to ${this.endpoint} failed: ${(e as Error).message}`), { status: t?.status, retries: t?.retries, fatal: t?.fatal });
    }
    // A provider that echoes the key inside a 200 body must not get it into a receipt.
    // (The body's text is kept per object: the store writes the same text for the receipt.)
    if (this.apiKey.length >= 8 && elementJson(body).includes(this.apiKey.slice(-8))) body = JSON.parse(this.redact(JSON.stringify(body)));
    const elapsedSeconds = Math.round(performance.now() - started) / 1000;
    const parsed = isChatResponse(body) ? ({ success: true } as const) : ChatResponseSchema.safeParse(body);
    if (!parsed.success) {
      if (hasChoicesArray(body)) {
        const issue = parsed.error.issues[0];
        throw new MalformedResponseError(`${role} call to ${this.endpoint} returned a malformed chat completion: ${issue?.message} at ${jsonPath(issue?.path ?? [])}`, [body]);
      }
      throw new ProviderError(`${role} call to ${this.endpoint} returned a body that is not a chat completion: ${parsed.error.issues[0]?.message}`);
    }
    const response = body as ChatResponse;
    return {
      response,
      elapsedSeconds,
      receipt: { kind: role, provider: this.provider, endpoint: this.endpoint, request, response, elapsed_seconds: elapsedSeconds, ...(retries ? { retries } : {}) },
    };
  }
}

/** `request` with its own `messages` and `tools` arrays (the elements shared). */
function snapshot(request: ChatRequest): ChatRequest {
  const out = { ...request, messages: request.messages.slice() };
  if (Array.isArray(request.tools)) out.tools = request.tools.slice();
  return out;
}

/** A body with a `choices` array is the model's answer (however malformed); anything else is the provider's. */
function hasChoicesArray(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Array.isArray((body as { choices?: unknown }).choices);
}

/** `text` with every occurrence of `secret` (and of its last 8+ characters) and URL credentials replaced by `***`. */
export function redactSecret(text: string, secret: string): string {
  return redactSecrets(text, [secret]);
}
