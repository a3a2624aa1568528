/**
 * A private redis-server for queue tests: its own port and folder, no persistence, stopped after
 * the tests. `HAS_REDIS` is false when no redis-server is on PATH (queue tests then skip).
 */
import fs from 'node:fs';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { tmpDir } from './paths.js';
import { REDIS_NEED } from './needs.js';

/** True when redis-server is on PATH; queue tests skip otherwise, saying so in their names ({@link REDIS_NEED}). */
export const HAS_REDIS = REDIS_NEED.present;

export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

/** A loopback TCP port that was free a moment ago (taken and released; nothing listens on it now). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts redis-server on a free loopback port and waits (polling PING, up to 30 s) until it answers. */
export async function startRedis(): Promise<TestRedis> {
  const dir = tmpDir('sg-redis-');
  const port = await freePort();
  const child: ChildProcess = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
  const url = `redis://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    r.on('error', () => {});
    try {
      await r.connect();
      if ((await r.ping()) === 'PONG') {
        r.disconnect();
        break;
      }
    } catch {
      r.disconnect();
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 30 s`);
      await new Promise((res) => setTimeout(res, 100));
    }
  }
  return {
    url,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((res) => child.once('exit', res));
        child.kill('SIGTERM');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
