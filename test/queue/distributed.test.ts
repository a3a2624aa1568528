/**
 * Distributed runs on BullMQ (issue 17): a suite run through two workers, one killed with SIGKILL
 * in the middle of an episode, stores exactly the episodes and evaluations of a single-process run
 * of the same suite: none lost, none duplicated. A private redis-server per file; unique queue names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { RunStore } from '../../src/store/store.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { spawnWorker, until, type SpawnedWorker as Spawned } from '../support/queue-worker.js';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

const KEY = 'test-fake-key-queue-4242';
/** Worker A's own key: the mock tells A's requests apart by it, to hold them while A is killed. */
const KEY_A = 'test-fake-key-queue-worker-a-4243';

/** Episodes of a store without what depends on the clock (latencies). */
function episodes(db: string): Record<string, unknown>[] {
  const sql = new Database(db, { readonly: true });
  const rows = sql.prepare('SELECT episode_id, task_id, trial, label, reward, partial, termination, result FROM episodes ORDER BY episode_id').all() as Record<string, any>[];
  sql.close();
  const strip = (v: any): any => (Array.isArray(v) ? v.map(strip) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([k]) => !['latency_seconds', 'elapsed_seconds', 'model_seconds'].includes(k)).map(([k, x]) => [k, strip(x)])) : v);
  return rows.map((r) => ({ ...r, result: strip(JSON.parse(r.result)) }));
}

/**
 * Every receipt's kind, request and response text as the store gives them back, sorted (arrival
 * order differs); the mock numbers its completions (`"id":"mock-N"`) by arrival, so that id is left out.
 */
function receiptTexts(db: string): string[] {
  const store = RunStore.open(db, { readonly: true });
  try {
    return store.receiptTexts('suite-1').map((r) => [r.kind, r.provider, r.request, r.response.replace(/^\{"id":"mock-\d+",/, '{')].join('\n')).sort();
  } finally {
    store.close();
  }
}

function count(db: string, table: string): number {
  const sql = new Database(db, { readonly: true });
  const n = (sql.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  sql.close();
  return n;
}

/** While set, worker A's model calls are held unanswered (so A is surely mid-episode when killed). */
let holdA = false;
let heldA = 0;
const releases: (() => void)[] = [];
async function holdIfWorkerA(ctx?: { index: number; log: { headers: Record<string, string> }[] }): Promise<void> {
  if (!ctx) return;
  if (!holdA || !String(ctx.log[ctx.index]?.headers.authorization ?? '').includes(KEY_A)) return;
  heldA++;
  await new Promise<void>((res) => releases.push(res));
}

describe.skipIf(lacks(REDIS_NEED))(needing('run --queue with two workers', REDIS_NEED), () => {
  let redis: TestRedis;
  let mock: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  const dirs: string[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    process.env.SERVICEGYM_API_KEY = KEY;
    mock = await startTwoRoleMock(
      {
        // Tool call ids fixed by the agent: the mock server would number them by its request count.
        agent: async (messages, body, ctx) => {
          await holdIfWorkerA(ctx);
          const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
          if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' }, id: 'call_user' }] };
          if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' }, id: 'call_reservation' }] };
          return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
        },
        user: async (messages, body, ctx) => (await holdIfWorkerA(ctx), messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' }),
      },
      { delayMs: 150 },
    );
  }, 60_000);
  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('stores the same episodes and evaluations as one process, with a worker killed mid-episode', async () => {
    const dir = tmpDir('sg-queue-');
    dirs.push(dir);
    const common = ['run', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--json', '--run-id', 'suite-1'];
    const single = await runCli([...common, '--db', path.join(dir, 'single.db')]);
    expect(single.err).toBe('');
    expect(single.code).toBe(0);

    const queue = `sg-test-${randomUUID()}`;
    const a = spawnWorker(redis.url, queue, KEY_A);
    const b = spawnWorker(redis.url, queue, KEY);
    const queuedDb = path.join(dir, 'queued.db');
    const producer = runCli([...common, '--db', queuedDb, '--queue', redis.url, '--queue-name', queue]);
    // Kill worker A while it runs an episode, after it finished one.
    const started = (w: Spawned) => w.lines.filter((l) => / started$/.test(l)).map((l) => l.replace(/^.*episode (\S+) .*$/, '$1'));
    const finished = (w: Spawned) => w.lines.filter((l) => / finished: /.test(l)).map((l) => l.replace(/^.*episode (\S+) .*$/, '$1'));
    await until('worker A to finish one episode', () => finished(a).length >= 1);
    holdA = true;
    await until('worker A to wait on a model call mid-episode', () => heldA >= 1);
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe(null);
    holdA = false;
    for (const release of releases.splice(0)) release();
    const cut = started(a).filter((e) => !finished(a).includes(e));
    expect(cut.length).toBeGreaterThan(0);

    const queued = await producer;
    expect(queued.err).toBe('');
    expect(queued.code).toBe(0);
    // The episodes A was killed in were run again by B.
    for (const e of cut) expect(finished(b)).toContain(e);

    const one = episodes(path.join(dir, 'single.db'));
    const many = episodes(queuedDb);
    expect(one).toHaveLength(10);
    expect(many.map((e) => e.episode_id)).toEqual(one.map((e) => e.episode_id));
    expect(many).toEqual(one);
    expect(count(queuedDb, 'receipts')).toBe(count(path.join(dir, 'single.db'), 'receipts'));
    // The receipts travelled packed (each message once) and read back byte for byte as one process stores them.
    expect(receiptTexts(queuedDb)).toEqual(receiptTexts(path.join(dir, 'single.db')));
    expect(JSON.parse(queued.out).summary).toEqual(JSON.parse(single.out).summary);
    expect(JSON.parse(queued.out).episodes).toEqual(JSON.parse(single.out).episodes);
    expect(fs.readFileSync(queuedDb).includes(KEY)).toBe(false);
    expect(fs.readFileSync(queuedDb).includes(KEY_A)).toBe(false);

    // --resume across the queue: nothing left to run, nothing stored twice.
    const again = await runCli([...common.filter((x) => x !== '--run-id' && x !== 'suite-1'), '--db', queuedDb, '--queue', redis.url, '--queue-name', queue, '--resume', 'suite-1']);
    expect(again.code).toBe(0);
    expect(count(queuedDb, 'episodes')).toBe(10);

    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  }, 300_000);
});
