/**
 * A lean HTTP/1.1 client for plain `http:` endpoints (local model servers such as vLLM, Ollama or
 * LiteLLM, proxies, mocks): one POST with its whole body, the answer read whole, over keep-alive
 * sockets pooled per host and port. It does what the transport needs of Node's `http` client and
 * no more, at a fraction of its work per call (no request/response stream objects): at thousands
 * of calls a run, Node's client was the largest cost of a call on the run's thread.
 *
 * The wire is that of Node's client: the same request headers (`Host`, `Connection: keep-alive`,
 * Basic auth from URL credentials, names and values checked by Node's own validators); answers
 * framed by `content-length`, `transfer-encoding: chunked` or the connection's end; 1xx answers
 * skipped; response headers lower-cased and repeated ones joined as Node joins them. `https:`
 * stays on Node's client (src/models/transport.ts).
 */
import http from 'node:http';
import net from 'node:net';

/** A complete answer: status, headers (lower-case names), `content-encoding` (repeats joined by `, `) and the raw body. */
export interface Http1Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  encoding: string | undefined;
  body: Buffer;
}

/** Why an exchange failed: `fault` as the transport classifies it; `stale` when a reused socket had been closed (nothing reached the server). */
export type Http1Error = Error & { fault?: 'timeout' | 'body_stalled' | 'body_truncated' | 'not_json'; stale?: boolean; code?: string };

const ignore = () => {};
const failure = (message: string, extra: Partial<Http1Error>): Http1Error => Object.assign(new Error(message), extra);

/** Idle keep-alive sockets by `host:port`; at most {@link MAX_IDLE} per key (Node's default `maxFreeSockets`). */
const idle = new Map<string, net.Socket[]>();
const MAX_IDLE = 256;
/** Longest response head accepted (Node's default `maxHeaderSize`). */
const MAX_HEAD = 16 * 1024;

/** Headers Node keeps the first of when repeated (`IncomingMessage.headers`). */
const FIRST_ONLY = new Set([
  'age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from', 'host', 'if-modified-since',
  'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent',
]);

function addHeader(headers: http.IncomingHttpHeaders, name: string, value: string): void {
  const had = headers[name];
  if (had === undefined) headers[name] = name === 'set-cookie' ? [value] : value;
  else if (name === 'set-cookie') (had as string[]).push(value);
  else if (!FIRST_ONLY.has(name)) headers[name] = `${had}, ${value}`;
}

/** Headers every call sends before the caller's (which may replace them, any case). */
const JSON_HEADERS: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };

/** Request heads up to the `content-length` line, per URL object and headers object (both are reused across a run's calls; neither may change). */
const heads = new WeakMap<URL, WeakMap<Record<string, string>, string>>();

/**
 * The request head without its `content-length` and `Connection` lines: request line, `Host`, the
 * JSON content type and accept, the given headers (checked with Node's validators; a later name
 * replaces an earlier one, any case), Basic auth from URL credentials. Made once per URL and headers object.
 * @throws TypeError for a header name or value Node refuses.
 */
function headPrefix(url: URL, headers: Record<string, string>): string {
  let perUrl = heads.get(url);
  const known = perUrl?.get(headers);
  if (known !== undefined) return known;
  const byName = new Map<string, [string, string]>();
  for (const given of [JSON_HEADERS, headers]) {
    for (const name in given) {
      const value = given[name];
      http.validateHeaderName(name);
      http.validateHeaderValue(name, value);
      if (name.toLowerCase() === 'content-length' || name.toLowerCase() === 'connection') continue;
      byName.set(name.toLowerCase(), [name, value]);
    }
  }
  if ((url.username || url.password) && !byName.has('authorization')) {
    const auth = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    byName.set('authorization', ['Authorization', `Basic ${Buffer.from(auth).toString('base64')}`]);
  }
  let head = `POST ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\n`;
  for (const [name, value] of byName.values()) head += `${name}: ${value}\r\n`;
  if (!perUrl) heads.set(url, (perUrl = new WeakMap()));
  perUrl.set(headers, head);
  return head;
}

/** A parsed response head and how its body is framed. */
interface Head {
  status: number;
  headers: http.IncomingHttpHeaders;
  encoding: string | undefined;
  /** Body length, `'chunked'`, or `'close'` (until the connection ends). */
  framing: number | 'chunked' | 'close';
  keepAlive: boolean;
}

const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: |$)/;

/** Parses a response head (without its final blank line); throws `Parse Error` as Node does for a malformed one. */
function parseHead(text: string): Head {
  const lines = text.split('\r\n');
  const m = STATUS_LINE.exec(lines[0]);
  if (!m) throw failure(`Parse Error: Invalid response status`, { code: 'HPE_INVALID_CONSTANT' });
  const status = Number(m[2]);
  const headers: http.IncomingHttpHeaders = {};
  let encoding: string | undefined;
  const lengths: string[] = [];
  let transfer: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    if (colon <= 0) throw failure('Parse Error: Invalid header token', { code: 'HPE_INVALID_HEADER_TOKEN' });
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    addHeader(headers, name, value);
    if (name === 'content-encoding') encoding = encoding === undefined ? value : `${encoding}, ${value}`;
    else if (name === 'content-length') lengths.push(value);
    else if (name === 'transfer-encoding') transfer = transfer === undefined ? value : `${transfer}, ${value}`;
  }
  const connection = String(headers.connection ?? '').toLowerCase();
  let keepAlive = m[1] === '1' ? !/(?:^|,)\s*close\s*(?:,|$)/.test(connection) : /(?:^|,)\s*keep-alive\s*(?:,|$)/.test(connection);
  let framing: Head['framing'];
  if ((status >= 100 && status < 200) || status === 204 || status === 304) framing = 0;
  else if (transfer !== undefined) framing = /(?:^|,)\s*chunked\s*$/i.test(transfer) ? 'chunked' : 'close';
  else if (lengths.length) {
    if (!lengths.every((l) => /^\d+$/.test(l) && l === lengths[0])) throw failure('Parse Error: Invalid content-length', { code: 'HPE_UNEXPECTED_CONTENT_LENGTH' });
    framing = Number(lengths[0]);
  } else framing = 'close';
  if (framing === 'close') keepAlive = false;
  return { status, headers, encoding, framing, keepAlive };
}

/** Reads a chunked body: feed it bytes; it collects the data and says when the last chunk and trailers were read. */
class ChunkedReader {
  private rest: Buffer | null = null;
  private need: 'size' | 'data' | 'crlf' | 'trailer' = 'size';
  private left = 0;
  readonly parts: Buffer[] = [];
  size = 0;
  /** Bytes came after the end of the body. */
  extra = false;

  /** Takes `chunk`; true once the body is complete. Throws `Parse Error` on a malformed chunk. */
  feed(chunk: Buffer): boolean {
    let buf = this.rest ? Buffer.concat([this.rest, chunk]) : chunk;
    this.rest = null;
    for (;;) {
      if (this.need === 'data') {
        if (buf.length === 0) return false;
        const n = Math.min(this.left, buf.length);
        this.parts.push(buf.subarray(0, n));
        this.size += n;
        this.left -= n;
        buf = buf.subarray(n);
        if (this.left === 0) this.need = 'crlf';
        continue;
      }
      if (this.need === 'crlf') {
        if (buf.length < 2) break;
        if (buf[0] !== 13 || buf[1] !== 10) throw failure('Parse Error: Expected CRLF after chunk', { code: 'HPE_STRICT' });
        buf = buf.subarray(2);
        this.need = 'size';
        continue;
      }
      const eol = buf.indexOf('\r\n');
      if (eol < 0) {
        if (buf.length > MAX_HEAD) throw failure('Parse Error: Chunk line too long', { code: 'HPE_HEADER_OVERFLOW' });
        break;
      }
      const line = buf.toString('latin1', 0, eol);
      buf = buf.subarray(eol + 2);
      if (this.need === 'trailer') {
        if (line === '') {
          this.extra = buf.length > 0;
          return true;
        }
        continue;
      }
      const hex = line.split(';')[0].trim();
      if (!/^[0-9a-fA-F]{1,12}$/.test(hex)) throw failure('Parse Error: Invalid character in chunk size', { code: 'HPE_INVALID_CHUNK_SIZE' });
      this.left = parseInt(hex, 16);
      this.need = this.left === 0 ? 'trailer' : 'data';
    }
    if (buf.length) this.rest = buf;
    return false;
  }
}

/** Returns an answered socket to its pool (unref'd: idle sockets keep no process alive), or ends it. */
function release(key: string, socket: net.Socket): void {
  const list = idle.get(key) ?? [];
  if (socket.destroyed || !socket.writable || list.length >= MAX_IDLE) {
    socket.destroy();
    return;
  }
  const drop = () => {
    socket.destroy();
    const i = list.indexOf(socket);
    if (i >= 0) list.splice(i, 1);
  };
  socket.once('close', drop).once('end', drop).once('error', drop).once('data', drop);
  socket.unref();
  list.push(socket);
  idle.set(key, list);
}

/** An idle pooled socket for `key`, or undefined. */
function takeIdle(key: string): net.Socket | undefined {
  const list = idle.get(key);
  while (list?.length) {
    const s = list.pop()!;
    s.removeAllListeners('close').removeAllListeners('end').removeAllListeners('error').removeAllListeners('data');
    if (!s.destroyed && s.writable) return s.ref();
    s.destroy();
  }
  return undefined;
}

/** Ends every idle socket of `key` (after one turned out closed by the server, the others likely are too). */
function dropIdle(key: string): void {
  for (const s of idle.get(key)?.splice(0) ?? []) s.destroy();
}

/**
 * POSTs `body` (JSON, as pieces sent one after the other, `size` bytes in all) with `headers`
 * (besides `content-type` and `accept` JSON, `content-length`, `Host` and `Connection`, which it
 * sets) to the `http:` URL and resolves with the whole answer. Rejects with an
 * {@link Http1Error}: `timeout` when no complete answer came within `timeoutMs`, `body_stalled`
 * when no body byte came for `idleMs` after the head, `body_truncated` when the connection ended
 * mid-body, `not_json` past `maxBytes` of body; `stale` when a reused socket turned out closed
 * before any answer byte (the request never reached the server); otherwise a network error.
 * @throws TypeError (synchronously, nothing sent) for a header name or value Node refuses.
 */
export function post(url: URL, body: { chunks: readonly Buffer[]; size: number }, headers: Record<string, string>, timeoutMs: number, idleMs: number, maxBytes: number): Promise<Http1Answer> {
  const head = `${headPrefix(url, headers)}content-length: ${body.size}\r\nConnection: keep-alive\r\n\r\n`;
  const port = Number(url.port) || 80;
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const key = `${host}:${port}`;
  return new Promise<Http1Answer>((resolve, reject) => {
    let socket = takeIdle(key);
    const reused = socket !== undefined;
    socket ??= net.connect({ host, port, noDelay: true });
    const s = socket;
    let received = false;
    let pending: Buffer | null = null;
    let answer: Head | undefined;
    let parts: Buffer[] = [];
    let size = 0;
    let chunked: ChunkedReader | undefined;
    let idleTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => fail(failure(`no complete answer within ${(timeoutMs / 1000).toFixed(1)} s`, { fault: 'timeout' })), timeoutMs);

    const cleanup = () => {
      clearTimeout(timer);
      clearTimeout(idleTimer);
      s.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
    };
    const fail = (e: Http1Error) => {
      cleanup();
      s.on('error', ignore).destroy();
      reject(e);
    };
    const done = (extra: boolean) => {
      cleanup();
      const h = answer!;
      if (h.keepAlive && !extra) release(key, s);
      else s.on('error', ignore).destroy();
      resolve({ status: h.status, headers: h.headers, encoding: h.encoding, body: parts.length === 1 ? parts[0] : Buffer.concat(parts, size) });
    };
    const cut = (why: string) => fail(failure(`${answer!.status} body cut off: ${why}`, { fault: 'body_truncated' }));
    const beforeAnswer = (e: Error & { code?: string }) => {
      if (reused && !received && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) {
        dropIdle(key);
        return fail(Object.assign(e, { stale: true }));
      }
      fail(failure(`${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`, { code: e.code }));
    };

    /** Bytes after the body (the server sent more than one answer): the socket is not reused. */
    let extra = false;
    /** Body bytes of the answer; true once it is complete. */
    const takeBody = (chunk: Buffer): boolean => {
      const framing = answer!.framing;
      if (framing === 'chunked') {
        chunked ??= new ChunkedReader();
        const complete = chunked.feed(chunk);
        parts = chunked.parts;
        size = chunked.size;
        extra = chunked.extra;
        return complete;
      }
      if (framing === 'close') {
        parts.push(chunk);
        size += chunk.length;
        return false;
      }
      const n = Math.min(framing - size, chunk.length);
      if (n > 0) parts.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      size += n;
      extra = n < chunk.length;
      return size === framing;
    };

    function onData(chunk: Buffer): void {
      received = true;
      try {
        if (answer === undefined) {
          pending = pending ? Buffer.concat([pending, chunk]) : chunk;
          let end: number;
          while ((end = pending.indexOf('\r\n\r\n')) >= 0) {
            const h = parseHead(pending.toString('latin1', 0, end));
            pending = pending.subarray(end + 4);
            if (h.status >= 100 && h.status < 200) continue;
            answer = h;
            break;
          }
          if (answer === undefined) {
            if (pending.length > MAX_HEAD) throw failure('Parse Error: Header overflow', { code: 'HPE_HEADER_OVERFLOW' });
            return;
          }
          chunk = pending;
          pending = null;
          idleTimer = setTimeout(() => fail(failure('the response body stalled', { fault: 'body_stalled' })), idleMs);
          if (answer.framing === 0) return done(chunk.length > 0);
        } else idleTimer?.refresh();
        const complete = takeBody(chunk);
        if (size > maxBytes) return fail(failure('the response body is too large', { fault: 'not_json' }));
        if (complete) done(extra);
      } catch (e) {
        fail(e as Http1Error);
      }
    }
    function onEnd(): void {
      if (answer === undefined) return beforeAnswer(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      if (answer.framing === 'close') {
        answer.keepAlive = false;
        return done(false);
      }
      cut('the connection closed');
    }
    function onError(e: Error & { code?: string }): void {
      if (answer === undefined) return beforeAnswer(e);
      cut(e.message);
    }
    function onClose(): void {
      if (answer === undefined) return beforeAnswer(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      cut('the connection closed');
    }
    s.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
    s.cork();
    s.write(head, 'latin1');
    for (const chunk of body.chunks) s.write(chunk);
    s.uncork();
  });
}
