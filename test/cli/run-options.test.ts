/**
 * `servicegym run`'s options for pipelines and habits (issue 18, items 3, 5, 6, 9, 10): the config
 * file, task globs, --limit, --sample/--seed, --max-steps, --prompt-file, --max-cost, --name and
 * --tag, -o results files, --fail-under, --json in snake_case, usage by role, colour and NO_COLOR,
 * why pass^k stops after infrastructure errors, --version, and no key for a loopback endpoint —
 * against the local mock model server.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedModelEnv } from '../support/model-env.js';
import { startTwoRoleMock, last, type Side, type TwoRoleMock } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli as cli } from '../support/cli.js';
import { loadDomain } from '../../src/domains/index.js';
import { selectRunTasks } from '../../src/cli/run-options.js';
import { globRegExp } from '../../src/run/select-tasks.js';
import { BadInputError } from '../../src/spec/errors.js';
import { colourEnabled } from '../../src/cli/colour.js';
import { isLoopbackUrl, resolveLiveModelConfig } from '../../src/models/config.js';
import { RunStore } from '../../src/store/store.js';
import { listRunItems } from '../../src/viewer/queries.js';

const KEY = 'test-fake-key-run-options-4242';

/** T01's policy-following agent (T01 passes; on other tasks it does the wrong thing). */
const agent: Side = (messages) => {
  const calls = messages.filter((m: any) => m.role === 'assistant' && m.tool_calls).length;
  if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
  if (calls === 1) return { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
  return { content: 'Reservation 8KQ2ZD is basic economy, which cannot be changed, so it stays on 2026-10-20.' };
};
const user: Side = (messages) => (messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'I see, thanks. ###STOP###' });

let mock: TwoRoleMock;
isolatedModelEnv({ SERVICEGYM_API_KEY: KEY }, ['OPENAI_API_KEY', 'NO_COLOR', 'FORCE_COLOR']);
beforeEach(async () => {
  mock = await startTwoRoleMock({ agent, user }, { cost: 0.002 });
});
afterEach(async () => {
  await mock.close();
});

const base = () => ['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q'];
const dbIn = (dir: string) => path.join(dir, 'store.db');
const runRow = (db: string) => {
  const q = new Database(db, { readonly: true });
  const row = q.prepare('SELECT name, summary FROM runs').get() as { name: string; summary: string };
  q.close();
  return { name: row.name, summary: JSON.parse(row.summary) };
};

describe('task selection', () => {
  const loaded = loadDomain('airline');
  it('globs, plain ids, --sample with --seed (dataset order, deterministic) and --limit', () => {
    expect(globRegExp('T0?').test('T01')).toBe(true);
    expect(globRegExp('T[0-1]*').test('T15')).toBe(true);
    expect(globRegExp('T[!0]*').test('T01')).toBe(false);
    expect(() => globRegExp('T[z-a]*')).toThrow(BadInputError);
    expect(() => selectRunTasks(loaded, 'T[9-0]*', { limit: null, sample: null, seed: 0 })).toThrow(/--tasks pattern 'T\[9-0\]\*' is not a valid glob/);
    const ids = (t: { id: string }[]) => t.map((x) => x.id);
    expect(ids(selectRunTasks(loaded, 'T1*', { limit: null, sample: null, seed: 0 }))).toEqual(['T15', 'T17']);
    expect(ids(selectRunTasks(loaded, 'T17,T01', { limit: null, sample: null, seed: 0 }))).toEqual(['T17', 'T01']);
    expect(ids(selectRunTasks(loaded, undefined, { limit: 2, sample: null, seed: 0 }))).toEqual(['T01', 'T02']);
    const a = ids(selectRunTasks(loaded, undefined, { limit: null, sample: 3, seed: 7 }));
    expect(a).toHaveLength(3);
    expect(ids(selectRunTasks(loaded, undefined, { limit: null, sample: 3, seed: 7 }))).toEqual(a);
    expect([...a].sort()).toEqual(a); // kept in dataset order (T01 < T02 < … here)
    expect(() => selectRunTasks(loaded, 'X*', { limit: null, sample: null, seed: 0 })).toThrow(/pattern 'X\*' matches no task/);
    expect(() => selectRunTasks(loaded, undefined, { limit: null, sample: 9, seed: 0 })).toThrow(/--sample 9 is more than the 5 selected tasks/);
  });
});

describe('run flags', () => {
  it('--name and --tag are stored with the run config; -o writes JSONL, CSV and JUnit; --json keys are snake_case', async () => {
    const dir = tmpDir('sg-runopt-');
    const args = [...base(), '--tasks', 'T0[12]', '--db', dbIn(dir), '--name', 'baseline v1', '--tag', 'nightly', '--tag', 'gpt-x', '--json'];
    const r = await cli([...args, '-o', path.join(dir, 'out', 'results.jsonl')]);
    expect(r.err).toBe('');
    const j = JSON.parse(r.out);
    expect(j.name).toBe('baseline v1');
    expect(j.tags).toEqual(['nightly', 'gpt-x']);
    for (const k of Object.keys(j.summary)) expect(k).toMatch(/^[a-z0-9_]+$/);
    expect(j.summary.pass_hat_k[0].k).toBe(1);
    expect(j.summary.reward_mean).toBe(0.5);
    const row = runRow(dbIn(dir));
    expect(row.name).toBe('baseline v1');
    expect(row.summary.name).toBe('baseline v1');
    expect(row.summary.tags).toEqual(['nightly', 'gpt-x']);
    const lines = fs.readFileSync(path.join(dir, 'out', 'results.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.task_id, l.trial, l.status, l.reward])).toEqual([['T01', 0, 'passed', 1], ['T02', 0, 'failed', 0]]);
    expect(lines[1].failing_checks.length).toBeGreaterThan(0);
    // CSV: header + two rows, RFC 4180.
    const dir2 = tmpDir('sg-runopt-csv-');
    expect((await cli([...base(), '--tasks', 'T01,T02', '--db', dbIn(dir2), '-o', path.join(dir2, 'r.csv')])).code).toBe(0);
    const csv = fs.readFileSync(path.join(dir2, 'r.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe('task_id,trial,persona,termination,reward,partial,status,failing_checks,not_judged_checks,error,seconds');
    expect(csv[1]).toMatch(/^T01,0,,user_stop,1,1,passed,,[a-z0-9_;]*,,\d+(\.\d{1,3})?$/);
    expect(csv[2]).toMatch(/^T02,0,,user_stop,0,/);
    // A bad extension is refused before anything runs.
    const bad = await cli([...base(), '--tasks', 'T01', '--db', dbIn(tmpDir()), '-o', 'results.txt']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('expected a file ending in .jsonl, .csv or .xml');
  });

  it('--fail-under: exit 1 below the threshold, 0 at or above it; a bad value is exit 2', async () => {
    const dir = tmpDir('sg-failunder-');
    const low = await cli([...base(), '--tasks', 'T01,T02', '--db', dbIn(dir), '--fail-under', '0.75']);
    expect(low.code).toBe(1);
    expect(low.err).toContain('--fail-under 0.75: reward mean 0.500 is below it');
    expect((await cli([...base(), '--tasks', 'T01,T02', '--db', dbIn(dir), '--fail-under', '0.5'])).code).toBe(0);
    expect((await cli([...base(), '--tasks', 'T01', '--db', dbIn(dir), '--fail-under', '1.5'])).code).toBe(2);
  });

  it('prints usage by role (tokens, latency, provider-reported cost) and colours failures unless NO_COLOR', async () => {
    const dir = tmpDir('sg-usage-');
    process.env.FORCE_COLOR = '1';
    const r = await cli([...base(), '--tasks', 'T01,T02', '--db', dbIn(dir)]);
    expect(r.out).toMatch(/^role\s+calls\s+prompt tokens\s+completion tokens\s+total tokens\s+latency s\s+s\/call\s+cost \(provider\)$/m);
    expect(r.out).toMatch(/^task_agent\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\.\d\s+\d+\.\d\d\s+\$0\.\d{4}$/m);
    expect(r.out).toMatch(/^user_simulator\s+\d+/m);
    expect(r.out).toMatch(/^total\s+\d+/m);
    expect(r.out).toContain('\u001b[31m0.000\u001b[39m'); // T02's reward in red
    process.env.NO_COLOR = '1';
    const plain = await cli([...base(), '--tasks', 'T01,T02', '--db', dbIn(dir)]);
    expect(plain.out).not.toContain('\u001b[');
    expect(colourEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colourEnabled({ isTTY: true }, {})).toBe(true);
    expect(colourEnabled({ isTTY: false }, {})).toBe(false);
  });

  it('the progress bar on stderr shows done/total, ETA, the running pass rate and the provider-reported cost', async () => {
    const r = await cli(['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--tasks', 'T01,T02', '-j', '1', '--db', dbIn(tmpDir())]);
    expect(r.err).toMatch(/servicegym: \S+ 2\/2 episodes \| ETA \S+ \| pass 1\/2 \(50\.0%\) \| cost \$0\.\d{4} \| T0[12]#0 user_stop/);
  });

  it("a resumed run's progress bar counts the whole run: it starts at the kept episodes and ends at the run's total", async () => {
    const db = dbIn(tmpDir('sg-resume-bar-'));
    const args = ['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--db', db];
    const first = await cli([...args, '-q', '--json']);
    const runId = JSON.parse(first.out).run_id;
    // As if the run had died after its first episode was stored.
    const sql = new Database(db);
    sql.prepare("DELETE FROM episodes WHERE run_id = ? AND episode_id <> 'T01#0'").run(runId);
    sql.close();
    const r = await cli([...args, '--resume', runId]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/episodes: 4 \(/);
    const shown = [...r.err.matchAll(/ (\d+)\/(\d+) episodes \|/g)].map((m) => `${m[1]}/${m[2]}`);
    expect(shown[0]).toBe('1/4');
    expect(shown[shown.length - 1]).toBe('4/4');
    expect(shown.every((x) => x.endsWith('/4'))).toBe(true);
    // the pass rate covers the kept episode too: scored over 1 at the start, over all 4 at the end
    const passes = [...r.err.matchAll(/ episodes \| ETA [^|]*\| pass (\d+)\/(\d+)/g)].map((m) => Number(m[2]));
    expect(passes[0]).toBe(1);
    expect(passes[passes.length - 1]).toBe(4);
  });

  it('--max-steps ends episodes at the limit; --prompt-file sets the agent prompt with {{policy}} filled in', async () => {
    const dir = tmpDir('sg-steps-');
    const prompt = path.join(dir, 'agent.txt');
    fs.writeFileSync(prompt, 'You are a careful agent.\n\nPOLICY:\n{{policy}}\n');
    const r = await cli([...base(), '--tasks', 'T01', '--db', dbIn(dir), '--max-steps', '2', '--prompt-file', prompt, '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).episodes[0].termination).toBe('max_steps');
    const system = mock.bodies('agent')[0].messages[0];
    expect(system.role).toBe('system');
    expect(system.content.startsWith('You are a careful agent.\n\nPOLICY:\n')).toBe(true);
    expect(system.content).toContain(loadDomain('airline').policy.slice(0, 200));
    const row = runRow(dbIn(dir));
    expect(row.summary.max_steps).toBe(2);
    expect(row.summary.prompt_file).toBe('agent.txt');
    expect(row.summary.prompt_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('--max-cost stops starting episodes once the provider-reported cost reaches it, and says how to continue', async () => {
    const dir = tmpDir('sg-cost-');
    const r = await cli([...base(), '--tasks', 'T01', '--trials', '4', '-j', '1', '--db', dbIn(dir), '--max-cost', '0.001', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out).episodes).toHaveLength(1);
    expect(JSON.parse(r.out).summary.halted).toEqual({ reason: expect.stringMatching(/^--max-cost \$0\.001 reached/), not_started: 3 });
    expect(r.err).toMatch(/the run stopped: --max-cost \$0\.001 reached \(provider-reported cost \$0\.\d{4}\); 3 episode\(s\) not started; continue with --resume run-airline-/);
  });

  it('--max-cost against a provider that reports no cost says the cap had no effect', async () => {
    const free = await startTwoRoleMock({ agent, user });
    try {
      const dir = tmpDir('sg-nocost-');
      const r = await cli(['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', free.server.url, '-q', '--tasks', 'T01', '--trials', '2', '--db', dbIn(dir), '--max-cost', '1']);
      expect(r.code).toBe(0);
      expect(r.err).toContain('servicegym: --max-cost $1 had no effect: the provider reported no cost for any call of this run (the cap counts provider-reported costs only)');
      const capped = await cli([...base(), '--tasks', 'T01', '--db', dbIn(tmpDir('sg-cost2-')), '--max-cost', '5']);
      expect(capped.code).toBe(0);
      expect(capped.err).not.toContain('had no effect');
    } finally {
      await free.close();
    }
  });

  it('says why pass^k stops after infrastructure errors and offers --resume', async () => {
    const dir = tmpDir('sg-infra-');
    let first = true;
    await mock.close();
    mock = await startTwoRoleMock({ agent: (m, b) => (first ? ((first = false), { status: 500, error: 'down' }) : agent(m, b)), user });
    const r = await cli(['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--tasks', 'T01', '--trials', '2', '-j', '1', '--max-retries', '0', '--db', dbIn(dir)]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('pass^k stops at k=1 of 2: task T01 has 1 scored episode(s); 1 infrastructure error(s) are left out of pass^k');
    expect(r.err).toMatch(/^open it: servicegym view --db \S+ {3}\(then #\/runs\/run-airline-\S+\)$/m);
    expect(r.err).toMatch(/^continue it: servicegym run --resume run-airline-\S+ --db \S+ \(the run's stored settings;/m);
  });

  it('quotes a store path and run id for the shell in the end hint, and URI-encodes the viewer route', async () => {
    const db = path.join(tmpDir('sg-quoted-'), 'my runs', 'store.db');
    let first = true;
    await mock.close();
    mock = await startTwoRoleMock({ agent: (m, b) => (first ? ((first = false), { status: 500, error: 'down' }) : agent(m, b)), user });
    const r = await cli(['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--tasks', 'T01', '--trials', '2', '-j', '1', '--max-retries', '0', '--db', db, '--run-id', "it's a/run"]);
    expect(r.code).toBe(1);
    expect(r.err).toContain("servicegym: run it's a/run (resume a killed run with --resume 'it'\\''s a/run')\n");
    expect(r.err).toContain(`\nopen it: servicegym view --db '${db}'   (then #/runs/it's%20a%2Frun)\n`);
    expect(r.err).toContain(`\ncontinue it: servicegym run --resume 'it'\\''s a/run' --db '${db}' (the run's stored settings;`);
  });
});

describe('persona runs', () => {
  it('pass^k across personas is the same in the CLI report and the viewer', async () => {
    const dir = tmpDir('sg-persona-');
    const r = await cli(['run', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '-q', '--tasks', 'T01,T03', '--personas', 'impatient,vague,contradictory', '-j', '1', '--db', dbIn(dir), '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.out).summary;
    const cliCurve = summary.pass_hat_k_interval;
    expect(cliCurve.map((p: any) => p.k)).toEqual([1, 2, 3]);
    expect(summary.pass_hat_k.map((p: any) => p.value)).toEqual(cliCurve.map((p: any) => p.value));
    // The viewer used to split a persona run's tasks by persona (one trial each: pass^1 only).
    const store = RunStore.open(dbIn(dir), { readonly: true });
    try {
      const [item] = listRunItems(store);
      expect(item.labels.sort()).toEqual(['contradictory', 'impatient', 'vague']);
      expect(item.pass_hat_k).toEqual(cliCurve);
    } finally {
      store.close();
    }
  });
});

describe('config file', () => {
  it('takes the flags from a JSON file (paths relative to it); a flag on the command line wins', async () => {
    const dir = tmpDir('sg-config-');
    const cfg = path.join(dir, 'run.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'mock-agent', 'user-model': 'mock-user', 'base-url': mock.server.url, tasks: ['T01', 'T02'], trials: 2, db: 'store.db', tag: ['ci'], name: 'from file', quiet: true, json: true, output: 'res.xml' }));
    const r = await cli(['run', '--config', cfg, '--tasks', 'T01']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out);
    expect(j.episodes.map((e: any) => `${e.task_id}#${e.trial}`)).toEqual(['T01#0', 'T01#1']);
    expect(j.name).toBe('from file');
    expect(j.tags).toEqual(['ci']);
    expect(fs.existsSync(path.join(dir, 'store.db'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'res.xml'), 'utf8')).toContain('<testsuite name="run-airline-');
  });

  it('the shipped example examples/run-airline.json runs (models and paths overridden on the command line)', async () => {
    const dir = tmpDir('sg-config-example-');
    const r = await cli(['run', '--config', path.join(__dirname, '../../examples/run-airline.json'), '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--trials', '1', '--tasks', 'T01', '--db', dbIn(dir), '-o', path.join(dir, 'r.xml'), '-q', '--json']);
    const j = JSON.parse(r.out);
    expect([j.name, j.tags]).toEqual(['airline nightly', ['nightly', 'seed-tasks']]);
    expect(r.code).toBe(0); // reward mean 1 >= the example's fail-under 0.8
    expect(runRow(dbIn(dir)).summary).toMatchObject({ max_steps: 60, max_cost_usd: 5 });
    expect(fs.existsSync(path.join(dir, 'r.xml'))).toBe(true);
  });

  it('names the file and the JSON path of an unknown key or a wrong type (exit 2); models are required', async () => {
    const dir = tmpDir('sg-config-bad-');
    const cfg = path.join(dir, 'run.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'b', trails: 2 }));
    const r = await cli(['run', '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(cfg);
    expect(r.err).toContain('$.trails');
    expect(r.err).toContain("unknown key 'trails'");
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'b', strict: 'yes' }));
    const t = await cli(['run', '--config', cfg]);
    expect(t.code).toBe(2);
    expect(t.err).toContain('$.strict');
    expect(t.err).toContain('expected true or false, got a string');
    expect(t.err).not.toContain('yes');
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'b', 'base-url': { key: 'sk-pasted-0123456789' } }));
    const o = await cli(['run', '--config', cfg]);
    expect(o.code).toBe(2);
    expect(o.err).toContain('$.base-url');
    expect(o.err).toContain('got an object');
    expect(o.err).not.toContain('sk-pasted');
    const m = await cli(['run', '--user-model', 'b']);
    expect(m.code).toBe(2);
    expect(m.err).toContain('--agent-model is required');
  });

  it('names every missing model at once, on the command line and with a config file (after the file\'s other problems)', async () => {
    const none = await cli(['run', '--tasks', 'T01']);
    expect(none.code).toBe(2);
    expect(none.err).toBe('servicegym: error: --agent-model and --user-model are required (flags, or "agent-model" and "user-model" in the --config file)\n');
    const agentOnly = await cli(['run', '--agent-model', 'a']);
    expect(agentOnly.code).toBe(2);
    expect(agentOnly.err).toBe('servicegym: error: --user-model is required (a flag, or "user-model" in the --config file)\n');
    const dir = tmpDir('sg-config-models-');
    const cfg = path.join(dir, 'run.json');
    fs.writeFileSync(cfg, JSON.stringify({ trials: 2, db: dbIn(dir) }));
    const file = await cli(['run', '--config', cfg]);
    expect(file.code).toBe(2);
    expect(file.err).toBe(`servicegym: error: ${cfg}: --agent-model and --user-model are required (flags, or "agent-model" and "user-model" in the --config file)\n`);
    // One model in the file, the other wrong there: each named once, all problems together, nothing stored.
    fs.writeFileSync(cfg, JSON.stringify({ 'user-model': '', trials: 0, db: dbIn(dir) }));
    const both = await cli(['run', '--config', cfg]);
    expect(both.code).toBe(2);
    expect(both.err).toBe(
      `servicegym: error: ${cfg}: 3 problems in the config file:\n` +
        `  ${cfg} at $.user-model: expected a non-empty string or a number, got an empty string\n` +
        `  ${cfg} at $.trials: --trials must be a whole number from 1 to 10000, got '0'\n` +
        `  ${cfg}: --agent-model is required (a flag, or "agent-model" in the --config file)\n`,
    );
    expect(fs.existsSync(dbIn(dir))).toBe(false);
  });

  it('reports every bad key and wrong type of the file at once, one line each with file and JSON path; a task id the dataset lacks names $.tasks', async () => {
    const dir = tmpDir('sg-config-bad-all-');
    const cfg = path.join(dir, 'run.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'b', trails: 2, strict: 'yes', colour: true, db: dbIn(dir) }));
    const r = await cli(['run', '--config', cfg]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${cfg}: 3 problems in the config file:`);
    expect(r.err).toContain(`\n  ${cfg} at $.trails: unknown key 'trails'; expected one of:`);
    expect(r.err).toContain(`\n  ${cfg} at $.strict: expected true or false, got a string`);
    expect(r.err).toContain(`\n  ${cfg} at $.colour: unknown key 'colour'`);
    expect(fs.existsSync(dbIn(dir))).toBe(false);
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'b', tasks: 5, db: dbIn(dir) }));
    const t = await cli(['run', '--config', cfg]);
    expect(t.code).toBe(2);
    expect(t.err).toContain(`${cfg} at $.tasks: --tasks: unknown task id(s): 5`);
    expect(fs.existsSync(dbIn(dir))).toBe(false);
  });
});

describe('config file: every option of run is a key', () => {
  it('takes surface, screenshots, run-id and shard from the file, then resume; its values are checked like the flags', async () => {
    const dir = tmpDir('sg-config-keys-');
    const cfg = path.join(dir, 'run.json');
    const common = { 'agent-model': 'mock-agent', 'user-model': 'mock-user', 'base-url': mock.server.url, tasks: 'T01', db: 'store.db', quiet: true };
    fs.writeFileSync(cfg, JSON.stringify({ ...common, surface: 'api', screenshots: 'user_message', 'run-id': 'from-config', shard: '1/1', json: true }));
    const r = await cli(['run', '--config', cfg]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).run_id).toBe('from-config');
    // The API surface hands the agent no images, so the run records no image delivery (compare then shows none).
    expect(runRow(path.join(dir, 'store.db')).summary).toMatchObject({ surface: 'api', screenshots: null, shard: { index: 1, count: 1 } });
    // resume from the file: nothing left to run, the stored episode is kept.
    fs.writeFileSync(cfg, JSON.stringify({ ...common, resume: 'from-config', json: true }));
    const again = await cli(['run', '--config', cfg]);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.out).episodes).toMatchObject([{ task_id: 'T01', kept: true }]);
    // A flag on the command line wins over the file (the file's value would be refused).
    fs.writeFileSync(cfg, JSON.stringify({ ...common, screenshots: 'nowhere' }));
    expect((await cli(['run', '--config', cfg, '--screenshots', 'tool_result', '--run-id', 'cli-wins', '--json'])).code).toBe(0);
    const st = RunStore.open(path.join(dir, 'store.db'), { readonly: true });
    try {
      expect(st.getRun('cli-wins')!.summary).toMatchObject({ surface: 'api', screenshots: null });
    } finally {
      st.close();
    }
    // Values the command refuses are located in the file: file, JSON path, what was expected.
    const bad = async (extra: Record<string, unknown>) => {
      fs.writeFileSync(cfg, JSON.stringify({ ...common, ...extra }));
      const res = await cli(['run', '--config', cfg]);
      expect(res.code).toBe(2);
      return res.err;
    };
    expect(await bad({ screenshots: 'nowhere' })).toBe(`servicegym: error: ${cfg} at $.screenshots: --screenshots must be tool_result or user_message, got 'nowhere'\n`);
    expect(await bad({ surface: 'fax' })).toContain(`${cfg} at $.surface: unknown surface 'fax' (known: `);
    expect(await bad({ 'surface-option': ['format'] })).toContain(`${cfg} at $.surface-option: --surface-option must be key=value, got 'format'`);
    expect(await bad({ shard: '2/4' })).toContain(`${cfg} at $.shard: --shard needs --run-id NAME`);
    expect(await bad({ shard: '5/4', 'run-id': 'x' })).toContain(`${cfg} at $.shard: --shard must be i/N with 1 <= i <= N`);
    expect(await bad({ queue: 'http://127.0.0.1:6379' })).toContain(`${cfg} at $.queue: `);
    expect(await bad({ trials: 0 })).toContain(`${cfg} at $.trials: --trials must be a whole number from 1 to`);
    expect(await bad({ resume: 'no-such-run' })).toContain("no run 'no-such-run' in the store");
    expect(await bad({ 'surface-option': [] })).toContain(`${cfg} at $.surface-option: expected a non-empty list, got an empty list`);
    expect(await bad({ 'run-id': true })).toContain(`${cfg} at $.run-id: expected a non-empty string or a number, got a boolean`);
    expect(await bad({ config: 'other.json' })).toContain("unknown key 'config' (a config file cannot name another one)");
  });

  it('accepts exactly the options run --help lists (besides --config)', async () => {
    const help = (await cli(['run', '--help'])).out;
    const flags = [...help.matchAll(/--([a-z][a-z-]+)/g)].map((m) => m[1]);
    const dir = tmpDir('sg-config-all-');
    const cfg = path.join(dir, 'run.json');
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'b', nonsense: 1 }));
    const err = (await cli(['run', '--config', cfg])).err;
    const listed = err.slice(err.indexOf('expected one of: ') + 'expected one of: '.length).trim().split(', ');
    expect(new Set(listed)).toEqual(new Set(flags.filter((f) => f !== 'config' && f !== 'help')));
    for (const k of ['surface', 'surface-option', 'screenshots', 'run-id', 'resume', 'queue', 'queue-name', 'rate-limit', 'shard']) expect(listed).toContain(k);
  });
});

describe('compare: a run against a validate of the same dataset', () => {
  it('both record the dataset, so compare needs no --force; an old validate run without it is named', async () => {
    const dir = tmpDir('sg-compare-run-validate-');
    const db = dbIn(dir);
    const r = await cli([...base(), '--tasks', 'T01', '--db', db, '--run-id', 'llm-T01', '--json']);
    expect(r.code).toBe(0);
    const v = await cli(['validate', '--tasks', 'T01', '--db', db, '-q', '--json']);
    expect(v.code).toBe(0);
    const validateId = JSON.parse(v.out).run_id;
    const store = RunStore.open(db);
    try {
      expect(store.getRun(validateId)!.summary).toMatchObject({ data: 'builtin', mode: 'servicegym', task_ids: 'T01', surface: 'api', strict: false, agent_model: 'oracle' });
      expect(store.getRun('llm-T01')!.summary).toMatchObject({ data: 'builtin', mode: 'servicegym' });
    } finally {
      store.close();
    }
    const c = await cli(['compare', 'llm-T01', validateId, '--db', db]);
    expect(c.err).toBe('');
    expect(c.code).toBe(0);
    expect(c.out).toContain('task sets: the same 1 task\n');
    // A validate run stored by an earlier version (no data or mode in its summary) still loads: compare names it, --force compares.
    const w = RunStore.open(db);
    try {
      const old = w.getRun(validateId)!;
      const { data: _d, mode: _m, ...summary } = old.summary as Record<string, unknown>;
      w.saveRun({ ...old, id: validateId, summary });
    } finally {
      w.close();
    }
    const refused = await cli(['compare', 'llm-T01', validateId, '--db', db]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`run ${validateId} does not record its dataset (stored by an earlier servicegym; run it again to record it)`);
    expect((await cli(['compare', 'llm-T01', validateId, '--db', db, '--force'])).code).toBe(0);
    const reader = RunStore.open(db, { readonly: true });
    try {
      expect(listRunItems(reader).map((x) => x.id).sort()).toEqual(['llm-T01', validateId].sort());
    } finally {
      reader.close();
    }
  });
});

describe('CLI habits', () => {
  it('--version prints the package version', async () => {
    const r = await cli(['--version']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe(JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')).version);
  });

  it('a loopback endpoint needs no key and gets no Authorization header; another host still refuses', async () => {
    delete process.env.SERVICEGYM_API_KEY;
    delete process.env.OPENAI_API_KEY;
    const r = await cli([...base(), '--tasks', 'T01', '--db', dbIn(tmpDir())]);
    expect(r.code).toBe(0);
    expect(mock.server.requests[0].headers.authorization).toBeUndefined();
    expect(isLoopbackUrl('http://localhost:11434/v1')).toBe(true);
    expect(isLoopbackUrl('http://127.0.0.2:8000/v1')).toBe(true);
    expect(isLoopbackUrl('http://[::1]:8000/v1')).toBe(true);
    expect(isLoopbackUrl('http://10.0.0.5:8000/v1')).toBe(false);
    expect(() => resolveLiveModelConfig({ model: 'm', baseUrl: 'https://models.example.com/v1' }, {})).toThrow(/no API key/);
    expect(resolveLiveModelConfig({ model: 'm', baseUrl: 'http://localhost:8000/v1' }, {}).apiKey).toBe('');
  });
});

describe('--run-id of a run already in the store', () => {
  it('is refused (exit 2, nothing run or changed) instead of mixing a new run into the stored one', async () => {
    const dir = tmpDir('sg-run-id-taken-');
    const db = dbIn(dir);
    expect((await cli([...base(), '--tasks', 'T01,T02', '--trials', '2', '--db', db, '--run-id', 'taken', '--json'])).code).toBe(0);
    const before = () => {
      const q = new Database(db, { readonly: true });
      try {
        return {
          run: q.prepare('SELECT summary FROM runs WHERE id = ?').get('taken'),
          episodes: q.prepare('SELECT episode_id, result FROM episodes WHERE run_id = ? ORDER BY episode_id').all('taken'),
          receipts: (q.prepare('SELECT COUNT(*) AS n FROM receipts WHERE run_id = ?').get('taken') as { n: number }).n,
        };
      } finally {
        q.close();
      }
    };
    const stored = before();
    expect(stored.episodes).toHaveLength(4);
    const calls = mock.server.requests.length;
    const again = await cli([...base(), '--tasks', 'T01', '--db', db, '--run-id', 'taken', '--json']);
    expect(again.code).toBe(2);
    expect(again.err).toContain("run 'taken' is already in the store");
    expect(again.err).toContain('--resume taken');
    expect(mock.server.requests.length).toBe(calls);
    expect(before()).toEqual(stored);
    for (const empty of ['', '  ']) {
      const none = await cli([...base(), '--tasks', 'T01', '--db', db, '--run-id', empty, '--json']);
      expect(none.code).toBe(2);
      expect(none.err).toContain(`--run-id names no run (got '${empty}')`);
      // An empty --resume began a new run stored under the empty id.
      const nothing = await cli([...base(), '--tasks', 'T01', '--db', db, '--resume', empty, '--json']);
      expect(nothing.code).toBe(2);
      expect(nothing.err).toContain(`--resume names no run (got '${empty}'); give the id of the run to continue`);
    }
    expect(mock.server.requests.length).toBe(calls);
    // --resume of it still works, and another id is a new run.
    expect((await cli([...base(), '--tasks', 'T01,T02', '--trials', '2', '--db', db, '--resume', 'taken', '--json'])).code).toBe(0);
    expect((await cli([...base(), '--tasks', 'T01', '--db', db, '--run-id', 'other', '--json'])).code).toBe(0);
  }, 60_000);
});
