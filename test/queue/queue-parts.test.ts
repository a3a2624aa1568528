/**
 * Parts of distributed runs: idempotent job ids, the harness/dataset check that makes a mismatched
 * worker refuse a run, the shared per-provider rate limit (slots from Redis's clock), and sharded
 * runs merged into one store.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { datasetFingerprint, episodeJobId, harnessPin, mismatch, resultsQueueName, writeManifest, type RunManifest } from '../../src/queue/jobs.js';
import { RedisRateLimiter } from '../../src/queue/rate-limit.js';
import { parseShard, runEpisodes, shardEpisodes } from '../../src/queue/shard.js';
import { startWorker } from '../../src/queue/worker.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

describe('job identity and the worker check', () => {
  it('gives an episode the same job id every time, and different episodes different ids', () => {
    const job = { run_id: 'r1', task_id: 'T01', trial: 0, persona: null, candidate: null };
    expect(episodeJobId(job)).toBe(episodeJobId({ ...job }));
    expect(episodeJobId(job)).toMatch(/^ep-[0-9a-f]{40}$/);
    const others = [{ ...job, run_id: 'r2' }, { ...job, task_id: 'T02' }, { ...job, trial: 1 }, { ...job, persona: 'vague' }, { ...job, candidate: 'v2' }];
    expect(new Set([job, ...others].map(episodeJobId)).size).toBe(6);
  });

  it('names why a worker must refuse: another version, another dataset', () => {
    const loaded = loadDomain('airline');
    const fp = datasetFingerprint(loaded);
    expect(fp).toBe(datasetFingerprint(loadDomain('airline')));
    expect(fp).not.toBe(datasetFingerprint(loadDomain('retail')));
    const m = { harness: harnessPin(), dataset: { domain: 'airline', data_dir: null, policy_variant: null, solo: false, fingerprint: fp } } as RunManifest;
    expect(mismatch(m, { harness: harnessPin(), fingerprint: fp })).toBeUndefined();
    expect(mismatch(m, { harness: { ...harnessPin(), version: '0.0.0-other' }, fingerprint: fp })).toMatch(/this worker is servicegym 0\.0\.0-other/);
    expect(mismatch(m, { harness: harnessPin(), fingerprint: 'f'.repeat(64) })).toMatch(/dataset differs from the run's/);
  });
});

describe('shards', () => {
  it('deals the run order round-robin: disjoint, complete, the same every time', () => {
    const tasks = loadDomain('airline').tasks;
    const all = runEpisodes(tasks, 3).map((e) => `${e.taskId}#${e.trial}`);
    expect(all).toHaveLength(tasks.length * 3);
    expect(all.slice(0, tasks.length)).toEqual(tasks.map((t) => `${t.id}#0`));
    const parts = [1, 2, 3].map((i) => shardEpisodes(tasks, 3, undefined, { index: i, count: 3 }).map((e) => `${e.taskId}#${e.trial}`));
    expect(parts.flat().sort()).toEqual([...all].sort());
    expect(new Set(parts.flat()).size).toBe(all.length);
    expect(parts[1]).toEqual(shardEpisodes(tasks, 3, undefined, { index: 2, count: 3 }).map((e) => `${e.taskId}#${e.trial}`));
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/2', '3/2', 'x', '1/0']) expect(() => parseShard(bad)).toThrow(/--shard must be i\/N/);
  });
});

describe('sharded runs merged', () => {
  let mock: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  const dirs: string[] = [];
  beforeAll(async () => {
    process.env.SERVICEGYM_API_KEY = 'test-fake-key-shards';
    mock = await startTwoRoleMock({
      agent: (messages) => (last(messages).role === 'user' && !messages.some((m: any) => m.tool_calls) ? { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' }, id: 'call_user' }] } : { content: 'Done.' }),
      user: (messages) => (messages.length <= 2 ? { content: 'Hi, I am Mia Lee (mia_lee_301).' } : { content: 'Thanks. ###STOP###' }),
    });
  });
  afterAll(async () => {
    await mock.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('two shards merge into the run a single process stores', async () => {
    const dir = tmpDir('sg-shards-');
    dirs.push(dir);
    const common = ['run', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--json', '--run-id', 'sharded'];
    const single = await runCli([...common, '--db', path.join(dir, 'single.db')]);
    expect(single.code).toBe(0);
    const s1 = await runCli([...common, '--db', path.join(dir, 's1.db'), '--shard', '1/2']);
    const s2 = await runCli([...common, '--db', path.join(dir, 's2.db'), '--shard', '2/2']);
    expect([s1.code, s2.code]).toEqual([0, 0]);
    expect(JSON.parse(s1.out).episodes.length + JSON.parse(s2.out).episodes.length).toBe(JSON.parse(single.out).episodes.length);
    const lone = await runCli(['merge-shards', '--db', path.join(dir, 'lone.db'), path.join(dir, 's1.db')]);
    expect(lone.code).toBe(2);
    expect(lone.err).toMatch(/shards 1 of 2 given; missing 2/);
    const twice = await runCli(['merge-shards', '--db', path.join(dir, 'twice.db'), path.join(dir, 's1.db'), path.join(dir, 's1.db')]);
    expect(twice.code).toBe(2);
    expect(twice.err).toMatch(/shards 1, 1 of 2 given; shard 1 given twice; missing 2/);
    // A refused merge creates no output store.
    expect(['lone.db', 'twice.db'].filter((f) => fs.existsSync(path.join(dir, f)))).toEqual([]);
    const merged = await runCli(['merge-shards', '--db', path.join(dir, 'merged.db'), path.join(dir, 's1.db'), path.join(dir, 's2.db')]);
    expect(merged.code).toBe(0);
    expect(merged.out).toMatch(/^sharded: shards 1, 2 of 2: 10 episodes, \d+ receipts$/m);
    const read = (db: string) => {
      const sql = new Database(db, { readonly: true });
      const eps = sql.prepare('SELECT episode_id, reward, partial, termination, json_extract(result, \'$.evaluation\') AS ev FROM episodes ORDER BY episode_id').all();
      const summary = JSON.parse((sql.prepare('SELECT summary FROM runs').get() as { summary: string }).summary);
      sql.close();
      return { eps, summary };
    };
    const a = read(path.join(dir, 'single.db'));
    const b = read(path.join(dir, 'merged.db'));
    expect(b.eps).toEqual(a.eps);
    for (const k of ['episodes', 'reward_mean', 'partial_mean', 'pass_hat_k']) expect(b.summary[k]).toEqual(a.summary[k]);
    expect(b.summary.usage.task_agent.calls).toBe(a.summary.usage.task_agent.calls);
    expect((await runCli(['run', ...common.slice(1), '--db', path.join(dir, 'x.db'), '--shard', '1/2', '--run-id', ''])).code).toBe(2);
  }, 120_000);

  it('refuses shards run with other settings (step limit, temperature, tasks, trials): their episodes are not shards of one run', async () => {
    const dir = tmpDir('sg-shards-other-');
    dirs.push(dir);
    const shard = (i: number, ...extra: string[]) => runCli(['run', '--tasks', 'T01,T02', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--run-id', 'mixed', '--db', path.join(dir, `s${i}-${extra.join('')}.db`), '--shard', `${i}/2`, ...extra]);
    const first = path.join(dir, 's1-.db');
    const one = await shard(1);
    expect(one.code, one.err + one.out).toBe(0);
    const cases: [string[], string][] = [
      [['--max-steps', '50'], 'max_steps: null vs 50'],
      [['--temperature', '0.5'], 'temperature: 0 vs 0.5'],
      [['--tasks', 'T01,T03'], 'task_ids: "T01,T02" vs "T01,T03"'],
      [['--trials', '2'], 'trials: 1 vs 2'],
    ];
    for (const [extra, diff] of cases) {
      const other = path.join(dir, `s2-${extra.join('')}.db`);
      expect((await shard(2, ...extra)).code).toBe(0);
      const r = await runCli(['merge-shards', '--db', path.join(dir, `out-${extra.join('')}.db`), first, other]);
      expect(r.code, extra.join(' ')).toBe(2);
      expect(r.err).toBe(`servicegym: error: run 'mixed': shard 2/2 (${other}) was run with other settings than shard 1/2 (${first}) (${diff}); its episodes would not be shards of one run: give every shard the same flags but --shard\n`);
    }
    // The same flags on another provider host and budget, -j and rate limit merge.
    expect((await shard(2, '--max-cost', '3', '-j', '2', '--rate-limit', '6000')).code).toBe(0);
    const ok = await runCli(['merge-shards', '--db', path.join(dir, 'ok.db'), first, path.join(dir, 's2---max-cost3-j2--rate-limit6000.db')]);
    expect(ok.code, ok.err).toBe(0);
  }, 120_000);
});

describe.skipIf(lacks(REDIS_NEED))(needing('on Redis', REDIS_NEED), () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('spaces model calls of one provider across limiters by the rate (Redis clock slots)', async () => {
    const scope = `rate-${randomUUID()}`;
    const conns = [new Redis(redis.url), new Redis(redis.url)];
    try {
      const limiters = conns.map((c) => new RedisRateLimiter(c, scope, 1200)); // one call per 50 ms
      const slots = await Promise.all(Array.from({ length: 8 }, (_, i) => limiters[i % 2].acquire('p1')));
      const sorted = [...slots].sort((x, y) => x - y);
      for (let i = 1; i < sorted.length; i++) expect(sorted[i] - sorted[i - 1]).toBeGreaterThanOrEqual(50);
      // Another provider has its own budget: its first call is not queued behind p1's.
      const other = await limiters[0].acquire('p2');
      expect(other).toBeLessThan(sorted[sorted.length - 1] + 50);
    } finally {
      conns.forEach((c) => c.disconnect());
    }
  }, 60_000);

  it('a worker with another dataset refuses the run: exit 2, the episode stays queued', async () => {
    const queueName = `sg-refuse-${randomUUID()}`;
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(queueName, { connection: conn });
    try {
      const manifest: RunManifest = {
        run_id: 'r-refuse', harness: harnessPin(), dataset: { domain: 'airline', data_dir: null, policy_variant: null, solo: false, fingerprint: '0'.repeat(64) },
        agent: { kind: 'llm', model: null }, user: { kind: 'llm', model: null }, judge: null, judge_votes: 3, temperature: 0, trials: 1, personas: null, strict: false, max_steps: null,
        rate_limit_per_minute: null, results_queue: resultsQueueName(queueName, 'r-refuse'),
      };
      await writeManifest(conn, queueName, manifest);
      const data = { run_id: 'r-refuse', task_id: 'T01', trial: 0, persona: null, candidate: null };
      await queue.add('episode', data, { jobId: episodeJobId(data) });
      const lines: string[] = [];
      const worker = startWorker({ url: redis.url, queueName, concurrency: 1, log: (l) => lines.push(l) });
      expect(await worker.stopped).toBe(2);
      expect(lines.join('\n')).toMatch(/refusing run r-refuse: this worker's airline dataset differs from the run's/);
      expect(lines.some((l) => / started$/.test(l))).toBe(false);
      expect(['delayed', 'waiting', 'wait', 'prioritized']).toContain(await queue.getJobState(episodeJobId(data)));
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      conn.disconnect();
    }
  }, 60_000);
});
