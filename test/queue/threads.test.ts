/**
 * `run --threads N` (issue 17: the single-process P2 target): episodes run on worker threads of
 * the process and its main thread stores them. A threaded run stores exactly the episodes,
 * evaluations and receipts of a single-threaded one; a thread stopped mid-run loses and duplicates
 * nothing; --max-cost and --resume work across threads; where threads cannot apply the run is
 * refused (exit 2). The repo's mock model server stands in for the provider (no network).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { loadDomain } from '../../src/domains/index.js';
import { datasetFingerprint, harnessPin } from '../../src/queue/jobs.js';
import { runOnThreads, threadObservers, type PoolThread } from '../../src/queue/thread-pool.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const KEY = 'test-fake-key-threads-6161';

/** Episodes of a store without what depends on the clock (latencies). */
function episodes(db: string): Record<string, any>[] {
  const sql = new Database(db, { readonly: true });
  const rows = sql.prepare('SELECT episode_id, task_id, trial, label, reward, partial, termination, result FROM episodes ORDER BY episode_id').all() as Record<string, any>[];
  sql.close();
  const strip = (v: any): any => (Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !['latency_seconds', 'elapsed_seconds', 'model_seconds'].includes(k)).map(([k, x]) => [k, strip(x)])) : v);
  return rows.map((r) => ({ ...r, result: strip(JSON.parse(r.result)) }));
}

/** Every receipt's kind, request and response text as the store gives them back, sorted (completion order differs); the mock's completion ids (by arrival) left out. */
function receiptTexts(db: string, runId: string): string[] {
  const store = RunStore.open(db, { readonly: true });
  try {
    return store.receiptTexts(runId).map((r) => [r.kind, r.provider, r.request, r.response.replace(/^\{"id":"mock-\d+",/, '{')].join('\n')).sort();
  } finally {
    store.close();
  }
}

function runSummary(db: string, runId: string): Record<string, any> {
  const sql = new Database(db, { readonly: true });
  const row = sql.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string };
  sql.close();
  return JSON.parse(row.summary);
}

async function until(what: string, cond: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('run --threads', () => {
  let mock: TwoRoleMock;
  let costly: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  const dirs: string[] = [];
  const dir = () => {
    const d = tmpDir('sg-threads-');
    dirs.push(d);
    return d;
  };
  // Tool call ids fixed by the agent: the mock server would number them by its request count.
  const agent = (messages: any[]) => {
    const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
    if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' }, id: 'call_user' }] };
    if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' }, id: 'call_reservation' }] };
    return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
  };
  const user = (messages: any[]) => (messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' });
  beforeAll(async () => {
    process.env.SERVICEGYM_API_KEY = KEY;
    mock = await startTwoRoleMock({ agent, user }, { delayMs: 30 });
    // Every completion reports a cost of $0.01.
    costly = await startTwoRoleMock({ agent, user }, { cost: 0.01, delayMs: 20 });
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await costly?.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  const common = (url: string) => ['run', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', url, '-q', '--json'];

  it('stores exactly the episodes, evaluations and receipts of a single-threaded run, even with a thread stopped mid-run', async () => {
    const d = dir();
    const args = [...common(mock.server.url), '--run-id', 'threads-1', '-j', '4'];
    const single = await runCli([...args, '--db', path.join(d, 'single.db')]);
    expect(single.err).toBe('');
    expect(single.code).toBe(0);

    // Thread 0 is stopped while it runs an episode, after the first episode was stored.
    const seen: PoolThread[] = [];
    let killed = 0;
    const observe = (t: PoolThread) => seen.push(t);
    threadObservers.add(observe);
    const threadedDb = path.join(d, 'threaded.db');
    try {
      const running = runCli([...args, '--db', threadedDb, '--threads', '2']);
      await until('thread 0 to run an episode after one was stored', () => seen.length >= 2 && seen[0].inFlight() > 0 && mock.server.requests.length > 40);
      killed = seen[0].inFlight();
      await seen[0].worker.terminate();
      const threaded = await running;
      expect(threaded.err).toBe('');
      expect(threaded.code).toBe(0);
      // Thread 0 was replaced in its slot.
      expect(seen.length).toBe(3);
      expect(seen[2].index).toBe(0);
      expect(killed).toBeGreaterThan(0);
      const one = episodes(path.join(d, 'single.db'));
      const many = episodes(threadedDb);
      expect(one).toHaveLength(10);
      expect(many).toEqual(one);
      expect(receiptTexts(threadedDb, 'threads-1')).toEqual(receiptTexts(path.join(d, 'single.db'), 'threads-1'));
      expect(JSON.parse(threaded.out).summary).toEqual(JSON.parse(single.out).summary);
      expect(JSON.parse(threaded.out).episodes).toEqual(JSON.parse(single.out).episodes);
      expect(fs.readFileSync(threadedDb).includes(KEY)).toBe(false);
    } finally {
      threadObservers.delete(observe);
    }
  }, 120_000);

  it('--max-cost stops a threaded run as it stops one thread, and --resume with threads finishes it', async () => {
    const d = dir();
    const args = [...common(costly.server.url), '--run-id', 'cost-1', '--max-cost', '0.05'];
    // Each episode costs $0.05 or more (agent and user calls at $0.01): the cap stops the run after its first episodes.
    const single = await runCli([...args, '--db', path.join(d, 'single.db'), '-j', '1']);
    expect(single.code).toBe(1);
    const threadedDb = path.join(d, 'threaded.db');
    const junit = path.join(d, 'threaded.xml');
    const threaded = await runCli([...args, '--db', threadedDb, '-j', '2', '--threads', '2', '-o', junit]);
    expect(threaded.code).toBe(1);
    const stored = episodes(threadedDb).length;
    // The cap is reached after as many episodes as in one thread; the one the other thread was running then is stored too.
    const singleStored = episodes(path.join(d, 'single.db')).length;
    expect(singleStored).toBeGreaterThanOrEqual(1);
    expect(singleStored).toBeLessThan(10);
    expect(stored).toBeGreaterThanOrEqual(singleStored);
    expect(stored).toBeLessThanOrEqual(singleStored + 1);
    expect(threaded.err).toMatch(new RegExp(`the run stopped: --max-cost \\$0\\.05 reached \\(provider-reported cost \\$0\\.\\d{4}\\); ${10 - stored} episode\\(s\\) not started; continue with --resume cost-1 and a higher --max-cost`));
    expect(runSummary(threadedDb, 'cost-1').halted).toEqual({ reason: expect.stringMatching(/^--max-cost \$0\.05 reached/), not_started: 10 - stored });
    // The JUnit file lists the episodes read back from the store and every planned one that did not start, skipped.
    const xml = fs.readFileSync(junit, 'utf8');
    expect(xml).toMatch(new RegExp(`<testsuite name="cost-1" tests="10" failures="\\d+" errors="0" skipped="${10 - stored}"`));
    expect(xml.match(/<skipped message="not started: the run stopped \(--max-cost \$0\.05 reached \(provider-reported cost \$0\.\d{4}\)\); continue with --resume cost-1"\/>/g)).toHaveLength(10 - stored);

    const resumed = await runCli([...common(costly.server.url).filter((x) => x !== '--json'), '--db', threadedDb, '--resume', 'cost-1', '--max-cost', '5', '--threads', '2']);
    expect(resumed.code).toBe(0);
    const singleDone = await runCli([...common(costly.server.url), '--db', path.join(d, 'single.db'), '--resume', 'cost-1', '--max-cost', '5', '-j', '1']);
    expect(singleDone.code).toBe(0);
    expect(episodes(threadedDb)).toHaveLength(10);
    expect(episodes(threadedDb)).toEqual(episodes(path.join(d, 'single.db')));
    expect(runSummary(threadedDb, 'cost-1').halted).toBeUndefined();
  }, 120_000);

  it('refuses --threads where threads cannot apply (exit 2, nothing stored)', async () => {
    const d = dir();
    const db = path.join(d, 'refused.db');
    const bad = await runCli([...common(mock.server.url), '--db', db, '--threads', '0']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--threads must be a whole number >= 1, got '0'/);
    const queue = await runCli([...common(mock.server.url), '--db', db, '--threads', '2', '--queue', 'redis://127.0.0.1:6379']);
    expect(queue.code).toBe(2);
    expect(queue.err).toMatch(/--threads 2 runs the episodes on threads of this process and --queue on queue workers; give one of them/);
    // On a domain with a web app (airline has none: that is refused first, whatever --threads says).
    const web = await runCli([...common(mock.server.url), '--db', db, '--threads', '2', '--domain', 'helpdesk', '--surface', 'web']);
    expect(web.code).toBe(2);
    expect(web.err).toMatch(/--threads 2: the web surface drives a browser, which runs on the main thread only/);
    expect(fs.existsSync(db) ? episodes(db) : []).toHaveLength(0);
  });

  it('a thread whose dataset differs from the run refuses it: a BadInputError, no episode run', async () => {
    const d = dir();
    const store = RunStore.open(path.join(d, 'x.db'));
    const loaded = loadDomain('airline');
    const pin = { model: 'mock-agent', base_url: mock.server.url, provider: null, timeout: null, max_retries: null, max_retry_after: null, call_deadline: null, body_timeout: null };
    const before = mock.server.requests.length;
    try {
      const run = runOnThreads({
        threads: 2, concurrency: 2, store, episodes: [{ task: loaded.tasks[0], trial: 0, persona: null }],
        manifest: {
          run_id: 'mismatch-1', harness: harnessPin(), dataset: { domain: 'airline', data_dir: null, policy_variant: null, solo: false, fingerprint: `0${datasetFingerprint(loaded).slice(1)}` },
          agent: { kind: 'llm', model: pin }, user: { kind: 'llm', model: { ...pin, model: 'mock-user' } }, judge: null, judge_votes: 1, temperature: 0, trials: 1, personas: null, strict: false, max_steps: null, rate_limit_per_minute: null,
        },
      });
      await expect(run).rejects.toThrow(/a thread refused run mismatch-1: refusing run mismatch-1: this worker's airline dataset differs from the run's/);
      expect(mock.server.requests.length).toBe(before);
      expect(store.receiptCount('mismatch-1')).toBe(0);
    } finally {
      store.close();
    }
  }, 60_000);
});
