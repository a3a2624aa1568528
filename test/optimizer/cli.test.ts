/**
 * `servicegym optimize`, `servicegym prompts` and `servicegym replay --gate statistical` end to
 * end, in process, against the real mock HTTP server playing the scripted prompt-sensitive model.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { verifyRecord } from '../../src/release/record.js';
import { optimizerHandler } from '../support/optimizer-model.js';
import { ROOT, SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';
import { rateLimitedModels } from '../../src/cli/optimize.js';
import type { ChatModel } from '../../src/models/chat-model.js';

const FAKE_KEY = 'test-fake-key-OPTIMIZE-7731';
const VARS = ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY', 'SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL', 'SERVICEGYM_MODEL', 'SERVICEGYM_PROVIDER'];
const saved: Record<string, string | undefined> = {};
const servers: MockServer[] = [];

beforeEach(() => {
  for (const k of VARS) {
    saved[k] = process.env[k];
    delete process.env[k];
  }
  process.env.SERVICEGYM_API_KEY = FAKE_KEY;
});
afterEach(async () => {
  for (const k of VARS) (saved[k] === undefined ? delete process.env[k] : (process.env[k] = saved[k]));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(): Promise<MockServer> {
  const s = await startMockServer({ handler: optimizerHandler() });
  servers.push(s);
  return s;
}

const cli = runCli;

/** A config file in a fresh folder; output and store relative to it. */
function configFile(extra: Record<string, unknown> = {}): { file: string; dir: string } {
  const dir = tmpDir('sg-opt-cli-');
  const file = path.join(dir, 'optimize.json');
  fs.writeFileSync(file, JSON.stringify({
    name: 'e2e',
    seed: 1,
    suite: { kind: 'campaign', dir: SEED_CAMPAIGN },
    models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' }, base_url_env: 'SERVICEGYM_BASE_URL' },
    output_dir: 'out',
    store: 'db/servicegym.db',
    ...extra,
  }, null, 2));
  return { file, dir };
}

const allFiles = (dir: string): string[] => fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, String(f))).filter((f) => fs.statSync(f).isFile());

describe('servicegym optimize (mock HTTP server)', () => {
  it('releases the fix to canary, journals, writes hashed records, stores the run, lists prompt versions; same seed, same bytes', async () => {
    const s = await server();
    process.env.SERVICEGYM_BASE_URL = s.url;
    const { file, dir } = configFile();
    const run = await cli(['optimize', file, '-q']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Decision: release_to_canary');
    expect(run.stdout).toContain('+4. 客户满意度是第一位的。为避免激化矛盾，绝不因政策争议');
    expect(run.stdout).toMatch(/\nAblation \(leave one edit out, 4 trials on \d+ gate cases\):\n {2}edit 1 \(S2\.4, clarify-rule\): \+\d+ successes over \d+ gate pairs \(\d+ with, \d+ without\)\n/);
    expect(s.requests.length).toBeGreaterThan(100);
    expect(s.requests.every((r) => r.headers.authorization === `Bearer ${FAKE_KEY}`)).toBe(true);

    const out = path.join(dir, 'out');
    const events = fs.readFileSync(path.join(out, 'events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    expect(events[0]).toMatchObject({ type: 'run', key: 'run', seed: 1 });
    expect(events.filter((e) => e.type === 'rollout').length).toBeGreaterThan(50);
    const record = JSON.parse(fs.readFileSync(path.join(out, 'record.json'), 'utf8'));
    expect(record.decision).toBe('release_to_canary');
    expect(record.releases.map((e: any) => e.state)).toEqual(['stable', 'canary']);
    const releaseFiles = fs.readdirSync(path.join(out, 'releases'));
    expect(releaseFiles).toHaveLength(1);
    const rec = JSON.parse(fs.readFileSync(path.join(out, 'releases', releaseFiles[0]), 'utf8'));
    expect(verifyRecord(rec)).toBe(true);
    expect(rec.sha256).toBe(record.releases[1].release_sha256);
    expect(fs.readFileSync(path.join(out, 'stable.txt'), 'utf8')).toBe(fs.readFileSync(path.join(SEED_CAMPAIGN, 'prompts', 'stable.txt'), 'utf8'));

    // Prompt versions from the store.
    const db = path.join(dir, 'db', 'servicegym.db');
    const list = await cli(['prompts', '--db', db]);
    expect(list.code).toBe(0);
    const lines = list.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^version\s+state\s+decision\s+rollouts\s+success\s+decided_at\s+parent\s+release_sha256\s+run$/);
    // Each version with its own rollouts and successes, not one pooled reward for the run.
    for (const l of lines.slice(1)) expect(l).toMatch(/^\S+\s+\S+\s+\S+\s+[1-9]\d*\s+\d+\/\d+ \(\d+\.\d%\)\s/);
    expect(lines.slice(1).map((l) => l.split(/\s+/).slice(0, 3))).toEqual(expect.arrayContaining([
      [record.releases[0].version, 'stable', '-'],
      [record.releases[1].version, 'canary', 'release_to_canary'],
    ]));
    const json = JSON.parse((await cli(['prompts', '--db', db, '--json'])).stdout);
    expect(json.map((v: any) => v.state).sort()).toEqual(['canary', 'stable']);
    for (const v of json) {
      expect(v.results.rollouts).toBeGreaterThan(0);
      expect(v.results.success_rate).toBe(Math.round((v.results.passed / v.results.scored) * 1e6) / 1e6);
    }

    // No key anywhere.
    for (const f of [...allFiles(out), ...allFiles(path.join(dir, 'db'))]) expect(fs.readFileSync(f).includes(Buffer.from(FAKE_KEY))).toBe(false);

    // The same seed against a fresh server: byte-identical release record.
    const s2 = await server();
    process.env.SERVICEGYM_BASE_URL = s2.url;
    const again = await cli(['optimize', file, '-q', '--out-dir', path.join(dir, 'out2'), '--no-store']);
    expect(again.code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'out2', 'releases', releaseFiles[0]))).toEqual(fs.readFileSync(path.join(out, 'releases', releaseFiles[0])));

    // An existing journal is not overwritten without --resume / --fresh.
    const refused = await cli(['optimize', file, '-q', '--no-store']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('pass --resume to continue that run, or --fresh to start over');
    // Resuming a finished run makes no new request and gives the same decision.
    const n = s2.requests.length;
    const resumed = await cli(['optimize', file, '-q', '--no-store', '--resume']);
    expect(resumed.code).toBe(0);
    expect(s2.requests.length).toBe(n);
  }, 180_000);


  it('--dry-run prints the split and pre-flight estimate without a request', async () => {
    const s = await server();
    process.env.SERVICEGYM_BASE_URL = s.url;
    const { file } = configFile({ budget: { max_rollouts: 150 } });
    const r = await cli(['optimize', file, '--dry-run', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.splits).toEqual({ feedback: expect.any(Array), gate: expect.any(Array), sealed: expect.any(Array) });
    expect(out.preflight).toMatchObject({ fixed_rollouts: 64, per_proposal_rollouts: 56, gated_proposals_fit: 1 });
    expect(out.preflight.warning).toContain('only 1 gated proposal(s) fit the budget');
    // A campaign case's rollout is the agent's calls and its rubric judge's: no simulated customer.
    const text = await cli(['optimize', file, '--dry-run']);
    expect(text.stdout).toContain('each rollout makes agent and rubric-judge calls,');
    expect(s.requests).toHaveLength(0);
  });

  it('--rate-limit without --queue: a bad rate is exit 2 before anything runs; every role of the run takes its slots from one limiter', async () => {
    const s = await server();
    process.env.SERVICEGYM_BASE_URL = s.url;
    const { file, dir } = configFile();
    const r = await cli(['optimize', file, '--dry-run', '--rate-limit', 'fast']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--rate-limit must be a number of calls per minute > 0, got 'fast'");
    expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
    const fake = (provider: string): ChatModel => ({ provider, endpoint: `http://${provider}/v1/chat/completions`, model: 'm', complete: async () => ({}) as never });
    const slots: string[] = [];
    const models = rateLimitedModels({ agent: fake('a'), user: fake('u'), judge: fake('j'), proposer: fake('p') }, { acquire: async (provider) => (slots.push(provider), 0) });
    for (const m of [models.agent, models.user!, models.judge!, models.proposer]) await m.complete({ messages: [] } as never, 'agent' as never);
    expect(slots).toEqual(['a', 'u', 'j', 'p']);
    expect(rateLimitedModels({ agent: fake('a'), proposer: fake('p') }, { acquire: async () => 0 })).toMatchObject({ user: undefined, judge: undefined });
  });

  it("refuses an output folder holding the user's own files (exit 2, no request, nothing written)", async () => {
    const s = await server();
    process.env.SERVICEGYM_BASE_URL = s.url;
    // output_dir "." is the config's own folder, beside the user's prompt and notes.
    const { file, dir } = configFile({ output_dir: '.' });
    fs.writeFileSync(path.join(dir, 'record.json'), '{"mine": true}\n');
    const r = await cli(['optimize', file, '--no-store', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${dir}: the output folder is not empty (optimize.json, record.json) and holds no optimise run (no .servicegym-optimize marker and no run journal); a run writes record.json, events.jsonl, stable.txt, prompts/ and releases/ there: choose a new or empty output_dir / --out-dir\n`);
    expect(fs.readdirSync(dir).sort()).toEqual(['optimize.json', 'record.json']);
    expect(fs.readFileSync(path.join(dir, 'record.json'), 'utf8')).toBe('{"mine": true}\n');
    expect(s.requests).toHaveLength(0);
  });

  it('rejects a bad config with the JSON path (exit 2)', async () => {
    const { file } = configFile({ gate: { alpha: 2 } });
    const r = await cli(['optimize', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('at $.gate.alpha');
  });

  it('task-suite variants: --dry-run shows the variant split; an unknown persona is bad input naming $.suite.variants', async () => {
    const suite = { kind: 'tasks', domain: 'airline', tasks: ['T01', 'T02'], variants: ['impatient', 'vague', 'contradictory'], boundary: ['T01'] };
    const models = { agent: { model: 'mock-model' }, user: { model: 'mock-model' }, proposer: { model: 'mock-model' } };
    const ok = configFile({ suite, models });
    const r = await cli(['optimize', ok.file, '--dry-run', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.splits.gate).toEqual(expect.arrayContaining(['T01', 'T02']));
    expect([...out.splits.feedback, ...out.splits.gate, ...out.splits.sealed].sort()).toEqual(['T01', 'T01~contradictory', 'T01~impatient', 'T01~vague', 'T02', 'T02~contradictory', 'T02~impatient', 'T02~vague']);
    expect(out.splits.feedback).toHaveLength(2);
    expect(out.splits.sealed).toHaveLength(2);
    expect((await cli(['optimize', ok.file, '--dry-run'])).stdout).toContain('each rollout makes agent and user-simulator calls (and judge calls where a task has natural-language assertions),');
    const bad = configFile({ suite: { ...suite, variants: ['impatient', 'grumpy'] }, models });
    const b = await cli(['optimize', bad.file, '--dry-run']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain(`${bad.file} at $.suite.variants: unknown persona(s): 'grumpy'`);
  });

  it('--dry-run warns when no candidate could pass the gate: boundary cases of fewer tasks than gate.min_cases_improved, or none', async () => {
    const models = { agent: { model: 'mock-model' }, user: { model: 'mock-model' }, proposer: { model: 'mock-model' } };
    const one = configFile({ suite: { kind: 'tasks', domain: 'airline', tasks: ['T01', 'T02', 'T03'], variants: ['impatient', 'vague', 'contradictory'], boundary: ['T01'] }, models });
    const text = await cli(['optimize', one.file, '--dry-run']);
    expect(text.code).toBe(0);
    const cannot = 'the gate split holds boundary cases of 1 distinct task(s) (T01) and the gate needs improvements on 2 (gate.min_cases_improved): no candidate can be released; add boundary cases or lower gate.min_cases_improved';
    expect(text.stdout).toContain(`\nwarning: ${cannot}\n`);
    expect(JSON.parse((await cli(['optimize', one.file, '--dry-run', '--json'])).stdout).warnings).toEqual([cannot]);
    // Without variants, two boundary tasks of five split by share: one of them goes to feedback or sealed.
    const shared = configFile({ suite: { kind: 'tasks', domain: 'airline', tasks: ['T01', 'T02', 'T03', 'T15', 'T17'], boundary: ['T01', 'T15'] }, models });
    expect(JSON.parse((await cli(['optimize', shared.file, '--dry-run', '--json'])).stdout).warnings).toEqual([expect.stringMatching(/^the gate split holds boundary cases of 1 distinct task\(s\) \((T01|T15)\) and the gate needs improvements on 2/)]);
    const none = configFile({ suite: { kind: 'tasks', domain: 'airline', tasks: ['T01', 'T02', 'T03'], variants: ['impatient', 'vague', 'contradictory'], boundary: [] }, models });
    expect(JSON.parse((await cli(['optimize', none.file, '--dry-run', '--json'])).stdout).warnings).toEqual(['no boundary case in the gate split: the gate cannot see an improvement, so no candidate can be released']);
    const lowered = configFile({ suite: { kind: 'tasks', domain: 'airline', tasks: ['T01', 'T02', 'T03'], variants: ['impatient', 'vague', 'contradictory'], boundary: ['T01'] }, models, gate: { min_cases_improved: 1 } });
    expect(JSON.parse((await cli(['optimize', lowered.file, '--dry-run', '--json'])).stdout).warnings).toEqual([]);
    for (const example of ['optimize-airline.json', 'optimize-seed.json']) {
      const r = await cli(['optimize', path.join(ROOT, 'examples', example), '--dry-run', '--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).warnings, example).toEqual([]);
    }
  });
});

describe('servicegym replay --gate statistical', () => {
  it('reproduces the seed decision and judges the same evidence insufficient (p = 0.25, one trial per case), exit 1', async () => {
    const r = await cli(['replay', SEED_CAMPAIGN, '--gate', 'statistical', '--no-store', '-q', '--work-dir', tmpDir('sg-opt-w-')]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Decision: release_to_canary');
    expect(r.stdout).toContain('Decision (statistical gate): insufficient_evidence');
    expect(r.stdout).toContain('  because 1 valid trial(s) per gate case; the gate needs at least 4');
    expect(r.stdout).toContain('exact one-sided sign test p = 0.25 (α = 0.05) with 1 trial(s) per case — not significant');
    const j = await cli(['replay', SEED_CAMPAIGN, '--gate', 'statistical', '--no-store', '-q', '--json', '--work-dir', tmpDir('sg-opt-w-')]);
    const parsed = JSON.parse(j.stdout);
    expect(parsed.release_gate.decision).toBe('release_to_canary');
    expect(parsed.statistical_gate.decision).toBe('insufficient_evidence');
    const seedOnly = await cli(['replay', SEED_CAMPAIGN, '--no-store', '-q', '--work-dir', tmpDir('sg-opt-w-')]);
    expect(seedOnly.code).toBe(0);
    expect(seedOnly.stdout).not.toContain('statistical');
  });
});
