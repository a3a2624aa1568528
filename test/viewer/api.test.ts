/**
 * The viewer's JSON API, in-process through the Hono app (no port, no browser), over a store
 * filled by real runs: the seed campaign replay, a validate run and a scripted run with faulty
 * agents (test/support/viewer-store.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createViewerApp, withTask } from '../../src/viewer/server.js';
import { countedFailures } from '../../src/evaluation/counted.js';
import type { TaskEvaluation } from '../../src/evaluation/types.js';
import { exportStaticSite } from '../../src/viewer/export.js';
import { RunStore } from '../../src/store/store.js';
import { writeEpisodeLogs } from '../../src/store/run-log.js';
import { rolloutEpisodeLog } from '../../src/optimizer/run-record.js';
import type { Rollout } from '../../src/optimizer/suite.js';
import type { CompareView, EpisodeChunk, EpisodeDetail, RunDetail, RunListItem, SearchResult, StaticData, TaskInfoView } from '../../src/viewer/types.js';

import { acquireRunLock } from '../../src/store/run-lock.js';
import { runHalted, runStatus } from '../../src/viewer/run-status.js';
import { startTwoRoleMock } from '../support/two-role-mock.js';
import { fillViewerStore, type ViewerStore } from '../support/viewer-store.js';
import { tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

/** A task as the viewer's resolver finds it, without zero_if_failed checks. */
const taskStub: TaskInfoView = { id: 'T03', purpose: null, persona: null, scenario: [], gold_actions: [], nl_assertions: [], communicate_info: [], env_assertions: [], reward_basis: [], rubric: [] };

let s: ViewerStore;
let uiDir: string;

beforeAll(async () => {
  s = await fillViewerStore(tmpDir('sg-viewer-api-'));
  // A stand-in UI: the API tests only need the files to exist.
  uiDir = tmpDir('sg-viewer-fake-ui-');
  fs.mkdirSync(path.join(uiDir, 'assets'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>servicegym view</title><script src="./data.js"></script>');
  fs.writeFileSync(path.join(uiDir, 'assets', 'viewer.js'), 'void 0;');
}, 60_000);

async function get<T>(url: string, db = s.db): Promise<{ status: number; body: T }> {
  const res = await createViewerApp({ dbPath: db, uiDir, busyTimeoutMs: 200 }).request(url);
  return { status: res.status, body: (await res.json()) as T };
}

const enc = encodeURIComponent;

describe('GET /api/runs', () => {
  it('lists the three runs newest first with their counts and scores', async () => {
    const { status, body } = await get<RunListItem[]>('/api/runs');
    expect(status).toBe(200);
    const pick = (r: RunListItem) => [r.id, r.kind, r.domain, r.agent_model, r.user_model, r.tasks, r.trials, r.episodes, r.reward_mean, r.partial_mean, r.pass_hat_k.map((p) => p.value), r.failed, r.errors];
    expect(body.map(pick)).toEqual([
      [s.validateId, 'run', 'airline', 'oracle', 'scripted', 5, 1, 5, 1, 1, [1], 0, 0],
      [s.faultyId, 'run', 'airline', 'scripted-faulty', 'scripted', 5, 2, 10, 0.6, 0.735, [0.6, 0.4], 4, 0],
      [s.campaignId, 'campaign', 'yunshu', 'doubao-seed-1-6-flash-250615', null, 10, 1, 30, 0.7, null, [0.7], 9, 0],
    ]);
    expect(body[2]).toMatchObject({ labels: ['initial', 'automatic_candidate', 'manual'], total_tokens: 80769, cost_usd: null, has_optimizer: true });
    for (const r of body) expect(r.prompt_hash).toMatch(/^[0-9a-f]{12}$/);
  });

  it('labels task runs, validate runs too, with the surface and strict mode they recorded', async () => {
    const { body } = await get<RunListItem[]>('/api/runs');
    const byId = new Map(body.map((r) => [r.id, r]));
    expect(byId.get(s.validateId)).toMatchObject({ surface: 'api' });
    expect(byId.get(s.validateId)!.strict).toBeUndefined();
    expect(byId.get(s.campaignId)!.surface).toBeUndefined();
    const db = path.join(tmpDir('sg-viewer-labels-'), 'store.db');
    expect((await runCli(['validate', '--domain', 'gds', '--tasks', 'T12', '--strict', '--db', db, '-q'])).code).toBe(0);
    expect((await runCli(['validate', '--domain', 'gds', '--tasks', 'T12', '--surface', 'api', '--db', db, '-q'])).code).toBe(0);
    const runs = (await get<RunListItem[]>('/api/runs', db)).body;
    expect(runs.map((r) => [r.name, r.surface, r.strict ?? false]).sort()).toEqual([['validate gds', 'api', false], ['validate gds', 'terminal', true]]);
  });

  it('labels each run with the command that made it: validate, not run (also a validate run stored before the command was recorded)', async () => {
    const { body } = await get<RunListItem[]>('/api/runs');
    expect(body.map((r) => [r.id, r.kind, r.command])).toEqual([[s.validateId, 'run', 'validate'], [s.faultyId, 'run', 'run'], [s.campaignId, 'campaign', 'campaign']]);
    const db = path.join(tmpDir('sg-viewer-command-'), 'store.db');
    const w = RunStore.open(db);
    try {
      w.saveRun({ id: 'validate-airline-servicegym-0a1b2c3d', kind: 'run', name: 'validate airline', domain: 'airline', created_at: '2000-01-01T00:00:00Z', summary: { agent: 'oracle' }, record: null });
      w.saveRun({ id: 'imported', kind: 'run', name: 'tau2 import r.json', domain: 'airline', created_at: '2000-01-02T00:00:00Z', summary: { command: 'import' }, record: null });
    } finally {
      w.close();
    }
    expect((await get<RunListItem[]>('/api/runs', db)).body.map((r) => [r.id, r.command])).toEqual([['imported', 'import'], ['validate-airline-servicegym-0a1b2c3d', 'validate']]);
  });

  it('picks up a run written while the viewer is open', async () => {
    const app = createViewerApp({ dbPath: s.db, uiDir });
    const before = (await (await app.request('/api/runs')).json()) as RunListItem[];
    const w = RunStore.open(s.db);
    try {
      w.saveRun({ id: 'late-run', kind: 'run', name: 'late', domain: 'airline', created_at: '2000-01-01T00:00:00Z', summary: {}, record: null });
      w.appendEpisodes([{ run_id: 'late-run', episode_id: 'T01#0', task_id: 'T01', trial: 0, label: 'llm', reward: 1, partial: 1, termination: 'user_stop', result: { messages: [] } }]);
      const after = (await (await app.request('/api/runs')).json()) as RunListItem[];
      expect(after.length).toBe(before.length + 1);
      expect(after.at(-1)).toMatchObject({ id: 'late-run', episodes: 1, reward_mean: 1 });
    } finally {
      w.close();
      const raw = new Database(s.db);
      raw.prepare("DELETE FROM episodes WHERE run_id = 'late-run'").run();
      raw.prepare("DELETE FROM runs WHERE id = 'late-run'").run();
      raw.close();
    }
  });
});

describe('GET /api/runs/:id', () => {
  it("gives the faulty run's matrix in task then trial order, coloured by outcome, with failed checks", async () => {
    const { body } = await get<RunDetail>(`/api/runs/${s.faultyId}`);
    // Failed checks are those that count (as the CLI lists them); tau2_action is diagnostic without --strict.
    expect(body.episodes.map((e) => [e.episode_id, e.outcome, e.failed_checks, e.diagnostic_checks])).toEqual([
      ['T01#0', 'fail', ['tau2_db', 'db_unchanged_gold', 'reservation_untouched', 'reason_stated'], []],
      ['T01#1', 'pass', [], []],
      ['T02#0', 'pass', [], []],
      ['T02#1', 'fail', ['tau2_db', 'payment'], ['tau2_action']],
      ['T03#0', 'partial', ['certificate_after_verification', 'delay_checked', 'verified_before_cancel'], ['tau2_action']],
      ['T03#1', 'partial', ['certificate_after_verification', 'delay_checked', 'verified_before_cancel'], ['tau2_action']],
      ['T15#0', 'fail', ['tau2_communicate', 'total_stated'], []],
      ['T15#1', 'fail', ['tau2_communicate', 'total_stated'], []],
      ['T17#0', 'pass', [], []],
      ['T17#1', 'pass', [], []],
    ]);
    expect(body.prompt).toBe('Scripted agent for T01.');
    expect(body.optimizer).toBeNull();
    // pass^k with its bootstrap interval over the five tasks.
    for (const p of body.run.pass_hat_k) {
      expect(p.low).toBeLessThanOrEqual(p.value);
      expect(p.high).toBeGreaterThanOrEqual(p.value);
    }
    expect(body.run.pass_hat_k[0].high! - body.run.pass_hat_k[0].low!).toBeGreaterThan(0);
  });

  it("gives the campaign's optimiser view: the table, the gate, the edits citing episodes, the patch", async () => {
    const { body } = await get<RunDetail>(`/api/runs/${s.campaignId}`);
    const view = body.optimizer!;
    expect(view.table!.columns).toEqual(['holdout', 'boundary']);
    expect(view.table!.rows.map((r) => r.cells.map((c) => `${c.passed}/${c.total}`).join('·'))).toEqual(['5/5·0/5', '5/5·2/5', '5/5·4/5']);
    expect(view.releases.map((r) => [r.id, r.status])).toEqual([
      ['initial', 'stable'],
      ['automatic_candidate', 'canary'],
      ['manual', 'control'],
    ]);
    const candidate = view.releases[1];
    expect(candidate.gate).toEqual({
      decision: 'release_to_canary',
      accepted: true,
      checks: ['patch_is_nonempty', 'patch_is_auditable_old_to_new_edit', 'source_cases_are_recorded', 'holdout_did_not_regress', 'boundary_improved'].map((name) => ({ name, passed: true, detail: null })),
    });
    expect(candidate.statistics.slice(0, 2)).toEqual([
      { name: 'holdout', value: '5/5 → 5/5' },
      { name: 'boundary', value: '0/5 → 2/5' },
    ]);
    expect(candidate.edits).toHaveLength(2);
    const cited = candidate.edits[0].evidence.map((e) => e.episode_id);
    expect(cited).toEqual(['initial/B1-不可退票要退款', 'initial/B2-要求免改签费', 'initial/B3-小延误索赔', 'initial/B4-索要免费升舱', 'initial/B5-超额免费行李']);
    for (const id of cited) expect((await get(`/api/runs/${s.campaignId}/episodes/${enc(id)}`)).status).toBe(200);
    expect(candidate.diff).toContain('+3. 关于人工转接：仅当乘客明确要求人工客服或遇到紧急安全情况时，才转接人工客服。');
  });

  it('answers 404 with a message for an unknown run', async () => {
    expect(await get('/api/runs/nope')).toEqual({ status: 404, body: { error: "no run 'nope' in the store", kind: 'not_found' } });
  });
});

describe('GET /api/runs/:id/episodes/:eid', () => {
  it('gives a failed episode its failing checks with weights and evidence, and the DB diff', async () => {
    const { body } = await get<EpisodeDetail>(`/api/runs/${s.faultyId}/episodes/${enc('T01#0')}`);
    const failed = body.checks.filter((c) => c.verdict === 'fail');
    expect(failed.map((c) => [c.id, c.weight_label])).toEqual([
      ['tau2_db', 'in the tau2 reward'],
      ['db_unchanged_gold', '60 (no_state_change)'],
      ['reservation_untouched', '60 (no_state_change)'],
      ['reason_stated', '20 (reason)'],
    ]);
    expect(failed[3].evidence).toMatch(/^must_match: no assistant message matches \/basic\[ -\]\?economy/);
    expect(body.db_diff[0]).toEqual({ path: '/reservations/8KQ2ZD/flights/0/date', op: 'replace', before: '2026-10-20', after: '2026-10-21' });
    expect(body.position).toEqual({ index: 0, total: 10, prev: null, next: 'T01#1' });
    expect(body.transcript.filter((t) => t.kind === 'customer').map((t) => (t as { text: string }).text)).toEqual([
      "Hi, I'm Mia Lee, user id mia_lee_301. I'd like to move my flight on reservation 8KQ2ZD from 2026-10-20 to the next day, 2026-10-21.",
      'Yes, please proceed.',
    ]);
  });

  it("lists as failed only the checks that count, as the CLI does; tau2_action outside --strict is diagnostic", async () => {
    const { body } = await get<EpisodeDetail>(`/api/runs/${s.faultyId}/episodes/${enc('T03#0')}`);
    expect(body.checks.find((c) => c.id === 'tau2_action')).toMatchObject({ verdict: 'fail', weight_label: 'diagnostic' });
    expect(body.episode.failed_checks).toEqual(['certificate_after_verification', 'delay_checked', 'verified_before_cancel']);
    expect(body.episode.diagnostic_checks).toEqual(['tau2_action']);
    // The same rule as the CLI's reports (src/evaluation/counted.ts).
    const stored = RunStore.open(s.db, { readonly: true });
    const ev = (stored.getEpisode(s.faultyId, 'T03#0')!.result as { evaluation: TaskEvaluation }).evaluation;
    stored.close();
    expect(body.episode.failed_checks).toEqual(countedFailures(ev).map((c) => c.id));
    // A task's zero_if_failed check counts even outside the rubric, once the task is known.
    const unrubricked = { ...body, rubric: body.rubric.map((r) => ({ ...r, checks: r.checks.filter((c) => c !== 'delay_checked') })) };
    const lists = (d: EpisodeDetail) => [d.episode.failed_checks, d.episode.diagnostic_checks];
    expect(lists(withTask(unrubricked, () => ({ ...taskStub, zero_if_failed: ['delay_checked'] })))).toEqual([['certificate_after_verification', 'delay_checked', 'verified_before_cancel'], ['tau2_action']]);
    expect(lists(withTask(unrubricked, () => ({ ...taskStub, zero_if_failed: ['tau2_db'] })))).toEqual([['certificate_after_verification', 'verified_before_cancel'], ['tau2_action', 'delay_checked']]);
    expect(withTask(body, () => taskStub).task).toEqual(taskStub);
  });

  it("marks each check as counting or diagnostic, so the Checks panel counts what the rest of the viewer counts", async () => {
    const { body } = await get<EpisodeDetail>(`/api/runs/${s.faultyId}/episodes/${enc('T03#0')}`);
    const counted = body.checks.filter((c) => c.counts);
    // Reward basis [DB]: the other tau2 components, and a db_gold check no rubric item names, are diagnostics.
    expect(body.checks.filter((c) => !c.counts).map((c) => [c.id, c.verdict])).toEqual([
      ['tau2_env_assertion', 'pass'],
      ['tau2_communicate', 'pass'],
      ['tau2_nl_assertion', 'not_judged'],
      ['tau2_action', 'fail'],
      ['db_all', 'pass'],
    ]);
    // The panel's "N failed of M": the counted failures are the outline's failed checks.
    expect(counted.filter((c) => c.verdict === 'fail').map((c) => c.id).sort()).toEqual([...body.episode.failed_checks].sort());
    expect([counted.filter((c) => c.verdict === 'fail').length, counted.length]).toEqual([3, 8]);
    // A task's zero_if_failed check counts once the task is known, even outside the rubric.
    const unrubricked = { ...body, rubric: body.rubric.map((r) => ({ ...r, checks: r.checks.filter((c) => c !== 'delay_checked') })) };
    const kept = (d: EpisodeDetail) => d.checks.filter((c) => c.counts).map((c) => c.id);
    expect(kept(withTask(unrubricked, () => ({ ...taskStub, zero_if_failed: ['delay_checked'] })))).toContain('delay_checked');
    expect(kept(withTask(unrubricked, () => ({ ...taskStub, zero_if_failed: ['tau2_db'] })))).not.toContain('delay_checked');
    // Campaign checks all count.
    const campaign = await get<EpisodeDetail>(`/api/runs/${s.campaignId}/episodes/${enc('automatic_candidate/B2-要求免改签费')}`);
    expect(campaign.body.checks.every((c) => c.counts)).toBe(true);
  });

  it('marks a malformed tool call and its error output', async () => {
    const { body } = await get<EpisodeDetail>(`/api/runs/${s.faultyId}/episodes/${enc('T01#1')}`);
    const agent = body.transcript.find((t) => t.kind === 'agent' && t.tool_calls.length > 0);
    expect(agent).toMatchObject({ tool_calls: [{ name: 'get_user_details', malformed: true, arguments: '{"user_id": "mia_lee_301"' }] });
    const tool = body.transcript.find((t) => t.kind === 'tool');
    expect(tool).toMatchObject({ name: 'get_user_details', error: true });
    expect((tool as { output: string }).output).toMatch(/^Error: arguments for get_user_details are not valid JSON/);
  });

  it("turns a campaign case's verdict into checks with the judge's reason", async () => {
    const { body } = await get<EpisodeDetail>(`/api/runs/${s.campaignId}/episodes/${enc('automatic_candidate/B2-要求免改签费')}`);
    expect(body.checks.map((c) => [c.id, c.verdict])).toEqual([
      ['transfer_decision', 'pass'],
      ['llm_judge', 'fail'],
    ]);
    expect(body.checks[1].evidence).toBe('未提供合规的替代方案');
    expect(body.position).toMatchObject({ prev: 'initial/B2-要求免改签费', next: 'manual/B2-要求免改签费' });
  });
});

describe('GET /api/runs/:id/search', () => {
  it('finds the episodes whose transcript, task or checks contain the text, with where and a snippet', async () => {
    const { status, body } = await get<SearchResult>(`/api/runs/${s.faultyId}/search?q=${enc('UPDATE_reservation_flights')}`);
    expect(status).toBe(200);
    const stored = RunStore.open(s.db, { readonly: true });
    const want = stored.episodes(s.faultyId).filter((e) => JSON.stringify(e.result).includes('update_reservation_flights')).map((e) => e.episode_id);
    stored.close();
    expect(body.hits.map((h) => h.episode_id).sort()).toEqual(want.sort());
    expect(body.hits[0].snippet.toLowerCase()).toContain('update_reservation_flights');
    expect(body.hits[0].where).toMatch(/^(turn \d+ \(agent\)|check \S+)$/);
    expect((await get<SearchResult>(`/api/runs/${s.faultyId}/search?q=${enc('no such text anywhere')}`)).body.hits).toEqual([]);
    expect((await get(`/api/runs/nope/search?q=x`)).status).toBe(404);
  });
});

describe('run status, tags and breakdowns', () => {
  it('reads tags and the start name from the summary, and tells finished, interrupted and running runs apart', async () => {
    const w = RunStore.open(s.db);
    try {
      w.saveRun({ id: 'tagged-run', kind: 'run', name: 'run airline', domain: 'airline', created_at: '2000-01-01T00:00:00Z', summary: { name: 'nightly smoke', tags: ['smoke', 7, ''], agent_model: 'm' }, record: null });
      const item = (await get<RunListItem[]>('/api/runs')).body.find((r) => r.id === 'tagged-run')!;
      expect(item).toMatchObject({ name: 'nightly smoke', tags: ['smoke'], status: 'interrupted' });
      const lock = acquireRunLock(s.db, 'tagged-run');
      try {
        expect((await get<RunDetail>('/api/runs/tagged-run')).body.run.status).toBe('in_progress');
      } finally {
        lock.release();
      }
      expect((await get<RunDetail>('/api/runs/tagged-run')).body.run.status).toBe('interrupted');
      expect((await get<RunDetail>(`/api/runs/${s.faultyId}`)).body.run).toMatchObject({ status: 'complete', tags: [] });
    } finally {
      w.close();
      const raw = new Database(s.db);
      raw.prepare("DELETE FROM runs WHERE id = 'tagged-run'").run();
      raw.close();
    }
  });

  it('calls a run stopped before every episode started (--max-cost) stopped, with why and how many did not start, in the list, the run and the static export', async () => {
    const dir = tmpDir('sg-viewer-halted-');
    const db = path.join(dir, 'store.db');
    const saved = process.env.SERVICEGYM_API_KEY;
    process.env.SERVICEGYM_API_KEY = 'test-fake-key-viewer-8181';
    // Every completion reports $0.01: --max-cost $0.02 stops the run after its first episode (-j 1), 3 of 4 not started.
    const mock = await startTwoRoleMock(
      { agent: () => ({ content: 'Basic economy cannot be changed. ###STOP###' }), user: (messages) => (messages.length <= 2 ? { content: 'Move 8KQ2ZD please.' } : { content: '###STOP###' }) },
      { cost: 0.01 },
    );
    const run = (extra: string[]) => runCli(['run', '--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '--run-id', 'stopped-run', '-q', ...extra]);
    try {
      expect((await run(['--max-cost', '0.02'])).code).toBe(1);
      const stored = RunStore.open(db, { readonly: true });
      const halted = (stored.getRun('stopped-run')!.summary as { halted: { reason: string; not_started: number } }).halted;
      stored.close();
      expect(halted).toEqual({ reason: expect.stringMatching(/^--max-cost \$0\.02 reached/), not_started: 3 });
      const [item] = (await get<RunListItem[]>('/api/runs', db)).body;
      expect(item).toMatchObject({ id: 'stopped-run', status: 'stopped', halted, episodes: 1 });
      expect((await get<RunDetail>('/api/runs/stopped-run', db)).body.run).toMatchObject({ status: 'stopped', halted });
      const out = path.join(dir, 'site');
      exportStaticSite({ dbPath: db, outDir: out, uiDir });
      const sandbox = { window: {} as { __SERVICEGYM_DATA__?: StaticData } };
      vm.runInNewContext(fs.readFileSync(path.join(out, 'data.js'), 'utf8'), sandbox);
      expect(sandbox.window.__SERVICEGYM_DATA__!.runs[0]).toMatchObject({ status: 'stopped', halted });
      expect(sandbox.window.__SERVICEGYM_DATA__!.details['stopped-run'].run).toMatchObject({ status: 'stopped', halted });
      // Resumed to the end, it is complete and says nothing of a stop.
      expect((await run(['--resume', 'stopped-run'])).code).toBe(0);
      const [done] = (await get<RunListItem[]>('/api/runs', db)).body;
      expect(done).toMatchObject({ status: 'complete', episodes: 4 });
      expect(done.halted).toBeUndefined();
    } finally {
      await mock.close();
      if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
      else process.env.SERVICEGYM_API_KEY = saved;
    }
  }, 120_000);

  it('reads `halted` only in its stored shape, and only for a finished task run', () => {
    const halted = { reason: 'interrupted (Ctrl-C)', not_started: 4 };
    expect(runHalted({ scored: 2, halted })).toEqual(halted);
    expect(runStatus('run', { scored: 2, halted }, false)).toBe('stopped');
    expect(runStatus('run', { scored: 2 }, false)).toBe('complete');
    // Not finished (no scores yet: a resumed attempt is running or was killed): in progress or interrupted, whatever an older `halted` said.
    expect(runStatus('run', { halted }, true)).toBe('in_progress');
    expect(runStatus('run', { halted }, false)).toBe('interrupted');
    expect(runStatus('campaign', { scored: 2, halted }, false)).toBe('complete');
    for (const bad of [null, 'x', {}, { reason: '', not_started: 4 }, { reason: 'r', not_started: 0 }, { reason: 'r', not_started: 1.5 }, { reason: 7, not_started: 4 }]) expect(runHalted({ scored: 2, halted: bad })).toBeUndefined();
  });

  it("breaks a campaign down per prompt version and gives a run's usage by role", async () => {
    const { body } = await get<RunDetail>(`/api/runs/${s.campaignId}`);
    expect(body.by_label.map((l) => [l.label, l.passed, l.scored, l.pass_hat_k.map((p) => p.value)])).toEqual([
      ['initial', 5, 10, [0.5]],
      ['automatic_candidate', 7, 10, [0.7]],
      ['manual', 9, 10, [0.9]],
    ]);
    expect((await get<RunDetail>(`/api/runs/${s.faultyId}`)).body.by_label).toEqual([]);
  });
});

describe('GET /api/compare', () => {
  it('lists improved, regressed and unchanged tasks by success rate, and the prompt diff', async () => {
    const { body } = await get<CompareView>(`/api/compare?a=${s.faultyId}&b=${s.validateId}`);
    expect(body.rows.map((r) => [r.key, r.change])).toEqual([
      ['T01', 'improved'],
      ['T02', 'improved'],
      ['T03', 'same'],
      ['T15', 'improved'],
      ['T17', 'same'],
    ]);
    expect(body.rows.map((r) => [r.key, r.rate_a, r.rate_b, r.rate_delta])).toEqual([
      ['T01', 0.5, 1, 0.5],
      ['T02', 0.5, 1, 0.5],
      ['T03', 1, 1, 0],
      ['T15', 0, 1, 1],
      ['T17', 1, 1, 0],
    ]);
    const c = body.comparison;
    expect(c.counts).toEqual({ improved: 3, regressed: 0, same: 2, added: 0, removed: 0, unscored: 0, beyond_noise: 0 });
    expect(c.task_sets).toEqual({ same: true, reason: null, common: 5, only_a: [], only_b: [] });
    const differs = Object.fromEntries(c.config_diff.map((d) => [d.key, [d.a, d.b]]));
    expect(differs['agent_model']).toEqual(['scripted-faulty', 'oracle']);
    expect(differs['trials']).toEqual([2, 1]);
    // validate's oracle has a prompt per task: not diffed against the run's prompt, and the reason given.
    expect(c.prompt_diff).toBe('');
    expect(c.prompt_note).toMatch(/^not diffed: B's agent \(gold-action oracle/);
    expect(differs['agent']).toEqual(['LLM agent', 'gold-action oracle (plays the gold actions)']);
    const back = await get<CompareView>(`/api/compare?a=${s.validateId}&b=${s.faultyId}`);
    expect(back.body.comparison.counts).toMatchObject({ improved: 0, regressed: 3, same: 2 });
  });

  it('says which differences exceed run-to-run noise', async () => {
    const { body } = await get<CompareView>(`/api/compare?a=${s.faultyId}&b=${s.validateId}`);
    // T15: 0 of 2 trials vs 1 of 1, Fisher p = 1/3; T01: 1 of 2 vs 1 of 1, p = 1; both within noise.
    const row = (k: string) => body.rows.find((r) => r.key === k)!;
    expect(row('T15').noise).toEqual({ p: 0.333333333333, beyond_noise: false });
    expect(row('T01').noise).toEqual({ p: 1, beyond_noise: false });
    expect(body.comparison.overall).toMatchObject({ tasks: 5, level: 0.95 });
    const n = body.comparison.overall!;
    expect(n.delta).toBeCloseTo(n.b - n.a, 10);
    expect(n.low).toBeLessThanOrEqual(n.delta);
    expect(n.high).toBeGreaterThanOrEqual(n.delta);
    // 5 common tasks: fewer than the 6 a bootstrap over tasks needs at 95%, so no verdict either way.
    expect(n).toMatchObject({ beyond_noise: false, verdict: 'too_few_tasks', min_tasks: 6 });
    expect(body.comparison.pass_hat_k.map((p) => p.delta.verdict)).toEqual(['too_few_tasks']);
    const again = await get<CompareView>(`/api/compare?a=${s.faultyId}&b=${s.validateId}`);
    expect(again.body.comparison.overall).toEqual(body.comparison.overall);
  });

  it('asks for both ids, and names an unknown one', async () => {
    expect((await get(`/api/compare?a=${s.faultyId}`)).status).toBe(400);
    expect(await get(`/api/compare?a=${s.faultyId}&b=zzz`)).toEqual({ status: 404, body: { error: "no run 'zzz' in the store", kind: 'not_found' } });
  });
});

describe('release records of the optimiser (extension point)', () => {
  it("shows a kind 'optimize' run's releases[] with gate, statistics and cited episodes", async () => {
    const dir = tmpDir('sg-viewer-opt-');
    const db = path.join(dir, 'store.db');
    const w = RunStore.open(db);
    w.saveRun({
      id: 'opt-1',
      kind: 'optimize',
      name: 'optimise airline prompt',
      domain: 'airline',
      created_at: '2026-10-14T15:00:00Z',
      summary: {},
      record: {
        releases: [
          { id: 'v1', status: 'stable', scores: { train: [3, 5] } },
          {
            id: 'v2',
            status: 'canary',
            gate: { decision: 'canary', accepted: true, checks: [{ name: 'no_regression', passed: true, detail: '0 regressions' }] },
            statistics: { 'pass^1': '0.6 → 0.8' },
            edits: [{ old_str: 'a', new_str: 'b', evidence: [{ run_id: 'run-x', episode_id: 'T01#0', note: 'wrote to 8KQ2ZD' }] }],
            diff: '--- a\n+++ b\n@@ -1 +1 @@\n-a\n+b\n',
          },
        ],
      },
    });
    w.close();
    const { body } = await get<RunDetail>('/api/runs/opt-1', db);
    expect(body.optimizer).toMatchObject({
      source: 'releases',
      releases: [
        { id: 'v1', status: 'stable', scores: [{ name: 'train', passed: 3, total: 5 }] },
        {
          id: 'v2',
          status: 'canary',
          gate: { decision: 'canary', accepted: true, checks: [{ name: 'no_regression', passed: true, detail: '0 regressions' }] },
          statistics: [{ name: 'pass^1', value: '0.6 → 0.8' }],
          edits: [{ evidence: [{ run_id: 'run-x', episode_id: 'T01#0', note: 'wrote to 8KQ2ZD' }] }],
        },
      ],
    });
  });
});

describe('lifecycle entries joined with hashed release records (src/release/ shapes)', () => {
  it('shows state, gate reasons, statistics and edits whose case evidence links to the parent prompt’s episodes', async () => {
    const db = path.join(tmpDir('sg-viewer-opt2-'), 'store.db');
    const stable = 'a'.repeat(64);
    const cand = 'b'.repeat(64);
    const w = RunStore.open(db);
    w.saveRun({
      id: 'optimize-x',
      kind: 'optimize',
      name: 'x',
      domain: 'yunshu',
      created_at: '2026-10-14T15:00:00Z',
      summary: {},
      record: {
        releases: [
          { version: stable.slice(0, 12), sha256: stable, state: 'stable', parent_sha256: null, decision: null, release_sha256: null, decided_at: '2026-10-14T15:00:00Z', source: 'stable.txt' },
          { version: cand.slice(0, 12), sha256: cand, state: 'canary', parent_sha256: stable, decision: 'release_to_canary', release_sha256: 'r'.repeat(64), decided_at: '2026-10-14T15:01:00Z', source: 'prompts/b.txt' },
        ],
        not_prompt_fixable: [
          {
            case_id: 'B5',
            attempts: 3,
            candidates: ['c1', 'c2', 'c3'],
            rollouts: 6,
            stable: { rollouts: 4, failures: 4 },
            failing: { rollouts: 10, critical: ['forbidden write: cancel_reservation({})'], tools: ['cancel_reservation'], state_paths: [], dimensions: [{ dimension: 'rule_compliance', failures: 10 }] },
            recommendation: 'Add a tool precondition or guard on cancel_reservation.',
          },
        ],
        release_records: [
          {
            sha256: 'r'.repeat(64),
            decision: 'release_to_canary',
            stage: 'gate',
            reasons: ['boundary +2 with no holdout regression'],
            parent: { sha256: stable, role: 'stable' },
            edits: [{ old_str: 'x', new_str: 'y', source_cases: ['B1'], evidence: [{ case_id: 'B1', trial: 1, quote: 'transfer_to_human' }] }],
            edit_checks: [{ index: 0, ok: true, reasons: [] }],
            rationale: 'stop over-escalating',
            statistics: {
              added_tokens: -5,
              screen: null,
              ablation: {
                trials: 4,
                cases: 2,
                edits: [{ index: 0, clause: 'S2.4', intent: 'clarify-rule', separable: true, pairs: 8, valid_pairs: 8, candidate_successes: 7, without_successes: 2, delta: 5, critical_without: 0, contributes: true }],
                no_measured_contribution: [],
              },
            },
            diff: '--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n',
          },
        ],
      },
    });
    const episode = (trial: number) =>
      rolloutEpisodeLog(
        {
          case_id: 'B1', trial, seed: 7, prompt_sha256: stable, valid: true, success: false, termination: 'transfer', usage: {},
          messages: [{ role: 'user', content: 'refund!' }],
          dimensions: { task_resolution: { verdict: 'fail', evidence: 'transferred a policy dispute', quote: 'transfer_to_human' }, rule_compliance: { verdict: 'pass', evidence: 'ok' } } as unknown as Rollout['dimensions'],
          critical: [],
        },
        `${stable.slice(0, 12)}/B1#${trial}#0`,
        stable.slice(0, 12),
        null,
        'x',
        {},
        'api',
      );
    writeEpisodeLogs(w, 'optimize-x', [episode(0), episode(1)]);
    w.close();
    const { body } = await get<RunDetail>('/api/runs/optimize-x', db);
    expect(body.episodes.map((e) => [e.episode_id, e.failed_checks])).toEqual([
      [`${stable.slice(0, 12)}/B1#0#0`, ['task_resolution']],
      [`${stable.slice(0, 12)}/B1#1#0`, ['task_resolution']],
    ]);
    expect(body.optimizer!.escalations).toEqual([
      { case_id: 'B5', attempts: 3, rollouts: 6, failing: 'forbidden write: cancel_reservation({}); rule_compliance ×10', recommendation: 'Add a tool precondition or guard on cancel_reservation.' },
    ]);
    const [s0, c1] = body.optimizer!.releases;
    expect([s0.status, s0.gate, c1.status, c1.created_at]).toEqual(['stable', null, 'canary', '2026-10-14T15:01:00Z']);
    expect(c1.gate).toEqual({
      decision: 'release_to_canary',
      accepted: true,
      checks: [
        { name: 'edit 1 checks', passed: true, detail: null },
        { name: 'gate', passed: true, detail: 'boundary +2 with no holdout regression' },
      ],
    });
    expect(c1.statistics).toEqual([
      { name: 'added_tokens', value: '-5' },
      { name: 'ablation', value: 'edit 1 (S2.4, clarify-rule): +5 successes over 8 gate pairs (7 with, 2 without)' },
    ]);
    expect(c1.edits[0].evidence).toEqual([{ run_id: 'optimize-x', episode_id: `${stable.slice(0, 12)}/B1#1#0`, note: 'transfer_to_human' }]);
    expect([c1.rationale, c1.diff]).toEqual(['stop over-escalating', '--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n']);
    const ep = await get<EpisodeDetail>(`/api/runs/optimize-x/episodes/${enc(`${stable.slice(0, 12)}/B1#1#0`)}`, db);
    expect(ep.body.checks.map((c) => [c.id, c.verdict, c.evidence])).toEqual([
      ['task_resolution', 'fail', 'transferred a policy dispute — "transfer_to_human"'],
      ['rule_compliance', 'pass', 'ok'],
      ['critical', 'pass', 'no critical violation'],
    ]);
  });
});

describe('a store that cannot be read', () => {
  const storeError = async (db: string) => {
    const { status, body } = await get<{ error: string; kind: string }>('/api/runs', db);
    expect(status).toBe(503);
    expect(body.kind).toBe('store');
    return body.error;
  };

  it('missing', async () => {
    const db = path.join(tmpDir('sg-viewer-missing-'), 'none.db');
    expect(await storeError(db)).toBe(`${db}: no servicegym store exists at this path; any servicegym command run with \`--db PATH\` creates it`);
  });

  it('from an older schema', async () => {
    const db = path.join(tmpDir('sg-viewer-old-'), 'old.db');
    const raw = new Database(db);
    raw.exec('CREATE TABLE runs (id TEXT)');
    raw.close();
    expect(await storeError(db)).toMatch(/this store is from an older servicegym schema \(v0, this is v4\)/);
  });

  it('locked by another process', async () => {
    const raw = new Database(s.db);
    raw.pragma('locking_mode = EXCLUSIVE');
    raw.exec('BEGIN EXCLUSIVE');
    raw.exec('UPDATE runs SET name = name');
    try {
      expect(await storeError(s.db)).toMatch(/the store is locked by another process \(still busy after 0\.2 s\)/);
    } finally {
      raw.exec('COMMIT');
      raw.close();
    }
    expect((await get('/api/runs')).status).toBe(200);
  });

  it('not a SQLite file', async () => {
    const db = path.join(tmpDir('sg-viewer-junk-'), 'junk.db');
    fs.writeFileSync(db, 'x'.repeat(4096));
    expect(await storeError(db)).toMatch(/this file is not a SQLite database/);
  });
});

describe('the UI routes', () => {
  it('serves index.html, the assets and a live data.js that starts the first request', async () => {
    const app = createViewerApp({ dbPath: s.db, uiDir });
    expect(await (await app.request('/')).text()).toContain('<title>servicegym view</title>');
    expect((await app.request('/assets/viewer.js')).headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await app.request('/assets/..%2Fviewer.js')).status).toBe(404);
    const stub = await (await app.request('/data.js')).text();
    expect(stub).not.toContain('__SERVICEGYM_DATA__ =');
    // It starts the first page's API request while the app loads.
    const fetched: string[] = [];
    const page: Record<string, unknown> = { location: { hash: `#/runs/${enc(s.faultyId)}/episodes/${enc('T01#0')}` }, fetch: (p: string) => (fetched.push(p), Promise.resolve()) };
    page.window = page;
    vm.runInNewContext(stub, page);
    expect(fetched).toEqual([`api/runs/${enc(s.faultyId)}/episodes/${enc('T01#0')}`]);
  });

  it('says how to build the UI when it is not built', async () => {
    const res = await createViewerApp({ dbPath: s.db, uiDir: tmpDir('sg-no-ui-') }).request('/');
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(/the viewer UI is not built .*run `npm run build`/);
  });
});

describe('static export', () => {
  it('writes the UI, a data.js holding every run and its matrix, and the episode pages in scripts of 100', () => {
    const out = path.join(tmpDir('sg-viewer-export-'), 'site');
    const res = exportStaticSite({ dbPath: s.db, outDir: out, uiDir });
    expect(res).toMatchObject({ runs: 3, episodes: 45, index: path.join(out, 'index.html') });
    expect(fs.existsSync(path.join(out, 'assets', 'viewer.js'))).toBe(true);
    const sandbox = { window: {} as { __SERVICEGYM_DATA__?: StaticData; __SERVICEGYM_EPISODES__?: Record<string, EpisodeChunk> } };
    vm.runInNewContext(fs.readFileSync(path.join(out, 'data.js'), 'utf8'), sandbox);
    const data = sandbox.window.__SERVICEGYM_DATA__!;
    // The newest stored run's start, not the clock.
    expect(data.generated_at).toBe([...data.runs.map((r) => r.created_at)].sort().at(-1));
    expect(data.runs.map((r) => r.id)).toEqual([s.validateId, s.faultyId, s.campaignId]);
    expect(data.details[s.faultyId].episodes).toHaveLength(10);
    // One script per run here (each run has fewer than 100 episodes).
    expect(fs.readdirSync(path.join(out, 'episodes')).sort()).toEqual(['0.js', '1.js', '2.js']);
    const file = data.episode_files[s.faultyId]['T01#0'];
    expect(Object.values(data.episode_files[s.faultyId])).toEqual(Array(10).fill(file));
    vm.runInNewContext(fs.readFileSync(path.join(out, file), 'utf8'), sandbox);
    expect(sandbox.window.__SERVICEGYM_EPISODES__![file]['T01#0'].db_diff[0].path).toBe('/reservations/8KQ2ZD/flights/0/date');
  });

  it('is a pure function of the store: two exports made at different times are byte-identical', () => {
    const files = (dir: string): Record<string, string> =>
      Object.fromEntries(fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort().filter((f) => fs.statSync(path.join(dir, f)).isFile()).map((f) => [f, fs.readFileSync(path.join(dir, f), 'utf8')]));
    const sites = ['2027-01-01T00:00:00Z', '2027-06-30T12:34:56Z'].map((clock) => {
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(clock) });
      try {
        const out = path.join(tmpDir('sg-viewer-export-same-'), 'site');
        exportStaticSite({ dbPath: s.db, outDir: out, uiDir });
        return files(out);
      } finally {
        vi.useRealTimers();
      }
    });
    expect(Object.keys(sites[0])).toContain('data.js');
    expect(sites[1]).toEqual(sites[0]);
    expect(sites[0]['data.js']).not.toContain('2027-');
  });

  it('reads the store as one snapshot: an episode a run stores meanwhile is in neither the runs list nor the run page', () => {
    const db = path.join(tmpDir('sg-viewer-export-snapshot-'), 'store.db');
    fs.copyFileSync(s.db, db);
    const writer = new Database(db);
    // A run stores an episode after the export read the runs list, before it reads the run's page.
    const getRun = RunStore.prototype.getRun;
    const spy = vi.spyOn(RunStore.prototype, 'getRun').mockImplementation(function (this: RunStore, id: string) {
      if (spy.mock.calls.length === 1) {
        writer.prepare("INSERT INTO episodes (run_id, episode_id, task_id, trial, label, reward, partial, termination, result) SELECT run_id, 'T01#9', task_id, 9, label, reward, partial, termination, result FROM episodes WHERE run_id = ? AND episode_id = 'T01#0'").run(s.faultyId);
      }
      return getRun.call(this, id);
    });
    const out = path.join(tmpDir('sg-viewer-export-snapshot-out-'), 'site');
    try {
      exportStaticSite({ dbPath: db, outDir: out, uiDir });
    } finally {
      spy.mockRestore();
      writer.close();
    }
    const sandbox = { window: {} as { __SERVICEGYM_DATA__?: StaticData } };
    vm.runInNewContext(fs.readFileSync(path.join(out, 'data.js'), 'utf8'), sandbox);
    const data = sandbox.window.__SERVICEGYM_DATA__!;
    const faulty = data.details[data.runs[1].id];
    expect(data.runs[1].id).toBe(s.faultyId);
    expect(faulty.episodes).toHaveLength(10);
    expect(faulty.run).toEqual(data.runs[1]);
    expect(Object.keys(data.episode_files[s.faultyId])).toHaveLength(10);
  });
});
