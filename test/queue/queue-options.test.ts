/**
 * Every `run` option that changes episodes works the same on the queue (issue 17, item 3): the
 * system prompt (`--prompt-file`, carried by content with its hash in the job id and run config),
 * the surface (`--surface`, carried by name and checked by fingerprint) and the cost cap
 * (`--max-cost`, a run-wide budget the one writer enforces: nothing more is enqueued, the episodes
 * no worker started leave the queue, and the run says it was stopped by the cap, as in one
 * process). Workers run in this process; a private redis-server per file; unique queue names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { surfaceWithOptions } from '../../src/surfaces/index.js';
import { sha256Hex } from '../../src/util/canonical.js';
import { datasetFingerprint, episodeJobId, harnessPin, mismatch, surfaceFingerprint, type RunManifest } from '../../src/queue/jobs.js';
import { startWorker, type QueueWorker } from '../../src/queue/worker.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

const KEY = 'test-fake-key-queue-options-5150';
/** The agent consults the terminal only when its system prompt carries this marker (so the prompt visibly changes episodes). */
const MARKER = 'Always display the PNR before answering.';

describe('the worker check covers the surface and the prompt', () => {
  const loaded = loadDomain('gds');
  const base = (extra: Partial<RunManifest> = {}) => ({ harness: harnessPin(), dataset: { domain: 'gds', data_dir: null, policy_variant: null, solo: false, fingerprint: datasetFingerprint(loaded) }, ...extra }) as RunManifest;
  const own = { harness: harnessPin(), fingerprint: datasetFingerprint(loaded) };

  it('refuses another surface fingerprint and a prompt whose content does not match its hash', () => {
    const api = surfaceFingerprint(loaded, surfaceWithOptions('api'), {});
    const terminal = surfaceFingerprint(loaded, surfaceWithOptions('terminal'), {});
    expect(api).toMatch(/^[0-9a-f]{64}$/);
    expect(api).not.toBe(terminal);
    expect(api).toBe(surfaceFingerprint(loadDomain('gds'), surfaceWithOptions('api'), {}));
    const m = base({ surface: { name: 'api', options: {}, fingerprint: api }, system_prompt: 'P', prompt_sha256: sha256Hex('P') });
    expect(mismatch(m, { ...own, surface: api })).toBeUndefined();
    expect(mismatch(m, { ...own, surface: terminal })).toMatch(/this worker's api surface shows the agent other tools than the run's/);
    expect(mismatch({ ...m, system_prompt: 'P2' }, { ...own, surface: api })).toMatch(/the run's system prompt does not match its sha256/);
    expect(mismatch({ ...m, system_prompt: null }, { ...own, surface: api })).toMatch(/system prompt does not match/);
  });

  it('puts the prompt hash in the job id: another prompt, another job', () => {
    const job = { run_id: 'r1', task_id: 'G01', trial: 0, persona: null, candidate: null };
    expect(episodeJobId({ ...job, prompt_sha256: null })).toBe(episodeJobId(job));
    expect(episodeJobId({ ...job, prompt_sha256: sha256Hex('a') })).not.toBe(episodeJobId(job));
    expect(episodeJobId({ ...job, prompt_sha256: sha256Hex('a') })).not.toBe(episodeJobId({ ...job, prompt_sha256: sha256Hex('b') }));
  });
});

/** Episodes of a store without what depends on the clock (latencies). */
function episodes(db: string): Record<string, any>[] {
  const sql = new Database(db, { readonly: true });
  const rows = sql.prepare('SELECT episode_id, task_id, trial, label, reward, partial, termination, result FROM episodes ORDER BY episode_id').all() as Record<string, any>[];
  sql.close();
  const strip = (v: any): any => (Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !['latency_seconds', 'elapsed_seconds', 'model_seconds'].includes(k)).map(([k, x]) => [k, strip(x)])) : v);
  return rows.map((r) => ({ ...r, result: strip(JSON.parse(r.result)) }));
}

function runSummary(db: string): Record<string, any> {
  const sql = new Database(db, { readonly: true });
  const row = sql.prepare('SELECT summary FROM runs').get() as { summary: string };
  sql.close();
  return JSON.parse(row.summary);
}

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(lacks(REDIS_NEED))(needing('run --queue with --prompt-file, --surface and --max-cost', REDIS_NEED), () => {
  let redis: TestRedis;
  let mock: TwoRoleMock;
  let costly: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  const dirs: string[] = [];
  const workers: QueueWorker[] = [];
  const agent = (messages: any[]) => {
    const system = String(messages[0]?.content ?? '');
    if (system.includes(MARKER) && !messages.some((m: any) => m.role === 'tool')) return { tool_calls: [{ name: 'gds_command', arguments: { command: '*ABC123' }, id: 'call_pnr' }] };
    return { content: 'Your booking stays as it is.' };
  };
  const user = (messages: any[]) => (messages.length <= 2 ? { content: 'Hello, please check my booking ABC123.' } : { content: 'Thanks. ###STOP###' });
  beforeAll(async () => {
    redis = await startRedis();
    process.env.SERVICEGYM_API_KEY = KEY;
    mock = await startTwoRoleMock({ agent, user });
    // Every completion reports a cost of $0.01.
    costly = await startTwoRoleMock({ agent: (m) => ({ content: agent(m).content ?? 'ok' }), user }, { cost: 0.01, delayMs: 20 });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await mock?.close();
    await costly?.close();
    await redis?.stop();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('a queued run with --prompt-file and --surface stores exactly the episodes and evaluations of one process', async () => {
    const dir = tmpDir('sg-queue-opts-');
    dirs.push(dir);
    const promptFile = path.join(dir, 'agent.txt');
    fs.writeFileSync(promptFile, `You are the XA reservations desk. ${MARKER}\n\n<policy>\n{{policy}}\n</policy>\n`);
    const prompt = fs.readFileSync(promptFile, 'utf8').split('{{policy}}').join(loadDomain('gds').policy);
    const common = ['run', '--domain', 'gds', '--tasks', 'G01,G02,G03', '--trials', '2', '--surface', 'api', '--prompt-file', promptFile, '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--json', '--run-id', 'opts-1'];
    const single = await runCli([...common, '--db', path.join(dir, 'single.db')]);
    expect(single.err).toBe('');
    expect(single.code).toBe(0);

    const queueName = `sg-opts-${randomUUID()}`;
    const lines: string[] = [];
    workers.push(startWorker({ url: redis.url, queueName, concurrency: 2, leaseSeconds: 5, log: (l) => lines.push(l) }));
    workers.push(startWorker({ url: redis.url, queueName, concurrency: 2, leaseSeconds: 5, log: (l) => lines.push(l) }));
    const queuedDb = path.join(dir, 'queued.db');
    const queued = await runCli([...common, '--db', queuedDb, '--queue', redis.url, '--queue-name', queueName]);
    expect(queued.err).toBe('');
    expect(queued.code).toBe(0);
    expect(lines.filter((l) => / finished: /.test(l))).toHaveLength(6);
    // The finished run's results queue is gone from Redis (its id counter, meta and event stream included).
    const conn = new Redis(redis.url);
    try {
      expect(await conn.keys(`bull:${queueName}-results-*`)).toEqual([]);
    } finally {
      conn.disconnect();
    }

    const one = episodes(path.join(dir, 'single.db'));
    const many = episodes(queuedDb);
    expect(one).toHaveLength(6);
    expect(many).toEqual(one);
    // The workers ran the run's prompt on the api surface (the gds dataset's own surface is the terminal).
    for (const e of many) {
      expect(e.result.surface).toBe('api');
      expect(e.result.agent.prompt_sha256).toBe(sha256Hex(prompt));
      expect(e.result.messages.some((m: any) => m.role === 'tool')).toBe(true);
    }
    expect(JSON.parse(queued.out).episodes).toEqual(JSON.parse(single.out).episodes);
    expect(JSON.parse(queued.out).summary).toEqual(JSON.parse(single.out).summary);
    expect(runSummary(queuedDb)).toMatchObject({ surface: 'api', prompt_sha256: sha256Hex(prompt) });
    const agentSystems = mock.bodies('agent').map((b) => String(b.messages[0].content));
    expect(agentSystems.every((s) => s === prompt)).toBe(true);
  }, 300_000);

  it('--max-cost on the queue: the writer stops enqueuing, takes the episodes not started off the queue, and --resume finishes the run', async () => {
    const dir = tmpDir('sg-queue-cost-');
    dirs.push(dir);
    const common = ['run', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', costly.server.url, '-q', '--json'];
    // One process: each episode costs $0.03 or more (agent and user calls at $0.01), so $0.05 stops it after two.
    const single = await runCli([...common, '--db', path.join(dir, 'single.db'), '--run-id', 'cost-1', '--max-cost', '0.05', '-j', '1']);
    expect(single.code).toBe(1);
    const singleStored = episodes(path.join(dir, 'single.db')).length;
    expect(single.err).toMatch(new RegExp(`the run stopped: --max-cost \\$0\\.05 reached \\(provider-reported cost \\$0\\.\\d{4}\\); ${10 - singleStored} episode\\(s\\) not started; continue with --resume cost-1 and a higher --max-cost`));

    const queueName = `sg-cost-${randomUUID()}`;
    const worker = startWorker({ url: redis.url, queueName, concurrency: 1, leaseSeconds: 5 });
    workers.push(worker);
    const queuedDb = path.join(dir, 'queued.db');
    const queued = await runCli([...common, '--db', queuedDb, '--run-id', 'cost-1', '--max-cost', '0.05', '--queue', redis.url, '--queue-name', queueName]);
    expect(queued.code).toBe(1);
    const stored = episodes(queuedDb).length;
    // The cap is reached after the second episode; a worker may have started one more meanwhile, which is stored.
    expect(stored).toBeGreaterThanOrEqual(2);
    expect(stored).toBeLessThan(10);
    expect(queued.err).toMatch(new RegExp(`the run stopped: --max-cost \\$0\\.05 reached \\(provider-reported cost \\$0\\.\\d{4}\\); ${10 - stored} episode\\(s\\) not started; continue with --resume cost-1 and a higher --max-cost`));
    // The stored run says the cap stopped it, as the single-process one does.
    expect(runSummary(queuedDb).halted).toEqual({ reason: expect.stringMatching(/^--max-cost \$0\.05 reached/), not_started: 10 - stored });
    expect(runSummary(path.join(dir, 'single.db')).halted).toEqual({ reason: expect.stringMatching(/^--max-cost \$0\.05 reached/), not_started: 10 - singleStored });
    // Nothing of the run is left on the queue for a worker to pick up.
    const conn = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue(queueName, { connection: conn });
    try {
      await until('the queue to hold no waiting job', async () => (await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active')).waiting === 0);
      const counts = await queue.getJobCounts('waiting', 'delayed', 'prioritized', 'active', 'completed');
      expect(counts).toMatchObject({ waiting: 0, delayed: 0, prioritized: 0, active: 0 });
      expect(counts.completed).toBe(stored);
    } finally {
      await queue.close();
      conn.disconnect();
    }
    expect(episodes(queuedDb)).toHaveLength(stored);

    // --resume with a higher cap runs the rest; the stored run then equals the single process's finished one.
    const resumed = await runCli([...common.filter((x) => x !== '--json'), '--db', queuedDb, '--resume', 'cost-1', '--max-cost', '5', '--queue', redis.url, '--queue-name', queueName]);
    expect(resumed.code).toBe(0);
    const singleDone = await runCli([...common, '--db', path.join(dir, 'single.db'), '--resume', 'cost-1', '--max-cost', '5', '-j', '1']);
    expect(singleDone.code).toBe(0);
    const strip = (rows: Record<string, any>[]) => rows.map(({ result: _r, ...rest }) => rest);
    expect(strip(episodes(queuedDb))).toEqual(strip(episodes(path.join(dir, 'single.db'))));
    expect(episodes(queuedDb)).toHaveLength(10);
    expect(runSummary(queuedDb).halted).toBeUndefined();
  }, 300_000);
});
