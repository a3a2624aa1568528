/**
 * `run --resume` after a real kill -9 in the middle of an episode (one process): the episodes that
 * were in flight are served their own stored calls (by episode key, in call order, while the
 * requests match) and go live from the first call not made; the provider sees only the calls not
 * made yet, each paid call counts once, and the stored episodes and evaluations equal those of an
 * uninterrupted run against the same mock. Trials whose first requests are byte-identical each
 * get the answers they got themselves. Unit cases: divergence and later attempts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli as cli } from '../support/cli.js';
import { ROOT, tmpDir } from '../support/paths.js';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import type { MockReply } from '../../src/models/mock-server.js';
import { EpisodeReplays, storedCalls } from '../../src/run/episode-replay.js';
import type { ReceiptRow } from '../../src/store/store.js';
import type { ChatModel } from '../../src/models/chat-model.js';

const KEY = 'test-fake-key-RESUME-7070';
/** Requests from this index on (counted since the mock started) hang: the kill phase; undefined: every request is answered. */
let hangFrom: number | undefined;
/** The user's first reply numbers itself with the request index (two trials, one request, two answers). */
let ticketed = false;
let mock: TwoRoleMock;
const hang = (ctx?: { index: number }): MockReply | undefined => (hangFrom !== undefined && ctx && ctx.index >= hangFrom ? { hang: true } : undefined);

beforeAll(async () => {
  mock = await startTwoRoleMock({
    // A function of the request only (apart from the kill phase's hang and the tickets): runs are comparable.
    agent: (_messages, _body, ctx) => hang(ctx) ?? { content: 'Basic economy cannot be changed.' },
    user: (messages, _body, ctx) =>
      hang(ctx) ??
      (messages.length <= 2 ? { content: ticketed ? `Move 8KQ2ZD please (ticket ${ctx!.index}).` : 'Move 8KQ2ZD please.' } : messages.length <= 4 ? { content: 'Please check again.' } : { content: '###STOP###' }),
  });
});
afterAll(() => mock.close());
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = KEY;
  hangFrom = undefined;
  ticketed = false;
});
afterEach(() => (saved === undefined ? delete process.env.SERVICEGYM_API_KEY : (process.env.SERVICEGYM_API_KEY = saved)));

/** Calls of one episode: user, agent, user, agent, user (stop). */
const CALLS = 5;
const args = (db: string, j: number) => ['run', '--tasks', 'T01', '--trials', '2', '-j', String(j), '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q'];

async function until(what: () => string, ok: () => boolean, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function count(db: string, sql: string, ...params: unknown[]): number {
  const d = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return d.prepare(sql).pluck().get(...params) as number;
  } finally {
    d.close();
  }
}

/**
 * Starts `run` in a child process, waits until the mock has received request `hangAt` (which
 * hangs) and the store holds the `hangAt` receipts answered before it, then kills it with SIGKILL.
 */
async function killMidEpisode(db: string, runId: string, j: number, hangAt: number, inFlight = 1): Promise<void> {
  const before = mock.server.requests.length;
  hangFrom = before + hangAt;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), ...args(db, j), '--run-id', runId], {
    cwd: ROOT, env: { ...process.env, SERVICEGYM_API_KEY: KEY }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await until(() => `the hanging requests (child stderr: ${stderr})`, () => mock.server.requests.length - before >= hangAt + inFlight);
    await until(() => 'the answered calls stored', () => {
      try {
        return count(db, 'SELECT count(*) FROM receipts WHERE run_id = ?', runId) === hangAt;
      } catch {
        return false;
      }
    });
  } finally {
    child.kill('SIGKILL');
    await exited;
    hangFrom = undefined;
  }
}

const summaryOf = (db: string, runId: string) => {
  const d = new Database(db, { readonly: true });
  try {
    return JSON.parse(d.prepare('SELECT summary FROM runs WHERE id = ?').pluck().get(runId) as string);
  } finally {
    d.close();
  }
};
const calls = (usage: Record<string, { calls: number }> | undefined) => Object.values(usage ?? {}).reduce((n, u) => n + u.calls, 0);

/** An episode's stored row and run-log record without what differs between two runs (wall times, the run's id). */
function comparable(db: string, runId: string): unknown[] {
  const d = new Database(db, { readonly: true });
  try {
    const rows = d.prepare('SELECT episode_id, task_id, trial, label, reward, partial, termination, result FROM episodes WHERE run_id = ? ORDER BY episode_id').all(runId) as { result: string }[];
    return rows.map((r) => ({ ...r, result: strip(JSON.parse(r.result)) }));
  } finally {
    d.close();
  }
}
function strip(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(strip);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !/seconds|latency|timings|^run_id$/.test(k)).map(([k, x]) => [k, strip(x)]));
}

describe('run --resume after kill -9 in the middle of an episode', () => {
  it('sends only the calls not made yet and stores the same episodes and evaluations as an uninterrupted run', { timeout: 120_000 }, async () => {
    const dir = tmpDir('sg-resume-flight-');
    const whole = path.join(dir, 'whole.db');
    let n = mock.server.requests.length;
    expect((await cli([...args(whole, 1), '--run-id', 'r1'])).code).toBe(0);
    expect(mock.server.requests.length - n).toBe(2 * CALLS);

    // -j 1: trial 0 ends and is stored; trial 1 is killed waiting on its third call.
    const db = path.join(dir, 'killed.db');
    await killMidEpisode(db, 'r1', 1, CALLS + 2);
    expect(count(db, "SELECT count(*) FROM episodes WHERE run_id = 'r1'")).toBe(1);
    expect(count(db, "SELECT count(*) FROM receipts WHERE run_id = 'r1' AND trial = 1")).toBe(2);

    n = mock.server.requests.length;
    const resumed = await cli([...args(db, 1), '--resume', 'r1']);
    expect(resumed.code).toBe(0);
    // Only the three calls trial 1 had not made: its first two were served from the store.
    expect(mock.server.requests.length - n).toBe(CALLS - 2);
    expect(comparable(db, 'r1')).toEqual(comparable(whole, 'r1'));

    const summary = summaryOf(db, 'r1');
    expect(calls(summary.usage)).toBe(2 * CALLS);
    expect(count(db, "SELECT count(*) FROM receipts WHERE run_id = 'r1'")).toBe(2 * CALLS);
    expect(calls(summary.usage)).toBe(calls(summaryOf(whole, 'r1').usage));
    expect(summary.unattached_usage).toBeUndefined();
    expect(calls(summary.replayed_usage)).toBe(2);
    expect(summary.attempts.map((a: { replayed_calls?: number }) => a.replayed_calls ?? 0)).toEqual([0, 2]);
    // Trial 1's calls: two from the killed attempt, three from the resumed one, one chain of call indexes.
    const d = new Database(db, { readonly: true });
    expect(d.prepare("SELECT attempt, call_index FROM receipts WHERE run_id = 'r1' AND trial = 1 ORDER BY seq").all()).toEqual(
      [[1, 0], [1, 1], [2, 2], [2, 3], [2, 4]].map(([attempt, call_index]) => ({ attempt, call_index })),
    );
    d.close();
  });

  it('two trials whose first requests are byte-identical each get their own stored answers', { timeout: 120_000 }, async () => {
    const dir = tmpDir('sg-resume-trials-');
    const db = path.join(dir, 's.db');
    ticketed = true;
    const first = mock.server.requests.length;
    // -j 2: both trials are killed waiting on their third call (user, agent answered each).
    await killMidEpisode(db, 'r2', 2, 4, 2);
    const sent = mock.server.requests.slice(first, first + 2).map((r) => JSON.stringify(r.body));
    expect(sent[0]).toBe(sent[1]);
    const d = new Database(db, { readonly: true });
    const ticketOf = (trial: number) => JSON.parse(d.prepare("SELECT response FROM receipts WHERE run_id = 'r2' AND trial = ? AND call_index = 0").pluck().get(trial) as string).choices[0].message.content as string;
    const tickets = [ticketOf(0), ticketOf(1)];
    expect(tickets[0]).not.toBe(tickets[1]);

    const n = mock.server.requests.length;
    expect((await cli([...args(db, 2), '--resume', 'r2'])).code).toBe(0);
    expect(mock.server.requests.length - n).toBe(2 * (CALLS - 2));
    for (const trial of [0, 1]) {
      const record = JSON.parse(d.prepare("SELECT result FROM episodes WHERE run_id = 'r2' AND trial = ?").pluck().get(trial) as string);
      const said = record.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content);
      expect(said[0]).toBe(tickets[trial]);
    }
    // Each trial's resumed requests carry its own first answer.
    const resumed = mock.server.requests.slice(n).map((r) => JSON.stringify(r.body));
    expect(resumed.filter((b) => b.includes(JSON.stringify(tickets[0]).slice(1, -1))).length).toBe(CALLS - 2);
    expect(resumed.filter((b) => b.includes(JSON.stringify(tickets[1]).slice(1, -1))).length).toBe(CALLS - 2);
    d.close();
    const summary = summaryOf(db, 'r2');
    expect(calls(summary.usage)).toBe(2 * CALLS);
    expect(calls(summary.replayed_usage)).toBe(4);
  });
});

describe('run --resume of a persona run', () => {
  it("keys receipts by persona, and serves an in-flight persona episode its own calls", { timeout: 60_000 }, async () => {
    const db = path.join(tmpDir('sg-resume-personas-'), 's.db');
    const flags = ['run', '--tasks', 'T01', '--personas', 'impatient,vague', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--run-id', 'p1'];
    expect((await cli(flags)).code).toBe(0);
    const sql = new Database(db);
    expect(sql.prepare("SELECT DISTINCT trial, persona, attempt FROM receipts WHERE run_id = 'p1' ORDER BY trial").all()).toEqual([
      { trial: 0, persona: 'impatient', attempt: 1 },
      { trial: 1, persona: 'vague', attempt: 1 },
    ]);
    const stored = sql.prepare("SELECT result FROM episodes WHERE run_id = 'p1' AND trial = 1").pluck().get() as string;
    // As if killed after the vague episode's calls returned, before its row was written.
    sql.prepare("DELETE FROM episodes WHERE run_id = 'p1' AND trial = 1").run();
    const n = mock.server.requests.length;
    expect((await cli([...flags.slice(0, -2), '--resume', 'p1'])).code).toBe(0);
    expect(mock.server.requests.length).toBe(n);
    expect(strip(JSON.parse(sql.prepare("SELECT result FROM episodes WHERE run_id = 'p1' AND trial = 1").pluck().get() as string))).toEqual(strip(JSON.parse(stored)));
    sql.close();
  });
});

/** A model answering every call with its index; `log` records what it was asked. */
function countingModel(log: unknown[]): ChatModel {
  return {
    provider: 'p', endpoint: 'e', model: 'm',
    complete: async (request, role) => {
      log.push(request);
      const response = { choices: [{ index: 0, message: { role: 'assistant', content: `live ${log.length}` }, finish_reason: 'stop' }] } as never;
      return { response, elapsedSeconds: 0, receipt: { kind: role, provider: 'p', endpoint: 'e', request: { model: 'm', ...request } as never, response, elapsed_seconds: 0 } };
    },
  };
}
const row = (seq: number, trial: number, call: number, attempt: number, text: string): ReceiptRow => ({
  run_id: 'r', seq, kind: 'user_simulator', provider: 'p', endpoint: 'e', elapsed_seconds: 1,
  request: { model: 'm', messages: [{ role: 'user', content: text }] },
  response: { choices: [{ index: 0, message: { role: 'assistant', content: `stored ${seq}` }, finish_reason: 'stop' }], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
  episode: { task_id: 'T', trial, persona: null, attempt, call },
});

describe('episode replay', () => {
  it('serves stored calls in order while the requests match, then goes live for good', async () => {
    const replays = new EpisodeReplays(storedCalls([row(0, 0, 0, 1, 'a'), row(1, 0, 1, 1, 'b'), row(2, 0, 2, 1, 'c')], () => true));
    const log: unknown[] = [];
    const model = replays.take('T', 0, null)!.wrap(countingModel(log));
    const ask = async (text: string) => (await model.complete({ messages: [{ role: 'user', content: text }] } as never, 'user_simulator')).response.choices[0].message.content;
    expect(await ask('a')).toBe('stored 0');
    expect(await ask('x')).toBe('live 1');
    // Stored call 2 matches, but the episode has gone live: it is not served out of order.
    expect(await ask('c')).toBe('live 2');
    expect([...replays.servedSeqs]).toEqual([0]);
    expect(replays.servedUsage().user_simulator?.calls).toBe(1);
    expect(replays.take('T', 0, null)).toBeUndefined();
    expect(replays.take('T', 1, null)).toBeUndefined();
  });

  it('a later attempt replaces what earlier ones stored from its first call on; episodes kept are left out', () => {
    const rows = [row(0, 0, 0, 1, 'a'), row(1, 0, 1, 1, 'b'), row(2, 0, 2, 1, 'c'), row(3, 1, 0, 1, 'a'), row(4, 0, 1, 2, 'B'), row(5, 0, 2, 2, 'C'), row(6, 0, 3, 2, 'D')];
    const chains = storedCalls(rows, (_t, trial) => trial === 0);
    expect([...chains.keys()]).toHaveLength(1);
    expect([...chains.values()][0].map((r) => r.seq)).toEqual([0, 4, 5, 6]);
    // A gap (call 2 stored without call 1) ends the chain before it.
    expect([...storedCalls([row(0, 0, 0, 1, 'a'), row(1, 0, 2, 1, 'c')], () => true).values()][0].map((r) => r.seq)).toEqual([0]);
  });
});
