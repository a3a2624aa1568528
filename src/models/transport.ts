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
 *
 * Calls go over undici's keep-alive connection pools, one per origin (`http:` and `https:`
 * alike; a run's calls reuse the sockets). The request body is made once per call from parts
 * serialized once per process (src/util/request-text.ts). A request sent on a pooled socket the
 * server had just closed is sent again at once on a fresh one (it never reached the server).
 */
import type { IncomingHttpHeaders } from 'node:http';
import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import { connectionPools, poolRequest } from './http-pool.js';
import { joinChunks, releaseJoined, requestBytes, requestChunks, type RequestChunks } from '../util/request-text.js';
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
  /** Test seam: the backoff's jitter source (default Math.random). */
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
export function retryAfterMs(headers: { get(name: string): string | null }, nowMs: number): number | undefined {
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

/** A raw HTTP answer: status, headers (lower-case names; repeated ones as arrays) and the body as text. */
interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A header's value, repeated values joined by `, `; undefined when absent. */
function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name];
  return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : v;
}

/** Parsed endpoint URLs by their text (a run calls one or two endpoints thousands of times); never changed once parsed. */
const ENDPOINTS = new Map<string, URL>();
function endpointUrl(text: string): URL {
  let url = ENDPOINTS.get(text);
  if (!url) {
    url = new URL(text);
    if (ENDPOINTS.size >= 64) ENDPOINTS.clear();
    ENDPOINTS.set(text, url);
  }
  return url;
}

type Faulted = Error & { fault?: FaultKind; stale?: boolean; code?: string };
const faulted = (message: string, fault: FaultKind): Faulted => Object.assign(new Error(message), { fault });

/**
 * The process's keep-alive connection pools (undici, one pool per origin, `http:` and `https:`
 * alike, with Node's default TLS settings and CAs), so that a run's thousands of calls reuse
 * their sockets; idle sockets do not keep the process alive. Timeouts are the transport's own
 * (the attempt timer and the per-request body timeout), not the pools' defaults.
 */
const DISPATCHER = connectionPools({ keepAliveTimeout: 4_000, headersTimeout: 0, bodyTimeout: 0 });

/** The most bytes a response body may have once decoded (the same cap as on the wire). */
const MAX_DECODED_BYTES = MAX_RESPONSE_BODY_CHARS * 4;

/**
 * The body's bytes decoded per `content-encoding` (gzip, deflate, br; anything else as is), at
 * most {@link MAX_DECODED_BYTES}: a small compressed body cannot expand past the cap.
 * @throws RangeError with code `ERR_BUFFER_TOO_LARGE` past the cap; a zlib error for a bad body.
 */
function decode(buf: Buffer, encoding: string | undefined): Buffer {
  const limit = { maxOutputLength: MAX_DECODED_BYTES };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(buf, limit);
    case 'deflate':
      return zlib.inflateSync(buf, limit);
    case 'br':
      return zlib.brotliDecompressSync(buf, limit);
    default:
      return buf;
  }
}

/** Request headers of a call: JSON in and out, the given ones (the credential), and Basic auth from URL credentials when the URL has them and no Authorization is given. */
function requestHeaders(url: URL, headers: Record<string, string>): Record<string, string> {
  const all: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json', ...headers };
  if ((url.username || url.password) && !Object.keys(headers).some((n) => n.toLowerCase() === 'authorization')) {
    all.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
  }
  return all;
}

/** Where a call goes: the URL's origin and path, and the request headers ({@link requestHeaders}). Never changed once made. */
interface Target {
  origin: string;
  path: string;
  headers: Record<string, string>;
}

/** Per headers object (one per model): the target of the URL it was last used with (a model calls one URL). */
const targets = new WeakMap<Record<string, string>, { url: URL; target: Target }>();

/** The {@link Target} of `url` with `headers`, made once per model and URL rather than per call. */
function target(url: URL, headers: Record<string, string>): Target {
  const known = targets.get(headers);
  if (known?.url === url) return known.target;
  const made = { origin: url.origin, path: `${url.pathname}${url.search}`, headers: requestHeaders(url, headers) };
  targets.set(headers, { url, target: made });
  return made;
}

/**
 * The abort signal of one attempt, as undici's `request` uses one (`aborted`, `reason`, and an
 * `abort` listener added and removed), without the EventTarget machinery of an AbortController
 * made for every call. {@link abort} is what `AbortController.abort` does for it.
 */
class AttemptSignal {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] = [];

  addEventListener(type: string, listener: () => void): void {
    if (type === 'abort' && !this.aborted) this.listeners.push(listener);
  }

  removeEventListener(type: string, listener: () => void): void {
    if (type === 'abort') this.listeners = this.listeners.filter((l) => l !== listener);
  }

  /** Marks the signal aborted with `reason` and calls each listener once (a second call does nothing). */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const l of listeners) l();
  }
}

/** Socket-level failures of undici and Node before an answer began. */
const SOCKET_CODES = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);

/**
 * The error of a request that failed before its headers: `client_error` for a request undici
 * refuses to send (a header value with a line break), `stale` for a socket failure on a pooled
 * connection that had already carried answers (the server closed it as the request went out: it
 * never reached the application), else a network error naming its code.
 */
function beforeHeaders(e: Faulted & { socket?: { bytesRead?: number } }): Faulted {
  if (e.fault) return e;
  if (e.code === 'UND_ERR_INVALID_ARG') return faulted(`the request cannot be sent: ${e.message}`, 'client_error');
  const err = Object.assign(new Error(`${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`), { code: e.code }) as Faulted;
  if (e.code && SOCKET_CODES.has(e.code) && (e.code !== 'UND_ERR_SOCKET' || (e.socket?.bytesRead ?? 0) > 0)) err.stale = true;
  return err;
}

/**
 * One POST over a pooled keep-alive connection (undici). Rejects with a {@link Faulted} error:
 * `timeout` when no complete answer came within `timeoutMs`, `body_stalled` when no body byte
 * came for `idleMs` after the headers, `body_truncated` when the connection closed mid-body or the
 * body cannot be decoded, `not_json` when the body is too large (on the wire or once decoded),
 * `client_error` when the request cannot be sent; an error without `fault` (a network error,
 * `stale` when a pooled socket had been closed by the server) before the headers.
 */
async function exchange(url: URL, request: Body, headers: Record<string, string>, timeoutMs: number, idleMs: number): Promise<RawAnswer> {
  const body = (request.whole ??= joinChunks(request.chunks, request.size));
  request.sends = (request.sends ?? 0) + 1;
  const abort = new AttemptSignal();
  const timer = setTimeout(() => abort.abort(faulted(`no complete answer within ${(timeoutMs / 1000).toFixed(1)} s`, 'timeout')), timeoutMs);
  try {
    let res: Dispatcher.ResponseData;
    try {
      const to = target(url, headers);
      res = await poolRequest(DISPATCHER, { origin: to.origin, path: to.path, method: 'POST', headers: to.headers, body, signal: abort as unknown as AbortSignal, bodyTimeout: idleMs });
    } catch (e) {
      throw beforeHeaders(e as Faulted);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size > MAX_DECODED_BYTES) {
          res.body.destroy();
          throw faulted('the response body is too large', 'not_json');
        }
      }
    } catch (e) {
      const err = e as Faulted;
      if (err.fault) throw err;
      if (err.code === 'UND_ERR_BODY_TIMEOUT') throw faulted('the response body stalled', 'body_stalled');
      throw faulted(`${res.statusCode} body cut off: ${err.code === 'UND_ERR_SOCKET' ? 'the connection closed' : err.message}`, 'body_truncated');
    }
    // undici hands a keep-alive socket back to its pool one event-loop turn after the answer ended
    // (an immediate); the caller's next call comes sooner, so without this turn it would open
    // a new connection (a run at -j 200 opened ~100 beyond its 200) instead of reusing this one.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const encoding = headerValue(res.headers, 'content-encoding');
    let text: string;
    try {
      text = decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size), encoding).toString('utf8');
    } catch (e) {
      if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw faulted('the response body is too large once decoded', 'not_json');
      throw faulted(`${res.statusCode} body cut off: cannot decode the ${encoding} body (${(e as Error).message})`, 'body_truncated');
    }
    return { status: res.statusCode, headers: res.headers, text };
  } finally {
    clearTimeout(timer);
  }
}

/** Header access for {@link retryAfterMs} over the lower-cased response headers. */
function headerGetter(headers: IncomingHttpHeaders): { get(name: string): string | null } {
  return { get: (name) => {
    const v = headers[name.toLowerCase()];
    // Node keeps the first of a repeated retry-after; so does this.
    return v === undefined ? null : Array.isArray(v) ? v[0] : v;
  } };
}

/** A request body: its pieces (src/util/request-text.ts), and the pieces joined once per call for the wire. */
/** A call's request: its pieces, the one buffer they are sent from (joined at the first send), and how many times it was sent. */
type Body = RequestChunks & { whole?: Buffer; sends?: number };

/** One attempt: a parsed body, or a classified failure. */
async function attempt(body: Body, target: URL, o: TransportOptions, budgetMs: number): Promise<{ body: unknown } | AttemptFailure> {
  const timeoutMs = Math.min(o.timeoutMs, budgetMs);
  const started = Date.now();
  let res: RawAnswer;
  try {
    let url = target;
    let headers = o.headers;
    const send = () => {
      const left = Math.max(1, timeoutMs - (Date.now() - started));
      return exchange(url, body, headers, left, Math.min(o.bodyTimeoutMs, left));
    };
    for (let hops = 0; ; hops++) {
      res = await send().catch((e: Error & { stale?: boolean }) => (e.stale ? send() : Promise.reject(e)));
      const next = redirectTarget(res, url, hops);
      if (typeof next === 'string') return { fault: 'client_error', status: res.status, detail: next };
      if (!next) break;
      // As fetch does: the credential is not sent to another origin.
      if (next.origin !== url.origin) headers = withoutAuthorization(headers);
      url = next;
    }
  } catch (e) {
    const err = e as Faulted;
    return { fault: err.fault ?? 'network', detail: err.message ?? String(e) };
  }
  const kind = classify(res.status);
  if (kind) return { fault: kind, status: res.status, detail: `${res.status} ${reasonOf(res.text)}`, retryAfterMs: retryAfterMs(headerGetter(res.headers), Date.now()) };
  const problem = jsonBoundsProblem(res.text, { maxChars: MAX_RESPONSE_BODY_CHARS });
  if (problem) return { fault: 'not_json', status: res.status, detail: `${res.status} body refused: ${problem}` };
  try {
    return { body: JSON.parse(res.text) };
  } catch {
    const truncated = /^\s*[{[]/.test(res.text);
    return { fault: truncated ? 'body_truncated' : 'not_json', status: res.status, detail: `${res.status} body is ${truncated ? 'truncated JSON' : 'not JSON'} (${res.text.length} characters)` };
  }
}

/** Redirects followed per attempt (fetch allowed 20; an API needs one or two). */
const MAX_REDIRECTS = 5;

/**
 * Where a 3xx answer sends the call: the next URL for a 307/308 (the POST and its body kept, as
 * fetch followed them), null when `res` is no redirect, or why the call cannot follow it (a
 * 301/302/303 turns a POST into a GET, which no chat-completions endpoint answers).
 */
function redirectTarget(res: RawAnswer, from: URL, hops: number): URL | string | null {
  if (res.status < 300 || res.status > 399) return null;
  const given = res.headers.location;
  const location = Array.isArray(given) ? given[0] : given;
  let next: URL | undefined;
  try {
    next = location ? new URL(location, from) : undefined;
  } catch {
    /* unreadable location */
  }
  if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:')) return `${res.status} redirect without a usable location`;
  if (res.status !== 307 && res.status !== 308) return `${res.status} redirect to ${next.toString()}: set the base URL to the new address`;
  if (hops >= MAX_REDIRECTS) return `${res.status} more than ${MAX_REDIRECTS} redirects (the last to ${next.toString()})`;
  return next;
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

/**
 * `JSON.stringify(request)`, byte for byte, for a plain request object whose array fields hold
 * objects that are never changed once sent (see `ChatModel.complete`): the text of
 * {@link requestBytes}, whose parts are serialized once per process.
 */
export function requestJson(request: unknown): string {
  const bytes = requestBytes(request);
  const text = bytes.toString('utf8');
  releaseJoined(bytes);
  return text;
}

/**
 * POSTs `request` as JSON and returns the parsed body of the first good 200.
 * @throws TransportError after the last attempt, at the deadline, or at once on 401/403 and other 4xx.
 */
export async function postJsonWithRetries(request: unknown, o: TransportOptions): Promise<TransportResult> {
  const started = Date.now();
  // Serialized once per call, not per attempt; the tools and earlier messages not at all (src/util/request-text.ts).
  const body: Body = requestChunks(request);
  const target = endpointUrl(o.url);
  const faults: FaultKind[] = [];
  let waited = 0;
  const retries = (): CallRetries => ({ attempts: faults.length + 1, waited_seconds: Math.round(waited) / 1000, faults: [...faults] });
  let answeredOnce = false;
  try {
    for (let n = 0; ; n++) {
      const left = o.deadlineMs - (Date.now() - started);
      const out = await attempt(body, target, o, Math.max(1, left));
      if ('body' in out) {
        answeredOnce = body.sends === 1;
        return { body: out.body, retries: faults.length ? retries() : undefined };
      }
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
  } finally {
    // Sent once and answered 2xx: the server read the whole body to answer it, so no socket still
    // has bytes of it to write, and its memory may take a later body. A body sent again (a retry,
    // a redirect, a stale socket) or never answered is not handed back: an earlier send may have
    // been answered (a 429, a 307) before the server read all of it, and its socket may still hold
    // the rest to write from this memory. Its slab is then left to the collector.
    if (body.whole && answeredOnce) releaseJoined(body.whole);
  }
}
