/**
 * `--rate-limit` across workers (issue 17): two workers of a queued run share one per-provider
 * budget of model calls per minute, held in Redis. Checked at the mock model, on what it received:
 * in every window of time it counts no more requests than the budget grants in that window, plus
 * the calls that may have taken a slot earlier and arrive late (at most one per running episode).
 * The bound holds however slow a loaded machine is, so the test asserts counts, never durations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorker, type QueueWorker } from '../../src/queue/worker.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

const KEY = 'test-fake-key-rate-limit-8181';
/** Calls per minute across the workers: one slot every 100 ms. */
const RATE = 600;
const INTERVAL_MS = 60_000 / RATE;
const WORKERS = 2;
/** Episodes at once per worker (`-j`). */
const PER_WORKER = 2;

/**
 * The most requests any window of `windowMs` (as the server's clock sees arrivals) may hold:
 * the slots the limiter grants in the window (floor(window / interval) + 1), plus the calls
 * granted before the window that arrive in it — each running episode has at most one call between
 * its slot and its arrival.
 */
const allowed = (windowMs: number) => Math.floor(windowMs / INTERVAL_MS) + 1 + WORKERS * PER_WORKER;

/** The largest number of arrival times `at` (ms, sorted) within any window [t, t + windowMs). */
function busiest(at: number[], windowMs: number): number {
  let most = 0;
  let j = 0;
  for (let i = 0; i < at.length; i++) {
    while (at[i] - at[j] >= windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe('the window count', () => {
  it('counts the busiest window', () => {
    expect(busiest([0, 10, 20, 1000, 1001, 1002, 1003], 1000)).toBe(6);
    expect(busiest([0, 10, 20, 1020, 1021], 1000)).toBe(3);
    expect(busiest([0, 999, 1000], 1000)).toBe(2);
    expect(allowed(1000)).toBe(15);
  });
});

describe.skipIf(lacks(REDIS_NEED))(needing('run --queue --rate-limit with two workers', REDIS_NEED), () => {
  let redis: TestRedis;
  let mock: TwoRoleMock;
  const workers: QueueWorker[] = [];
  const saved = process.env.SERVICEGYM_API_KEY;
  let dir: string;
  beforeAll(async () => {
    redis = await startRedis();
    process.env.SERVICEGYM_API_KEY = KEY;
    dir = tmpDir('sg-queue-rate-');
    // Answers at once: without the limit, 4 episodes at a time would call far faster than 10 per second.
    mock = await startTwoRoleMock({
      agent: (messages) => {
        const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
        if (calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' }, id: 'call_user' }] };
        if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' }, id: 'call_reservation' }] };
        return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed.' };
      },
      user: (messages) => (messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' }),
    });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await mock?.close();
    await redis?.stop();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the calls the mock model receives from both workers within the shared rate', async () => {
    const queueName = `sg-rate-${randomUUID()}`;
    const logs: string[][] = [[], []];
    for (let i = 0; i < WORKERS; i++) workers.push(startWorker({ url: redis.url, queueName, concurrency: PER_WORKER, leaseSeconds: 30, log: (l) => logs[i].push(l) }));
    const db = path.join(dir, 'rate.db');
    const r = await runCli(['run', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--json', '--db', db, '--queue', redis.url, '--queue-name', queueName, '--rate-limit', String(RATE)]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).episodes).toHaveLength(10);
    // Both workers ran episodes: the budget was shared, not each worker's own.
    for (const log of logs) expect(log.filter((l) => / finished: /.test(l)).length).toBeGreaterThan(0);

    const at = mock.server.requests.map((q) => q.at).sort((x, y) => x - y);
    expect(at.length).toBeGreaterThanOrEqual(40);
    for (const windowMs of [500, 1000, 2000]) expect(busiest(at, windowMs), `requests in the busiest ${windowMs} ms`).toBeLessThanOrEqual(allowed(windowMs));
    // Over the whole run: all calls but the first few each waited for a slot of their own.
    expect(at[at.length - 1] - at[0]).toBeGreaterThanOrEqual((at.length - 1 - WORKERS * PER_WORKER) * INTERVAL_MS);
  }, 300_000);
});
