/**
 * The mock OpenAI-compatible server's own contract: latency counted from a request's arrival,
 * the request log, error replies with headers, handler failures, routes, and close().
 * Timing assertions leave hundreds of ms of slack: they tell "from arrival" (delay) apart from
 * "after the handler" (handler time + delay), not the server's speed.
 */
import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/models/mock-server.js';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});
async function mock(opts: MockServerOptions): Promise<MockServer> {
  const s = await startMockServer(opts);
  servers.push(s);
  return s;
}
const post = (server: MockServer, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });

/** Keeps the thread busy for `ms` of wall time. */
function burn(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    /* busy */
  }
}

describe('mock server latency', () => {
  it('counts delayMs from the request arrival, not from the end of the handler', { timeout: 30_000 }, async () => {
    const server = await mock({ delayMs: 1000, handler: () => (burn(1000), { content: 'done' }) });
    const started = performance.now();
    const res = await post(server, { model: 'm', messages: [] });
    const elapsed = performance.now() - started;
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).choices[0].message.content).toBe('done');
    // Never before the delay; counted after the handler it would be >= 2000 ms.
    expect(elapsed).toBeGreaterThanOrEqual(995);
    expect(elapsed).toBeLessThan(1800);
  });

  it('adds a scripted reply\'s own delayMs to the server\'s, from arrival', { timeout: 30_000 }, async () => {
    const server = await mock({ delayMs: 100, script: [{ content: 'late', delayMs: 300 }] });
    const started = performance.now();
    const res = await post(server, { model: 'm', messages: [] });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(395);
    // The log's `at` is the arrival: the reply left at least the delay after it.
    expect(Date.now() - server.requests[0].at).toBeGreaterThanOrEqual(380);
  });

  it('an async handler slower than the delay is answered as soon as it resolves', { timeout: 30_000 }, async () => {
    const server = await mock({ delayMs: 50, handler: async () => (await new Promise((r) => setTimeout(r, 300)), { content: 'slow' }) });
    const started = performance.now();
    const res = await post(server, { model: 'm', messages: [] });
    expect(((await res.json()) as any).choices[0].message.content).toBe('slow');
    expect(performance.now() - started).toBeGreaterThanOrEqual(295);
  });
});

describe('mock server replies and log', () => {
  it('logs bodies and lower-cased headers, repeated values joined, in order', async () => {
    const server = await mock({ script: [{ content: 'a' }, { content: 'b' }] });
    await post(server, { model: 'm', messages: [{ role: 'user', content: 'hi' }] }, { 'X-Trace-Id': 'abc', Authorization: 'Bearer k' });
    await new Promise<void>((resolve, reject) => {
      const req = http.request(`${server.url}/chat/completions?api-version=1`, { method: 'POST', headers: { 'X-Dup': ['one', 'two'] } }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end('not json');
    });
    expect(server.requests.map((r) => r.body)).toEqual([{ model: 'm', messages: [{ role: 'user', content: 'hi' }] }, 'not json']);
    expect(server.requests[0].headers).toMatchObject({ 'x-trace-id': 'abc', authorization: 'Bearer k', 'content-type': 'application/json' });
    expect(server.requests[1].headers['x-dup']).toBe('one, two');
    for (const r of server.requests) expect(Object.keys(r.headers).every((k) => k === k.toLowerCase())).toBe(true);
  });

  it('sends error replies with their headers, raw bodies, usage with cost, and tool-call ids', async () => {
    const server = await mock({
      cost: 0.25,
      script: [
        { status: 429, error: 'slow down', headers: { 'Retry-After-Ms': '1500' } },
        { raw: { choices: 'nope' } },
        { tool_calls: [{ name: 'f', arguments: { a: 1 } }] },
      ],
    });
    const limited = await post(server, { model: 'm', messages: [] });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after-ms')).toBe('1500');
    expect(await limited.json()).toEqual({ error: { message: 'slow down', type: 'rate_limit_error', code: '429' } });
    expect(await (await post(server, {})).json()).toEqual({ choices: 'nope' });
    const messages = [{ role: 'user', content: 'x'.repeat(40) }];
    const sent = JSON.stringify({ model: 'm', messages });
    const done = (await (await post(server, sent)).json()) as any;
    expect(done).toEqual({
      id: 'mock-2',
      object: 'chat.completion',
      created: 1700000000,
      model: 'm',
      choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_2_0', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] } }],
      usage: { prompt_tokens: Math.ceil(sent.length / 4), completion_tokens: Math.ceil(JSON.stringify(done.choices[0].message).length / 4), total_tokens: done.usage.total_tokens, cost: 0.25 },
    });
    expect(done.usage.total_tokens).toBe(done.usage.prompt_tokens + done.usage.completion_tokens);
  });

  it('counts requests in ctx.index even once the log is cleared, and keeps no log with log: false', async () => {
    const seen: number[] = [];
    const server = await mock({ handler: (_body, { index }) => (seen.push(index), { content: `n${index}` }) });
    await post(server, { model: 'm', messages: [] });
    server.requests.splice(0);
    const second = (await (await post(server, { model: 'm', messages: [] })).json()) as any;
    expect(seen).toEqual([0, 1]);
    expect(second.id).toBe('mock-1');
    expect(server.requests).toHaveLength(1);
    const quiet = await mock({ log: false, handler: (_body, { index, log }) => ({ content: `n${index} log ${log.length}` }) });
    for (const want of ['n0 log 0', 'n1 log 0']) expect(((await (await post(quiet, { model: 'm', messages: [] })).json()) as any).choices[0].message.content).toBe(want);
    expect(quiet.requests).toEqual([]);
  });

  it('answers 500 naming the error when the handler throws or rejects', async () => {
    let n = 0;
    const server = await mock({
      handler: async () => {
        if (n++ === 0) throw new Error('boom');
        return Promise.reject(new Error('later boom'));
      },
    });
    const first = await post(server, { model: 'm', messages: [] });
    expect(first.status).toBe(500);
    expect(((await first.json()) as any).error.message).toBe('mock handler failed: boom');
    expect(((await (await post(server, {})).json()) as any).error.message).toBe('mock handler failed: later boom');
  });

  it('answers 404 off its routes and serves /v1/models', async () => {
    const server = await mock({ script: [] });
    expect((await fetch(`${server.url}/completions`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${server.url}/chat/completions`)).status).toBe(404);
    const models = await fetch(`${server.url}/models`);
    expect(models.headers.get('content-type')).toBe('application/json');
    expect(((await models.json()) as any).data[0].id).toBe('mock');
    expect(server.requests).toHaveLength(0);
  });

  it('close() ends requests waiting out their delay promptly', async () => {
    const server = await startMockServer({ delayMs: 600_000, handler: () => ({ content: 'never' }) });
    const pending = post(server, { model: 'm', messages: [] }).then(
      (r) => r.status,
      () => 'failed',
    );
    await vi.waitFor(() => expect(server.requests.length).toBe(1), { timeout: 10_000 });
    const started = performance.now();
    await server.close();
    expect(['failed', 503]).toContain(await pending);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('a client that leaves mid-delay releases its wait', async () => {
    const server = await mock({ delayMs: 600_000, handler: () => ({ content: 'never' }) });
    const ac = new AbortController();
    const aborted = fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}', signal: ac.signal }).catch(() => 'aborted');
    await vi.waitFor(() => expect(server.requests.length).toBe(1), { timeout: 10_000 });
    ac.abort();
    expect(await aborted).toBe('aborted');
    // The server goes on answering others.
    expect((await fetch(`${server.url}/models`)).status).toBe(200);
  });
});
