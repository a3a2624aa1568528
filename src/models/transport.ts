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
 * Calls go over keep-alive sockets pooled per host (a run's calls reuse them): `http:` over the
 * lean HTTP/1.1 client of src/models/http1.ts, `https:` over Node's `https`. The request body is
 * made once per call from parts serialized once per process (src/util/request-text.ts). A request
 * sent on a pooled socket the server had just closed is sent again at once on a fresh one (it
 * never reached the server).
 */
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { urlToHttpOptions } from 'node:url';
import { requestBytes, requestChunks, type RequestChunks } from '../util/request-text.js';
import { post as postHttp1 } from './http1.js';
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

/** A raw HTTP answer: status, headers (lower-case names; made when first read) and the body as text. */
interface RawAnswer {
  status: number;
  readonly headers: http.IncomingHttpHeaders;
  text: string;
}

/** The `content-encoding` of a response from its raw header list (repeated values joined by `, `, as Node joins them), without making its header object. */
function contentEncoding(raw: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i].length === 16 && raw[i].toLowerCase() === 'content-encoding') value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}

/** Request options of a target URL (host, port, path …), made once per URL object. */
const TARGETS = new WeakMap<URL, ReturnType<typeof urlToHttpOptions>>();
function targetOptions(url: URL): ReturnType<typeof urlToHttpOptions> {
  let t = TARGETS.get(url);
  if (!t) TARGETS.set(url, (t = urlToHttpOptions(url)));
  return t;
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

type Faulted = Error & { fault?: FaultKind };
const faulted = (message: string, fault: FaultKind): Faulted => Object.assign(new Error(message), { fault });

/**
 * Keep-alive connection pools, one per scheme, so that a run's thousands of calls reuse their
 * sockets (idle sockets do not keep the process alive).
 */
const AGENTS = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

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

/**
 * One POST over a pooled keep-alive socket. Rejects with a {@link Faulted} error: `timeout` when
 * no complete answer came within `timeoutMs`, `body_stalled` when no body byte came for `idleMs`
 * after the headers, `body_truncated` when the connection closed mid-body, `not_json` when the
 * body is too large; an error without `fault` (a network error) before the headers.
 */
function exchange(url: URL, request: Body, headers: Record<string, string>, timeoutMs: number, idleMs: number): Promise<RawAnswer> {
  if (url.protocol === 'http:') return exchangeHttp1(url, request, headers, timeoutMs, idleMs);
  const body = (request.whole ??= request.chunks.length === 1 ? request.chunks[0] : Buffer.concat(request.chunks, request.size));
  return new Promise<RawAnswer>((resolve, reject) => {
    const mod = url.protocol === 'https:' ? https : http;
    let settled = false;
    let req: http.ClientRequest;
    const finish = (e: Faulted | null, answer?: RawAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (e) {
        req.destroy();
        reject(e);
      } else resolve(answer!);
    };
    const options = { ...targetOptions(url), method: 'POST', agent: AGENTS[url.protocol as 'http:' | 'https:'], headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': String(body.byteLength), ...headers } };
    const onResponse = (res: http.IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.setTimeout(idleMs, () => finish(faulted('the response body stalled', 'body_stalled')));
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        size += chunk.byteLength;
        if (size > MAX_DECODED_BYTES) finish(faulted('the response body is too large', 'not_json'));
      });
      const cut = (why: string) => finish(faulted(`${res.statusCode} body cut off: ${why}`, 'body_truncated'));
      res.on('error', (e) => cut(e.message));
      res.on('aborted', () => cut('aborted'));
      res.on('end', () => {
        if (!res.complete) return cut('the connection closed');
        let text: string;
        try {
          text = decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), contentEncoding(res.rawHeaders)).toString('utf8');
        } catch (e) {
          if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return finish(faulted('the response body is too large once decoded', 'not_json'));
          return cut(`cannot decode the ${contentEncoding(res.rawHeaders)} body (${(e as Error).message})`);
        }
        finish(null, { status: res.statusCode ?? 0, text, get headers() { return res.headers; } });
      });
    };
    try {
      req = mod.request(options, onResponse);
    } catch (e) {
      // A request Node refuses to send (a header value with a line break, an unsupported scheme): no attempt can help.
      return reject(faulted(`the request cannot be sent: ${(e as Error).message}`, 'client_error'));
    }
    const timer = setTimeout(() => finish(faulted(`no complete answer within ${(timeoutMs / 1000).toFixed(1)} s`, 'timeout')), timeoutMs);
    req.on('error', (e: Error & { code?: string }) => {
      // A pooled socket the server had already closed: the request never reached it; the caller sends it again.
      if (req.reusedSocket && !settled && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) return finish(Object.assign(e, { stale: true }));
      finish(Object.assign(new Error(`${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`), { code: e.code }));
    });
    req.end(body);
  });
}

/** {@link exchange} for an `http:` URL, over the lean client of src/models/http1.ts (the same faults and errors). */
async function exchangeHttp1(url: URL, body: Body, headers: Record<string, string>, timeoutMs: number, idleMs: number): Promise<RawAnswer> {
  let pending: ReturnType<typeof postHttp1>;
  try {
    pending = postHttp1(url, body, headers, timeoutMs, idleMs, MAX_DECODED_BYTES);
  } catch (e) {
    // A header Node's validators refuse (a value with a line break): no attempt can help.
    throw faulted(`the request cannot be sent: ${(e as Error).message}`, 'client_error');
  }
  const answer = await pending;
  let text: string;
  try {
    text = decode(answer.body, answer.encoding).toString('utf8');
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw faulted('the response body is too large once decoded', 'not_json');
    throw faulted(`${answer.status} body cut off: cannot decode the ${answer.encoding} body (${(e as Error).message})`, 'body_truncated');
  }
  return { status: answer.status, headers: answer.headers, text };
}

/** Header access for {@link retryAfterMs} over Node's lower-cased header object. */
function headerGetter(headers: http.IncomingHttpHeaders): { get(name: string): string | null } {
  return { get: (name) => {
    const v = headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  } };
}

/** A request body: its pieces (src/util/request-text.ts), and the pieces joined once for Node's client. */
type Body = RequestChunks & { whole?: Buffer };

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
  const location = res.headers.location;
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
  return requestBytes(request).toString('utf8');
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
  for (let n = 0; ; n++) {
    const left = o.deadlineMs - (Date.now() - started);
    const out = await attempt(body, target, o, Math.max(1, left));
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
