/**
 * `run --threads N` beyond `-j`: a thread runs at most ceil(j/N) episodes and all threads together
 * at most j, so threads past j would only load the run's domain and models and wait. The pool
 * starts no more threads than episodes can run at once. `--threads` above twice the machine's
 * cores is refused; `--rate-limit` holds across threads (every call of every thread takes a slot
 * of the main thread's one limiter) and in a one-process run.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { loadDomain } from '../../src/domains/index.js';
import { datasetFingerprint, harnessPin } from '../../src/queue/jobs.js';
import os from 'node:os';
import { runOnThreads, threadObservers, type PoolThread } from '../../src/queue/thread-pool.js';
import { LocalRateLimiter, type CallRateLimiter } from '../../src/models/rate-limit.js';
import { maxThreads } from '../../src/cli/run.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const KEY = 'test-fake-key-threads-limits-7272';

describe('run --threads: threads past -j', () => {
  let mock: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  let dir = '';
  beforeAll(async () => {
    process.env.SERVICEGYM_API_KEY = KEY;
    dir = tmpDir('sg-threads-limits-');
    mock = await startTwoRoleMock({ agent: () => ({ content: 'Done.' }), user: () => ({ content: 'Thanks. ###STOP###' }) });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const pinOf = () => ({ model: 'mock-agent', base_url: mock.server.url, provider: null, timeout: null, max_retries: null, max_retry_after: null, call_deadline: null, body_timeout: null });

  it('starts at most -j threads, and stores every episode', async () => {
    const store = RunStore.open(path.join(dir, 'x.db'));
    const loaded = loadDomain('airline');
    const pin = pinOf();
    const seen: PoolThread[] = [];
    const observe = (t: PoolThread) => seen.push(t);
    threadObservers.add(observe);
    try {
      const res = await runOnThreads({
        threads: 6, concurrency: 2, store, episodes: [0, 1, 2, 3, 4, 5].map((trial) => ({ task: loaded.tasks[0], trial, persona: null })),
        manifest: {
          run_id: 'limits-1', harness: harnessPin(), dataset: { domain: 'airline', data_dir: null, policy_variant: null, solo: false, fingerprint: datasetFingerprint(loaded) },
          agent: { kind: 'llm', model: pin }, user: { kind: 'llm', model: { ...pin, model: 'mock-user' } }, judge: null, judge_votes: 1, temperature: 0, trials: 6, personas: null, strict: false, max_steps: null, rate_limit_per_minute: null,
        },
      });
      expect(res.stored).toBe(6);
      expect(seen.length).toBe(2);
    } finally {
      threadObservers.delete(observe);
      store.close();
    }
  }, 120_000);

  it("--rate-limit on threads: every model call of every thread first takes a slot of the main thread's one limiter", async () => {
    const store = RunStore.open(path.join(dir, 'rate.db'));
    const loaded = loadDomain('airline');
    const pin = pinOf();
    const before = mock.server.requests.length;
    const slots: string[] = [];
    const inner = new LocalRateLimiter(6000); // a slot every 10 ms
    const limiter: CallRateLimiter = { acquire: (provider) => (slots.push(provider), inner.acquire(provider)) };
    try {
      const res = await runOnThreads({
        threads: 2, concurrency: 4, store, limiter, episodes: [0, 1, 2, 3].map((trial) => ({ task: loaded.tasks[0], trial, persona: null })),
        manifest: {
          run_id: 'rate-1', harness: harnessPin(), dataset: { domain: 'airline', data_dir: null, policy_variant: null, solo: false, fingerprint: datasetFingerprint(loaded) },
          agent: { kind: 'llm', model: pin }, user: { kind: 'llm', model: { ...pin, model: 'mock-user' } }, judge: null, judge_votes: 1, temperature: 0, trials: 4, personas: null, strict: false, max_steps: null, rate_limit_per_minute: 6000,
        },
      });
      expect(res.stored).toBe(4);
      const calls = mock.server.requests.length - before;
      expect(calls).toBeGreaterThanOrEqual(4);
      expect(slots).toHaveLength(calls);
      expect(new Set(slots)).toEqual(new Set([new URL(mock.server.url).host]));
    } finally {
      store.close();
    }
  }, 120_000);

  it('--rate-limit in one process spaces the calls (a lower bound on the run\'s time); a bad rate and --threads past twice the cores are exit 2', async () => {
    const db = path.join(dir, 'one.db');
    const before = mock.server.requests.length;
    const started = Date.now();
    // 60 calls a minute: a slot every second, for 4 episodes at once.
    const r = await runCli(['run', '--tasks', 'T01', '--trials', '4', '-j', '4', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json', '--rate-limit', '60']);
    const seconds = (Date.now() - started) / 1000;
    expect(r.code, r.err).toBe(0);
    const calls = mock.server.requests.length - before;
    expect(calls).toBeGreaterThanOrEqual(4);
    expect(seconds).toBeGreaterThanOrEqual(calls - 1);
    for (const bad of ['0', '-3', 'fast']) {
      const b = await runCli(['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'b', '--base-url', mock.server.url, '--db', path.join(dir, 'bad.db'), '--threads', '2', '--rate-limit', bad]);
      expect(b.code).toBe(2);
      expect(b.err).toContain(`--rate-limit must be a number of calls per minute > 0, got '${bad}'`);
    }
    const cores = os.availableParallelism();
    expect(maxThreads(cores)).toBe(2 * cores);
    const many = await runCli(['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'b', '--base-url', mock.server.url, '--db', path.join(dir, 'many.db'), '--threads', String(2 * cores + 1)]);
    expect(many.code).toBe(2);
    expect(many.err).toContain(`--threads ${2 * cores + 1} is more than ${2 * cores}, twice the ${cores} core(s) this machine offers`);
    expect(fs.existsSync(path.join(dir, 'many.db'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'bad.db'))).toBe(false);
  }, 120_000);
});

describe('LocalRateLimiter', () => {
  it('spaces one provider\'s slots 60 000 / rate ms apart in call order, each provider on its own', async () => {
    let now = 1_000;
    const waits: number[] = [];
    const limiter = new LocalRateLimiter(600, { now: () => now, sleep: async (ms) => void waits.push(ms) });
    expect(await Promise.all([limiter.acquire('p'), limiter.acquire('p'), limiter.acquire('p'), limiter.acquire('q')])).toEqual([1_000, 1_100, 1_200, 1_000]);
    expect(waits).toEqual([100, 200]);
    now = 5_000; // idle since: no burst is saved up, the next slot is now
    expect(await limiter.acquire('p')).toBe(5_000);
    expect(await limiter.acquire('p')).toBe(5_100);
  });
});
