/**
 * Issue 11's fault drill: the airline seed suite (5 tasks x 2 trials) runs once straight against
 * the mock model and once through a loopback proxy that faults every fifth request (20%) in turn
 * with 429s carrying absurd retry-after values (a day, 999999999 ms, a date a year ahead), 500s,
 * hangs, bodies that stall after the headers, truncated bodies and HTML 200 bodies. Every episode
 * finishes, no call outlasts its deadline, the stored results equal the fault-free run's, and the
 * report and the usage show the retries.
 */
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs } from '../../src/store/run-log.js';
import { createViewerApp } from '../../src/viewer/server.js';
import { runCli as cli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { ALL_FAULTS, startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';

const TASKS = 'T01,T02,T03,T15,T17';
const CALL_DEADLINE = 60;

let mock: TwoRoleMock;
let proxy: FaultProxy;
let saved: string | undefined;
beforeAll(async () => {
  mock = await startTwoRoleMock({
    // A deterministic agent: look the customer up, read what the tool said back, then answer.
    agent: (messages) => {
      const lastMsg = last(messages);
      if (lastMsg.role === 'tool') return { content: `I found your profile (${String(lastMsg.content).length} characters). Anything else?` };
      const id = /user id(?: is)? ([a-z_0-9]+)/i.exec(String(lastMsg.content))?.[1];
      if (id && !messages.some((m: any) => m.role === 'tool')) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: id }, id: 'call_lookup' }] };
      return { content: 'Thank you. ###STOP###' };
    },
    user: (messages) => {
      if (messages.length <= 2) {
        const id = /user id is ([a-z_0-9]+)/i.exec(String(messages[0].content))?.[1] ?? 'unknown';
        return { content: `Hello, my user id is ${id}.` };
      }
      return { content: '###STOP###' };
    },
  });
  proxy = await startFaultProxy(mock.server.url, { rate: 0.2, cycle: true });
});
afterAll(async () => {
  await proxy.close();
  await mock.close();
});
beforeEach(() => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-DRILL-2020';
});
afterEach(() => (saved === undefined ? delete process.env.SERVICEGYM_API_KEY : (process.env.SERVICEGYM_API_KEY = saved)));

const runFlags = (url: string, db: string) => [
  'run', '--tasks', TASKS, '--trials', '2', '-j', '4', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', url, '--db', db, '-q',
  '--timeout', '3', '--body-timeout', '1', '--max-retry-after', '0.05', '--max-retries', '8', '--call-deadline', String(CALL_DEADLINE),
];

/** The stored results of a run, without what differs by design (timings, usage). */
function results(db: string, runId: string) {
  const store = RunStore.open(db, { readonly: true });
  try {
    return readEpisodeLogs(store, runId).sort((x, y) => x.episodeId.localeCompare(y.episodeId)).map((e) => {
      const r = e.record;
      return { id: e.episodeId, reward: e.reward, partial: e.partial, termination: r.termination.reason, messages: r.messages, tool_calls: r.tool_calls, evaluation: r.evaluation, infra_error: r.termination.infra_error };
    });
  } finally {
    store.close();
  }
}

describe('fault drill (20% injected provider faults)', () => {
  it('every episode finishes within its deadline with the fault-free results, and the retries show', async () => {
    const dir = tmpDir('sg-drill-');
    const clean = await cli([...runFlags(mock.server.url, path.join(dir, 'clean.db')), '--json']);
    expect(clean.code).toBe(0);
    const cleanId = JSON.parse(clean.out).run_id;
    expect(JSON.parse(clean.out).usage.task_agent.retried_calls).toBeUndefined();

    const started = Date.now();
    const faulty = await cli(runFlags(proxy.url, path.join(dir, 'faulty.db')));
    const seconds = (Date.now() - started) / 1000;
    expect(faulty.err).toBe('');
    expect(faulty.code).toBe(0);
    const faultyId = /^run (\S+)/.exec(faulty.out)![1];

    // Every fault kind was injected, at 20% of requests.
    const injected = proxy.injected.filter(Boolean);
    expect(new Set(injected)).toEqual(new Set(ALL_FAULTS));
    expect(injected.length / proxy.injected.length).toBeCloseTo(0.2, 1);

    // Same results as the fault-free run, no infrastructure error.
    const a = results(path.join(dir, 'clean.db'), cleanId);
    const b = results(path.join(dir, 'faulty.db'), faultyId);
    expect(b).toHaveLength(10);
    expect(b.every((e) => e.infra_error === null)).toBe(true);
    expect(b).toEqual(a);

    // No call outlasted its deadline; the whole drill took far less than a single absurd retry-after.
    const store = RunStore.open(path.join(dir, 'faulty.db'), { readonly: true });
    const receipts = store.receipts(faultyId);
    const summary = store.getRun(faultyId)!.summary as any;
    store.close();
    expect(Math.max(...receipts.map((r) => r.elapsed_seconds))).toBeLessThanOrEqual(CALL_DEADLINE);
    expect(seconds).toBeLessThan(170); // one honoured retry-after alone would be a day

    // The report and the stored usage show the retries.
    expect(faulty.out).toMatch(/model calls: \d+ \(\d+ retried: \d+ extra attempts, [\d.]+ s waited; [a-z_ \d,]+\)/);
    for (const kind of ['rate_limited', 'server_error', 'timeout', 'body_stalled', 'body_truncated', 'not_json']) expect(faulty.out).toContain(kind);
    const retried = Object.values(summary.usage as Record<string, { retried_calls?: number }>).reduce((n, u) => n + (u.retried_calls ?? 0), 0);
    expect(retried).toBeGreaterThan(0);
    // … and so does the viewer's run list.
    const runs = (await (await createViewerApp({ dbPath: path.join(dir, 'faulty.db'), uiDir: dir }).request('/api/runs')).json()) as { id: string; retries?: { retried_calls: number; faults: Record<string, number> } }[];
    expect(runs.find((r) => r.id === faultyId)?.retries?.retried_calls).toBe(retried);
  }, 180_000);
});
