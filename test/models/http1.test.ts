/**
 * The lean HTTP/1.1 client of `http:` calls (src/models/http1.ts) against raw TCP servers that
 * answer exactly the bytes a test gives: framing (content-length, chunked with extensions and
 * trailers, until close), 1xx answers skipped, repeated headers, keep-alive reuse and a pooled
 * socket the server closed, request headers, and malformed answers.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { post } from '../../src/models/http1.js';

const servers: net.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

interface Raw {
  url: URL;
  /** Request heads received, in order. */
  heads: string[];
  /** Connections accepted. */
  connections: () => number;
}

/** A TCP server: for each request (head + content-length body) read on a connection, `answer(n, socket)` writes the reply. */
async function raw(answer: (n: number, socket: net.Socket) => void): Promise<Raw> {
  const heads: string[] = [];
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    let buf = Buffer.alloc(0);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        buf = buf.subarray(end + 4 + length);
        heads.push(head);
        answer(heads.length - 1, socket);
      }
    });
    socket.on('error', () => {});
  });
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => (sockets.forEach((s) => s.destroy()), close(cb))) as typeof server.close;
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1/chat/completions?x=1`), heads, connections: () => connections };
}

const body = (text: string) => ({ chunks: [Buffer.from(text.slice(0, 2)), Buffer.from(text.slice(2))], size: Buffer.byteLength(text) });
const call = (url: URL, headers: Record<string, string> = {}, timeoutMs = 5000) => post(url, body('{"a":1}'), headers, timeoutMs, 2000, 1 << 20);
const text = async (p: ReturnType<typeof call>) => (await p).body.toString('utf8');

describe('http1 client', () => {
  it('reads content-length and chunked bodies (extensions, trailers) and keeps the socket for the next call', async () => {
    const s = await raw((n, socket) => {
      if (n === 0) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe');
      if (n === 0) setTimeout(() => socket.write('llo'), 20);
      if (n === 1) socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3;ext=1\r\nwor\r\n');
      if (n === 1) setTimeout(() => socket.write('2\r\nld\r\n0\r\nX-Trailer: t\r\n\r\n'), 20);
      if (n === 2) socket.write('HTTP/1.1 204 No Content\r\n\r\n');
    });
    expect(await text(call(s.url))).toBe('hello');
    expect(await text(call(s.url))).toBe('world');
    expect(s.connections()).toBe(1);
    expect(s.heads[0].split('\r\n')).toEqual([
      'POST /v1/chat/completions?x=1 HTTP/1.1',
      `Host: ${s.url.host}`,
      'content-type: application/json',
      'accept: application/json',
      'content-length: 7',
      'Connection: keep-alive',
    ]);
    expect((await post(s.url, body('{"b":2}'), { Accept: 'text/plain', 'x-k': 'v' }, 5000, 2000, 1 << 20)).status).toBe(204);
    expect(s.heads[2].split('\r\n').slice(2, 6)).toEqual(['content-type: application/json', 'Accept: text/plain', 'x-k: v', 'content-length: 7']);
  });

  it('skips 1xx answers, joins repeated headers as Node does, and reads an unframed body until close', async () => {
    const s = await raw((_n, socket) => {
      socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n');
      socket.end('HTTP/1.1 429 Too Many\r\nX-A: 1\r\nx-a: 2\r\nRetry-After: 3\r\nRetry-After: 9\r\nContent-Encoding: gzip\r\nSet-Cookie: a\r\nSet-Cookie: b\r\n\r\nslow down');
    });
    const a = await call(s.url);
    expect(a.status).toBe(429);
    expect(a.headers).toMatchObject({ 'x-a': '1, 2', 'retry-after': '3', 'set-cookie': ['a', 'b'] });
    expect(a.encoding).toBe('gzip');
    expect(a.body.toString()).toBe('slow down');
  });

  it('a reused socket closed before any answer byte is reported stale; Connection: close is not reused', async () => {
    const s = await raw((n, socket) => {
      if (n === 0) socket.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
      else if (n === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      else if (n === 2) socket.destroy(); // closed as the request came: it did not reach the application
      else socket.write('HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nnew');
    });
    expect(await text(call(s.url))).toBe('ok');
    expect(await text(call(s.url))).toBe('ok');
    expect(s.connections()).toBe(2);
    const e = (await call(s.url).catch((x: unknown) => x)) as { stale?: boolean; code?: string };
    expect(e).toMatchObject({ stale: true });
    expect(await text(call(s.url))).toBe('new');
    expect(s.connections()).toBe(3);
  });

  it('times out, reports a stalled or cut body, and refuses a malformed answer', async () => {
    const s = await raw((n, socket) => {
      if (n === 0) return; // never answers
      if (n === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'); // stalls
      if (n === 2) socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'); // cut
      if (n === 3) socket.end('NOT HTTP\r\n\r\n');
      if (n === 4) socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    });
    const fault = async (p: Promise<unknown>) => ((await p.catch((x: unknown) => x)) as { fault?: string; message: string });
    expect((await fault(call(s.url, {}, 300))).fault).toBe('timeout');
    const stalled = await fault(post(s.url, body('{}'), {}, 5000, 200, 1 << 20));
    expect([stalled.fault, stalled.message]).toEqual(['body_stalled', 'the response body stalled']);
    const cut = await fault(call(s.url));
    expect([cut.fault, cut.message]).toEqual(['body_truncated', '200 body cut off: the connection closed']);
    expect((await fault(call(s.url))).message).toMatch(/^Parse Error/);
    expect((await fault(call(s.url))).message).toMatch(/^Parse Error: Invalid character in chunk size/);
  });

  it('sends Basic auth from URL credentials, refuses a header with a line break before sending, and caps the body', async () => {
    const s = await raw((_n, socket) => socket.write(`HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n${'x'.repeat(100)}`));
    const withUser = new URL(s.url);
    withUser.username = 'u%20x';
    withUser.password = 'p';
    await call(withUser);
    expect(s.heads[0]).toContain(`authorization: Basic ${Buffer.from('u x:p').toString('base64')}`.replace('authorization', 'Authorization'));
    expect(() => call(s.url, { authorization: 'Bearer a\nb' })).toThrow(/authorization/);
    expect(s.heads).toHaveLength(1);
    const big = await post(s.url, body('{}'), {}, 5000, 2000, 50).catch((x: { fault?: string }) => x);
    expect((big as { fault?: string }).fault).toBe('not_json');
  });
});
