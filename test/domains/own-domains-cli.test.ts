/**
 * servicegym's own back-ends (banking, hotel, insurance, utility) through the commands a user runs:
 * `run` against the local mock model server with the LLM agent and the LLM user simulator (the
 * mock agent plays the seed task's gold actions but leaves out the last write), the stored episode
 * read back through the viewer's API with its DB diff against the gold state, and `optimize
 * --dry-run` splitting each domain's suite into feedback, gate and sealed cases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { createViewerApp } from '../../src/viewer/server.js';
import type { EpisodeDetail } from '../../src/viewer/types.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { last, startTwoRoleMock, type TwoRoleMock } from '../support/two-role-mock.js';

const SEED_TASKS: [domain: string, task: string][] = [['banking', 'T08'], ['hotel', 'T09'], ['insurance', 'T10'], ['utility', 'T19']];
const KEY = 'test-fake-key-own-domains-4242';

let mock: TwoRoleMock;
let saved: string | undefined;
let uiDir: string;
/** The domain whose episode the mock agent is playing (tests in this file run one at a time). */
let current = 'banking';
/** The gold tool calls the mock agent plays, per domain (the last write left out). */
const plays = new Map<string, { name: string; arguments: Record<string, unknown> }[]>();

beforeAll(async () => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = KEY;
  for (const [domain, id] of SEED_TASKS) {
    const task = loadDomain(domain).tasks.find((t) => t.id === id)!;
    const gold = (task.evaluation_criteria?.actions ?? []).map((a) => ({ name: a.name, arguments: a.arguments }));
    plays.set(domain, gold.slice(0, -1));
  }
  mock = await startTwoRoleMock({
    agent: (messages) => {
      const script = plays.get(current)!;
      const done = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
      if (done < script.length) return { tool_calls: [script[done]] };
      return { content: 'That is all done for you today.' };
    },
    user: (messages) => (messages.length <= 2 ? { content: 'Hello, I need help with my account; here are my details.' } : { content: 'Thank you. ###STOP###' }),
  });
  uiDir = tmpDir('sg-own-ui-');
  fs.mkdirSync(path.join(uiDir, 'assets'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>view</title>');
}, 60_000);

afterAll(async () => {
  await mock?.close();
  if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
  else process.env.SERVICEGYM_API_KEY = saved;
});

describe.each(SEED_TASKS)('%s seed task %s', (domain, taskId) => {
  it('runs under `run` with the LLM agent and user simulator, is stored, and shows in the viewer with its DB diff', async () => {
    const db = path.join(tmpDir(`sg-own-${domain}-`), 'store.db');
    current = domain;
    const r = await runCli(['run', '--domain', domain, '--tasks', taskId, '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.out);
    const ep = out.episodes[0];
    expect(ep.task_id).toBe(taskId);
    const res = await createViewerApp({ dbPath: db, uiDir, busyTimeoutMs: 200 }).request(`/api/runs/${encodeURIComponent(out.run_id)}/episodes/${encodeURIComponent(`${taskId}#0`)}`);
    expect(res.status).toBe(200);
    const detail = (await res.json()) as EpisodeDetail;
    expect(detail.db_diff.length).toBeGreaterThan(0);
    expect(detail.rubric.some((item) => item.verdict === 'fail')).toBe(true);
    expect(fs.readFileSync(db).includes(KEY)).toBe(false);
  });

  it('splits its suite under optimize --dry-run', async () => {
    const dir = tmpDir(`sg-own-opt-${domain}-`);
    const tasks = loadDomain(domain).tasks.map((t) => t.id);
    const file = path.join(dir, 'optimize.json');
    fs.writeFileSync(file, JSON.stringify({
      name: `${domain}-suite`, seed: 7, suite: { kind: 'tasks', domain, tasks, boundary: [taskId] },
      models: { agent: { model: 'mock-agent' }, user: { model: 'mock-user' }, proposer: { model: 'mock-agent' }, base_url_env: 'SERVICEGYM_BASE_URL' },
      output_dir: 'out', store: 'db/servicegym.db',
    }));
    const r = await runCli(['optimize', file, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const split = JSON.parse(r.out).splits as Record<'feedback' | 'gate' | 'sealed', string[]>;
    expect([...split.feedback, ...split.gate, ...split.sealed].sort()).toEqual([...tasks].sort());
    for (const part of ['feedback', 'gate', 'sealed'] as const) expect(split[part].length).toBeGreaterThan(0);
  });
});

describe('validate on every own dataset', () => {
  it.each([['banking', 19], ['hotel', 13], ['insurance', 13], ['utility', 13], ['gds', 10], ['telecom', 14]])('%s: the oracle scores reward 1 and partial 100%% on all %i tasks', async (domain, n) => {
    const r = await runCli(['validate', '--domain', domain, '--no-store', '-q']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(new RegExp(`^validate: ${n}/${n} tasks score reward 1 and partial 100%`, 'm'));
  });
});
