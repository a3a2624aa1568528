/**
 * The node:http transport against what fetch handled before it: 307/308 redirects followed with
 * the POST kept (the credential not sent to another origin), other redirects refused with the new
 * address, a key with a trailing newline, a request Node refuses to send (no crash, no retry),
 * gzip and chunked bodies.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import { resolveLiveModelConfig, type LiveModelFlags } from '../../src/models/config.js';
import { postJsonWithRetries } from '../../src/models/transport.js';
import { ProviderError } from '../../src/spec/errors.js';

const KEY = 'test-fake-key-CANARY-REDIRECT-5521';
const input = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0 };
const completion = (text: string) => JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }] });

interface Seen { method?: string; url?: string; authorization?: string; body: string }
type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server answering every request with `behaviour`, keeping what each request carried. */
async function serve(behaviour: Behaviour, host = '127.0.0.1'): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, body });
      behaviour(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, host, r));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}/v1`, seen };
}

const ok = (text: string): Behaviour => (_q, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(completion(text));
};
const redirect = (code: number, location: string): Behaviour => (_q, res) => {
  res.writeHead(code, { location });
  res.end();
};

function model(url: string, flags: LiveModelFlags = {}, key = KEY): OpenAICompatibleModel {
  return new OpenAICompatibleModel(resolveLiveModelConfig({ model: 'm', timeout: 5, maxRetries: 2, ...flags }, { SERVICEGYM_BASE_URL: url, SERVICEGYM_API_KEY: key }));
}

describe('redirects', () => {
  it('a 307 and a 308 are followed with the same POST body and the key on the same origin', async () => {
    const target = await serve(ok('moved'));
    const hop = await serve(redirect(308, `${target.url}/chat/completions`));
    const r = await model(hop.url).complete(input, 'task_agent');
    expect(r.response.choices[0].message.content).toBe('moved');
    expect(hop.seen).toHaveLength(1);
    expect(target.seen).toHaveLength(1);
    expect(target.seen[0].method).toBe('POST');
    expect(JSON.parse(target.seen[0].body)).toEqual({ model: 'm', ...input });
    expect(hop.seen[0].authorization).toBe(`Bearer ${KEY}`);
    expect(r.receipt.retries).toBeUndefined();
  });

  it('the key is sent after a same-origin 307 and not after a cross-origin one', async () => {
    let calls = 0;
    const same = await serve((q, res) => (calls++ === 0 ? redirect(307, '/v2/chat/completions')(q, res) : ok('same origin')(q, res)));
    const r = await model(same.url).complete(input, 'task_agent');
    expect(r.response.choices[0].message.content).toBe('same origin');
    expect(same.seen.map((s) => [s.url, s.authorization])).toEqual([
      ['/v1/chat/completions', `Bearer ${KEY}`],
      ['/v2/chat/completions', `Bearer ${KEY}`],
    ]);
    const other = await serve(ok('other origin'), '127.0.0.2');
    const cross = await serve(redirect(307, `${other.url}/chat/completions`));
    await model(cross.url).complete(input, 'task_agent');
    expect(other.seen[0].authorization).toBeUndefined();
  });

  it('a 301/302/303 is not retried and names the new address; a redirect loop ends', async () => {
    for (const code of [301, 302, 303]) {
      const s = await serve(redirect(code, 'https://api.example.test/v1/chat/completions'));
      const e = (await model(s.url).complete(input, 'task_agent').catch((x: unknown) => x)) as ProviderError;
      expect(e).toBeInstanceOf(ProviderError);
      expect(e.status).toBe(code);
      expect(e.message).toContain(`${code} redirect to https://api.example.test/v1/chat/completions: set the base URL to the new address (not retried)`);
      expect(s.seen).toHaveLength(1);
    }
    const loop = await serve((q, res) => redirect(307, q.url!)(q, res));
    const e = (await model(loop.url).complete(input, 'task_agent').catch((x: unknown) => x)) as ProviderError;
    expect(e.message).toMatch(/307 more than 5 redirects/);
    expect(loop.seen).toHaveLength(6);
  });
});

describe('requests and bodies', () => {
  it('a key with a trailing newline (read from a file) is sent without it', async () => {
    const s = await serve(ok('trimmed'));
    const r = await model(s.url, {}, `${KEY}\r\n`).complete(input, 'task_agent');
    expect(r.response.choices[0].message.content).toBe('trimmed');
    expect(s.seen[0].authorization).toBe(`Bearer ${KEY}`);
  });

  it('a request Node refuses to send fails at once, is not retried, and leaves no timer behind', async () => {
    const s = await serve(ok('never'));
    const o = { url: `${s.url}/chat/completions`, headers: { authorization: 'Bearer a\nb' }, timeoutMs: 50, bodyTimeoutMs: 50, maxRetries: 3, maxRetryAfterMs: 0, deadlineMs: 5000 };
    const e = (await postJsonWithRetries({ a: 1 }, o).catch((x: unknown) => x)) as Error & { retries: { attempts: number } };
    expect(e.message).toMatch(/the request cannot be sent: .*authorization.* \(not retried\)/);
    expect(e.retries.attempts).toBe(1);
    expect(s.seen).toHaveLength(0);
    // The attempt's timer fired on an unset request and crashed the process (an uncaught error vitest reports).
    await new Promise((r) => setTimeout(r, 200));
  });

  it('gzip, deflate and chunked bodies are read whole', async () => {
    const body = completion('packed');
    const s = await serve((q, res) => {
      const n = q.url!.length % 3;
      if (n === 0) {
        res.writeHead(200, { 'content-encoding': 'gzip' });
        res.end(zlib.gzipSync(body));
      } else if (n === 1) {
        res.writeHead(200, { 'content-encoding': 'deflate' });
        res.end(zlib.deflateSync(body));
      } else {
        res.writeHead(200);
        res.write(body.slice(0, 10));
        setTimeout(() => res.end(body.slice(10)), 30);
      }
    });
    for (const suffix of ['?a', '?ab', '?abc']) {
      const r = await model(`${s.url}${suffix}`).complete(input, 'task_agent');
      expect(r.response.choices[0].message.content).toBe('packed');
    }
  });

  it('a small compressed body that expands past the size cap is refused, not decoded into memory', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(200 * 1024 * 1024, 0x20)); // 200 MB of spaces in ~200 KB
    const s = await serve((_q, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end(bomb);
    });
    const o = { url: `${s.url}/chat/completions`, headers: {}, timeoutMs: 30_000, bodyTimeoutMs: 30_000, maxRetries: 0, maxRetryAfterMs: 0, deadlineMs: 60_000 };
    const e = (await postJsonWithRetries({ a: 1 }, o).catch((x: unknown) => x)) as Error;
    expect(e).toBeInstanceOf(Error);
    expect(e.message).toContain('the response body is too large once decoded');
  });
});
