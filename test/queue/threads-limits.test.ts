/**
 * `run --threads N` beyond `-j`: a thread runs at most ceil(j/N) episodes and all threads together
 * at most j, so threads past j would only load the run's domain and models and wait. The pool
 * starts no more threads than episodes can run at once.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { loadDomain } from '../../src/domains/index.js';
import { datasetFingerprint, harnessPin } from '../../src/queue/jobs.js';
import { runOnThreads, threadObservers, type PoolThread } from '../../src/queue/thread-pool.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';

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

  it('starts at most -j threads, and stores every episode', async () => {
    const store = RunStore.open(path.join(dir, 'x.db'));
    const loaded = loadDomain('airline');
    const pin = { model: 'mock-agent', base_url: mock.server.url, provider: null, timeout: null, max_retries: null, max_retry_after: null, call_deadline: null, body_timeout: null };
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
});
