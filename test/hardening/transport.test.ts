/**
 * Issue 11 items 2, 7 and 8 at the adapter: retries are bounded in time (retry-after cap, a
 * per-call deadline, a body timeout), truncated and non-JSON 200 bodies are retried like a 5xx,
 * 401/403 are not retried, every retry is recorded in the receipt, and neither the key nor URL
 * credentials reach a receipt or an error text.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import { resolveLiveModelConfig, type LiveModelFlags } from '../../src/models/config.js';
import { ProviderError } from '../../src/spec/errors.js';
import { ReceiptSchema } from '../../src/spec/receipt.js';

const KEY = 'test-fake-key-CANARY-TRANSPORT-9931';
const input = { messages: [{ role: 'user' as const, content: 'hi' }], temperature: 0 };
const completion = (text: string) => JSON.stringify({ id: 'c1', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }] });

type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse) => void;
const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server answering request n with behaviours[n] (the last one repeats). */
async function scripted(behaviours: Behaviour[]): Promise<{ url: string; hits: () => number }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => behaviours[Math.min(n++, behaviours.length - 1)](req, res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits: () => n };
}

const ok = (text = 'fine'): Behaviour => (_q, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(completion(text));
};
const status = (code: number, headers: Record<string, string> = {}, message = 'nope'): Behaviour => (_q, res) => {
  res.writeHead(code, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message } }));
};

function model(url: string, flags: LiveModelFlags = {}): OpenAICompatibleModel {
  return new OpenAICompatibleModel(resolveLiveModelConfig({ model: 'm', timeout: 2, maxRetries: 3, ...flags }, { SERVICEGYM_BASE_URL: url, SERVICEGYM_API_KEY: KEY }));
}

describe('retries bounded in time (item 2)', () => {
  it('retry-after: 86400, retry-after-ms: 999999999 and a far retry-after date are cut to --max-retry-after', async () => {
    const far = new Date(Date.now() + 365 * 86400_000).toUTCString();
    const s = await scripted([status(429, { 'retry-after': '86400' }), status(429, { 'retry-after-ms': '999999999' }), status(503, { 'retry-after': far }), ok('after three')]);
    const started = Date.now();
    const r = await model(s.url, { maxRetryAfter: 0.05 }).complete(input, 'task_agent');
    expect(r.response.choices[0].message.content).toBe('after three');
    // Far below even one honoured retry-after (a day); the generous bound only tolerates a loaded machine.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.receipt.retries).toEqual({ attempts: 4, waited_seconds: expect.any(Number), faults: ['rate_limited', 'rate_limited', 'server_error'] });
    expect(r.receipt.retries!.waited_seconds).toBeLessThanOrEqual(0.2);
    expect(ReceiptSchema.parse(r.receipt)).toEqual(r.receipt);
  }, 60_000);

  it('the default cap is 60 s, from SERVICEGYM_MAX_RETRY_AFTER or --max-retry-after', () => {
    const env = { SERVICEGYM_API_KEY: KEY };
    expect(resolveLiveModelConfig({ model: 'm' }, env).maxRetryAfterSeconds).toBe(60);
    expect(resolveLiveModelConfig({ model: 'm' }, { ...env, SERVICEGYM_MAX_RETRY_AFTER: '5' }).maxRetryAfterSeconds).toBe(5);
    expect(resolveLiveModelConfig({ model: 'm', maxRetryAfter: '2.5' }, { ...env, SERVICEGYM_MAX_RETRY_AFTER: '5' }).maxRetryAfterSeconds).toBe(2.5);
    expect(() => resolveLiveModelConfig({ model: 'm', maxRetryAfter: 'abc' }, env)).toThrow(/--max-retry-after/);
    expect(() => resolveLiveModelConfig({ model: 'm', callDeadline: '0' }, env)).toThrow(/--call-deadline/);
  });

  it('a body that stalls after the headers is abandoned after the body timeout and retried', async () => {
    const stall: Behaviour = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
      res.write('{"id":"x","choices":[');
    };
    const s = await scripted([stall, ok('after the stall')]);
    const started = Date.now();
    const r = await model(s.url, { timeout: 60, bodyTimeout: 0.3 }).complete(input, 'task_agent');
    expect(r.response.choices[0].message.content).toBe('after the stall');
    expect(Date.now() - started).toBeLessThan(30_000); // the attempt timeout alone would wait 60 s
    expect(r.receipt.retries?.faults).toEqual(['body_stalled']);
  }, 60_000);

  it('a truncated 200 body and a non-JSON 200 body are retried like a 5xx', async () => {
    const cut: Behaviour = (_q, res) => {
      const body = completion('never seen');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
      res.write(body.slice(0, 20));
      setTimeout(() => res.destroy(), 50);
    };
    const html: Behaviour = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>502 Bad Gateway</html>');
    };
    const halfJson: Behaviour = (_q, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(completion('x').slice(0, 30));
    };
    const s = await scripted([cut, html, halfJson, ok('whole')]);
    const r = await model(s.url, { maxRetryAfter: 0 }).complete(input, 'task_agent');
    expect(r.response.choices[0].message.content).toBe('whole');
    expect(r.receipt.retries?.faults).toEqual(['body_truncated', 'not_json', 'body_truncated']);
  }, 60_000);

  it('a call never outlasts its deadline across attempts, however many retries are allowed', async () => {
    const s = await scripted([() => undefined]); // every attempt hangs
    const started = Date.now();
    const p = model(s.url, { timeout: 1, maxRetries: 50, callDeadline: 2.5 }).complete(input, 'task_agent');
    const e = (await p.catch((x: unknown) => x)) as ProviderError;
    expect(e).toBeInstanceOf(ProviderError);
    expect(Date.now() - started).toBeLessThan(20_000); // 50 retries of 1 s attempts would take 50 s and more
    expect(e.message).toMatch(/deadline|no complete answer/);
    expect(e.retries?.faults.every((f) => f === 'timeout')).toBe(true);
  }, 60_000);

  it('401 and 403 are not retried and carry the provider reason', async () => {
    for (const code of [401, 403]) {
      const s = await scripted([status(code, {}, `Incorrect API key provided: ${KEY}`)]);
      const e = (await model(s.url).complete(input, 'task_agent').catch((x: unknown) => x)) as ProviderError;
      expect(e).toBeInstanceOf(ProviderError);
      expect(e.fatal).toBe(true);
      expect(e.status).toBe(code);
      expect(s.hits()).toBe(1);
      expect(e.message).toContain('Incorrect API key provided: ***');
      expect(e.message).not.toContain(KEY);
    }
  });
});

describe('secrets by value (item 7)', () => {
  it('a provider that echoes the key inside a 200 body does not get it into the receipt', async () => {
    const s = await scripted([ok(`your key is ${KEY} (…${KEY.slice(-8)})`)]);
    const r = await model(s.url).complete(input, 'task_agent');
    expect(JSON.stringify(r.receipt)).not.toContain(KEY.slice(-8));
    expect(r.response.choices[0].message.content).toBe('your key is *** (…***)');
  });

  it('a credential in the base URL query reaches the wire but no receipt or error text; user:pass@ is refused without echoing it', async () => {
    let seen = '';
    const s = await scripted([(q, res) => ((seen = q.url ?? ''), status(500, {}, 'down')(q, res))]);
    const m = model(`${s.url}?api-key=URLSECRET123`, { maxRetries: 0 });
    const e = (await m.complete(input, 'task_agent').catch((x: unknown) => x)) as ProviderError;
    expect(seen).toBe('/v1/chat/completions?api-key=URLSECRET123');
    expect(m.endpoint).toBe(`${s.url}/chat/completions?api-key=***`);
    expect(e.message).not.toContain('URLSECRET123');
    const userinfo = 'http://alice:PASSW0RDSECRET@127.0.0.1:9/v1';
    expect(() => resolveLiveModelConfig({ model: 'm' }, { SERVICEGYM_BASE_URL: userinfo, SERVICEGYM_API_KEY: KEY })).toThrow(/carries credentials/);
    try {
      resolveLiveModelConfig({ model: 'm' }, { SERVICEGYM_BASE_URL: userinfo, SERVICEGYM_API_KEY: KEY });
    } catch (x) {
      expect((x as Error).message).not.toContain('PASSW0RDSECRET');
    }
  });
});
