/**
 * `optimize --queue` with a worker killed by SIGKILL in the middle of a rollout (issue 17): the
 * killed worker's rollouts are run again by the other worker after their lease, and the optimiser
 * decides exactly as in one process — the same record, byte-identical release records, the same
 * rollouts journalled once each (none lost, none duplicated). Workers are child processes (one
 * is killed); a private redis-server for the file; a unique queue name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { optimizerHandler } from '../support/optimizer-model.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { spawnWorker, until, type SpawnedWorker } from '../support/queue-worker.js';
import { REDIS_NEED, lacks, needing } from '../support/needs.js';

const KEY = 'test-fake-key-optimize-kill-7171';
/** Worker A's own key: the mock tells A's requests apart by it, to hold them while A is killed. */
const KEY_A = 'test-fake-key-optimize-kill-worker-a-7172';

function configFile(dir: string): string {
  const file = path.join(dir, 'optimize.json');
  fs.writeFileSync(file, JSON.stringify({
    name: 'killed',
    seed: 3,
    suite: { kind: 'campaign', dir: SEED_CAMPAIGN },
    models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' }, base_url_env: 'SERVICEGYM_BASE_URL' },
  }, null, 2));
  return file;
}

const lines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** The rollout episode ids of the store's optimise run. */
function storedRollouts(db: string): string[] {
  const sql = new Database(db, { readonly: true });
  const run = sql.prepare("SELECT id FROM runs WHERE kind = 'optimize'").get() as { id: string };
  const ids = (sql.prepare('SELECT episode_id FROM episodes WHERE run_id = ? ORDER BY episode_id').all(run.id) as { episode_id: string }[]).map((e) => e.episode_id);
  sql.close();
  return ids;
}

/** `rollout B1#0 of 0123456789ab` of each log line matching `re` (a multiset: the same label can be several jobs, e.g. seeds). */
const labels = (w: SpawnedWorker, re: RegExp) => w.lines.filter((l) => re.test(l)).map((l) => l.replace(/^.*rollout (\S+ of \S+) of run .*$/, '$1'));

/** `xs` minus `ys`, counting repeats. */
function minus(xs: string[], ys: string[]): string[] {
  const left = [...ys];
  return xs.filter((x) => {
    const i = left.indexOf(x);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
}

/** While set, worker A's model calls are held unanswered (so A is surely mid-rollout when killed). */
let holdA = false;
let heldA = 0;
const held: (() => void)[] = [];

describe.skipIf(lacks(REDIS_NEED))(needing('optimize --queue with a worker killed mid-rollout', REDIS_NEED), () => {
  let redis: TestRedis;
  const servers: MockServer[] = [];
  const dirs: string[] = [];
  const saved = { key: process.env.SERVICEGYM_API_KEY, url: process.env.SERVICEGYM_BASE_URL };
  beforeAll(async () => {
    redis = await startRedis();
    process.env.SERVICEGYM_API_KEY = KEY;
  }, 60_000);
  afterAll(async () => {
    holdA = false;
    for (const release of held.splice(0)) release();
    await Promise.all(servers.map((s) => s.close()));
    await redis?.stop();
    for (const [k, v] of [['SERVICEGYM_API_KEY', saved.key], ['SERVICEGYM_BASE_URL', saved.url]] as const) (v === undefined ? delete process.env[k] : (process.env[k] = v));
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  it('re-runs the killed worker\'s rollouts after the lease and decides exactly as in one process', async () => {
    const dir = tmpDir('sg-opt-kill-');
    dirs.push(dir);
    const file = configFile(dir);
    const one = await startMockServer({ handler: optimizerHandler() });
    servers.push(one);
    process.env.SERVICEGYM_BASE_URL = one.url;
    const single = await runCli(['optimize', file, '-q', '--out-dir', path.join(dir, 'single'), '--db', path.join(dir, 'single.db')]);
    expect(single.stderr).toBe('');
    expect(single.code).toBe(0);

    const scripted = optimizerHandler();
    const many = await startMockServer({
      handler: async (body, ctx) => {
        if (holdA && String(ctx.log[ctx.index]?.headers.authorization ?? '').includes(KEY_A)) {
          heldA++;
          await new Promise<void>((res) => held.push(res));
        }
        return scripted(body, ctx);
      },
    });
    servers.push(many);
    process.env.SERVICEGYM_BASE_URL = many.url;
    const queue = `sg-opt-kill-${randomUUID()}`;
    const a = spawnWorker(redis.url, queue, KEY_A);
    const b = spawnWorker(redis.url, queue, KEY);
    try {
      const optimiser = runCli(['optimize', file, '-q', '--out-dir', path.join(dir, 'queued'), '--db', path.join(dir, 'queued.db'), '--queue', redis.url, '--queue-name', queue]);
      // Kill worker A while it waits on a model call of a rollout, after it finished one.
      await until('worker A to finish a rollout', () => labels(a, / finished: /).length >= 1);
      holdA = true;
      await until('worker A to wait on a model call mid-rollout', () => heldA >= 1);
      a.child.kill('SIGKILL');
      expect(await a.exited).toBe(null);
      holdA = false;
      for (const release of held.splice(0)) release();
      const cut = minus(labels(a, / started$/), labels(a, / finished: /));
      expect(cut.length).toBeGreaterThan(0);

      const queued = await optimiser;
      expect(queued.stderr).toBe('');
      expect(queued.code).toBe(0);
      // The rollouts A was killed in were run again by B once their lease expired.
      expect(minus(cut, labels(b, / finished: /))).toEqual([]);

      // The same decisions: record.json (but for lifecycle dates and prompt paths) and every release record, byte for byte.
      const read = (sub: string, f: string) => fs.readFileSync(path.join(dir, sub, f));
      const record = (sub: string) => {
        const r = JSON.parse(String(read(sub, 'record.json')));
        return { ...r, releases: r.releases.map(({ decided_at: _d, source: _s, ...e }: Record<string, unknown>) => e) };
      };
      expect(record('queued')).toEqual(record('single'));
      expect(record('queued').decision).toBe('release_to_canary');
      const releases = fs.readdirSync(path.join(dir, 'single', 'releases'));
      expect(releases.length).toBeGreaterThan(0);
      expect(fs.readdirSync(path.join(dir, 'queued', 'releases'))).toEqual(releases);
      for (const f of releases) expect(read('queued', path.join('releases', f))).toEqual(read('single', path.join('releases', f)));

      // Every rollout journalled once, the same as in one process: none lost, none duplicated.
      const rollouts = (sub: string) => lines(path.join(dir, sub, 'events.jsonl')).filter((e) => e.type === 'rollout').map((e) => JSON.stringify(e)).sort();
      expect(rollouts('queued')).toEqual(rollouts('single'));
      expect(new Set(rollouts('queued')).size).toBe(rollouts('queued').length);
      expect(rollouts('queued').length).toBeGreaterThan(50);
      // Each rollout finished on a worker; only the cut ones (and at most those) twice.
      const ran = labels(a, / finished: /).length + labels(b, / finished: /).length;
      expect(ran).toBeGreaterThanOrEqual(rollouts('queued').length);
      expect(ran).toBeLessThanOrEqual(rollouts('queued').length + cut.length);
      expect(storedRollouts(path.join(dir, 'queued.db'))).toEqual(storedRollouts(path.join(dir, 'single.db')));
      expect(fs.readFileSync(path.join(dir, 'queued.db')).includes(KEY_A)).toBe(false);
    } finally {
      a.child.kill('SIGKILL');
      b.child.kill('SIGTERM');
      await Promise.all([a.exited, b.exited]);
    }
  }, 600_000);
});
