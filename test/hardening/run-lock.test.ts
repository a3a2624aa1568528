/**
 * Issue 11 items 4 and 9: one process per run (owner pid and host, heartbeat, stale takeover with a
 * message), and the receipts of a killed attempt count in the run's usage, attached to that attempt.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { acquireRunLock, runLockFile } from '../../src/store/run-lock.js';
import { attemptOfSeq } from '../../src/run/receipt-accounting.js';
import { runCli as cli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';

let mock: TwoRoleMock;
let saved: string | undefined;
beforeAll(async () => {
  mock = await startTwoRoleMock({
    agent: () => ({ content: 'Basic economy cannot be changed. ###STOP###' }),
    user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }),
  });
});
afterAll(() => mock.close());
beforeEach(() => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-LOCK-4040';
});
afterEach(() => (saved === undefined ? delete process.env.SERVICEGYM_API_KEY : (process.env.SERVICEGYM_API_KEY = saved)));

const args = (db: string) => ['run', '--tasks', 'T01', '--trials', '2', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q'];

describe('run lock (item 4)', () => {
  it('a second --resume while the first holds the run is refused naming the owner; nothing is overwritten', async () => {
    const db = path.join(tmpDir('sg-lock-'), 's.db');
    const first = await cli([...args(db), '--json']);
    expect(first.code).toBe(0);
    const runId = JSON.parse(first.out).run_id;
    const before = fs.readFileSync(db);
    const lock = acquireRunLock(db, runId); // the "first process" still at work
    try {
      const n = mock.server.requests.length;
      const second = await cli([...args(db), '--resume', runId]);
      expect(second.code).toBe(2);
      expect(second.err).toContain(`run '${runId}' is being written by process ${process.pid} on ${os.hostname()}`);
      expect(mock.server.requests.length).toBe(n);
      expect(fs.readFileSync(db).equals(before)).toBe(true);
    } finally {
      lock.release();
    }
    expect(fs.existsSync(runLockFile(db, runId))).toBe(false);
    expect((await cli([...args(db), '--resume', runId])).code).toBe(0);
  });

  it('a stale lock (dead owner on this host, or an old heartbeat) is taken over with a message', async () => {
    const db = path.join(tmpDir('sg-lock-stale-'), 's.db');
    const first = await cli([...args(db), '--json']);
    const runId = JSON.parse(first.out).run_id;
    const file = runLockFile(db, runId);
    const old = new Date(Date.now() - 3600_000).toISOString();
    // A lock left by a killed process (the finished run removed its own and the folder it made).
    expect(fs.existsSync(path.dirname(file))).toBe(false);
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ run_id: runId, pid: 2 ** 22 + 17, host: os.hostname(), started_at: old, heartbeat_at: new Date().toISOString() }));
    const a = await cli([...args(db), '--resume', runId]);
    expect(a.code).toBe(0);
    expect(a.err).toContain(`took over the lock of run '${runId}': process ${2 ** 22 + 17} on ${os.hostname()} is gone`);
    fs.writeFileSync(file, JSON.stringify({ run_id: runId, pid: 1, host: 'other-host', started_at: old, heartbeat_at: old }));
    const b = await cli([...args(db), '--resume', runId]);
    expect(b.code).toBe(0);
    expect(b.err).toContain(`no heartbeat from process 1 on other-host since ${old}`);
  });
});

describe('receipts after kill -9 (item 9)', () => {
  it('calls of an episode killed before it was stored, with no episode key (a v3 store), count in usage, attached to the attempt that paid', async () => {
    const db = path.join(tmpDir('sg-kill-'), 's.db');
    const first = await cli([...args(db), '--json']);
    const runId = JSON.parse(first.out).run_id;
    const sql = new Database(db);
    const row = () => JSON.parse((sql.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string }).summary);
    const paidFirst = (sql.prepare('SELECT COUNT(*) AS n FROM receipts WHERE run_id = ?').get(runId) as { n: number }).n;
    // kill -9 during trial 1: its receipts are stored, its episode row is not; stored before v4, they say no episode.
    sql.prepare("DELETE FROM episodes WHERE run_id = ? AND episode_id = 'T01#1'").run(runId);
    sql.prepare('UPDATE receipts SET task_id = NULL, trial = NULL, persona = NULL, attempt = NULL, call_index = NULL WHERE run_id = ?').run(runId);
    const again = await cli([...args(db), '--resume', runId, '--json']);
    expect(again.code).toBe(0);
    const paid = (sql.prepare('SELECT COUNT(*) AS n FROM receipts WHERE run_id = ?').get(runId) as { n: number }).n;
    const summary = row();
    const calls = Object.values(summary.usage as Record<string, { calls: number }>).reduce((n, u) => n + u.calls, 0);
    expect(calls).toBe(paid);
    expect(paid).toBeGreaterThan(paidFirst);
    expect(Object.values(summary.unattached_usage as Record<string, { calls: number }>).reduce((n, u) => n + u.calls, 0)).toBeGreaterThan(0);
    expect(summary.attempts.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);
    expect(summary.attempts[1].first_receipt_seq).toBe(paidFirst);
    expect(summary.attempts[1].replayed_calls).toBeUndefined();
    expect(attemptOfSeq(summary.attempts, 0)).toBe(1);
    expect(attemptOfSeq(summary.attempts, paidFirst)).toBe(2);
    sql.close();
  });

  it('an episode killed before it was stored is served its own stored calls: nothing sent or paid again, usage counts each call once', async () => {
    const db = path.join(tmpDir('sg-kill-keyed-'), 's.db');
    const first = await cli([...args(db), '--json']);
    const runId = JSON.parse(first.out).run_id;
    const sql = new Database(db);
    const paidFirst = (sql.prepare('SELECT COUNT(*) AS n FROM receipts WHERE run_id = ?').get(runId) as { n: number }).n;
    const ofTrial1 = (sql.prepare("SELECT COUNT(*) AS n FROM receipts WHERE run_id = ? AND task_id = 'T01' AND trial = 1").get(runId) as { n: number }).n;
    expect(ofTrial1).toBe(paidFirst / 2);
    const stored = JSON.parse((sql.prepare("SELECT result FROM episodes WHERE run_id = ? AND episode_id = 'T01#1'").get(runId) as { result: string }).result);
    sql.prepare("DELETE FROM episodes WHERE run_id = ? AND episode_id = 'T01#1'").run(runId);
    const n = mock.server.requests.length;
    const again = await cli([...args(db), '--resume', runId, '--json']);
    expect(again.code).toBe(0);
    expect(mock.server.requests.length).toBe(n);
    expect((sql.prepare('SELECT COUNT(*) AS n FROM receipts WHERE run_id = ?').get(runId) as { n: number }).n).toBe(paidFirst);
    const summary = JSON.parse((sql.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string }).summary);
    expect(Object.values(summary.usage as Record<string, { calls: number }>).reduce((k, u) => k + u.calls, 0)).toBe(paidFirst);
    expect(summary.unattached_usage).toBeUndefined();
    expect(Object.values(summary.replayed_usage as Record<string, { calls: number }>).reduce((k, u) => k + u.calls, 0)).toBe(ofTrial1);
    expect(summary.attempts[1].replayed_calls).toBe(ofTrial1);
    const again1 = JSON.parse((sql.prepare("SELECT result FROM episodes WHERE run_id = ? AND episode_id = 'T01#1'").get(runId) as { result: string }).result);
    expect(again1.messages).toEqual(stored.messages);
    expect(again1.usage).toEqual(stored.usage);
    expect(again1.evaluation).toEqual(stored.evaluation);
    sql.close();
  });
});
