/**
 * `servicegym run --resume RUN_ID` takes the settings the user does not give from the stored run
 * (src/cli/run-stored-settings.ts): a run started with non-default flags and stopped by
 * `--max-cost` continues with `--resume ID --db DB` alone, with exactly its stored settings and
 * every episode stored once; a flag given explicitly is still compared (and refused when it
 * differs); a changed prompt file is refused by name; a run stored before the base URL and prompt
 * path were stored behaves as before (those must be given). Against the local mock model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedModelEnv } from '../support/model-env.js';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { storableBaseUrl } from '../../src/cli/run-stored-settings.js';
import { last } from '../support/two-role-mock.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { runCli as cli } from '../support/cli.js';

const KEY = 'test-fake-key-resume-settings-5151';
const AGENT = 'agent-under-test-7';
const USER = 'user-sim-3';

/** Answers the agent (a policy-following T01 agent) and the user simulator, told apart by the models above. */
function reply(body: any) {
  const messages = body.messages as any[];
  if (body.model === USER) return messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' };
  if (body.model !== AGENT) return { status: 400, error: `unexpected model ${body.model}` };
  const calls = messages.filter((m) => m.role === 'assistant' && m.tool_calls).length;
  if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
  if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
  return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed.' };
}

let mock: MockServer;
isolatedModelEnv({ SERVICEGYM_API_KEY: KEY, NO_COLOR: '1' });
beforeEach(async () => {
  mock = await startMockServer({ handler: reply, cost: 0.002 });
});
afterEach(async () => {
  await mock.close();
});

/** The stored run's summary and its episode ids (sorted). */
function stored(db: string, runId: string): { summary: Record<string, any>; text: string; episodes: string[] } {
  const q = new Database(db, { readonly: true });
  try {
    const text = (q.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string }).summary;
    const episodes = (q.prepare('SELECT episode_id FROM episodes WHERE run_id = ?').all(runId) as { episode_id: string }[]).map((e) => e.episode_id).sort();
    return { summary: JSON.parse(text), text, episodes };
  } finally {
    q.close();
  }
}

/**
 * Starts a run of T01 and T02 x 2 trials with non-default models, temperature, step limit, prompt
 * file, name and tag at -j 1, stopped by `--max-cost` after its first episode.
 */
async function startStopped(dir: string): Promise<{ db: string; runId: string; prompt: string }> {
  const db = path.join(dir, 'store.db');
  const prompt = path.join(dir, 'agent.txt');
  fs.writeFileSync(prompt, 'You are a careful agent.\n\nPOLICY:\n{{policy}}\n');
  const first = await cli(['run', '--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--agent-model', AGENT, '--user-model', USER, '--base-url', mock.url, '--temperature', '0.5', '--max-steps', '30', '--prompt-file', prompt, '--name', 'nightly check', '--tag', 'n1', '--max-cost', '0.001', '--db', db, '-q', '--json']);
  expect(first.code, first.err).toBe(1);
  const runId = JSON.parse(first.out).run_id as string;
  expect(stored(db, runId).episodes).toHaveLength(1);
  return { db, runId, prompt };
}

describe('run --resume RUN_ID alone', () => {
  it('continues a stopped run with the settings it was started with, every episode stored once', async () => {
    const { db, runId, prompt } = await startStopped(tmpDir('sg-resume-settings-'));
    const before = stored(db, runId).summary;
    const sent = mock.requests.length;
    const r = await cli(['run', '--resume', runId, '--db', db, '--json']);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`servicegym: resuming ${runId}: settings from the stored run: domain airline, agent model ${AGENT}, user model ${USER}, tasks T01,T02, trials 2, temperature 0.5, max steps 30, prompt file ${path.resolve(prompt)}, surface api, name "nightly check", tags n1, base URL ${mock.url}, -j 1; 1 finished episodes kept\n`);
    const after = stored(db, runId);
    expect(after.episodes).toEqual(['T01#0', 'T01#1', 'T02#0', 'T02#1']);
    expect(JSON.parse(r.out).episodes).toHaveLength(4);
    // The calls of the resume: the stored models, temperature and prompt.
    const bodies = mock.requests.slice(sent).map((q) => q.body);
    expect(bodies.length).toBeGreaterThan(0);
    expect(new Set(bodies.map((b) => b.model))).toEqual(new Set([AGENT, USER]));
    expect(bodies.every((b) => b.temperature === 0.5)).toBe(true);
    expect(bodies.filter((b) => b.model === AGENT).every((b) => b.messages[0].content.startsWith('You are a careful agent.\n\nPOLICY:\n'))).toBe(true);
    // The stored settings are those the run started with; the name and tag are kept.
    for (const k of ['agent_model', 'user_model', 'judge_model', 'task_ids', 'trials', 'temperature', 'max_steps', 'prompt_sha256', 'prompt_path', 'data_dir', 'name', 'tags', 'base_url', 'concurrency', 'threads', 'judge_votes', 'data', 'mode', 'strict', 'surface']) {
      expect([k, after.summary[k]]).toEqual([k, before[k]]);
    }
    expect(before).toMatchObject({ base_url: mock.url, prompt_path: path.resolve(prompt), concurrency: 1, threads: 1, judge_votes: 3, rate_limit: null });
    expect(after.summary.attempts).toHaveLength(2);
    // No key reaches the store.
    expect(after.text).not.toContain(KEY);
  });

  it('still compares the flags given explicitly, and refuses a prompt file changed since the start', async () => {
    const { db, runId, prompt } = await startStopped(tmpDir('sg-resume-settings-'));
    const other = await cli(['run', '--resume', runId, '--db', db, '--trials', '3', '-q']);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`run '${runId}' was started with other settings (trials: 2 vs 3); resume it with the same flags`);
    // Given in the --config file counts as given (the file also names the run and its store).
    const config = path.join(path.dirname(db), 'resume.json');
    fs.writeFileSync(config, JSON.stringify({ resume: runId, db, trials: 4 }));
    const fromFile = await cli(['run', '--config', config, '-q']);
    expect(fromFile.code).toBe(2);
    expect(fromFile.err).toContain('(trials: 2 vs 4)');
    const model = await cli(['run', '--resume', runId, '--db', db, '--agent-model', 'another-model', '-q']);
    expect(model.code).toBe(2);
    expect(model.err).toContain(`(agent_model: "${AGENT}" vs "another-model")`);
    // The prompt file the run stored, edited since: refused naming it, nothing run.
    const text = fs.readFileSync(prompt, 'utf8');
    fs.writeFileSync(prompt, `${text}Be brief.\n`);
    const sent = mock.requests.length;
    const changed = await cli(['run', '--resume', runId, '--db', db, '-q']);
    expect(changed.code).toBe(2);
    expect(changed.err).toContain(`run '${runId}' was started with the prompt file ${path.resolve(prompt)}, which has changed since (sha256 `);
    expect(changed.err).toContain('restore its text, or give --prompt-file with the run\'s prompt');
    // Gone: refused naming it.
    fs.rmSync(prompt);
    const gone = await cli(['run', '--resume', runId, '--db', db, '-q']);
    expect(gone.code).toBe(2);
    expect(gone.err).toContain(`run '${runId}' was started with this prompt file, which is gone`);
    expect(mock.requests.length).toBe(sent);
    // Restored: the run completes, the same flags given explicitly as well.
    fs.writeFileSync(prompt, text);
    const same = await cli(['run', '--resume', runId, '--db', db, '--trials', '2', '--agent-model', AGENT, '-q']);
    expect(same.code, same.err).toBe(0);
    expect(stored(db, runId).episodes).toEqual(['T01#0', 'T01#1', 'T02#0', 'T02#1']);
  });

  it('a run on worker threads resumes on as many threads', async () => {
    const db = path.join(tmpDir('sg-resume-settings-'), 'store.db');
    const first = await cli(['run', '--tasks', 'T01', '--trials', '4', '--threads', '2', '-j', '2', '--agent-model', AGENT, '--user-model', USER, '--base-url', mock.url, '--max-cost', '0.001', '--db', db, '-q', '--json']);
    expect(first.code, first.err).toBe(1);
    const runId = JSON.parse(first.out).run_id as string;
    expect(stored(db, runId).episodes.length).toBeLessThan(4);
    const r = await cli(['run', '--resume', runId, '--db', db]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/, -j 2, threads 2; \d finished episodes kept\n/);
    expect(stored(db, runId).episodes).toEqual(['T01#0', 'T01#1', 'T01#2', 'T01#3']);
  }, 60_000);

  it('a shard run resumes its own shard only; another shard, or none, is refused', async () => {
    const db = path.join(tmpDir('sg-resume-settings-'), 'store.db');
    const first = await cli(['run', '--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--shard', '1/2', '--run-id', 'sharded', '--agent-model', AGENT, '--user-model', USER, '--base-url', mock.url, '--max-cost', '0.001', '--db', db, '-q', '--json']);
    expect(first.code, first.err).toBe(1);
    expect(stored(db, 'sharded').episodes).toEqual(['T01#0']);
    // Shard 1/2 of T01,T02 x 2 trials: episodes 0 and 2 of the run order (T01#0, T01#1).
    const r = await cli(['run', '--resume', 'sharded', '--db', db]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(', shard 1/2, ');
    const after = stored(db, 'sharded');
    expect(after.episodes).toEqual(['T01#0', 'T01#1']);
    expect(after.summary.shard).toEqual({ index: 1, count: 2 });
    const other = await cli(['run', '--resume', 'sharded', '--db', db, '--shard', '2/2', '-q']);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`run 'sharded' was started with other settings (shard: {"index":1,"count":2} vs {"index":2,"count":2}); resume it with the same flags`);
    // A run stored without a shard is refused a --shard.
    const { db: plain, runId } = await startStopped(tmpDir('sg-resume-settings-'));
    const sharded = await cli(['run', '--resume', runId, '--db', plain, '--shard', '1/2', '-q']);
    expect(sharded.code).toBe(2);
    expect(sharded.err).toContain('(shard: null vs {"index":1,"count":2})');
    expect(stored(plain, runId).episodes).toHaveLength(1);
  });

  it('a run whose base URL was not stored (a key in its query) is refused without --base-url, never sent to the default endpoint', async () => {
    const dir = tmpDir('sg-resume-settings-');
    const db = path.join(dir, 'store.db');
    const url = `${mock.url}?api-key=gw-query-secret-8181`;
    const first = await cli(['run', '--tasks', 'T01,T02', '-j', '1', '--agent-model', AGENT, '--user-model', USER, '--base-url', url, '--max-cost', '0.001', '--db', db, '-q', '--json']);
    expect(first.code, first.err).toBe(1);
    const runId = JSON.parse(first.out).run_id as string;
    expect(stored(db, runId).summary.base_url).toBeNull();
    const sent = mock.requests.length;
    const alone = await cli(['run', '--resume', runId, '--db', db, '-q']);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain(`run '${runId}' was started at a base URL that is not stored (it held a query, credentials or a key); give it again with --base-url (or SERVICEGYM_BASE_URL)`);
    expect(mock.requests.length).toBe(sent);
    const r = await cli(['run', '--resume', runId, '--db', db, '--base-url', url, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(stored(db, runId).episodes).toEqual(['T01#0', 'T02#0']);
    // Neither the query's key nor the API key is in the store's files.
    const bytes = fs.readdirSync(dir).filter((f) => f.startsWith('store.db')).map((f) => fs.readFileSync(path.join(dir, f)).toString('latin1')).join('');
    expect(bytes).not.toContain('gw-query-secret-8181');
    expect(bytes).not.toContain(KEY);
  });

  it('keeps the --sample, --seed and --limit that chose the stored tasks, and the stored --provider label', async () => {
    const db = path.join(tmpDir('sg-resume-settings-'), 'store.db');
    const first = await cli(['run', '--tasks', 'T01,T02,T03,T15', '--sample', '3', '--seed', '5', '--limit', '2', '-j', '1', '--agent-model', AGENT, '--user-model', USER, '--base-url', mock.url, '--provider', 'team-gateway', '--max-cost', '0.001', '--db', db, '-q', '--json']);
    expect(first.code, first.err).toBe(1);
    const runId = JSON.parse(first.out).run_id as string;
    const before = stored(db, runId).summary;
    expect(before).toMatchObject({ sample: 3, seed: 5, limit: 2, provider: 'team-gateway' });
    const r = await cli(['run', '--resume', runId, '--db', db]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`, base URL ${mock.url}, provider team-gateway, `);
    const after = stored(db, runId);
    expect(after.episodes).toHaveLength(2);
    expect(after.summary).toMatchObject({ task_ids: before.task_ids, sample: 3, seed: 5, limit: 2, provider: 'team-gateway' });
  });

  it('refuses other judge votes than a judged run was started with', async () => {
    const db = path.join(tmpDir('sg-resume-settings-'), 'store.db');
    const first = await cli(['run', '--tasks', 'T01,T02', '-j', '1', '--agent-model', AGENT, '--user-model', USER, '--judge-model', USER, '--judge-votes', '5', '--base-url', mock.url, '--max-cost', '0.001', '--db', db, '-q', '--json']);
    expect(first.code, first.err).toBe(1);
    const runId = JSON.parse(first.out).run_id as string;
    expect(stored(db, runId).summary).toMatchObject({ judge_model: USER, judge_votes: 5 });
    const sent = mock.requests.length;
    const other = await cli(['run', '--resume', runId, '--db', db, '--judge-votes', '3', '-q']);
    expect(other.code).toBe(2);
    expect(other.err).toContain(`run '${runId}' was started with other settings (judge_votes: 5 vs 3); resume it with the same flags`);
    expect(mock.requests.length).toBe(sent);
    const same = await cli(['run', '--resume', runId, '--db', db, '-q']);
    expect(same.code).not.toBe(2);
    expect(stored(db, runId).summary.judge_votes).toBe(5);
  });

  it('a run on the API surface stored with screenshots (as runs did before 2 Dec 2026) resumes', async () => {
    const { db, runId } = await startStopped(tmpDir('sg-resume-settings-'));
    const q = new Database(db);
    const summary = JSON.parse((q.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string }).summary);
    expect(summary.screenshots).toBeNull();
    q.prepare('UPDATE runs SET summary = ? WHERE id = ?').run(JSON.stringify({ ...summary, screenshots: 'tool_result' }), runId);
    q.close();
    const r = await cli(['run', '--resume', runId, '--db', db, '-q']);
    expect(r.code, r.err).toBe(0);
    expect(stored(db, runId).episodes).toEqual(['T01#0', 'T01#1', 'T02#0', 'T02#1']);
  });

  it('a base URL from the environment is used, not the stored one', async () => {
    const { db, runId } = await startStopped(tmpDir('sg-resume-settings-'));
    const moved = await startMockServer({ handler: reply, cost: 0.002 });
    try {
      process.env.SERVICEGYM_BASE_URL = moved.url;
      const sent = mock.requests.length;
      const r = await cli(['run', '--resume', runId, '--db', db]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).not.toContain('base URL');
      expect(mock.requests.length).toBe(sent);
      expect(moved.requests.length).toBeGreaterThan(0);
      expect(stored(db, runId).summary.base_url).toBe(moved.url);
    } finally {
      await moved.close();
    }
  });

  it.skipIf(!HAS_SHARED)(needsShared('a run of a data folder given relative to where it started resumes from another folder'), async () => {
    const dir = tmpDir('sg-resume-settings-');
    const db = path.join(dir, 'store.db');
    const cwd = process.cwd();
    // The folder as the run sees it once it has moved there (symbolic links resolved).
    const tau2 = fs.realpathSync(path.join(SHARED, 'peers/tau2'));
    try {
      process.chdir(tau2);
      const first = await cli(['run', '--data-dir', 'airline', '--tasks', '0,1', '-j', '1', '--agent-model', AGENT, '--user-model', USER, '--base-url', mock.url, '--max-cost', '0.001', '--db', db, '-q', '--json']);
      expect(first.code, first.err).toBe(1);
      const runId = JSON.parse(first.out).run_id as string;
      expect(stored(db, runId).summary).toMatchObject({ data: 'airline', data_dir: path.join(tau2, 'airline'), mode: 'tau2' });
      process.chdir(dir);
      const r = await cli(['run', '--resume', runId, '--db', db]);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toContain(`data dir ${path.join(tau2, 'airline')}, `);
      expect(stored(db, runId).episodes).toEqual(['0#0', '1#0']);
    } finally {
      process.chdir(cwd);
    }
  });

  it('an unknown run id or another --db is a clear error, and makes no store', async () => {
    const dir = tmpDir('sg-resume-settings-');
    const { db } = await startStopped(dir);
    const unknown = await cli(['run', '--resume', 'no-such-run', '--db', db, '-q']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no run 'no-such-run' in the store");
    const elsewhere = path.join(dir, 'other.db');
    const wrongDb = await cli(['run', '--resume', 'no-such-run', '--db', elsewhere, '-q']);
    expect(wrongDb.code).toBe(2);
    expect(wrongDb.err).toContain("no run 'no-such-run' in the store: there is no store at this path");
    expect(fs.existsSync(elsewhere)).toBe(false);
  });

  it('a run stored before the base URL and prompt path were stored needs them given, as before', async () => {
    const { db, runId, prompt } = await startStopped(tmpDir('sg-resume-settings-'));
    // As a run stored by an earlier version: no base_url, data_dir, prompt_path, concurrency, threads, judge_votes or rate_limit.
    const q = new Database(db);
    const summary = JSON.parse((q.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string }).summary);
    for (const k of ['base_url', 'data_dir', 'prompt_path', 'concurrency', 'threads', 'judge_votes', 'rate_limit']) delete summary[k];
    q.prepare('UPDATE runs SET summary = ? WHERE id = ?').run(JSON.stringify(summary), runId);
    q.close();
    // No prompt file: the stored prompt's hash differs from none, as before.
    const noPrompt = await cli(['run', '--resume', runId, '--db', db, '--base-url', mock.url, '-q']);
    expect(noPrompt.code).toBe(2);
    expect(noPrompt.err).toMatch(/was started with other settings \(prompt_sha256: "[0-9a-f]{64}" vs null\)/);
    // No base URL and no key: the default endpoint, which needs a key (nothing is sent anywhere).
    delete process.env.SERVICEGYM_API_KEY;
    const noUrl = await cli(['run', '--resume', runId, '--db', db, '--prompt-file', prompt, '-q']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.err).toContain('no API key');
    process.env.SERVICEGYM_API_KEY = KEY;
    // Given both, the rest (models, tasks, trials, temperature, step limit …) still comes from the store.
    const r = await cli(['run', '--resume', runId, '--db', db, '--base-url', mock.url, '--prompt-file', prompt, '-q', '--json']);
    expect(r.code, r.err).toBe(0);
    expect(stored(db, runId).episodes).toEqual(['T01#0', 'T01#1', 'T02#0', 'T02#1']);
    expect(new Set(mock.requests.map((x) => x.body.model))).toEqual(new Set([AGENT, USER]));
  });
});

describe('storableBaseUrl', () => {
  it('stores a plain http(s) base URL, never one with credentials, a query, a fragment or a key in it', () => {
    expect(storableBaseUrl('http://127.0.0.1:8000/v1', [])).toBe('http://127.0.0.1:8000/v1');
    expect(storableBaseUrl('https://gw.example/v1?api-key=abc', [])).toBeNull();
    expect(storableBaseUrl('https://gw.example/v1#x', [])).toBeNull();
    expect(storableBaseUrl('https://u:p@gw.example/v1', [])).toBeNull();
    expect(storableBaseUrl('https://gw.example/sk-secret-123456/v1', ['sk-secret-123456'])).toBeNull();
    expect(storableBaseUrl('not a url', [])).toBeNull();
  });
});
