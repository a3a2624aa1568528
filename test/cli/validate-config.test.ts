/**
 * `validate --config FILE`: the same config-file mechanism as `run --config` (keys are the
 * command's own long flag names, a flag on the command line wins, relative paths resolve from the
 * file's folder, bad keys and values are exit 2 naming the file and the JSON path).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

describe('validate --config', () => {
  it('reads every flag from the file; a flag on the command line wins; paths resolve from the file', async () => {
    const dir = tmpDir('sg-validate-config-');
    const cfg = path.join(dir, 'validate.json');
    fs.writeFileSync(cfg, JSON.stringify({ domain: 'gds', tasks: ['T12', 'G01'], strict: true, json: true, quiet: true, db: 'store/v.db', output: 'out/results.jsonl', 'fail-under': 1, concurrency: 2 }));
    fs.mkdirSync(path.join(dir, 'store'));
    fs.mkdirSync(path.join(dir, 'out'));
    const r = await runCli(['validate', '--config', cfg]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out);
    expect(out.strict).toBe(true);
    expect(out.tasks.map((t: { task_id: string }) => t.task_id).sort()).toEqual(['G01', 'T12']);
    expect(fs.existsSync(path.join(dir, 'store', 'v.db'))).toBe(true);
    expect(fs.readFileSync(path.join(dir, 'out', 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const cli = await runCli(['validate', '--config', cfg, '--tasks', 'T12', '--no-store']);
    expect(cli.code, cli.err).toBe(0);
    expect(JSON.parse(cli.out).tasks.map((t: { task_id: string }) => t.task_id)).toEqual(['T12']);
    // A switch from the file: "no-store": true stores nothing.
    const noStore = path.join(dir, 'no-store.json');
    fs.writeFileSync(noStore, JSON.stringify({ domain: 'airline', tasks: 'T01', 'no-store': true, db: 'none/x.db', json: true, quiet: true }));
    expect((await runCli(['validate', '--config', noStore])).code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'none'))).toBe(false);
  }, 300_000);

  it('an unknown key, a wrong type or a value validate refuses is exit 2 naming the file and the JSON path', async () => {
    const dir = tmpDir('sg-validate-config-bad-');
    const cfg = path.join(dir, 'v.json');
    fs.writeFileSync(cfg, JSON.stringify({ domain: 'airline', trials: 4 }));
    const unknown = await runCli(['validate', '--config', cfg]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain(`${cfg}`);
    expect(unknown.err).toContain("$.trials: unknown key 'trials'; expected one of:");
    fs.writeFileSync(cfg, JSON.stringify({ strict: 'yes' }));
    const type = await runCli(['validate', '--config', cfg]);
    expect(type.code).toBe(2);
    expect(type.err).toContain('$.strict: expected true or false, got a string');
    fs.writeFileSync(cfg, JSON.stringify({ domain: 'airline', tasks: 'T01', personas: ['grumpy'], 'no-store': true }));
    const refused = await runCli(['validate', '--config', cfg]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(new RegExp(`${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*\\$\\.personas.*unknown persona\\(s\\): 'grumpy'`));
    const help = await runCli(['validate', '--help']);
    expect(help.out).toContain('--config <file>');
  }, 120_000);

  it('every problem of the file is reported at once, each with the file and its JSON path; {"tasks": 5} is blamed on $.tasks', async () => {
    const dir = tmpDir('sg-validate-config-all-');
    const cfg = path.join(dir, 'v.json');
    fs.writeFileSync(cfg, JSON.stringify({ tasks: 5, bogus: 1, trials: 'x', strict: 'yes' }));
    const all = await runCli(['validate', '--config', cfg, '--no-store']);
    expect(all.code).toBe(2);
    const lines = all.err.trim().split('\n');
    expect(lines[0]).toBe(`servicegym: error: ${cfg}: 3 problems in the config file:`);
    expect(lines.slice(1).map((l) => l.replace(/; expected one of: .*/, '; expected one of: …'))).toEqual([
      `  ${cfg} at $.bogus: unknown key 'bogus'; expected one of: …`,
      `  ${cfg} at $.trials: unknown key 'trials'; expected one of: …`,
      `  ${cfg} at $.strict: expected true or false, got a string`,
    ]);
    fs.writeFileSync(cfg, JSON.stringify({ tasks: 5 }));
    const five = await runCli(['validate', '--config', cfg, '--no-store']);
    expect(five.code).toBe(2);
    expect(five.err).toContain(`${cfg} at $.tasks: --tasks: unknown task id(s): 5 (the dataset has 5 tasks: T01, T02, T03, T15, T17)`);
  }, 120_000);

  it('a bad -j (from the file or the command line) is exit 2 naming it, before the store gets a run', async () => {
    const dir = tmpDir('sg-validate-config-j-');
    const cfg = path.join(dir, 'v.json');
    const db = path.join(dir, 'v.db');
    fs.writeFileSync(cfg, JSON.stringify({ domain: 'airline', tasks: 'T01', concurrency: 0 }));
    const fromFile = await runCli(['validate', '--config', cfg, '--db', db]);
    expect(fromFile.code).toBe(2);
    expect(fromFile.err).toContain(`${cfg} at $.concurrency: -j/--concurrency must be a whole number >= 1, got '0'`);
    const flag = await runCli(['validate', '--tasks', 'T01', '-j', '1.5', '--db', db]);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("-j/--concurrency must be a whole number >= 1, got '1.5'");
    expect(fs.existsSync(db)).toBe(false);
  }, 120_000);
});

describe('every value error of a config file at once', () => {
  it('validate: each bad value with its JSON path, in file order, beside the key and type errors', async () => {
    const dir = tmpDir('sg-config-all-');
    const cfg = path.join(dir, 'v.json');
    fs.writeFileSync(cfg, JSON.stringify({ domain: 'airline', concurrency: 0, surface: 'fax', colour: 'red', 'fail-under': 2, strict: 'yes', output: 'r.txt' }));
    const r = await runCli(['validate', '--config', cfg, '--no-store']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.trimEnd().split('\n')).toEqual([
      `servicegym: error: ${cfg}: 6 problems in the config file:`,
      `  ${cfg} at $.concurrency: -j/--concurrency must be a whole number >= 1, got '0'`,
      expect.stringMatching(new RegExp(`^  ${cfg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at \\$\\.surface: unknown surface 'fax' \\(known: api, `)),
      expect.stringContaining(`  ${cfg} at $.colour: unknown key 'colour'; expected one of: `),
      `  ${cfg} at $.fail-under: --fail-under must be a reward from 0 to 1, got '2'`,
      `  ${cfg} at $.strict: expected true or false, got a string`,
      expect.stringContaining(`  ${cfg} at $.output: -o/--output: `),
    ]);
  });

  it('run: trials, temperature, screenshots, rate-limit and personas refused together, before any model call', async () => {
    const dir = tmpDir('sg-config-all-run-');
    const cfg = path.join(dir, 'run.json');
    const db = path.join(dir, 'store.db');
    fs.writeFileSync(cfg, JSON.stringify({ 'agent-model': 'a', 'user-model': 'u', 'base-url': 'http://127.0.0.1:9/v1', db, trials: 0, temperature: 5, screenshots: 'nowhere', 'rate-limit': -1, personas: 'grumpy', limit: 0 }));
    const r = await runCli(['run', '--config', cfg, '-q']);
    expect(r.code).toBe(2);
    const lines = r.err.trimEnd().split('\n');
    expect(lines[0]).toBe(`servicegym: error: ${cfg}: 6 problems in the config file:`);
    expect(lines.slice(1).map((l) => l.slice(`  ${cfg} at `.length).split(':')[0])).toEqual(['$.trials', '$.temperature', '$.screenshots', '$.rate-limit', '$.personas', '$.limit']);
    expect(lines[1]).toBe(`  ${cfg} at $.trials: --trials must be a whole number from 1 to 10000, got '0'`);
    expect(lines[2]).toBe(`  ${cfg} at $.temperature: --temperature must be a number from 0 to 2, got '5'`);
    expect(fs.existsSync(db)).toBe(false);
  });
});
