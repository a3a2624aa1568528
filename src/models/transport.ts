/**
 * The HTTP exchange of one chat-completions call, with retries bounded in count and in time.
 *
 * Each attempt has a timeout covering headers and the whole body, and a body timeout (no byte for
 * that long once the headers arrived: a stalled body). Retried, with exponential backoff (0.5 s
 * doubling, at most 8 s, jitter) or the server's `retry-after-ms` / `retry-after` (seconds or an
 * HTTP date) capped at `maxRetryAfterMs`: 408, 409, 429, 5xx, network errors, timeouts, stalled
 * bodies, and a 200 whose body is truncated, not JSON, or beyond the JSON bounds. Never retried:
 * 401/403 (the credential is refused; {@link TransportError.fatal}) and other 4xx. A call never
 * outlasts `deadlineMs` across all attempts and waits. Nothing here logs; error texts are
 * redacted by the caller.
 */
import { jsonBoundsProblem, MAX_RESPONSE_BODY_CHARS } from '../util/json-bounds.js';

/** What went wrong in one failed attempt. */
export type FaultKind = 'rate_limited' | 'server_error' | 'timeout' | 'body_stalled' | 'body_truncated' | 'not_json' | 'network' | 'auth' | 'client_error';

/** Retries of one call, as recorded in its receipt (`retries`) and summed in usage. */
export interface CallRetries {
  /** Attempts made, the successful one included (>= 2 when recorded). */
  attempts: number;
  /** Seconds spent waiting between attempts (backoff or retry-after). */
  waited_seconds: number;
  /** Kind of each failed attempt, in order. */
  faults: FaultKind[];
}

export interface TransportOptions {
  /** Full chat-completions URL (may carry query parameters). */
  url: string;
  /** Extra headers (the Authorization header). */
  headers: Record<string, string>;
  /** Per-attempt timeout (headers and whole body), ms. */
  timeoutMs: number;
  /** Longest gap without a body byte once headers arrived, ms. */
  bodyTimeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** Cap on a server-requested wait, ms. */
  maxRetryAfterMs: number;
  /** Total time for the call across attempts and waits, ms. */
  deadlineMs: number;
  /** Test seams. */
  fetchImpl?: typeof fetch;
  random?: () => number;
}

/** The successful exchange: the parsed JSON body, and the retries when there were any. */
export interface TransportResult {
  body: unknown;
  retries?: CallRetries;
}

/** Every attempt failed, the deadline passed, or the failure is not retryable. */
export class TransportError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly retries: CallRetries,
    /** 401/403: retrying or calling again cannot help; a run should stop. */
    readonly fatal: boolean,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

interface AttemptFailure {
  fault: FaultKind;
  status?: number;
  detail: string;
  retryAfterMs?: number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Server-requested wait from `retry-after-ms` or `retry-after` (seconds or HTTP date), ms; undefined when absent or unreadable. */
export function retryAfterMs(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isFinite(at) ? Math.max(0, at - nowMs) : undefined;
}

function classify(status: number): FaultKind | null {
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limited';
  if (status === 408 || status === 409) return 'timeout';
  if (status >= 500) return 'server_error';
  if (status >= 400) return 'client_error';
  return null;
}

/** The provider's own reason from an error body (`{error: {message}}` or text), at most 300 characters. */
function reasonOf(text: string): string {
  let reason = text.trim();
  try {
    const j = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof j?.error === 'string' ? j.error : (j?.error?.message ?? j?.message);
    if (typeof m === 'string') reason = m;
  } catch {
    /* plain text */
  }
  return reason.length > 300 ? `${reason.slice(0, 300)}…` : reason;
}

/** Reads the body, failing when no byte arrives for `idleMs` or the attempt is aborted. */
async function readBody(res: Response, idleMs: number, signal: AbortSignal): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let idle: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      idle = setTimeout(() => reject(Object.assign(new Error('the response body stalled'), { fault: 'body_stalled' as FaultKind })), idleMs);
    });
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    try {
      const { done, value } = await Promise.race([reader.read(), stalled, aborted]);
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
      if (size > MAX_RESPONSE_BODY_CHARS * 4) throw Object.assign(new Error('the response body is too large'), { fault: 'not_json' as FaultKind });
    } catch (e) {
      reader.cancel().catch(() => {});
      throw e;
    } finally {
      clearTimeout(idle);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** One attempt: a parsed body, or a classified failure. */
async function attempt(request: unknown, o: TransportOptions, budgetMs: number): Promise<{ body: unknown } | AttemptFailure> {
  const ctl = new AbortController();
  const timeoutMs = Math.min(o.timeoutMs, budgetMs);
  const timer = setTimeout(() => ctl.abort(Object.assign(new Error(`no complete answer within ${(timeoutMs / 1000).toFixed(1)} s`), { fault: 'timeout' })), timeoutMs);
  try {
    const res = await (o.fetchImpl ?? fetch)(o.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...o.headers },
      body: JSON.stringify(request),
      signal: ctl.signal,
    });
    const text = await readBody(res, Math.min(o.bodyTimeoutMs, timeoutMs), ctl.signal).catch((e: Error & { fault?: FaultKind }) => {
      // The connection closed mid-body (a Content-Length not reached): a truncated body.
      throw e?.fault || ctl.signal.aborted ? e : Object.assign(new Error(`${res.status} body cut off: ${e?.message}`), { fault: 'body_truncated' as FaultKind });
    });
    const kind = classify(res.status);
    if (kind) return { fault: kind, status: res.status, detail: `${res.status} ${reasonOf(text)}`, retryAfterMs: retryAfterMs(res.headers, Date.now()) };
    const problem = jsonBoundsProblem(text, { maxChars: MAX_RESPONSE_BODY_CHARS });
    if (problem) return { fault: 'not_json', status: res.status, detail: `${res.status} body refused: ${problem}` };
    try {
      return { body: JSON.parse(text) };
    } catch {
      const truncated = /^\s*[{[]/.test(text);
      return { fault: truncated ? 'body_truncated' : 'not_json', status: res.status, detail: `${res.status} body is ${truncated ? 'truncated JSON' : 'not JSON'} (${text.length} characters)` };
    }
  } catch (e) {
    const err = e as Error & { fault?: FaultKind; cause?: { message?: string; code?: string } };
    const fault = err?.fault ?? (ctl.signal.aborted ? 'timeout' : 'network');
    const detail = err?.fault ? err.message : `${err?.message ?? String(e)}${err?.cause?.code ? ` (${err.cause.code})` : ''}`;
    return { fault, detail };
  } finally {
    clearTimeout(timer);
    if (!ctl.signal.aborted) ctl.abort();
  }
}

/**
 * POSTs `request` as JSON and returns the parsed body of the first good 200.
 * @throws TransportError after the last attempt, at the deadline, or at once on 401/403 and other 4xx.
 */
export async function postJsonWithRetries(request: unknown, o: TransportOptions): Promise<TransportResult> {
  const started = Date.now();
  const faults: FaultKind[] = [];
  let waited = 0;
  const retries = (): CallRetries => ({ attempts: faults.length + 1, waited_seconds: Math.round(waited) / 1000, faults: [...faults] });
  for (let n = 0; ; n++) {
    const left = o.deadlineMs - (Date.now() - started);
    const out = await attempt(request, o, Math.max(1, left));
    if ('body' in out) return { body: out.body, retries: faults.length ? retries() : undefined };
    faults.push(out.fault);
    const done = (why: string, fatal = false) => {
      const r = retries();
      r.attempts = faults.length;
      return new TransportError(`${out.detail}${why}`, out.status, r, fatal);
    };
    if (out.fault === 'auth') throw done(' (the credential was refused; not retried)', true);
    if (out.fault === 'client_error') throw done(' (not retried)');
    if (n >= o.maxRetries) throw done(` (after ${faults.length} attempt${faults.length === 1 ? '' : 's'})`);
    const backoff = Math.min(8000, 500 * 2 ** n) * (1 - 0.25 * (o.random ?? Math.random)());
    const wait = out.retryAfterMs !== undefined ? Math.min(out.retryAfterMs, o.maxRetryAfterMs) : backoff;
    const remaining = o.deadlineMs - (Date.now() - started);
    if (wait >= remaining) throw done(` (gave up: the call's ${(o.deadlineMs / 1000).toFixed(0)} s deadline leaves no time for attempt ${faults.length + 1})`);
    await sleep(wait);
    waited += wait;
  }
}
