/**
 * The OpenAI-compatible adapter: any chat-completions endpoint (OpenAI, vLLM, Ollama, LiteLLM,
 * OpenRouter, Ark, …) through the `openai` SDK.
 *
 * Retries: the SDK retries 408/409/429/5xx and timeouts with exponential backoff (0.5 s doubling,
 * at most 8 s, jitter), honouring `retry-after-ms` and `retry-after`; `maxRetries` bounds it.
 * The request body is sent exactly as given and the response body is kept as received, so the
 * receipt is the wire exchange minus the credential.
 */
import OpenAI from 'openai';
import { ChatResponseSchema, type ModelRole } from '../spec/messages.js';
import { jsonPath, MalformedResponseError, ProviderError } from '../spec/errors.js';
import type { ChatModel, ChatRequestInput, ModelCallResult } from './chat-model.js';
import { withModel } from './chat-model.js';
import type { LiveModelConfig } from './config.js';

/** A {@link ChatModel} on any OpenAI-compatible endpoint; the key stays in memory, never in receipts. */
export class OpenAICompatibleModel implements ChatModel {
  readonly provider: string;
  readonly endpoint: string;
  readonly model: string;
  private readonly client: OpenAI;
  private readonly apiKey: string;

  constructor(cfg: LiveModelConfig) {
    this.provider = cfg.provider;
    this.endpoint = `${cfg.baseURL}/chat/completions`;
    this.model = cfg.model;
    this.apiKey = cfg.apiKey;
    this.client = new OpenAI({
      baseURL: cfg.baseURL,
      apiKey: cfg.apiKey,
      timeout: cfg.timeoutSeconds * 1000,
      maxRetries: cfg.maxRetries,
      logLevel: 'off',
    });
  }

  /** Sends one request; throws {@link ProviderError} when every attempt failed. */
  async complete(input: ChatRequestInput, role: ModelRole): Promise<ModelCallResult> {
    // A snapshot: callers keep appending to their message arrays after the call returns.
    const request = structuredClone(withModel(this.model, input));
    const started = performance.now();
    let body: unknown;
    try {
      body = await this.client.chat.completions.create(request as never);
    } catch (e) {
      const status = (e as { status?: number }).status;
      // A provider may echo the credential in its error text (e.g. "Incorrect API key provided: …"):
      // it must never reach a log, the store or a receipt.
      throw new ProviderError(redactSecret(`${role} call to ${this.endpoint} failed: ${(e as Error).message}`, this.apiKey), { status });
    }
    const elapsedSeconds = Math.round(performance.now() - started) / 1000;
    const parsed = ChatResponseSchema.safeParse(body);
    if (!parsed.success) {
      if (hasChoicesArray(body)) {
        const issue = parsed.error.issues[0];
        throw new MalformedResponseError(`${role} call to ${this.endpoint} returned a malformed chat completion: ${issue?.message} at ${jsonPath(issue?.path ?? [])}`, [body]);
      }
      throw new ProviderError(`${role} call to ${this.endpoint} returned a body that is not a chat completion: ${parsed.error.issues[0]?.message}`);
    }
    const response = body as typeof parsed.data;
    return {
      response,
      elapsedSeconds,
      receipt: { kind: role, provider: this.provider, endpoint: this.endpoint, request, response, elapsed_seconds: elapsedSeconds },
    };
  }
}

/** A body with a `choices` array is the model's answer (however malformed); anything else is the provider's. */
function hasChoicesArray(body: unknown): boolean {
  return typeof body === 'object' && body !== null && Array.isArray((body as { choices?: unknown }).choices);
}

/** `text` with every occurrence of `secret` (and of its last 8+ characters) replaced by `***`. */
export function redactSecret(text: string, secret: string): string {
  if (!secret) return text;
  let out = text.split(secret).join('***');
  if (secret.length >= 12) out = out.split(secret.slice(-8)).join('***');
  return out;
}
