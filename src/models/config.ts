/**
 * Live model configuration from flags and environment variables.
 *
 * | setting     | flag            | environment (first set wins)                  | default                     |
 * |-------------|-----------------|-----------------------------------------------|-----------------------------|
 * | base URL    | `--base-url`    | `SERVICEGYM_BASE_URL`, `OPENAI_BASE_URL`      | `https://api.openai.com/v1` |
 * | API key     | (never a flag)  | `SERVICEGYM_API_KEY`, `OPENAI_API_KEY`        | none: live calls refuse     |
 * | model       | `--model`       | `SERVICEGYM_MODEL`, `OPENAI_MODEL`            | none: required              |
 * | provider    | `--provider`    | `SERVICEGYM_PROVIDER`                         | host of the base URL        |
 * | timeout (s) | `--timeout`     | `SERVICEGYM_TIMEOUT`                          | 120                         |
 * | retries     | `--max-retries` | `SERVICEGYM_MAX_RETRIES`                      | 4                           |
 *
 * The key is read from the environment only, so it never appears in shell history, receipts,
 * logs or the store.
 */
import { BadInputError } from '../spec/errors.js';

export interface LiveModelConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  provider: string;
  /** Per-attempt timeout in seconds. */
  timeoutSeconds: number;
  maxRetries: number;
}

export interface LiveModelFlags {
  baseUrl?: string;
  model?: string;
  provider?: string;
  timeout?: string | number;
  maxRetries?: string | number;
}

const first = (env: NodeJS.ProcessEnv, names: string[]): string | undefined =>
  names.map((n) => env[n]).find((v) => v !== undefined && v !== '');

/**
 * Resolves the live configuration. Throws {@link BadInputError} before any call when the key or
 * the model is missing, naming the variable or flag to set.
 */
export function resolveLiveModelConfig(flags: LiveModelFlags, env: NodeJS.ProcessEnv = process.env): LiveModelConfig {
  const baseURL = (flags.baseUrl ?? first(env, ['SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL']) ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const apiKey = first(env, ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY']);
  if (!apiKey) {
    throw new BadInputError(
      'no API key: set SERVICEGYM_API_KEY (or OPENAI_API_KEY) in the environment for live model calls; replay needs no key',
    );
  }
  const model = flags.model ?? first(env, ['SERVICEGYM_MODEL', 'OPENAI_MODEL']);
  if (!model) throw new BadInputError('no model: pass --model or set SERVICEGYM_MODEL');
  let host = 'openai-compatible';
  try {
    host = new URL(baseURL).host;
  } catch {
    throw new BadInputError(`base URL '${baseURL}' is not a URL (SERVICEGYM_BASE_URL / --base-url)`);
  }
  const timeoutSeconds = Number(flags.timeout ?? env.SERVICEGYM_TIMEOUT ?? 120);
  const maxRetries = Number(flags.maxRetries ?? env.SERVICEGYM_MAX_RETRIES ?? 4);
  if (!(timeoutSeconds > 0)) throw new BadInputError(`timeout must be a positive number of seconds, got '${flags.timeout ?? env.SERVICEGYM_TIMEOUT}'`);
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new BadInputError(`max retries must be a whole number >= 0`);
  return { baseURL, apiKey, model, provider: flags.provider ?? env.SERVICEGYM_PROVIDER ?? host, timeoutSeconds, maxRetries };
}
