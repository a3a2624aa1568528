/**
 * `servicegym validate` and `servicegym run` through the CLI entry, offline: the oracle on both
 * datasets, and a live-mode run against the local mock model server (agent and user simulator).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { startMockServer } from '../../src/models/mock-server.js';

const KEY = 'test-fake-key-DO-NOT-LOG-7171';

const cli = runCli;

describe('validate', () => {
  it('a --data-dir that fails to load under the default domain says it was read as airline and names the other domains; an explicit --domain gets no hint', async () => {
    const dir = tmpDir('sg-domain-hint-');
    fs.writeFileSync(path.join(dir, 'db.json'), JSON.stringify({ users: {}, orders: {}, products: {} }));
    fs.writeFileSync(path.join(dir, 'tasks.json'), '[]');
    fs.writeFileSync(path.join(dir, 'policy.md'), '# Policy\n');
    const defaulted = await cli(['validate', '--no-store', '-q', '--data-dir', dir]);
    expect(defaulted.code).toBe(2);
    expect(defaulted.err).toContain(`db.json at $.flights`);
    expect(defaulted.err).toContain(`(${dir} was read as the airline domain, the default: name its domain with --domain, one of retail, `);
    const named = await cli(['validate', '--domain', 'airline', '--no-store', '-q', '--data-dir', dir]);
    expect(named.code).toBe(2);
    expect(named.err).toContain(`db.json at $.flights`);
    expect(named.err).not.toContain('was read as');
  });

  it("scores reward 1 and partial 100% on every servicegym airline task", async () => {
    const r = await cli(['validate', '--no-store', '-q']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^validate: 5\/5 tasks score reward 1 and partial 100%/m);
  });

  it("counts episodes beside tasks when a task runs once per persona (retail T16 has four), and says when --strict is on", async () => {
    const r = await cli(['validate', '--domain', 'retail', '--no-store', '-q', '--strict']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^validate: 8\/8 episodes \(5 tasks; a task with its own personas runs once per persona\) score reward 1 and partial 100%/m);
    expect(r.out).toMatch(/^strict: ACTION counts in every reward/m);
    const plain = await cli(['validate', '--domain', 'gds', '--no-store', '-q', '--tasks', 'T12']);
    // One task: the noun and the verb agree with it, and the rate is a sensible number, never '0.0 tasks/s'.
    expect(plain.out).toMatch(/^validate: 1\/1 task scores reward 1 and partial 100%, 0 not judged( \((\d+\.\d tasks\/s|\d+\.\d s per task)\))?$/m);
    expect(plain.out).not.toContain(' 0.0 ');
    expect(plain.out).not.toMatch(/^strict:/m);
  });

  it('--personas: every episode passes with the seed personas (airline) and on telecom, whose customer does the phone-side steps', async () => {
    const seed = await cli(['validate', '--no-store', '-q', '--personas', 'impatient,vague,contradictory,off-policy']);
    expect(seed.code).toBe(0);
    expect(seed.out).toMatch(/^validate: 20\/20 episodes \(5 tasks × 4 personas\) score reward 1 and partial 100%/m);
    const telecom = await cli(['validate', '--domain', 'telecom', '--no-store', '-q', '--personas', 'plain']);
    expect(telecom.code).toBe(0);
    expect(telecom.out).toMatch(/^validate: 14\/14 episodes \(14 tasks × 1 persona\) score reward 1 and partial 100%/m);
  });

  it('--personas: unknown names and empty parts are usage errors naming the known personas', async () => {
    const unknown = await cli(['validate', '--no-store', '-q', '--personas', 'impatient,grumpy']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown persona(s): 'grumpy' (known: plain, impatient, vague, contradictory, off-policy; combine with '+')");
    const gap = await cli(['validate', '--no-store', '-q', '--personas', 'vague+']);
    expect(gap.code).toBe(2);
    expect(gap.err).toContain("persona 'vague+' has an empty part");
    expect(gap.out).toBe('');
  });

  it('--judge-model needs a key only for a base URL that is not loopback, as its help says', async () => {
    const saved = ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY', 'SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL'].map((k) => [k, process.env[k]] as const);
    for (const [k] of saved) delete process.env[k];
    try {
      const help = (await cli(['validate', '--help'])).out.replace(/\s+/g, ' ');
      expect(help).toContain('the key from SERVICEGYM_API_KEY or OPENAI_API_KEY, none for a loopback base URL');
      process.env.SERVICEGYM_BASE_URL = 'https://models.example.com/v1';
      const remote = await cli(['validate', '--no-store', '-q', '--tasks', 'T01', '--judge-model', 'judge']);
      expect(remote.code).toBe(2);
      expect(remote.err).toContain('no API key');
      // A loopback judge gets called with no key (and no Authorization header).
      const judge = await startMockServer({ handler: () => ({ content: '{"verdicts": []}' }) });
      try {
        process.env.SERVICEGYM_BASE_URL = judge.url;
        const local = await cli(['validate', '--no-store', '-q', '--tasks', 'T01', '--judge-model', 'judge']);
        expect(local.err).not.toContain('no API key');
        expect(judge.requests.length).toBeGreaterThan(0);
        expect(judge.requests.every((r) => r.headers.authorization === undefined && r.body.model === 'judge')).toBe(true);
      } finally {
        await judge.close();
      }
    } finally {
      for (const [k, v] of saved) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
  });

  it('--tasks takes globs as run does (one selection for run, validate and lint)', async () => {
    const r = await cli(['validate', '--no-store', '-q', '--json', '--tasks', 'T1*,T01']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).tasks.map((t: { task_id: string }) => t.task_id)).toEqual(['T01', 'T15', 'T17']);
    const none = await cli(['validate', '--no-store', '-q', '--tasks', 'X*']);
    expect(none.code).toBe(2);
    expect(none.err).toContain("--tasks: pattern 'X*' matches no task");
    const empty = await cli(['validate', '--no-store', '-q', '--tasks', ',']);
    expect(empty.code).toBe(2);
    expect(empty.err).toContain("--tasks names no task (got ',')");
    const lint = await cli(['lint', '--json', '--tasks', 'T1?']);
    expect(lint.code).toBe(0);
    expect(JSON.parse(lint.out).tasks).toBe(2);
  });

  it('reports an unknown task id as bad input', async () => {
    const r = await cli(['validate', '--no-store', '-q', '--tasks', 'T01,T99']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown task id(s): T99');
  });

  it.skipIf(!HAS_SHARED)(needsShared('scores 1 on all 50 tau2 airline tasks (43 with gold actions)'), async () => {
    const r = await cli(['validate', '--no-store', '-q', '--data-dir', path.join(SHARED, 'peers/tau2/airline')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^validate: 50\/50 tasks score reward 1 and partial 100%/m);
  });

  it('stores the run and its episodes', async () => {
    const db = path.join(tmpDir('sg-val-'), 'store.db');
    const r = await cli(['validate', '-q', '--db', db, '--tasks', 'T02,T15']);
    expect(r.code).toBe(0);
    const sql = new Database(db, { readonly: true });
    expect(sql.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 2 });
    sql.close();
  });
});

describe('run (against the mock model server)', () => {
  let mock: TwoRoleMock;
  let saved: Record<string, string | undefined>;
  beforeEach(async () => {
    saved = { SERVICEGYM_API_KEY: process.env.SERVICEGYM_API_KEY, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
    process.env.SERVICEGYM_API_KEY = KEY;
    // A policy-following agent for T01 and a user that asks, then stops once answered.
    mock = await startTwoRoleMock({
      agent: (messages) => {
        const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
        if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
        if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
        return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
      },
      user: (messages) => (messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' }),
    });
  });
  afterEach(async () => {
    await mock.close();
    for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
  });

  it('runs trials, prints pass^k, stores episodes and receipts, and never records the key', async () => {
    const dir = tmpDir('sg-run-');
    const db = path.join(dir, 'store.db');
    const r = await cli(['run', '--tasks', 'T01', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/pass\^1 1\.000  pass\^2 1\.000/);
    expect(r.out).toMatch(/reward mean: 1\.000 {3}partial mean: 100\.0%/);
    const sql = new Database(db, { readonly: true });
    expect(sql.prepare('SELECT count(*) AS n FROM episodes').get()).toEqual({ n: 2 });
    const receipts = sql.prepare('SELECT count(*) AS n FROM receipts').get() as { n: number };
    expect(receipts.n).toBe(mock.server.requests.length);
    sql.close();
    expect(fs.readFileSync(db).includes(KEY)).toBe(false);
    expect(r.out.includes(KEY) || r.err.includes(KEY)).toBe(false);
    expect(mock.server.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  });

  it('resumes a run without repeating finished episodes', async () => {
    const db = path.join(tmpDir('sg-run2-'), 'store.db');
    const first = await cli(['run', '--tasks', 'T01', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json']);
    const runId = JSON.parse(first.out).run_id;
    const before = mock.server.requests.length;
    const again = await cli(['run', '--tasks', 'T01', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--resume', runId, '--json']);
    expect(again.code).toBe(0);
    expect(mock.server.requests.length).toBe(before);
    expect(JSON.parse(again.out).summary.episodes).toBe(1);
  });

  it('a resumed run reports every episode: the kept ones marked, the missing ones run again', async () => {
    const db = path.join(tmpDir('sg-run3-'), 'store.db');
    const args = ['run', '--tasks', 'T01', '--trials', '3', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q'];
    const first = await cli([...args, '--json']);
    const runId = JSON.parse(first.out).run_id;
    const runRow = () => {
      const q = new Database(db, { readonly: true });
      const row = q.prepare('SELECT created_at, summary FROM runs WHERE id = ?').get(runId) as { created_at: string; summary: string };
      q.close();
      return { created_at: row.created_at, usage: JSON.parse(row.summary).usage };
    };
    const before1 = runRow();
    expect(before1.usage.task_agent.calls).toBeGreaterThan(0);
    // As if the run had died before its second trial finished.
    const sql = new Database(db);
    const killed = JSON.parse((sql.prepare("SELECT result FROM episodes WHERE run_id = ? AND episode_id = 'T01#1'").get(runId) as { result: string }).result).usage;
    sql.prepare("DELETE FROM episodes WHERE run_id = ? AND episode_id = 'T01#1'").run(runId);
    sql.close();
    const before = mock.server.requests.length;
    const again = await cli([...args, '--resume', runId]);
    expect(again.code).toBe(0);
    // The killed episode's calls were all stored: served to it again, none sent.
    expect(mock.server.requests.length).toBe(before);
    const trialCells = again.out.split('\n').filter((l) => l.startsWith('T01')).map((l) => l.split(/\s{2,}/)[1]);
    expect(trialCells).toEqual(['0 (kept)', '1', '2 (kept)']);
    expect(again.out).toMatch(/episodes: 3 \(3 scored/);
    // The run keeps its start date, and its usage counts every paid call once: the episode run
    // again was served the calls the killed attempt had stored, so nothing was paid twice.
    const after1 = runRow();
    expect(after1.created_at).toBe(before1.created_at);
    expect(after1.usage.task_agent.calls).toBe(before1.usage.task_agent.calls);
    expect(after1.usage.user_simulator.calls).toBe(before1.usage.user_simulator.calls);
    expect(killed.task_agent.calls).toBeGreaterThan(0);
    const json = await cli([...args, '--resume', runId, '--json']);
    expect(JSON.parse(json.out).episodes.map((e: { trial: number; kept: boolean }) => `${e.trial}:${e.kept}`)).toEqual(['0:true', '1:true', '2:true']);
  });
});
