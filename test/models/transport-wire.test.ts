/**
 * The transport's HTTP exchange (undici) against raw TCP servers that answer exactly the bytes a
 * test gives: framing (content-length, chunked with extensions and trailers, until close), 1xx
 * answers skipped, repeated headers, keep-alive reuse and a pooled socket the server closed,
 * request headers, timeouts, stalled and cut bodies, and malformed answers.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJsonWithRetries, type TransportError } from '../../src/models/transport.js';
import { slabsMade } from '../../src/util/request-text.js';

const servers: net.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

interface Raw {
  url: URL;
  /** Request heads received, in order. */
  heads: string[];
  /** Request bodies received, in order (UTF-8). */
  bodies: string[];
  /** Connections accepted. */
  connections: () => number;
}

/** A TCP server: for each request (head + content-length body) read on a connection, `answer(n, socket)` writes the reply. */
async function raw(answer: (n: number, socket: net.Socket) => void): Promise<Raw> {
  const heads: string[] = [];
  const bodies: string[] = [];
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
        bodies.push(buf.toString('utf8', end + 4, end + 4 + length));
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
  return { url: new URL(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1/chat/completions?x=1`), heads, bodies, connections: () => connections };
}

const opts = (url: URL, extra: Partial<Parameters<typeof postJsonWithRetries>[1]> = {}) => ({ url: url.toString(), headers: { authorization: 'Bearer k' }, timeoutMs: 5000, bodyTimeoutMs: 2000, maxRetries: 0, maxRetryAfterMs: 0, deadlineMs: 10_000, ...extra });
/** A call's parsed body; the pool gets a turn first to take back the previous call's connection. */
const call = async (url: URL, extra: Partial<Parameters<typeof postJsonWithRetries>[1]> = {}) => {
  await new Promise((r) => setImmediate(r));
  return (await postJsonWithRetries({ a: 1 }, opts(url, extra))).body;
};
const failure = async (url: URL, extra: Partial<Parameters<typeof postJsonWithRetries>[1]> = {}) => (await postJsonWithRetries({ a: 1 }, opts(url, extra)).catch((x: unknown) => x)) as TransportError;
const answer = (status: string, body: string, headers = '') => `HTTP/1.1 ${status}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`;

describe('transport on the wire', () => {
  it('reads content-length and chunked bodies (extensions, trailers) and keeps the socket for the next call', async () => {
    const s = await raw((n, socket) => {
      if (n === 0) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{"a"');
      if (n === 0) setTimeout(() => socket.write(':"b"}'), 20);
      if (n === 1) socket.write('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\n{"c"\r\n');
      if (n === 1) setTimeout(() => socket.write('5\r\n:"d"}\r\n0\r\nX-Trailer: t\r\n\r\n'), 20);
    });
    expect(await call(s.url)).toEqual({ a: 'b' });
    expect(await call(s.url)).toEqual({ c: 'd' });
    expect(s.connections()).toBe(1);
    const lines = s.heads[0].split('\r\n').map((l) => l.toLowerCase());
    expect(lines[0]).toBe('post /v1/chat/completions?x=1 http/1.1');
    expect(lines).toEqual(expect.arrayContaining([`host: ${s.url.host}`, 'content-type: application/json', 'accept: application/json', 'authorization: bearer k', 'content-length: 7']));
  });

  it('concurrent conversations calling back to back (no turn between calls) reuse their connections', async () => {
    // All answers of a round arrive together, as at -j 200: each conversation's next call is sent
    // before the event loop turns, yet takes a connection the round before freed.
    const s = await raw((n, socket) => setTimeout(() => socket.write(answer('200 OK', `{"n":${n}}`)), 20));
    const chain = async () => {
      const got: unknown[] = [];
      for (let i = 0; i < 4; i++) got.push((await postJsonWithRetries({ a: 1 }, opts(s.url))).body);
      return got;
    };
    const chains = await Promise.all(Array.from({ length: 8 }, chain));
    expect(chains.flat()).toHaveLength(32);
    expect(s.heads).toHaveLength(32);
    expect(s.connections()).toBe(8);
  });

  it('sends every body intact and reuses the memory of calls answered at the first send for later bodies', async () => {
    // Bodies are cut from shared 1 MiB slabs and handed back when their call is answered: 24 conversations
    // x 16 calls of 16-45 KB (over 10 MiB) fit in a few slabs (one filling, one whose last bodies are in flight, one spare).
    const s = await raw((n, socket) => setTimeout(() => socket.write(answer('200 OK', '{"ok":1}')), 2));
    const policy = { role: 'system', content: 'policy '.repeat(2000) };
    const before = slabsMade();
    const sent: string[] = [];
    const chain = async (c: number) => {
      const messages: object[] = [policy];
      for (let i = 0; i < 16; i++) {
        messages.push({ role: 'user', content: `conversation ${c} turn ${i} ${'é'.repeat(900 + c)}` });
        const request = { model: 'm', messages: [...messages] };
        sent.push(JSON.stringify(request));
        await postJsonWithRetries(request, opts(s.url));
      }
    };
    await Promise.all(Array.from({ length: 24 }, (_, c) => chain(c)));
    expect(s.bodies).toHaveLength(24 * 16);
    expect(new Set(s.bodies)).toEqual(new Set(sent));
    expect(sent.reduce((n, b) => n + Buffer.byteLength(b), 0)).toBeGreaterThan(10 * 2 ** 20);
    expect(slabsMade() - before).toBeLessThanOrEqual(4);
  });

  it('a call sent again (a 500 retried) sends the same bytes and keeps its body from later ones: its slab is not written again', async () => {
    const refused = new Set<string>();
    const s: Raw = await raw((n, socket) => {
      const first = s.bodies[n].includes('"retry me') && !refused.has(s.bodies[n]);
      if (first) refused.add(s.bodies[n]);
      socket.write(first ? answer('500 Oops', '{}', 'Retry-After: 0\r\n') : answer('200 OK', '{"ok":1}'));
    });
    const policy = { role: 'system', content: 'policy '.repeat(1500) };
    const call = (text: string) => postJsonWithRetries({ model: 'm', messages: [policy, { role: 'user', content: text }] }, opts(s.url, { maxRetries: 1 }));
    // ~10.5 KB bodies answered at once: the slab in use is written again from its start after each,
    // so 300 of them take no new slab (after 100 to leave any slab an earlier test holds).
    for (let i = 0; i < 100; i++) await call(`warm ${i}`);
    const m0 = slabsMade();
    for (let i = 0; i < 300; i++) await call(`clean ${i}`);
    expect(slabsMade()).toBe(m0);
    await call('retry me 0');
    const retried = s.bodies.filter((b) => b.includes('"retry me 0"'));
    expect(retried).toHaveLength(2);
    expect(retried[1]).toBe(retried[0]);
    // Each retried call's body stays: the slab holding it is never written again. 12 of them, each
    // followed by over 1 MiB of answered calls, pin 12 slabs; at most 8 spare ones stand in, so
    // new ones are made (with the retried bodies handed back, the slab in use would serve all).
    for (let k = 1; k <= 12; k++) {
      for (let i = 0; i < 110; i++) await call(`after ${k} ${i}`);
      await call(`retry me ${k}`);
    }
    expect(refused.size).toBe(13);
    expect(slabsMade() - m0).toBeGreaterThanOrEqual(4);
  });

  it('skips 1xx answers, keeps the first of a repeated retry-after, and reads an unframed body until close', async () => {
    const s = await raw((n, socket) => {
      if (n === 0) {
        socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\n');
        socket.end('HTTP/1.1 429 Too Many\r\nX-A: 1\r\nx-a: 2\r\nRetry-After: 0.05\r\nRetry-After: 900\r\nSet-Cookie: a\r\nSet-Cookie: b\r\n\r\n{"error":{"message":"slow down"}}');
      } else socket.end('HTTP/1.1 200 OK\r\n\r\n{"until":"close"}');
    });
    const started = Date.now();
    expect(await call(s.url, { maxRetries: 1, maxRetryAfterMs: 60_000 })).toEqual({ until: 'close' });
    expect(Date.now() - started).toBeLessThan(30_000); // 900 s if the second retry-after were taken
  });

  it('a pooled socket the server closed as the request came is resent at once on a fresh one; Connection: close is not reused', async () => {
    const s = await raw((n, socket) => {
      if (n === 2) socket.destroy(); // closed as the request came: it did not reach the application
      else if (n === 4) socket.end(answer('200 OK', `{"n":${n}}`, 'Connection: close\r\n'));
      else socket.write(answer('200 OK', `{"n":${n}}`));
    });
    expect(await call(s.url)).toEqual({ n: 0 });
    expect(await call(s.url)).toEqual({ n: 1 });
    expect(s.connections()).toBe(1);
    await new Promise((r) => setImmediate(r));
    const r = await postJsonWithRetries({ a: 1 }, opts(s.url));
    expect(r).toEqual({ body: { n: 3 }, retries: undefined }); // resent within the attempt, not retried
    expect(s.connections()).toBe(2);
    expect(await call(s.url)).toEqual({ n: 4 });
    expect(await call(s.url)).toEqual({ n: 5 });
    expect(s.connections()).toBe(3);
  });

  it('times out, reports a stalled or cut body, and a malformed answer as a network fault', async () => {
    const s = await raw((n, socket) => {
      if (n === 0) return; // never answers
      if (n === 1) socket.write('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'); // stalls
      if (n === 2) socket.end('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'); // cut
      if (n === 3) socket.end('NOT HTTP\r\n\r\n');
      if (n === 4) socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
    });
    const timedOut = await failure(s.url, { timeoutMs: 300 });
    expect([timedOut.retries.faults, timedOut.message]).toEqual([['timeout'], 'no complete answer within 0.3 s (after 1 attempt)']);
    const stalled = await failure(s.url, { bodyTimeoutMs: 200 });
    expect([stalled.retries.faults, stalled.message]).toEqual([['body_stalled'], 'the response body stalled (after 1 attempt)']);
    const cut = await failure(s.url);
    expect([cut.retries.faults, cut.message]).toEqual([['body_truncated'], '200 body cut off: the connection closed (after 1 attempt)']);
    const bad = await failure(s.url);
    expect(bad.retries.faults).toEqual(['network']);
    const badChunk = await failure(s.url);
    expect(badChunk.retries.faults).toHaveLength(1);
  });

  it('sends Basic auth from URL credentials, and refuses a header with a line break before sending', async () => {
    const s = await raw((_n, socket) => socket.write(answer('200 OK', `"${'x'.repeat(98)}"`)));
    const withUser = new URL(s.url);
    withUser.username = 'u%20x';
    withUser.password = 'p';
    await call(withUser, { headers: {} });
    expect(s.heads[0].toLowerCase()).toContain(`authorization: basic ${Buffer.from('u x:p').toString('base64').toLowerCase()}`);
    const refused = await failure(s.url, { headers: { authorization: 'Bearer a\nb' } });
    expect(refused.message).toMatch(/^the request cannot be sent: .*authorization.* \(not retried\)$/);
    expect(s.heads).toHaveLength(1);
  });
});
