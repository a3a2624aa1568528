/**
 * More runs for the viewer tests, added by the CLI to a store filled by {@link fillViewerStore}:
 * tau2 retail validated at -j 8 (114 single-trial tasks stored in completion order, 40 of them
 * not judged: NL assertions without a judge), the GDS terminal domain validated (10 tasks, on the
 * terminal surface, its dataset's own) and a
 * GDS run of two of its tasks, stored as a run that was started with a name and tags
 * (`summary.name`, `summary.tags`) and stopped before it finished (no scores in its summary).
 */
import path from 'node:path';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { RunStore } from '../../src/store/store.js';
import { fillViewerStore, type ViewerStore } from './viewer-store.js';
import { SHARED } from './paths.js';
import { last, startTwoRoleMock } from './two-role-mock.js';

/** Run ids of the larger store. */
export interface LargerViewerStore extends ViewerStore {
  retailId: string;
  gdsId: string;
  /** The two-task GDS run, stored as interrupted, named `gds smoke` and tagged `smoke`, `nightly`. */
  gdsSmokeId: string;
  /** An airline T01 run (2 trials) against the mock model server, and its model calls per role. */
  mockRunId: string;
  calls: { agent: number; user: number };
  /** The same run whose second trial met a provider failure (HTTP 500, no retries): an infrastructure error, so pass^k stops at 1. */
  infraRunId: string;
}

/** `servicegym run` of airline T01 (2 trials) against the mock model server: a run with usage by role. */
async function mockRun(db: string, failFromCall = Number.POSITIVE_INFINITY): Promise<{ agent: number; user: number }> {
  const saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-viewer';
  let agentCalls = 0;
  const mock = await startTwoRoleMock({
    agent: (messages) => {
      if (++agentCalls > failFromCall) return { status: 500, error: 'upstream failure' };
      const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
      if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
      if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
      return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
    },
    user: (messages) => (messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' }),
  });
  try {
    await quietCli(['run', '--tasks', 'T01', '--trials', '2', '-j', '1', '--max-retries', '0', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q']);
    return { agent: mock.bodies('agent').length, user: mock.bodies('user').length };
  } finally {
    await mock.close();
    if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
    else process.env.SERVICEGYM_API_KEY = saved;
  }
}

/** tau2's retail domain folder (../shared/peers/tau2/retail). */
export const TAU2_RETAIL = path.join(SHARED, 'peers', 'tau2', 'retail');

async function quietCli(args: string[]): Promise<void> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  let code: number;
  try {
    code = await main(['node', 'servicegym', ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  // validate exits 1 when a task is not at reward 1 (retail's unjudged NL tasks): the run is stored either way.
  if (code !== 0 && code !== 1) throw new Error(`servicegym ${args.join(' ')} exited ${code}`);
}

/** Fills `dir/store.db` with {@link fillViewerStore}'s runs and the runs above. */
export async function fillLargerViewerStore(dir: string): Promise<LargerViewerStore> {
  const base = await fillViewerStore(dir);
  const db = base.db;
  const idOf = (name: string, except: string[] = []) => {
    const r = RunStore.open(db, { readonly: true });
    try {
      const hit = r.listRuns().find((x) => x.name === name && !except.includes(x.id));
      if (!hit) throw new Error(`no run named '${name}'`);
      return hit.id;
    } finally {
      r.close();
    }
  };
  await quietCli(['validate', '--domain', 'retail', '--data-dir', TAU2_RETAIL, '-j', '8', '--db', db, '-q']);
  const retailId = idOf('validate retail');
  await quietCli(['validate', '--domain', 'gds', '--db', db, '-q']);
  const gdsId = idOf('validate gds');
  await quietCli(['validate', '--domain', 'gds', '--tasks', 'G01,G02', '--strict', '--db', db, '-q']);
  const gdsSmokeId = idOf('validate gds', [gdsId]);
  const calls = await mockRun(db);
  const mockRunId = idOf('run airline');
  await mockRun(db, 3);
  const infraRunId = idOf('run airline', [mockRunId]);
  const w = RunStore.open(db);
  try {
    const run = w.getRun(gdsSmokeId)!;
    // What a run started with --name/--tag and killed before it finished leaves: its settings only.
    const { scored: _s, episodes: _e, rewardMean: _r, partialMean: _p, passHatK: _k, passHatKInterval: _i, ...settings } = run.summary as Record<string, unknown>;
    w.saveRun({ ...run, created_at: new Date(Date.now() + 60_000).toISOString(), summary: { ...settings, name: 'gds smoke', tags: ['smoke', 'nightly'] } });
  } finally {
    w.close();
  }
  return { ...base, retailId, gdsId, gdsSmokeId, mockRunId, calls, infraRunId };
}
