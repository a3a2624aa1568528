/**
 * A loopback proxy in front of an OpenAI-compatible server that injects provider faults: 429 with
 * absurd retry-after values (a day in seconds, 999999999 ms, an HTTP date a year ahead), 500, hangs,
 * bodies that stall after the headers, truncated bodies (the upstream answer cut halfway, with its
 * full Content-Length) and non-JSON 200 bodies. Which request gets which fault is drawn from a
 * seeded generator, so a drill is repeatable.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Rng } from '../../src/util/rng.js';

export type Fault = 'rate_limit_day' | 'rate_limit_ms' | 'rate_limit_date' | 'server_error' | 'hang' | 'stall_body' | 'truncate_body' | 'html_body';
export const ALL_FAULTS: Fault[] = ['rate_limit_day', 'rate_limit_ms', 'rate_limit_date', 'server_error', 'hang', 'stall_body', 'truncate_body', 'html_body'];

export interface FaultProxy {
  /** Base URL ending in `/v1`. */
  url: string;
  /** Faults injected, in request order (`null`: forwarded untouched). */
  injected: (Fault | null)[];
  close(): Promise<void>;
}

/** The project's seeded generator (`src/util/rng.ts`) as a function. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

/** Starts the proxy on 127.0.0.1 forwarding to `upstream` (a base URL ending in `/v1`); `rate` of requests get a fault. */
/**
 * `cycle`: instead of drawing, every `1/rate`-th request gets the next fault kind in turn, so a
 * drill of enough requests sees every kind at exactly the given rate.
 */
export async function startFaultProxy(upstream: string, opts: { rate?: number; seed?: number; faults?: Fault[]; cycle?: boolean } = {}): Promise<FaultProxy> {
  const rate = opts.rate ?? 0.2;
  const faults = opts.faults ?? ALL_FAULTS;
  const next = rng(opts.seed ?? 11);
  const injected: (Fault | null)[] = [];
  const open = new Set<http.ServerResponse>();
  const target = new URL(upstream);

  const forward = (req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      up.on('error', reject);
      up.end(body);
    });

  const server = http.createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const i = injected.length;
      const every = Math.round(1 / rate);
      const fault = opts.cycle
        ? i % every === every - 1 ? faults[Math.floor(i / every) % faults.length] : null
        : next() < rate ? faults[Math.floor(next() * faults.length)] : null;
      injected.push(fault);
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      switch (fault) {
        case 'rate_limit_day':
          return json(429, { error: { message: 'rate limited' } }, { 'retry-after': '86400' });
        case 'rate_limit_ms':
          return json(429, { error: { message: 'rate limited' } }, { 'retry-after-ms': '999999999' });
        case 'rate_limit_date':
          return json(429, { error: { message: 'rate limited' } }, { 'retry-after': new Date(Date.now() + 365 * 86400_000).toUTCString() });
        case 'server_error':
          return json(500, { error: { message: 'injected outage' } });
        case 'hang':
          return; // never answers; the client must give up
        case 'stall_body':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
          res.write('{"id":"stalled","choices":[');
          return; // the rest never comes
        default:
      }
      try {
        const up = await forward(req, Buffer.concat(chunks));
        if (fault === 'truncate_body') {
          res.writeHead(up.status, { 'content-type': 'application/json', 'content-length': String(up.body.length) });
          res.write(up.body.subarray(0, Math.floor(up.body.length / 2)));
          setTimeout(() => res.destroy(), 20);
          return;
        }
        if (fault === 'html_body') {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end('<html><body>502 Bad Gateway</body></html>');
          return;
        }
        const headers = { ...up.headers };
        delete headers['transfer-encoding'];
        res.writeHead(up.status, { ...headers, 'content-length': String(up.body.length) });
        res.end(up.body);
      } catch (e) {
        json(502, { error: { message: `proxy: ${(e as Error).message}` } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    injected,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open) r.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
