import { afterEach, describe, expect, it, vi } from 'vitest';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import { resolveLiveModelConfig } from '../../src/models/config.js';
import { startMockServer, type MockServer, type MockServerOptions } from '../../src/models/mock-server.js';
import { BadInputError, ProviderError } from '../../src/spec/errors.js';
import { ReceiptSchema } from '../../src/spec/receipt.js';
import type { ChatRequestInput } from '../../src/models/chat-model.js';

const FAKE_KEY = 'test-fake-key-DO-NOT-LOG-4242';
const MODEL = 'mock-model-1';

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function mock(opts: MockServerOptions): Promise<MockServer> {
  const s = await startMockServer(opts);
  servers.push(s);
  return s;
}

function modelFor(server: MockServer, flags: { timeout?: number; maxRetries?: number } = {}): OpenAICompatibleModel {
  const cfg = resolveLiveModelConfig(
    { model: MODEL, timeout: flags.timeout ?? 5, maxRetries: flags.maxRetries ?? 2 },
    { SERVICEGYM_BASE_URL: server.url, SERVICEGYM_API_KEY: FAKE_KEY },
  );
  return new OpenAICompatibleModel(cfg);
}

const input: ChatRequestInput = {
  messages: [
    { role: 'system', content: 'You are a helpful agent.' },
    { role: 'user', content: 'Where is my order 1234?' },
  ],
  tools: [
    {
      type: 'function',
      function: { name: 'get_order', description: 'Look up an order', parameters: { type: 'object', properties: { id: { type: 'string' } } } },
    },
  ],
  temperature: 0,
};

describe('OpenAICompatibleModel against the mock server', () => {
  it('returns a tool-call reply and a text reply with full receipts', async () => {
    const server = await mock({
      script: [{ tool_calls: [{ name: 'get_order', arguments: { id: '1234' } }] }, { content: 'Your order ships today.' }],
    });
    const model = modelFor(server);
    expect(model.endpoint).toBe(`${server.url}/chat/completions`);

    const first = await model.complete(input, 'task_agent');
    const msg = first.response.choices[0].message;
    expect(first.response.choices[0].finish_reason).toBe('tool_calls');
    expect(msg.tool_calls).toEqual([{ id: 'call_0_0', type: 'function', function: { name: 'get_order', arguments: '{"id":"1234"}' } }]);

    const r = first.receipt;
    expect(Object.keys(r).sort()).toEqual(['elapsed_seconds', 'endpoint', 'kind', 'provider', 'request', 'response'].sort());
    expect(r.kind).toBe('task_agent');
    expect(r.provider).toBe(new URL(server.url).host);
    expect(r.endpoint).toBe(`${server.url}/chat/completions`);
    expect(r.request.model).toBe(MODEL);
    expect(r.request.messages).toEqual(input.messages);
    expect(r.response).toEqual(first.response);
    expect(r.elapsed_seconds).toBeGreaterThanOrEqual(0);
    expect(r.elapsed_seconds).toBe(first.elapsedSeconds);
    expect(ReceiptSchema.safeParse(r).success).toBe(true);
    // The mock received exactly the request body the receipt records.
    expect(server.requests[0].body).toEqual(r.request);

    const second = await model.complete(input, 'user_simulator');
    expect(second.response.choices[0].message.content).toBe('Your order ships today.');
    expect(second.response.choices[0].finish_reason).toBe('stop');
    expect(second.receipt.kind).toBe('user_simulator');
    expect(second.response.model).toBe(MODEL);
    expect(server.requests).toHaveLength(2);
  });

  it('uses the API key on the wire but never records it in the receipt', async () => {
    const server = await mock({ script: [{ content: 'hello' }] });
    const result = await modelFor(server).complete(input, 'task_agent');
    expect(server.requests[0].headers['authorization']).toBe(`Bearer ${FAKE_KEY}`);
    const json = JSON.stringify(result.receipt);
    expect(json).not.toContain(FAKE_KEY);
    expect(json).not.toContain('DO-NOT-LOG');
    expect(JSON.stringify(result)).not.toContain(FAKE_KEY);
  });

  it('retries 429 (retry-after-ms) and 500, then succeeds', async () => {
    const server = await mock({
      script: [
        { status: 429, error: 'slow down', headers: { 'retry-after-ms': '5' } },
        { status: 500, error: 'boom', headers: { 'retry-after': '0' } },
        { content: 'third time lucky' },
      ],
    });
    const result = await modelFor(server, { maxRetries: 3 }).complete(input, 'llm_judge');
    expect(result.response.choices[0].message.content).toBe('third time lucky');
    expect(server.requests).toHaveLength(3);
    expect(result.receipt.request.model).toBe(MODEL);
  });

  it('retries after a timed-out (hanging) attempt', async () => {
    const server = await mock({ script: [{ hang: true }, { content: 'after the hang' }] });
    const result = await modelFor(server, { timeout: 1.5, maxRetries: 2 }).complete(input, 'task_agent');
    expect(result.response.choices[0].message.content).toBe('after the hang');
    expect(server.requests).toHaveLength(2);
    expect(result.elapsedSeconds).toBeGreaterThanOrEqual(1.5);
  });

  it('throws ProviderError naming the role when every attempt fails', async () => {
    const err = { status: 500, error: 'always down', headers: { 'retry-after-ms': '1' } };
    const server = await mock({ script: [err, err, err] });
    const p = modelFor(server, { maxRetries: 1 }).complete(input, 'coding_agent');
    await expect(p).rejects.toBeInstanceOf(ProviderError);
    const e = (await p.catch((x: unknown) => x)) as ProviderError;
    expect(e.message).toContain('coding_agent');
    expect(e.message).toContain(server.url);
    expect(e.message).not.toContain(FAKE_KEY);
    expect(e.status).toBe(500);
    expect(server.requests).toHaveLength(2);
  });

  it('rejects a malformed body as not a chat completion', async () => {
    const server = await mock({ script: [{ raw: { foo: 1 } }] });
    const p = modelFor(server, { maxRetries: 0 }).complete(input, 'task_agent');
    await expect(p).rejects.toBeInstanceOf(ProviderError);
    await expect(p).rejects.toThrow(/not a chat completion/);
  });

  it('passes provider-reported usage and cost through', async () => {
    const server = await mock({ script: [{ content: 'priced' }], cost: 0.0125 });
    const result = await modelFor(server).complete(input, 'task_agent');
    const usage = result.response.usage!;
    expect(usage.cost).toBe(0.0125);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.completion_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe(usage.prompt_tokens + usage.completion_tokens);
    expect(result.receipt.response.usage?.cost).toBe(0.0125);
  });
});

describe('resolveLiveModelConfig', () => {
  it('reports a base URL that is not a URL (a placeholder left in) before a missing key', () => {
    // Without a key: the placeholder is the mistake, not the key a non-loopback URL would need.
    expect(() => resolveLiveModelConfig({ model: 'm', baseUrl: 'BASE_URL' }, {})).toThrow("base URL 'BASE_URL' is not a URL (SERVICEGYM_BASE_URL / --base-url)");
    expect(() => resolveLiveModelConfig({ model: 'm' }, { SERVICEGYM_BASE_URL: 'BASE_URL' })).toThrow(/is not a URL/);
    expect(() => resolveLiveModelConfig({ model: 'm', baseUrl: 'https://api.example.com/v1' }, {})).toThrow(/no API key/);
  });

  it('refuses without a key, naming SERVICEGYM_API_KEY', () => {
    expect(() => resolveLiveModelConfig({ model: 'm' }, {})).toThrow(BadInputError);
    expect(() => resolveLiveModelConfig({ model: 'm' }, { SERVICEGYM_API_KEY: '' })).toThrow(/SERVICEGYM_API_KEY/);
  });

  it('honours the OPENAI_* fallbacks', () => {
    const cfg = resolveLiveModelConfig({}, { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/', OPENAI_API_KEY: FAKE_KEY, OPENAI_MODEL: 'gpt-x' });
    expect(cfg).toMatchObject({ baseURL: 'http://127.0.0.1:9/v1', apiKey: FAKE_KEY, model: 'gpt-x', provider: '127.0.0.1:9' });
    expect(cfg.timeoutSeconds).toBe(120);
    expect(cfg.maxRetries).toBe(4);
  });

  it('prefers SERVICEGYM_* over OPENAI_* and flags over env', () => {
    const env = {
      SERVICEGYM_BASE_URL: 'http://127.0.0.1:1/v1',
      OPENAI_BASE_URL: 'http://127.0.0.1:2/v1',
      SERVICEGYM_API_KEY: FAKE_KEY,
      OPENAI_API_KEY: 'other-fake-key',
      SERVICEGYM_MODEL: 'env-model',
      SERVICEGYM_PROVIDER: 'env-provider',
      SERVICEGYM_TIMEOUT: '30',
      SERVICEGYM_MAX_RETRIES: '7',
    };
    expect(resolveLiveModelConfig({}, env)).toMatchObject({
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: FAKE_KEY,
      model: 'env-model',
      provider: 'env-provider',
      timeoutSeconds: 30,
      maxRetries: 7,
    });
    expect(
      resolveLiveModelConfig({ baseUrl: 'http://127.0.0.1:3/v1', model: 'flag-model', provider: 'flag-provider', timeout: '5', maxRetries: 0 }, env),
    ).toMatchObject({ baseURL: 'http://127.0.0.1:3/v1', apiKey: FAKE_KEY, model: 'flag-model', provider: 'flag-provider', timeoutSeconds: 5, maxRetries: 0 });
  });

  it('requires a model, mentioning --model', () => {
    expect(() => resolveLiveModelConfig({}, { SERVICEGYM_API_KEY: FAKE_KEY })).toThrow(BadInputError);
    expect(() => resolveLiveModelConfig({}, { SERVICEGYM_API_KEY: FAKE_KEY })).toThrow(/--model/);
  });

  it('rejects bad base URLs, timeouts and retry counts', () => {
    const env = { SERVICEGYM_API_KEY: FAKE_KEY };
    expect(() => resolveLiveModelConfig({ model: 'm', baseUrl: 'not a url' }, env)).toThrow(BadInputError);
    expect(() => resolveLiveModelConfig({ model: 'm', timeout: '0' }, env)).toThrow(BadInputError);
    expect(() => resolveLiveModelConfig({ model: 'm', maxRetries: '1.5' }, env)).toThrow(BadInputError);
  });
});

describe('mock server', () => {
  it('serves /v1/models and answers 500 once the script is exhausted', async () => {
    const server = await mock({ script: [] });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = (await (await fetch(`${server.url}/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['mock']);
    const res = await fetch(`${server.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: 'x', messages: [] }) });
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('mock script exhausted');
  });

  it('calls the handler with the request index, keeps string arguments, and injects latency', async () => {
    const server = await mock({
      delayMs: 20,
      handler: (body, { index, log }) =>
        index === 0
          ? { tool_calls: [{ name: 'a', arguments: '{"raw":true}', id: 'fixed' }, { name: 'b', arguments: { n: log.length } }] }
          : { content: `echo ${body.messages.length}`, reasoning_content: 'thinking' },
    });
    const model = modelFor(server);
    const started = performance.now();
    const first = await model.complete(input, 'task_agent');
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
    expect(first.response.id).toBe('mock-0');
    expect(first.response.choices[0].message.tool_calls?.map((t) => [t.id, t.function.arguments])).toEqual([
      ['fixed', '{"raw":true}'],
      ['call_0_1', '{"n":1}'],
    ]);
    const second = await model.complete(input, 'task_agent');
    expect(second.response.choices[0].message).toEqual({ role: 'assistant', content: 'echo 2', reasoning_content: 'thinking' });
    expect(second.response.usage?.cost).toBeUndefined();
  });

  it('close() ends a hanging request promptly', async () => {
    const server = await startMockServer({ script: [{ hang: true }] });
    const pending = fetch(`${server.url}/chat/completions`, { method: 'POST', body: '{}' }).then(
      () => 'answered',
      () => 'failed',
    );
    await vi.waitFor(() => expect(server.requests.length).toBeGreaterThan(0), { timeout: 10_000 });
    const started = performance.now();
    await server.close();
    expect(await pending).toBe('failed');
    // Far below a hang's length (no timeout is set): close() does not wait for the handler.
    expect(performance.now() - started).toBeLessThan(5000);
  });
});
