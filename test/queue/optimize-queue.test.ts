/**
 * `optimize` rollouts on the queue (issue 17, item 3): `servicegym optimize <config> --queue`
 * sends every rollout (candidate prompt × case × trial) as an idempotent job to the workers; the
 * optimiser stays the one writer, and its release gate decides exactly as in one process against
 * the same mock model (the scripted prompt-sensitive model of the optimiser tests, seed campaign
 * suite): the same record, the same hashed release record bytes. Workers run in this process; a
 * private redis-server per file; unique queue names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { harnessPin } from '../../src/queue/jobs.js';
import { buildSuiteOf, rolloutJobId, rolloutMismatch, type RolloutManifest } from '../../src/queue/rollout-jobs.js';
import { startWorker, type QueueWorker } from '../../src/queue/worker.js';
import { QueueRolloutRunner } from '../../src/queue/rollout-runner.js';
import { claimRun } from '../../src/queue/run-owner.js';
import { loadOptimizeConfig } from '../../src/optimizer/config.js';
import { BadInputError } from '../../src/spec/errors.js';
import { TaskSuite } from '../../src/optimizer/task-suite.js';
import { loadDomain } from '../../src/domains/index.js';
import { getSurface } from '../../src/surfaces/index.js';
import { sha256Hex } from '../../src/util/canonical.js';
import { startTwoRoleMock } from '../support/two-role-mock.js';
import { optimizerHandler } from '../support/optimizer-model.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

const KEY = 'test-fake-key-optimize-queue-6262';

describe('rollout jobs', () => {
  it('gives a rollout the same job id every time; another case, trial, seed or candidate is another job', () => {
    const job = { run_id: 'optimize-x-1', case_id: 'B1', trial: 0, seed: 7, persona: null, candidate: 'a'.repeat(64) };
    expect(rolloutJobId(job)).toBe(rolloutJobId({ ...job }));
    expect(rolloutJobId(job)).toMatch(/^ro-[0-9a-f]{40}$/);
    const others = [{ ...job, run_id: 'r2' }, { ...job, case_id: 'B2' }, { ...job, trial: 1 }, { ...job, seed: 8 }, { ...job, candidate: 'b'.repeat(64) }, { ...job, persona: 'vague' }];
    expect(new Set([job, ...others].map(rolloutJobId)).size).toBe(7);
  });

  it('a worker whose suite differs from the run\'s refuses it', async () => {
    const tasks = await buildSuiteOf({ kind: 'tasks', domain: 'gds', data_dir: null, tasks: ['G01', 'G02'], boundary: null, variants: null, strict: false, surface: null });
    const onApi = await buildSuiteOf({ kind: 'tasks', domain: 'gds', data_dir: null, tasks: ['G01', 'G02'], boundary: null, variants: null, strict: false, surface: 'api' });
    const again = await buildSuiteOf({ kind: 'tasks', domain: 'gds', data_dir: null, tasks: ['G01', 'G02'], boundary: null, variants: null, strict: false, surface: null });
    expect(again.fingerprint).toBe(tasks.fingerprint);
    expect(onApi.fingerprint).not.toBe(tasks.fingerprint);
    const campaign = await buildSuiteOf({ kind: 'campaign', dir: SEED_CAMPAIGN });
    expect(campaign.suite.id).toBe('campaign:record-9-3');
    const m = { kind: 'rollouts', run_id: 'r', harness: harnessPin(), suite: { kind: 'tasks', domain: 'gds', data_dir: null }, suite_fingerprint: tasks.fingerprint } as RolloutManifest;
    expect(rolloutMismatch(m, { harness: harnessPin(), fingerprint: tasks.fingerprint })).toBeUndefined();
    expect(rolloutMismatch(m, { harness: harnessPin(), fingerprint: onApi.fingerprint })).toMatch(/this worker's suite \(gds tasks\) differs from the run's/);
    expect(rolloutMismatch(m, { harness: { ...harnessPin(), version: '0.0.0-other' }, fingerprint: tasks.fingerprint })).toMatch(/this worker is servicegym 0\.0\.0-other/);
  });
});

describe('optimize --queue input', () => {
  it('a malformed Redis URL and an unreachable Redis are bad input (exit 2) before any rollout', async () => {
    const dir = tmpDir('sg-opt-queue-bad-');
    const saved = { key: process.env.SERVICEGYM_API_KEY, url: process.env.SERVICEGYM_BASE_URL };
    process.env.SERVICEGYM_API_KEY = KEY;
    process.env.SERVICEGYM_BASE_URL = 'http://127.0.0.1:9';
    try {
      const file = configFile(dir);
      const bad = await runCli(['optimize', file, '-q', '--no-store', '--out-dir', path.join(dir, 'out1'), '--queue', 'http://127.0.0.1:6379']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--queue/);
      // Checked before the output folder is made.
      expect(fs.existsSync(path.join(dir, 'out1'))).toBe(false);
      const down = await runCli(['optimize', file, '-q', '--no-store', '--out-dir', path.join(dir, 'out'), '--queue', 'redis://127.0.0.1:9']);
      expect(down.code).toBe(2);
      expect(down.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:9 within 10 s/);
    } finally {
      for (const [k, v] of [['SERVICEGYM_API_KEY', saved.key], ['SERVICEGYM_BASE_URL', saved.url]] as const) (v === undefined ? delete process.env[k] : (process.env[k] = v));
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

function configFile(dir: string): string {
  const file = path.join(dir, 'optimize.json');
  fs.writeFileSync(file, JSON.stringify({
    name: 'queued',
    seed: 1,
    suite: { kind: 'campaign', dir: SEED_CAMPAIGN },
    models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' }, base_url_env: 'SERVICEGYM_BASE_URL' },
    store: 'servicegym.db',
  }, null, 2));
  return file;
}

/** The rollout episodes of the store's optimise run, by episode id, with the run's surface. */
function storedRollouts(db: string): { ids: string[]; surfaces: string[]; record: Record<string, any> } {
  const sql = new Database(db, { readonly: true });
  const run = sql.prepare("SELECT id, record FROM runs WHERE kind = 'optimize'").get() as { id: string; record: string };
  const eps = sql.prepare('SELECT episode_id, json_extract(result, \'$.surface\') AS surface FROM episodes WHERE run_id = ? ORDER BY episode_id').all(run.id) as { episode_id: string; surface: string }[];
  sql.close();
  return { ids: eps.map((e) => e.episode_id), surfaces: [...new Set(eps.map((e) => e.surface))], record: JSON.parse(run.record) };
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe.skipIf(lacks(REDIS_NEED))(needing('optimize --queue', REDIS_NEED), () => {
  let redis: TestRedis;
  const servers: MockServer[] = [];
  const workers: QueueWorker[] = [];
  const dirs: string[] = [];
  const saved = { key: process.env.SERVICEGYM_API_KEY, url: process.env.SERVICEGYM_BASE_URL };
  beforeAll(async () => {
    redis = await startRedis();
    process.env.SERVICEGYM_API_KEY = KEY;
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await Promise.all(servers.map((s) => s.close()));
    await redis?.stop();
    for (const [k, v] of [['SERVICEGYM_API_KEY', saved.key], ['SERVICEGYM_BASE_URL', saved.url]] as const) (v === undefined ? delete process.env[k] : (process.env[k] = v));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('runs every rollout on the workers and decides exactly as in one process: same record, same release record bytes', async () => {
    const dir = tmpDir('sg-opt-queue-');
    dirs.push(dir);
    const file = configFile(dir);
    const one = await startMockServer({ handler: optimizerHandler() });
    servers.push(one);
    process.env.SERVICEGYM_BASE_URL = one.url;
    const single = await runCli(['optimize', file, '-q', '--out-dir', path.join(dir, 'single'), '--db', path.join(dir, 'single.db')]);
    expect(single.stderr).toBe('');
    expect(single.code).toBe(0);

    const many = await startMockServer({ handler: optimizerHandler() });
    servers.push(many);
    process.env.SERVICEGYM_BASE_URL = many.url;
    const queueName = `sg-opt-${randomUUID()}`;
    const log: string[] = [];
    for (let i = 0; i < 2; i++) workers.push(startWorker({ url: redis.url, queueName, concurrency: 3, leaseSeconds: 5, log: (l) => log.push(l) }));
    const queued = await runCli(['optimize', file, '-q', '--out-dir', path.join(dir, 'queued'), '--db', path.join(dir, 'queued.db'), '--queue', redis.url, '--queue-name', queueName]);
    expect(queued.stderr).toBe('');
    expect(queued.code).toBe(0);
    // The finished optimisation's results queue is gone from Redis.
    const conn = new Redis(redis.url);
    try {
      expect(await conn.keys(`bull:${queueName}-results-*`)).toEqual([]);
    } finally {
      conn.disconnect();
    }

    // The same decisions: record.json and every hashed release record, byte for byte.
    const read = (sub: string, f: string) => fs.readFileSync(path.join(dir, sub, f));
    // record.json: equal but for the lifecycle entries' dates (the clock) and prompt paths (the output folder).
    const record = (sub: string) => {
      const r = JSON.parse(String(read(sub, 'record.json')));
      return { ...r, releases: r.releases.map(({ decided_at: _d, source: _s, ...e }: Record<string, unknown>) => e) };
    };
    expect(record('queued')).toEqual(record('single'));
    expect(record('queued').run_id).toBe(record('single').run_id);
    expect(record('queued').decision).toBe('release_to_canary');
    const releases = fs.readdirSync(path.join(dir, 'single', 'releases'));
    expect(releases.length).toBeGreaterThan(0);
    expect(fs.readdirSync(path.join(dir, 'queued', 'releases'))).toEqual(releases);
    for (const f of releases) expect(read('queued', path.join('releases', f))).toEqual(read('single', path.join('releases', f)));
    expect(queued.stdout).toBe(single.stdout.split(path.join(dir, 'single')).join(path.join(dir, 'queued')));

    // Every rollout ran on a worker (the optimiser itself only called the proposer), each once.
    const rollouts = lines(path.join(dir, 'queued', 'events.jsonl')).filter((e) => e.type === 'rollout');
    const ran = log.filter((l) => /^rollout .* finished: /.test(l));
    expect(ran).toHaveLength(rollouts.length);
    expect(rollouts.length).toBeGreaterThan(50);
    const sorted = (xs: any[]) => xs.map((e) => JSON.stringify(e)).sort();
    expect(sorted(rollouts)).toEqual(sorted(lines(path.join(dir, 'single', 'events.jsonl')).filter((e) => e.type === 'rollout')));
    expect(many.requests.filter((r) => r.body.tool_choice).length).toBe(one.requests.filter((r) => r.body.tool_choice).length);

    // The store holds the same rollouts, recorded on the surface they ran on.
    const a = storedRollouts(path.join(dir, 'single.db'));
    const b = storedRollouts(path.join(dir, 'queued.db'));
    expect(b.ids).toEqual(a.ids);
    expect(b.surfaces).toEqual(['api']);
    expect(b.record.suite.surface).toBe('api');
    expect(fs.readFileSync(path.join(dir, 'queued.db')).includes(KEY)).toBe(false);

    // Resuming the finished run through the queue runs nothing again.
    const before = ran.length;
    const n = many.requests.length;
    const resumed = await runCli(['optimize', file, '-q', '--resume', '--out-dir', path.join(dir, 'queued'), '--no-store', '--queue', redis.url, '--queue-name', queueName]);
    expect(resumed.code).toBe(0);
    expect(log.filter((l) => /^rollout .* finished: /.test(l))).toHaveLength(before);
    expect(many.requests.length).toBe(n);
  }, 600_000);

  it('one storing process per optimise run: a second optimize --queue of the run exits 2 and touches nothing; the claim is released at the end', async () => {
    const dir = tmpDir('sg-opt-queue-claim-');
    dirs.push(dir);
    const file = configFile(dir);
    process.env.SERVICEGYM_BASE_URL = 'http://127.0.0.1:9';
    const queueName = `sg-opt-claim-${randomUUID()}`;
    const runId = `optimize-queued-${loadOptimizeConfig(file).identity.slice(0, 12)}`;
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      // Another process (here: this test) stores the run through this Redis.
      const held = await claimRun(conn, queueName, runId, 30_000);
      try {
        const out = path.join(dir, 'second');
        fs.mkdirSync(out);
        fs.writeFileSync(path.join(out, 'keep.txt'), 'x');
        const second = await runCli(['optimize', file, '-q', '--fresh', '--out-dir', out, '--db', path.join(dir, 'second.db'), '--queue', redis.url, '--queue-name', queueName]);
        expect(second.code).toBe(2);
        expect(second.stderr).toContain(`run '${runId}' is already being stored by process ${process.pid} on`);
        // optimize's --resume takes no run id: the refusal says how an optimise run continues.
        expect(second.stderr).toContain('s and `servicegym optimize` of the same config with --resume continues');
        expect(second.stderr).not.toContain(`--resume ${runId}`);
        // Nothing was touched: no output marker, no journal, no store, no manifest, no job.
        expect(fs.readdirSync(out)).toEqual(['keep.txt']);
        expect(fs.existsSync(path.join(dir, 'second.db'))).toBe(false);
        expect(await conn.exists(`servicegym:manifest:${queueName}:${runId}`)).toBe(0);
        expect(await conn.llen(`bull:${queueName}:wait`)).toBe(0);
      } finally {
        await held.release();
      }

      // The runner holds the claim while open and gives it up when closed.
      const built = await buildSuiteOf({ kind: 'campaign', dir: SEED_CAMPAIGN });
      const pin = { model: 'mock-model', base_url: 'http://127.0.0.1:9', provider: null, timeout: null, max_retries: null, max_retry_after: null, call_deadline: null, body_timeout: null };
      const manifest = { kind: 'rollouts' as const, run_id: runId, harness: harnessPin(), suite: { kind: 'campaign' as const, dir: SEED_CAMPAIGN }, suite_fingerprint: built.fingerprint, agent: pin, user: null, judge: pin, temperature: 0, rate_limit_per_minute: null };
      const first = await QueueRolloutRunner.open({ url: redis.url, queueName, manifest });
      await expect(QueueRolloutRunner.open({ url: redis.url, queueName, manifest })).rejects.toThrow(BadInputError);
      await expect(claimRun(conn, queueName, runId, 30_000)).rejects.toThrow(/is already being stored by process/);
      await first.close();
      const after = await claimRun(conn, queueName, runId, 30_000);
      await after.release();
    } finally {
      await conn.quit();
    }
  }, 120_000);

  it('a task-suite rollout on a worker (variant case, the config\'s surface) equals the one run in this process', async () => {
    const mock = await startTwoRoleMock({
      agent: (messages) => (messages.some((m: any) => m.role === 'tool') ? { content: 'Your booking stays as it is.' } : { tool_calls: [{ name: 'gds_command', arguments: { command: '*ABC123' }, id: 'call_pnr' }] }),
      user: (messages) => (messages.length <= 2 ? { content: 'Hello, please check my booking ABC123.' } : { content: 'Thanks. ###STOP###' }),
    });
    const spec = { kind: 'tasks' as const, domain: 'gds', data_dir: null, tasks: ['G01', 'G02'], boundary: ['G01'], variants: ['vague'], strict: false, surface: 'api' };
    const built = await buildSuiteOf(spec);
    const pin = (model: string) => ({ model, base_url: mock.server.url, provider: 'mock', timeout: null, max_retries: '0', max_retry_after: null, call_deadline: null, body_timeout: null });
    const queueName = `sg-opt-tasks-${randomUUID()}`;
    const log: string[] = [];
    workers.push(startWorker({ url: redis.url, queueName, concurrency: 2, leaseSeconds: 5, log: (l) => log.push(l) }));
    const runner = await QueueRolloutRunner.open({
      url: redis.url, queueName, personaOf: (id) => (id.includes('~') ? id.split('~')[1] : null),
      manifest: { kind: 'rollouts', run_id: `optimize-tasks-${randomUUID()}`, harness: harnessPin(), suite: spec, suite_fingerprint: built.fingerprint, agent: pin('mock-agent'), user: pin('mock-user'), judge: pin('mock-agent'), temperature: 0, rate_limit_per_minute: null },
    });
    try {
      const local = new TaskSuite(loadDomain('gds'), { tasks: ['G01', 'G02'], boundary: ['G01'], variants: ['vague'], surface: getSurface('api') });
      const models = { agent: mock.agentModel, user: mock.userModel, judge: mock.agentModel, temperature: 0 };
      const req = (caseId: string, trial: number) => ({ prompt: `${local.stablePrompt}\nAlways display the PNR first.`, caseId, trial, seed: 100 + trial });
      const reqs = [req('G01~vague', 0), req('G02', 1)];
      const remote = await Promise.all(reqs.map((r) => runner.run(r)));
      const here = await Promise.all(reqs.map((r) => local.runRollout(r, models)));
      expect(remote).toEqual(JSON.parse(JSON.stringify(here)));
      expect(remote[0]).toMatchObject({ case_id: 'G01~vague', valid: true, prompt_sha256: sha256Hex(reqs[0].prompt) });
      expect(remote[0].messages.some((m) => m.role === 'tool')).toBe(true);
      // The variant's user simulator played the persona on the worker too.
      const userSystems = mock.bodies('user').map((b) => String(b.messages[0].content));
      expect(userSystems.filter((x) => x.includes('vague')).length).toBeGreaterThan(0);
      expect(log.filter((l) => /^rollout .* finished: /.test(l))).toHaveLength(2);
    } finally {
      await runner.close();
      await mock.close();
    }
  }, 300_000);
});
