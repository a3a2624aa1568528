/**
 * `servicegym worker` stopped by a signal (src/cli/worker.ts): the first SIGINT or SIGTERM says
 * that it stops gently and how to stop at once (a running episode may take minutes, and nothing
 * else would tell the user that a second Ctrl-C ends it), then the worker stops with exit 0.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnWorker, until } from '../support/queue-worker.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

describe.skipIf(lacks(REDIS_NEED))(needing('worker stopped by a signal', REDIS_NEED), () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`the first ${signal} says the worker is stopping and how to stop at once; it then exits 0`, async () => {
      const w = spawnWorker(redis.url, `sg-test-${randomUUID()}`, 'test-fake-key-worker-stop');
      // The worker has installed its stop once it says it waits.
      await until('the worker to wait for episodes', () => w.lines.some((l) => l.includes('waiting for episodes')));
      w.child.kill(signal);
      expect(await w.exited).toBe(0);
      // Ctrl-C is named for SIGINT; SIGTERM (kill, a service manager) is told to send SIGTERM again.
      expect(w.lines).toContain(`servicegym worker: stopping: no new episode is taken; the running ones finish (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to stop at once)`);
    }, 120_000);
  }
});
