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
 * | retry-after cap (s) | `--max-retry-after` | `SERVICEGYM_MAX_RETRY_AFTER`      | 60                          |
 * | call deadline (s)   | `--call-deadline`   | `SERVICEGYM_CALL_DEADLINE`        | 600 (all attempts and waits)|
 * | body timeout (s)    | `--body-timeout`    | `SERVICEGYM_BODY_TIMEOUT`         | 30 (no byte for that long)  |
 *
 * The key is read from the environment only, so it never appears in shell history, receipts,
 * logs or the store. A base URL on a loopback address (`localhost`, `127.0.0.0/8`, `[::1]`: a
 * local server such as llama.cpp's or a local model runner) needs no key; without one no
 * `Authorization` header is sent.
 */
import { BadInputError } from '../spec/errors.js';
import { redactUrlCredentials } from '../util/redact.js';

export interface LiveModelConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  provider: string;
  /** Per-attempt timeout in seconds. */
  timeoutSeconds: number;
  maxRetries: number;
  /** Longest server-requested wait (`retry-after`) honoured, in seconds (default 60); longer ones are cut to it. */
  maxRetryAfterSeconds?: number;
  /** Total seconds one call may take across attempts and waits (default 600). */
  callDeadlineSeconds?: number;
  /** Seconds without a body byte after the headers before an attempt counts as stalled (default 30). */
  bodyTimeoutSeconds?: number;
}

export interface LiveModelFlags {
  baseUrl?: string;
  model?: string;
  provider?: string;
  timeout?: string | number;
  maxRetries?: string | number;
  maxRetryAfter?: string | number;
  callDeadline?: string | number;
  bodyTimeout?: string | number;
}

/**
 * The defaults the table above gives, used by {@link resolveLiveModelConfig} and shown by every
 * command's `--help` (seconds, except `maxRetries`: retries after the first attempt).
 */
export const LIVE_MODEL_DEFAULTS = { timeoutSeconds: 120, maxRetries: 4, maxRetryAfterSeconds: 60, callDeadlineSeconds: 600, bodyTimeoutSeconds: 30 } as const;

const first = (env: NodeJS.ProcessEnv, names: string[]): string | undefined =>
  names.map((n) => env[n]).find((v) => v !== undefined && v !== '');

/** Keys shorter than this are not checked by value (a placeholder such as `ollama` is no secret). */
export const MIN_SECRET_CHARS = 12;

/**
 * The API key values of the environment (`SERVICEGYM_API_KEY`, `OPENAI_API_KEY`, trimmed) that a
 * store must refuse to hold by value; placeholders under {@link MIN_SECRET_CHARS} are left out.
 */
export function secretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  return ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY'].map((n) => env[n]?.trim() ?? '').filter((v) => v.length >= MIN_SECRET_CHARS);
}

/**
 * Resolves the live configuration. Throws {@link BadInputError} before any call when the base URL
 * is not a URL or carries credentials, or when the key or the model is missing, naming the
 * variable or flag to set (the URL is checked first: whether a key is needed depends on it).
 */
export function resolveLiveModelConfig(flags: LiveModelFlags, env: NodeJS.ProcessEnv = process.env): LiveModelConfig {
  const baseURL = (flags.baseUrl ?? first(env, ['SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL']) ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  // The URL first: a placeholder left in it (`--base-url BASE_URL`) is the mistake to report, not the key it makes look needed.
  let host = 'openai-compatible';
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(baseURL);
    host = parsedUrl.host;
  } catch {
    throw new BadInputError(`base URL '${redactUrlCredentials(baseURL)}' is not a URL (SERVICEGYM_BASE_URL / --base-url)`);
  }
  if (parsedUrl.username || parsedUrl.password) {
    // The key goes as a Bearer token; a user:pass@ in the URL could only leak (and fetch refuses it).
    throw new BadInputError(`base URL '${redactUrlCredentials(baseURL)}' carries credentials (user:pass@host); put the credential in SERVICEGYM_API_KEY instead`);
  }
  // Surrounding whitespace (a key file's trailing newline) is no part of a key: HTTP cannot send it.
  const apiKey = first(env, ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY'])?.trim() || (isLoopbackUrl(baseURL) ? '' : undefined);
  if (apiKey === undefined) {
    throw new BadInputError(
      'no API key: set SERVICEGYM_API_KEY (or OPENAI_API_KEY) in the environment for live model calls (a loopback base URL such as http://127.0.0.1:11434/v1 needs none); replay needs no key',
    );
  }
  const model = flags.model ?? first(env, ['SERVICEGYM_MODEL', 'OPENAI_MODEL']);
  if (!model) throw new BadInputError('no model: pass --model or set SERVICEGYM_MODEL');
  const timeoutSeconds = Number(flags.timeout ?? env.SERVICEGYM_TIMEOUT ?? LIVE_MODEL_DEFAULTS.timeoutSeconds);
  const maxRetries = Number(flags.maxRetries ?? env.SERVICEGYM_MAX_RETRIES ?? LIVE_MODEL_DEFAULTS.maxRetries);
  if (!(timeoutSeconds > 0)) throw new BadInputError(`timeout must be a positive number of seconds, got '${flags.timeout ?? env.SERVICEGYM_TIMEOUT}'`);
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0)) throw new BadInputError(`max retries must be a whole number >= 0`);
  const seconds = (flag: string | number | undefined, envName: string, flagName: string, dflt: number, min: number): number => {
    const raw = flag ?? env[envName];
    const v = raw === undefined || raw === '' ? dflt : typeof raw === 'number' ? raw : /^\s*\d+(\.\d+)?\s*$/.test(raw) ? Number(raw) : NaN;
    if (!(Number.isFinite(v) && v >= min)) throw new BadInputError(`${flagName} (${envName}) must be a number of seconds >= ${min}, got '${raw}'`);
    return v;
  };
  const maxRetryAfterSeconds = seconds(flags.maxRetryAfter, 'SERVICEGYM_MAX_RETRY_AFTER', '--max-retry-after', LIVE_MODEL_DEFAULTS.maxRetryAfterSeconds, 0);
  const callDeadlineSeconds = seconds(flags.callDeadline, 'SERVICEGYM_CALL_DEADLINE', '--call-deadline', LIVE_MODEL_DEFAULTS.callDeadlineSeconds, 0.001);
  const bodyTimeoutSeconds = seconds(flags.bodyTimeout, 'SERVICEGYM_BODY_TIMEOUT', '--body-timeout', LIVE_MODEL_DEFAULTS.bodyTimeoutSeconds, 0.001);
  const provider = flags.provider ?? env.SERVICEGYM_PROVIDER ?? host;
  return { baseURL, apiKey, model, provider, timeoutSeconds, maxRetries, maxRetryAfterSeconds, callDeadlineSeconds, bodyTimeoutSeconds };
}

/** Whether `url` points at this machine: `localhost`, an IPv4 address in 127.0.0.0/8, or `[::1]`. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
