/**
 * An episode ended by an infrastructure error is left out of the scores, and every report shows
 * it so: the run table (`not scored`, no failing checks), `run --json` (`scored: false`, the stored
 * evaluation kept as it is), `-o` results files (null reward and partial, status `error`) and the
 * viewer's outlines (no reward, partial or failed checks; the header says `not scored`). The store
 * keeps what the evaluator made of the cut-short trajectory, unchanged. A harness error is left
 * out of the viewer's scores and of `compare` as `run`'s summary leaves it out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli as cli } from '../support/cli.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs, writeEpisodeLogs } from '../../src/store/run-log.js';
import { createViewerApp } from '../../src/viewer/server.js';
import type { EpisodeDetail, RunDetail, RunListItem } from '../../src/viewer/types.js';
import { rewardText } from '../../viewer/src/format.js';

let mock: TwoRoleMock;
let savedKey: string | undefined;
beforeEach(async () => {
  savedKey = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-not-scored';
  // The agent's provider is down: every episode ends as an infrastructure error.
  mock = await startTwoRoleMock({ agent: () => ({ status: 500, error: 'down' }), user: () => ({ content: 'Please move 8KQ2ZD to 2026-10-21.' }) });
});
afterEach(async () => {
  await mock.close();
  if (savedKey === undefined) delete process.env.SERVICEGYM_API_KEY;
  else process.env.SERVICEGYM_API_KEY = savedKey;
});

describe('an episode ended by an infrastructure error', () => {
  it('is shown as not scored in the table, --json, -o and the viewer; the store keeps its evaluation', async () => {
    const dir = tmpDir('sg-not-scored-');
    const db = path.join(dir, 'store.db');
    const args = ['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--tasks', 'T01', '--max-retries', '0', '-q', '--db', db];
    const table = await cli([...args, '--run-id', 'down-table', '-o', path.join(dir, 'r.jsonl')]);
    expect(table.code).toBe(1);
    const row = table.out.split('\n').find((l) => l.startsWith('T01 '))!;
    expect(row).toMatch(/^T01 +0 +agent_error +not scored +- +infrastructure: ProviderError: task_agent call failed: 500 down/);
    expect(table.out).not.toContain('0.000');
    expect(table.out).toContain('episodes: 1 (0 scored, 1 infrastructure error, 0 evaluation errors, 0 not judged)');
    const line = JSON.parse(fs.readFileSync(path.join(dir, 'r.jsonl'), 'utf8'));
    expect(line).toMatchObject({ task_id: 'T01', status: 'error', reward: null, partial: null, failing_checks: [], not_judged_checks: [] });
    expect(line.error).toMatch(/^infrastructure error: ProviderError: task_agent call/);

    const json = await cli([...args, '--run-id', 'down-json', '--json']);
    const episode = JSON.parse(json.out).episodes[0];
    expect(episode).toMatchObject({ task_id: 'T01', scored: false });
    expect(episode.infra_error).toMatch(/500 down/);
    // The evaluation is reported as the store keeps it (the evaluator's reward 0 over the cut-short trajectory).
    const store = RunStore.open(db, { readonly: true });
    const stored = store.getEpisode('down-json', 'T01#0')!;
    store.close();
    expect(stored.reward).toBe(0);
    expect(episode.evaluation.reward).toBe((stored.result as { evaluation: { reward: number } }).evaluation.reward);

    const res = await createViewerApp({ dbPath: db }).request('/api/runs/down-table');
    const outline = ((await res.json()) as RunDetail).episodes[0];
    expect(outline).toMatchObject({ episode_id: 'T01#0', outcome: 'error', error: 'infra', reward: null, partial: null, failed_checks: [], diagnostic_checks: [] });
    // The header and the matrix's cell label say so, not "reward 0" or "not judged".
    expect(rewardText(outline)).toBe('not scored');
    expect(rewardText({ ...outline, error: null })).toBe('not judged');
  });

  it('a harness error (a tool or surface fault) is left out of the viewer\'s scores and of compare, as run leaves it out of its summary', async () => {
    const db = path.join(tmpDir('sg-harness-viewer-'), 'store.db');
    const base = await cli(['validate', '--tasks', 'T01,T02', '--db', db, '-q', '--json']);
    const baseId = JSON.parse(base.out).run_id as string;
    // The same episodes, T02's ended by a tool that threw: the evaluator still scored its trajectory (reward 1 here).
    const store = RunStore.open(db);
    try {
      const records = readEpisodeLogs(store, baseId).map((e) =>
        e.record.task.id === 'T02' ? { ...e.record, termination: { ...e.record.termination, reason: 'harness_error', harness_error: 'tool crash threw TypeError' } } : e.record,
      );
      store.saveRun({ ...store.getRun(baseId)!, id: 'harness' });
      writeEpisodeLogs(store, 'harness', records);
    } finally {
      store.close();
    }
    const app = createViewerApp({ dbPath: db });
    const runs = (await (await app.request('/api/runs')).json()) as RunListItem[];
    expect(runs.find((r) => r.id === 'harness')).toMatchObject({ episodes: 2, errors: 1, reward_mean: 1 });
    const detail = (await (await app.request('/api/runs/harness')).json()) as RunDetail;
    expect(detail.episodes.map((e) => [e.task_id, e.error, e.outcome, e.reward])).toEqual([
      ['T01', null, 'pass', 1],
      ['T02', 'harness', 'error', null],
    ]);
    const page = (await (await app.request(`/api/runs/harness/episodes/${encodeURIComponent('T02#0')}`)).json()) as EpisodeDetail;
    expect(page.errors).toEqual({ infra: null, harness: 'tool crash threw TypeError', evaluation: null });
    const cmp = await cli(['compare', baseId, 'harness', '--db', db, '--json']);
    expect(JSON.parse(cmp.out).tasks.map((t: { task: string; direction: string }) => [t.task, t.direction])).toEqual([
      ['T01', 'same'],
      ['T02', 'unscored'],
    ]);
  });
});
