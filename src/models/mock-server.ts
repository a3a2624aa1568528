/**
 * A local mock OpenAI-compatible chat-completions server, for servicegym's tests and for users'
 * own tests of agents and pipelines: no network beyond 127.0.0.1, no key, deterministic bodies.
 *
 * Replies come from a FIFO `script` or from a `handler`; each can inject latency, errors (with
 * retry headers), hangs and malformed bodies. Every chat-completions request is logged with its
 * headers; that log is the fake server's own view and may hold the client's Authorization header.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Hono } from 'hono';
import { createAdaptorServer } from '@hono/node-server';

/** One scripted reply. */
export type MockReply =
  /** Plain assistant text; finish_reason `stop`. */
  | { content: string; reasoning_content?: string }
  /** Tool calls; `arguments` objects are JSON.stringify'd, strings sent as is; finish_reason `tool_calls`. */
  | { tool_calls: { name: string; arguments: unknown; id?: string }[]; content?: string }
  /** An error reply with body `{error: {message, type, code}}` and optional headers (e.g. `retry-after-ms`). */
  | { status: number; error?: string; headers?: Record<string, string> }
  /** Never answers, until the client gives up or the server closes. */
  | { hang: true }
  /** This JSON body verbatim with status 200 (malformed-response tests). */
  | { raw: unknown };

/** One received chat-completions request: parsed JSON body (or raw text), lower-cased headers, epoch ms. */
export interface MockRequestLog {
  body: any;
  headers: Record<string, string>;
  at: number;
}

/** Computes the reply to a request; `index` is the 0-based request count, `log` all requests so far. */
export type MockHandler = (body: any, ctx: { index: number; log: MockRequestLog[] }) => MockReply | Promise<MockReply>;

export interface MockServerOptions {
  /** Replies taken in order, one per request; once exhausted the server answers 500 `mock script exhausted`. */
  script?: (MockReply | (MockReply & { delayMs?: number }))[];
  /** Used when no script is given. */
  handler?: MockHandler;
  /** Latency added to every reply, in ms. */
  delayMs?: number;
  /** Port on 127.0.0.1; default 0 (ephemeral). */
  port?: number;
  /** Include `usage` in completions; default true. */
  usage?: boolean;
  /** If set, `usage.cost` is this value on every completion. */
  cost?: number;
}

export interface MockServer {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:54321/v1`. */
  url: string;
  /** Every chat-completions request received, in order. */
  requests: MockRequestLog[];
  /** Ends open (also hanging) requests and stops the server. */
  close(): Promise<void>;
}

const tokens = (v: unknown): number => Math.ceil((JSON.stringify(v ?? null) ?? '').length / 4);

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 401 || status === 403) return 'authentication_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

/** Starts the mock server on 127.0.0.1 and resolves once it is listening. */
export async function startMockServer(opts: MockServerOptions = {}): Promise<MockServer> {
  const requests: MockRequestLog[] = [];
  const script = [...(opts.script ?? [])];
  const waiters = new Set<() => void>();
  let closing = false;

  /** Resolves after `ms` (Infinity: never), when the client disconnects, or when the server closes. */
  const wait = (ms: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (closing || signal.aborted) return resolve();
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', done);
        waiters.delete(done);
        resolve();
      };
      if (Number.isFinite(ms)) timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      waiters.add(done);
    });

  const app = new Hono();
  app.get('/v1/models', (c) =>
    c.json({ object: 'list', data: [{ id: 'mock', object: 'model', created: 1700000000, owned_by: 'servicegym' }] }),
  );
  app.post('/v1/chat/completions', async (c) => {
    const text = await c.req.text();
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    const index = requests.length;
    requests.push({ body, headers: c.req.header(), at: Date.now() });

    let reply: MockReply & { delayMs?: number };
    if (opts.script) reply = script.shift() ?? { status: 500, error: 'mock script exhausted' };
    else if (opts.handler) reply = await opts.handler(body, { index, log: requests });
    else reply = { status: 500, error: 'mock server has neither script nor handler' };

    const signal = c.req.raw.signal;
    const delay = (opts.delayMs ?? 0) + (reply.delayMs ?? 0);
    if (delay > 0) await wait(delay, signal);
    if ('hang' in reply) await wait(Infinity, signal);
    if (closing || signal.aborted || 'hang' in reply) return c.body(null, 503);

    if ('raw' in reply) return c.json(reply.raw as object, 200);
    if ('status' in reply) {
      const message = reply.error ?? `mock error ${reply.status}`;
      return c.json({ error: { message, type: errorType(reply.status), code: String(reply.status) } }, reply.status as 500, reply.headers);
    }

    let message: Record<string, unknown>;
    let finish: string;
    if ('tool_calls' in reply) {
      finish = 'tool_calls';
      message = {
        role: 'assistant',
        content: reply.content ?? null,
        tool_calls: reply.tool_calls.map((t, k) => ({
          id: t.id ?? `call_${index}_${k}`,
          type: 'function',
          function: { name: t.name, arguments: typeof t.arguments === 'string' ? t.arguments : JSON.stringify(t.arguments ?? {}) },
        })),
      };
    } else {
      finish = 'stop';
      message = { role: 'assistant', content: reply.content };
      if (reply.reasoning_content !== undefined) message.reasoning_content = reply.reasoning_content;
    }
    const completion: Record<string, unknown> = {
      id: `mock-${index}`,
      object: 'chat.completion',
      created: 1700000000,
      model: body?.model ?? 'mock',
      choices: [{ index: 0, finish_reason: finish, message }],
    };
    if (opts.usage !== false) {
      const prompt = tokens(body?.messages ?? []);
      const completionTokens = tokens(message);
      const usage: Record<string, number> = { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
      if (opts.cost !== undefined) usage.cost = opts.cost;
      completion.usage = usage;
    }
    return c.json(completion);
  });

  const server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing = true;
        for (const release of [...waiters]) release();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections?.();
      }),
  };
}
