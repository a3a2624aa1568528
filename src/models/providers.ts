/**
 * The model-provider registry: an explicit map from provider kind to factory. Commands ask for a
 * `ChatModel` by kind — `openai-compatible` (any live chat-completions endpoint), `replay`
 * (recorded receipts, offline), `mock` (the repository's mock OpenAI-compatible server) — never
 * by constructing a class.
 */
import { BadInputError } from '../spec/errors.js';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel } from './chat-model.js';
import type { LiveModelConfig } from './config.js';
import { OpenAICompatibleModel } from './openai-adapter.js';
import { ReplayModel, type VirtualClock } from './replay.js';

/** What a provider factory may need; each kind names its own. */
export interface ProviderOptions {
  /** `openai-compatible`: the resolved endpoint, key, model and limits (`resolveLiveModelConfig`). */
  config?: LiveModelConfig;
  /** `replay`: the recorded receipts, and the model name requests carry. */
  receipts?: Receipt[];
  model?: string;
  /** `replay`: advanced by each served receipt's `elapsed_seconds`. */
  clock?: VirtualClock;
  /** `mock`: the mock server's base URL (`startMockServer().url`). */
  baseURL?: string;
}

export interface ProviderKind {
  description: string;
  /** Builds the model; throws BadInputError when an option the kind needs is missing. */
  create(opts: ProviderOptions): ChatModel;
}

function need<T>(v: T | undefined, kind: string, what: string): T {
  if (v === undefined) throw new BadInputError(`the ${kind} model provider needs ${what}`);
  return v;
}

export const modelProviders: Record<string, ProviderKind> = {
  'openai-compatible': {
    description: 'a live OpenAI-compatible chat-completions endpoint (retries, receipts without credentials)',
    create: (o) => new OpenAICompatibleModel(need(o.config, 'openai-compatible', 'a model configuration')),
  },
  replay: {
    description: 'answers from recorded receipts by canonical request; a request not recorded fails',
    create: (o) => new ReplayModel(need(o.receipts, 'replay', 'receipts'), need(o.model, 'replay', 'a model name'), o.clock),
  },
  mock: {
    description: "the repository's mock OpenAI-compatible server on 127.0.0.1 (tests, demos; no key)",
    create: (o) =>
      new OpenAICompatibleModel({ baseURL: need(o.baseURL, 'mock', 'the mock server URL'), apiKey: 'mock', model: o.model ?? 'mock-model', provider: 'mock', timeoutSeconds: 30, maxRetries: 0 }),
  },
};

/** A model from the provider registered as `kind`; throws BadInputError for an unknown kind. */
export function createModel(kind: string, opts: ProviderOptions): ChatModel {
  const p = modelProviders[kind];
  if (!p) throw new BadInputError(`unknown model provider '${kind}' (known: ${Object.keys(modelProviders).join(', ')})`);
  return p.create(opts);
}
