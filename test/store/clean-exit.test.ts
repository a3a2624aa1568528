/**
 * After a clean exit only the store file remains: no empty `-wal`/`-shm` beside it (the last
 * connection's close checkpoints the log and removes both; a read-only open makes none for it to
 * leave behind) and no empty `.locks/` folder the command made. Files another connection or
 * process made are left alone, and a store written by a killed process keeps its log for the
 * next open (test/hardening/resume-in-flight.test.ts resumes such a run).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { acquireRunLock } from '../../src/store/run-lock.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

/** The folder's entries, sorted. */
const entries = (dir: string) => fs.readdirSync(dir).sort();
const RUN = { kind: 'run' as const, name: 'r', domain: 'airline', created_at: '2026-01-01T00:00:00Z', summary: {}, record: null };

function storeWithRun(dir: string, name = 'store.db'): string {
  const db = path.join(dir, name);
  const s = RunStore.open(db);
  s.saveRun({ id: 'r1', ...RUN });
  s.close();
  return db;
}

describe('a store after a clean exit', () => {
  let mock: TwoRoleMock;
  const saved = process.env.SERVICEGYM_API_KEY;
  beforeAll(async () => {
    process.env.SERVICEGYM_API_KEY = 'test-fake-key-clean-exit';
    mock = await startTwoRoleMock({
      agent: (messages) => (last(messages).role === 'user' && !messages.some((m: any) => m.tool_calls) ? { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' }, id: 'call_user' }] } : { content: 'Done.' }),
      user: (messages) => (messages.length <= 2 ? { content: 'Hi, I am Mia Lee (mia_lee_301).' } : { content: 'Thanks. ###STOP###' }),
    });
  });
  afterAll(async () => {
    await mock.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
  });

  it('a read-only open leaves no -wal or -shm behind, and reads what a writer has not checkpointed yet', () => {
    const dir = tmpDir('sg-clean-ro-');
    const db = storeWithRun(dir);
    expect(entries(dir)).toEqual(['store.db']);
    const ro = RunStore.open(db, { readonly: true });
    expect(ro.listRuns().map((r) => r.id)).toEqual(['r1']);
    expect(() => ro.saveRun({ id: 'r2', ...RUN })).toThrow();
    ro.close();
    expect(entries(dir)).toEqual(['store.db']);
    // With a writer open, its log is the writer's: a reader sees its commits and leaves its files alone.
    const writer = RunStore.open(db);
    writer.saveRun({ id: 'r2', ...RUN });
    const during = entries(dir);
    expect(during).toEqual(['store.db', 'store.db-shm', 'store.db-wal']);
    const reader = RunStore.open(db, { readonly: true });
    expect(reader.listRuns().map((r) => r.id).sort()).toEqual(['r1', 'r2']);
    reader.close();
    expect(entries(dir)).toEqual(during);
    writer.close();
    expect(entries(dir)).toEqual(['store.db']);
  });

  it('an empty log a writer left (it closed while a reader was open) is removed by the next read-only open', () => {
    const dir = tmpDir('sg-clean-empty-log-');
    const db = storeWithRun(dir);
    // As a run's writer leaves it: its log checkpointed and truncated, then its close, not the
    // last while a reader is open, cannot remove the files.
    const w = new Database(db);
    w.pragma('journal_size_limit = 0');
    w.prepare("UPDATE runs SET name = 'renamed' WHERE id = 'r1'").run();
    w.pragma('wal_checkpoint(TRUNCATE)');
    const reader = new Database(db, { readonly: true });
    expect(reader.prepare('SELECT name FROM runs').pluck().get()).toBe('renamed');
    w.close();
    reader.close();
    expect(entries(dir)).toEqual(['store.db', 'store.db-shm', 'store.db-wal']);
    expect(fs.statSync(`${db}-wal`).size).toBe(0);
    const ro = RunStore.open(db, { readonly: true });
    expect(ro.getRun('r1')?.name).toBe('renamed');
    ro.close();
    expect(entries(dir)).toEqual(['store.db']);
  });

  it('a log left by a killed writer is kept by a read-only open (its commits stay for the next writer)', () => {
    const dir = tmpDir('sg-clean-killed-');
    const db = storeWithRun(dir);
    // As a killed process leaves it: commits in the log, never checkpointed.
    const w = new Database(db);
    w.pragma('wal_autocheckpoint = 0');
    w.prepare("UPDATE runs SET name = 'renamed' WHERE id = 'r1'").run();
    const wal = fs.readFileSync(`${db}-wal`);
    const shm = fs.readFileSync(`${db}-shm`);
    // Copied aside as a SIGKILL would leave them (a closing connection would checkpoint and remove them).
    const crashed = path.join(tmpDir('sg-clean-crashed-'), 'store.db');
    fs.copyFileSync(db, crashed);
    fs.writeFileSync(`${crashed}-wal`, wal);
    fs.writeFileSync(`${crashed}-shm`, shm);
    w.close();
    const ro = RunStore.open(crashed, { readonly: true });
    expect(ro.getRun('r1')?.name).toBe('renamed');
    ro.close();
    expect(fs.readFileSync(`${crashed}-wal`)).toEqual(wal);
    const rw = RunStore.open(crashed);
    expect(rw.getRun('r1')?.name).toBe('renamed');
    rw.close();
    expect(entries(path.dirname(crashed))).toEqual(['store.db']);
  });

  it('run, validate, export-trajectories and refused commands (merge-shards, run --resume, compare) leave only the .db files', async () => {
    const dir = tmpDir('sg-clean-cli-');
    const common = ['--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--tasks', 'T01,T02'];
    expect((await runCli(['run', ...common, '--db', path.join(dir, 'run.db')])).code).toBe(0);
    expect((await runCli(['validate', '--tasks', 'T01', '-q', '--db', path.join(dir, 'validate.db')])).code).toBe(0);
    expect((await runCli(['run', ...common, '--db', path.join(dir, 's1.db'), '--shard', '1/2', '--run-id', 'sharded'])).code).toBe(0);
    expect(entries(dir)).toEqual(['run.db', 's1.db', 'validate.db']);
    const refused = await runCli(['merge-shards', '--db', path.join(dir, 'merged.db'), path.join(dir, 's1.db')]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/missing 2/);
    expect((await runCli(['export-trajectories', 'sharded', '--db', path.join(dir, 's1.db'), '-o', path.join(tmpDir('sg-clean-out-'), 'x.jsonl')])).code).toBe(0);
    expect((await runCli(['run', ...common, '--db', path.join(dir, 'run.db'), '--resume', 'no-such-run'])).code).toBe(2);
    expect((await runCli(['compare', 'no-such-run', 'sharded', '--db', path.join(dir, 's1.db')])).code).toBe(2);
    expect(entries(dir)).toEqual(['run.db', 's1.db', 'validate.db']);
  }, 120_000);

  it('a lock folder is removed once its last lock is released, only when this process made it', () => {
    const dir = tmpDir('sg-clean-locks-');
    const db = storeWithRun(dir);
    const a = acquireRunLock(db, 'a');
    const b = acquireRunLock(db, 'b');
    a.release();
    expect(entries(dir)).toEqual(['store.db', 'store.db.locks']);
    b.release();
    expect(entries(dir)).toEqual(['store.db']);
    // A folder that was there before is not ours to remove, even empty.
    fs.mkdirSync(`${db}.locks`);
    acquireRunLock(db, 'c').release();
    expect(entries(dir)).toEqual(['store.db', 'store.db.locks']);
    expect(entries(`${db}.locks`)).toEqual([]);
  });

  it('a lock folder another process made is removed by the release that empties it (runs that overlapped, a killed run taken over)', async () => {
    const dir = tmpDir('sg-clean-locks-other-');
    const db = storeWithRun(dir);
    // Another process makes the folder with locks 'a' and 'k'; it releases 'a' while this process
    // holds 'b', then is killed holding 'k'.
    const script = path.join(dir, 'other.mts');
    fs.writeFileSync(script, [
      `import { acquireRunLock } from ${JSON.stringify(path.resolve('src/store/run-lock.ts'))};`,
      `const a = acquireRunLock(${JSON.stringify(db)}, 'a');`,
      `acquireRunLock(${JSON.stringify(db)}, 'k');`,
      `process.stdout.write('held\\n');`,
      `process.stdin.once('data', () => { a.release(); process.kill(process.pid, 'SIGKILL'); });`,
    ].join('\n'));
    const other = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => other.on('exit', resolve));
    await new Promise((resolve) => other.stdout.once('data', resolve));
    const b = acquireRunLock(db, 'b');
    other.stdin.write('go\n');
    await exited;
    const messages: string[] = [];
    const k = acquireRunLock(db, 'k', { onTakeover: (m) => messages.push(m) });
    expect(messages).toEqual([`took over the lock of run 'k': process ${other.pid} on ${os.hostname()} is gone`]);
    k.release();
    expect(fs.existsSync(b.file)).toBe(true);
    b.release();
    expect(entries(dir)).toEqual(['other.mts', 'store.db']);
  }, 60_000);
});
