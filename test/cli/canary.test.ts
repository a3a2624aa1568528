/**
 * `servicegym canary`: an optimise run (mock HTTP server, scripted prompt-sensitive model)
 * releases a prompt to canary; real-traffic outcomes then promote it (stable.txt replaced, a
 * hashed canary record appended, the store's prompt states updated) or roll it back at the first
 * critical violation (stable.txt untouched). Bad episode files name the file and line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { verifyRecord } from '../../src/release/record.js';
import { optimizerHandler } from '../support/optimizer-model.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import { runCli as cli } from '../support/cli.js';

const VARS = ['SERVICEGYM_API_KEY', 'OPENAI_API_KEY', 'SERVICEGYM_BASE_URL', 'OPENAI_BASE_URL'];
const saved: Record<string, string | undefined> = {};
let server: MockServer;
/** A finished optimise run: its output folder (copied per test) and store. */
let template: string;

const episodes = (n: number, ok: (i: number) => boolean, extra: (i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: n }, (_, i) => JSON.stringify({ id: `conv-${i}`, success: ok(i), ...extra(i) })).join('\n') + '\n';

/** A fresh copy of the optimise run's folder and store. */
function copyRun(): { out: string; db: string; dir: string } {
  const dir = tmpDir('sg-canary-');
  fs.cpSync(template, dir, { recursive: true });
  return { dir, out: path.join(dir, 'out'), db: path.join(dir, 'db', 'servicegym.db') };
}

beforeAll(async () => {
  for (const k of VARS) saved[k] = process.env[k];
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-CANARY';
  server = await startMockServer({ handler: optimizerHandler() });
  process.env.SERVICEGYM_BASE_URL = server.url;
  template = tmpDir('sg-canary-run-');
  fs.writeFileSync(
    path.join(template, 'optimize.json'),
    JSON.stringify({ name: 'canary-e2e', seed: 1, suite: { kind: 'campaign', dir: SEED_CAMPAIGN }, models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' } }, output_dir: 'out', store: 'db/servicegym.db' }),
  );
  const r = await cli(['optimize', path.join(template, 'optimize.json'), '-q']);
  expect(r.code).toBe(0);
}, 120_000);

afterAll(async () => {
  await server?.close();
  for (const k of VARS) (saved[k] === undefined ? delete process.env[k] : (process.env[k] = saved[k]));
});

describe('servicegym canary', () => {
  it('promotes on good traffic: stable.txt becomes the canary, a hashed record is appended, prompts shows the new states', async () => {
    const { dir, out, db } = copyRun();
    const before = JSON.parse(fs.readFileSync(path.join(out, 'record.json'), 'utf8'));
    const canary = before.releases.find((e: any) => e.state === 'canary');
    const file = path.join(dir, 'traffic.jsonl');
    fs.writeFileSync(file, episodes(240, (i) => i % 10 !== 0)); // 90% resolved
    const r = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9', '--db', db]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`^Canary promoted: ${canary.version} is now stable \\(stable.txt replaced\\)\\n`));
    expect(fs.readFileSync(path.join(out, 'stable.txt'), 'utf8')).toBe(fs.readFileSync(path.join(out, 'prompts', `${canary.version}.txt`), 'utf8'));
    const after = JSON.parse(fs.readFileSync(path.join(out, 'record.json'), 'utf8'));
    const rec = after.release_records.at(-1);
    expect(rec).toMatchObject({ decision: 'promote', stage: 'canary', candidate: { sha256: canary.sha256 } });
    expect(verifyRecord(rec)).toBe(true);
    expect(rec.statistics).toMatchObject({ traffic: 'traffic.jsonl', stable_rate_from: '--stable-rate 0.9', p0: 0.9 });
    expect(rec.statistics.episodes).toBeGreaterThanOrEqual(200);
    expect(JSON.parse(fs.readFileSync(path.join(out, 'releases', `canary-${canary.version}-promote.json`), 'utf8')).sha256).toBe(rec.sha256);
    expect(after.releases.slice(-2).map((e: any) => `${e.version}:${e.state}`)).toEqual([`${canary.version}:stable`, `${before.releases[0].version}:retired`]);
    const list = JSON.parse((await cli(['prompts', '--db', db, '--json'])).stdout);
    expect(list.map((v: any) => `${v.version}:${v.state}`).sort()).toEqual([`${before.releases[0].version}:retired`, `${canary.version}:stable`].sort());
    // The canary is decided: a second call has nothing to judge.
    const again = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('no prompt is in canary state');
  });

  it('rolls back at the first critical violation; stable.txt is untouched (exit 1)', async () => {
    const { dir, out } = copyRun();
    const stable = fs.readFileSync(path.join(out, 'stable.txt'), 'utf8');
    const file = path.join(dir, 'traffic.jsonl');
    fs.writeFileSync(file, episodes(50, () => true, (i) => (i === 7 ? { critical: true } : {})));
    const stableFile = path.join(dir, 'stable-traffic.jsonl');
    fs.writeFileSync(stableFile, episodes(40, (i) => i % 5 !== 0));
    const r = await cli(['canary', out, '--episodes', file, '--stable-episodes', stableFile, '--json']);
    expect(r.code).toBe(1);
    const out1 = JSON.parse(r.stdout);
    expect(out1).toMatchObject({ decision: 'rollback', episodes: 8, p0: 0.8 });
    expect(out1.reason).toBe('critical violation in canary episode conv-7 (episode 8)');
    expect(fs.readFileSync(path.join(out, 'stable.txt'), 'utf8')).toBe(stable);
    const after = JSON.parse(fs.readFileSync(path.join(out, 'record.json'), 'utf8'));
    expect(after.releases.at(-1)).toMatchObject({ state: 'rolled_back', decision: 'rollback' });
  });

  it('too little traffic leaves the prompt in canary and writes nothing', async () => {
    const { dir, out } = copyRun();
    const before = fs.readFileSync(path.join(out, 'record.json'), 'utf8');
    const file = path.join(dir, 'traffic.jsonl');
    fs.writeFileSync(file, episodes(20, () => true));
    const r = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Canary continue: \w{12} stays in canary\n/);
    expect(fs.readFileSync(path.join(out, 'record.json'), 'utf8')).toBe(before);
  });

  it('bad input: a malformed episode line names the file and line; the stable rate is required once', async () => {
    const { dir, out } = copyRun();
    const file = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(file, '{"id":"a","success":true}\n{"id":"b","success":"yes"}\n');
    const r = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} at $.success: line 2: Invalid input: expected boolean, received string`);
    const both = await cli(['canary', out, '--episodes', file]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give exactly one of --stable-rate and --stable-episodes');
    const rate = await cli(['canary', out, '--episodes', file, '--stable-rate', '1.5']);
    expect(rate.code).toBe(2);
    expect(rate.stderr).toContain("--stable-rate must be a number from 0 to 1, got '1.5'");
  });

  it('refuses before writing anything: a changed prompt text, a store without the run, a folder already being judged', async () => {
    const { dir, out } = copyRun();
    const record = fs.readFileSync(path.join(out, 'record.json'), 'utf8');
    const stable = fs.readFileSync(path.join(out, 'stable.txt'), 'utf8');
    const canary = JSON.parse(record).releases.find((e: any) => e.state === 'canary');
    const file = path.join(dir, 'traffic.jsonl');
    fs.writeFileSync(file, episodes(240, (i) => i % 10 !== 0));
    const unchanged = () => {
      expect(fs.readFileSync(path.join(out, 'record.json'), 'utf8')).toBe(record);
      expect(fs.readFileSync(path.join(out, 'stable.txt'), 'utf8')).toBe(stable);
      expect(fs.existsSync(path.join(out, 'releases', `canary-${canary.version}-promote.json`))).toBe(false);
    };
    const promptFile = path.join(out, 'prompts', `${canary.version}.txt`);
    const text = fs.readFileSync(promptFile, 'utf8');
    fs.writeFileSync(promptFile, 'TAMPERED PROMPT');
    const tampered = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9']);
    expect(tampered.code).toBe(2);
    expect(tampered.stderr).toContain("the prompt text does not hash to the canary's sha256");
    unchanged();
    fs.writeFileSync(promptFile, text);
    const otherDb = path.join(dir, 'elsewhere', 'other.db');
    const noStore = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9', '--db', otherDb]);
    expect(noStore.code).toBe(2);
    expect(noStore.stderr).toContain('no servicegym store exists at this path');
    expect(fs.existsSync(otherDb)).toBe(false);
    unchanged();
    fs.writeFileSync(path.join(out, '.canary.lock'), '');
    const locked = await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9']);
    expect(locked.code).toBe(2);
    expect(locked.stderr).toContain('another canary decision is running on this folder');
    unchanged();
  });

  it('after a traffic decision, optimize --resume refuses to rebuild record.json without it', async () => {
    const { dir, out, db } = copyRun();
    const file = path.join(dir, 'traffic.jsonl');
    fs.writeFileSync(file, episodes(240, (i) => i % 10 !== 0));
    expect((await cli(['canary', out, '--episodes', file, '--stable-rate', '0.9', '--db', db])).code).toBe(0);
    const r = await cli(['optimize', path.join(dir, 'optimize.json'), '-q', '--resume']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("this run's canary was decided on traffic");
  });
});
