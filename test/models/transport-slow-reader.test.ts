/**
 * Request bodies cut from reused slabs (src/util/request-text.ts `joinChunks`/`releaseJoined`)
 * are never overwritten while a call may still send them: many concurrent calls to a raw server
 * that reads slowly (each connection left unread for a while, then read in pieces), answers some
 * calls with a 307 (the body sent again elsewhere), leaves others unanswered until the call's
 * timeout (the body sent again on a fresh connection), receives each body it reads in full as
 * exactly the JSON of one call, and answers each call with that call's own id.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { postJsonWithRetries } from '../../src/models/transport.js';
import { slabsMade } from '../../src/util/request-text.js';

const servers: net.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await new Promise((r) => s.close(r));
});

/** What the slow server saw. */
interface SlowServer {
  url: string;
  /** Every body read in full, as received (UTF-8). */
  bodies: string[];
  /** Bodies whose JSON did not parse. */
  broken: string[];
}

const reply = (status: string, body: string, headers = '') => `HTTP/1.1 ${status}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}\r\n${body}`;

/**
 * A raw HTTP/1.1 server that leaves each new connection unread for `idleMs`, then reads it in
 * pieces (the socket paused a few ms after each one). A request whose body's first message is
 * `call N` is answered, on its first arrival at `/v1/…`, with a 307 to `/v2/…` when N % 5 === 0,
 * not at all when N % 7 === 3 (the caller's timeout sends it again), else `{"id": N}`.
 */
async function slowServer(idleMs: number): Promise<SlowServer> {
  const bodies: string[] = [];
  const broken: string[] = [];
  const seen = new Set<string>();
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.pause();
    setTimeout(() => socket.resume(), idleMs);
    let buf = Buffer.alloc(0);
    socket.on('data', (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      socket.pause();
      setTimeout(() => socket.resume(), 3);
      for (;;) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buf.toString('latin1', 0, end);
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const text = buf.toString('utf8', end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        bodies.push(text);
        let id: number;
        try {
          id = Number(/^call (\d+)/.exec(JSON.parse(text).messages[0].content)![1]);
        } catch {
          broken.push(text);
          socket.write(reply('400 Bad Request', '{"error":"broken body"}'));
          continue;
        }
        const path = head.split(' ')[1];
        const first = !seen.has(`${path} ${id}`);
        seen.add(`${path} ${id}`);
        if (first && path.startsWith('/v1/') && id % 5 === 0) socket.write(reply('307 Temporary Redirect', '', 'Location: /v2/chat/completions\r\n'));
        else if (first && path.startsWith('/v1/') && id % 7 === 3) continue;
        else socket.write(reply('200 OK', JSON.stringify({ id })));
      }
    });
  });
  const close = server.close.bind(server);
  server.close = ((cb?: (err?: Error) => void) => (sockets.forEach((s) => s.destroy()), close(cb))) as typeof server.close;
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1/chat/completions`, bodies, broken };
}

describe('request bodies from reused slabs, on the wire', () => {
  it('a slow reader gets every body intact through redirects, timeouts and retries, and each call its own answer', async () => {
    const s = await slowServer(40);
    const o = { url: s.url, headers: { authorization: 'Bearer k' }, timeoutMs: 400, bodyTimeoutMs: 400, maxRetries: 3, maxRetryAfterMs: 0, deadlineMs: 20_000, random: () => 1 };
    const sent = new Set<string>();
    const before = slabsMade();
    let id = 0;
    // 32 conversations x 6 calls, bodies of 20-110 KB: over 10 MiB through slabs of 1 MiB.
    const chain = async (c: number) => {
      for (let i = 0; i < 6; i++) {
        const n = id++;
        const request = { model: 'm', messages: [{ role: 'user', content: `call ${n} ${String.fromCharCode(97 + (n % 26)).repeat(20_000 + ((c * 7919 + i * 104_729) % 90_000))}` }] };
        sent.add(JSON.stringify(request));
        const got = await postJsonWithRetries(request, o);
        expect(got.body).toEqual({ id: n });
      }
    };
    await Promise.all(Array.from({ length: 32 }, (_, c) => chain(c)));
    expect(s.broken).toEqual([]);
    for (const b of s.bodies) expect(sent.has(b)).toBe(true);
    // Each call reached the server at least once; the redirected and the unanswered ones twice or more.
    expect(new Set(s.bodies)).toEqual(sent);
    expect(s.bodies.length).toBeGreaterThanOrEqual(sent.size + [...Array(id).keys()].filter((n) => n % 5 === 0 || n % 7 === 3).length);
    expect([...sent].reduce((n, b) => n + b.length, 0)).toBeGreaterThan(10 * 2 ** 20);
    // A call sent more than once keeps its body (a socket may still hold part of an earlier send):
    // a third of these calls are, so most slabs stay unreused here; fresh ones are taken instead.
    expect(slabsMade()).toBeGreaterThan(before);
  }, 60_000);
});
