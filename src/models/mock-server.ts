/**
 * A local mock OpenAI-compatible chat-completions server, for servicegym's tests and for users'
 * own tests of agents and pipelines: no network beyond 127.0.0.1, no key, deterministic bodies.
 *
 * Replies come from a FIFO `script` or from a `handler`; each can inject latency, errors (with
 * retry headers), hangs and malformed bodies. Every chat-completions request is logged with its
 * headers; that log is the fake server's own view and may hold the client's Authorization header.
 *
 * Served by Node's own `http` module with one small function per request (no framework): load
 * tests run thousands of calls against it beside the process they measure, so its work per call
 * is kept small, and its latency (`delayMs`) is counted from each request's arrival so that the
 * server's own work does not add to it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** One received chat-completions request: parsed JSON body (or raw text), lower-cased headers, arrival time in epoch ms. */
export interface MockRequestLog {
  body: any;
  /** Header names lower-cased; a repeated header's values joined by `, ` (as fetch's `Headers` joins them). */
  headers: Record<string, string>;
  at: number;
}

/** Computes the reply to a request; `index` is the 0-based request count, `log` all requests so far. */
export type MockHandler = (body: any, ctx: { index: number; log: MockRequestLog[] }) => MockReply | Promise<MockReply>;

export interface MockServerOptions {
  /** Replies taken in order, one per request; once exhausted the server answers 500 `mock script exhausted`. */
  script?: (MockReply | (MockReply & { delayMs?: number }))[];
  /** Used when no script is given. A handler that throws (or rejects) gets a 500 naming its error. */
  handler?: MockHandler;
  /**
   * Latency of every reply in ms, counted from the request's arrival (its headers read): the reply
   * leaves `delayMs` (plus a scripted reply's own `delayMs`) after the request arrived, or as soon
   * as it is ready when reading the body and the handler took longer. The server's own work thus
   * does not lengthen the latency a client sees, as a model's latency does not grow with its
   * server's parsing.
   */
  delayMs?: number;
  /** Port on 127.0.0.1; default 0 (ephemeral). */
  port?: number;
  /**
   * Include `usage` in completions; default true. Tokens are estimated at 4 characters each:
   * `prompt_tokens` from the request body's text (tools included, as providers count them),
   * `completion_tokens` from the reply message's JSON text.
   */
  usage?: boolean;
  /** If set, `usage.cost` is this value on every completion. */
  cost?: number;
  /**
   * Keep every request in `requests` (default true). Load tests that never read the log pass
   * false, so that thousands of request bodies are not held in memory; `ctx.log` is then empty.
   */
  log?: boolean;
}

export interface MockServer {
  /** Base URL ending in `/v1`, e.g. `http://127.0.0.1:54321/v1`. */
  url: string;
  /** Every chat-completions request received, in order. */
  requests: MockRequestLog[];
  /** Ends open (also hanging) requests and stops the server. */
  close(): Promise<void>;
}

/** The 4-characters-per-token estimate of a text's length. */
const tokens = (text: string): number => Math.ceil(text.length / 4);

function errorType(status: number): string {
  if (status === 429) return 'rate_limit_error';
  if (status === 401 || status === 403) return 'authentication_error';
  return status >= 500 ? 'server_error' : 'invalid_request_error';
}

const MODELS = JSON.stringify({ object: 'list', data: [{ id: 'mock', object: 'model', created: 1700000000, owned_by: 'servicegym' }] });

/** Sends a JSON text (or an empty body when `text` is null); `extra` headers may override the content type. */
function send(res: http.ServerResponse, status: number, text: string | null, extra?: Record<string, string>): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = text === null ? { 'content-length': 0 } : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  if (extra) for (const name in extra) headers[name.toLowerCase()] = extra[name];
  res.writeHead(status, headers);
  res.end(text ?? undefined);
}

/** A request's headers, names lower-cased, repeated values joined by `, `. */
function headerRecord(raw: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    out[name] = name in out ? `${out[name]}, ${raw[i + 1]}` : raw[i + 1];
  }
  return out;
}

/** The completion body of a content or tool-call reply to request number `index`, whose body text was `text`. */
function completionOf(reply: MockReply, index: number, body: any, text: string, opts: MockServerOptions): Record<string, unknown> {
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
    const r = reply as { content: string; reasoning_content?: string };
    message = { role: 'assistant', content: r.content };
    if (r.reasoning_content !== undefined) message.reasoning_content = r.reasoning_content;
  }
  const completion: Record<string, unknown> = {
    id: `mock-${index}`,
    object: 'chat.completion',
    created: 1700000000,
    model: body?.model ?? 'mock',
    choices: [{ index: 0, finish_reason: finish, message }],
  };
  if (opts.usage !== false) {
    const prompt = tokens(text);
    const completionTokens = tokens(JSON.stringify(message));
    const usage: Record<string, number> = { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens };
    if (opts.cost !== undefined) usage.cost = opts.cost;
    completion.usage = usage;
  }
  return completion;
}

/** One open exchange: whether its client left, and how to end its current wait. */
interface Exchange {
  gone: boolean;
  wake?: () => void;
}

/** A running mock server's state, shared by its requests. */
interface MockState {
  opts: MockServerOptions;
  /** The request log (`MockServer.requests`), filled when `keepLog`. */
  requests: MockRequestLog[];
  keepLog: boolean;
  /** Chat-completions requests received so far: the next one's index. */
  received: number;
  /** The script's replies not sent yet. */
  script: NonNullable<MockServerOptions['script']>;
  /** How to end each pending wait (see {@link waitFor}). */
  waiters: Set<() => void>;
  closing: boolean;
}

/**
 * Starts the mock server on 127.0.0.1 (`opts.port`, default an ephemeral port) and resolves once it
 * is listening; rejects with the listen error (e.g. EADDRINUSE). See {@link MockServerOptions} for
 * the replies and {@link MockServer} for what it returns.
 */
export async function startMockServer(opts: MockServerOptions = {}): Promise<MockServer> {
  const state: MockState = { opts, requests: [], keepLog: opts.log !== false, received: 0, script: [...(opts.script ?? [])], waiters: new Set(), closing: false };
  const server = http.createServer((req, res) => onRequest(state, req, res));
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
    requests: state.requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        state.closing = true;
        for (const release of [...state.waiters]) release();
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** One HTTP request: the models list, a 404, or a chat-completions request read in full and then answered. */
function onRequest(state: MockState, req: http.IncomingMessage, res: http.ServerResponse): void {
  const arrived = performance.now();
  const at = Date.now();
  const q = req.url!.indexOf('?');
  const path = q < 0 ? req.url! : req.url!.slice(0, q);
  if (req.method === 'GET' && path === '/v1/models') return send(res, 200, MODELS);
  if (req.method !== 'POST' || path !== '/v1/chat/completions') {
    req.resume();
    res.writeHead(404, { 'content-type': 'text/plain; charset=UTF-8' }).end('404 Not Found');
    return;
  }
  const ex: Exchange = { gone: false };
  res.once('close', () => {
    ex.gone = true;
    ex.wake?.();
  });
  const log: MockRequestLog = { body: undefined, headers: state.keepLog ? headerRecord(req.rawHeaders) : {}, at };
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    let text = chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks).toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    answer(state, res, ex, text, arrived, log).catch((e: unknown) => {
      const message = `mock handler failed: ${e instanceof Error ? e.message : String(e)}`;
      send(res, 500, JSON.stringify({ error: { message, type: 'server_error', code: '500' } }));
    });
  });
}

/** Resolves after `ms` (Infinity: never), when the client disconnects, or when the server closes. */
function waitFor(state: MockState, ms: number, ex: Exchange): Promise<void> {
  return new Promise((resolve) => {
    if (state.closing || ex.gone) return resolve();
    const done = () => {
      clearTimeout(timer);
      ex.wake = undefined;
      state.waiters.delete(done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, ms) : undefined;
    ex.wake = done;
    state.waiters.add(done);
  });
}

/** Replies to one chat-completions request whose body is `text`, `delay` ms after `arrived` (performance.now()). */
async function answer(state: MockState, res: http.ServerResponse, ex: Exchange, text: string, arrived: number, log: MockRequestLog): Promise<void> {
  const { opts } = state;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  log.body = body;
  const index = state.received++;
  if (state.keepLog) state.requests.push(log);

  let reply: MockReply & { delayMs?: number };
  if (opts.script) reply = state.script.shift() ?? { status: 500, error: 'mock script exhausted' };
  else if (opts.handler) reply = await opts.handler(body, { index, log: state.requests });
  else reply = { status: 500, error: 'mock server has neither script nor handler' };

  const due = arrived + (opts.delayMs ?? 0) + (reply.delayMs ?? 0);
  const left = due - performance.now();
  if (left > 0) await waitFor(state, left, ex);
  if ('hang' in reply) await waitFor(state, Infinity, ex);
  if (state.closing || ex.gone || 'hang' in reply) return send(res, 503, null);

  if ('raw' in reply) return send(res, 200, JSON.stringify(reply.raw));
  if ('status' in reply) {
    const message = reply.error ?? `mock error ${reply.status}`;
    return send(res, reply.status, JSON.stringify({ error: { message, type: errorType(reply.status), code: String(reply.status) } }), reply.headers);
  }
  send(res, 200, JSON.stringify(completionOf(reply, index, body, text, opts)));
}
