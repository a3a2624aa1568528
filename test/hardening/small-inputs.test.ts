/**
 * Issue 11 item 10: the smaller bad-input cases. Each names the file and the JSON path (exit 2),
 * a bad --trials / -j leaves no empty run behind, and `prompts` never lists the stable prompt as
 * rejected because a candidate identical to it (no edit applied) was rejected.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { promptVersions, type ReleaseEntry } from '../../src/release/lifecycle.js';
import { runCli as cli } from '../support/cli.js';
import { HAS_SHARED, needsShared, SEED_CAMPAIGN, SHARED, tmpDir } from '../support/paths.js';

const campaignCopy = (edit: (spec: any) => void): { dir: string; spec: string } => {
  const dir = tmpDir('sg-small-camp-');
  fs.cpSync(SEED_CAMPAIGN, dir, { recursive: true });
  const spec = path.join(dir, 'campaign.json');
  const value = JSON.parse(fs.readFileSync(spec, 'utf8'));
  edit(value);
  fs.writeFileSync(spec, JSON.stringify(value));
  return { dir, spec };
};

const config = (value: unknown): string => {
  const file = path.join(tmpDir('sg-small-cfg-'), 'optimize.json');
  fs.writeFileSync(file, JSON.stringify(value));
  return file;
};
const taskSuite = (extra: Record<string, unknown>) => ({ name: 'small', suite: { kind: 'tasks', domain: 'airline', ...extra }, models: { agent: { model: 'm' }, user: { model: 'u' } } });

describe('bad input names the file and the JSON path', () => {
  it('an unknown domain in campaign.json', async () => {
    const { dir, spec } = campaignCopy((s) => (s.domain = 'nowhere'));
    const r = await cli(['replay', dir, '--no-store', '-q', '--work-dir', tmpDir('sg-w-')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${spec} at $.domain: unknown domain 'nowhere'`);
  });

  it('an unknown domain in an optimise config', async () => {
    const file = config(taskSuite({ domain: 'nowhere' }));
    const r = await cli(['optimize', file, '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file} at $.suite.domain: unknown domain 'nowhere'`);
  });

  it('feedback + sealed shares of 1 or more', async () => {
    const file = config({ ...taskSuite({}), roles: { feedback: 0.7, sealed: 0.5 } });
    const r = await cli(['optimize', file, '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file} at $.roles.sealed: roles.feedback + roles.sealed must be below 1`);
  });

  it('a prompt_file that does not exist', async () => {
    const file = config(taskSuite({ prompt_file: 'missing.txt' }));
    const r = await cli(['optimize', file, '--dry-run']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file} at $.suite.prompt_file: prompt file ${path.join(path.dirname(file), 'missing.txt')} not found`);
  });

  it('an empty receipts.jsonl', async () => {
    const { dir } = campaignCopy(() => undefined);
    fs.writeFileSync(path.join(dir, 'receipts.jsonl'), '');
    const r = await cli(['replay', dir, '--no-store', '-q', '--work-dir', tmpDir('sg-w-')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${path.join(dir, 'receipts.jsonl')} at $: holds no receipt`);
  });

  it.skipIf(!HAS_SHARED)(needsShared('validate refuses a task whose gold actions call a tool the domain does not have'), async () => {
    const src = path.join(SHARED, 'peers', 'tau2', 'airline');
    const dir = tmpDir('sg-small-tau2-');
    for (const f of ['db.json', 'policy.md']) fs.copyFileSync(path.join(src, f), path.join(dir, f));
    const tasks = JSON.parse(fs.readFileSync(path.join(src, 'tasks.json'), 'utf8')).filter((t: any) => t.evaluation_criteria?.actions?.length).slice(0, 2);
    tasks[1].evaluation_criteria.actions[0].name = 'teleport_passenger';
    fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify(tasks));
    const r = await cli(['validate', '--domain', 'airline', '--data-dir', dir, '--no-store', '-q']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${path.join(dir, 'tasks.json')} at $[1].evaluation_criteria.actions[0].name`);
    expect(r.err).toContain("calls tool 'teleport_passenger'");
  });
});

describe('run --trials / -j', () => {
  for (const bad of [['--trials', '0'], ['--trials', 'abc'], ['--trials', '1.5'], ['-j', '0'], ['-j', 'x']]) {
    it(`${bad.join(' ')} is bad input and leaves no run in the store`, async () => {
      const db = path.join(tmpDir('sg-small-run-'), 's.db');
      const r = await cli(['run', '--tasks', 'T01', ...bad, '--agent-model', 'a', '--user-model', 'u', '--base-url', 'http://127.0.0.1:9/v1', '--db', db]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--trials|--concurrency/);
      if (fs.existsSync(db)) {
        const sql = new Database(db, { readonly: true });
        expect((sql.prepare('SELECT COUNT(*) AS n FROM runs').get() as { n: number }).n).toBe(0);
        sql.close();
      }
    });
  }
});

describe('prompts', () => {
  it('a rejected candidate identical to the stable prompt leaves it stable', () => {
    const S = 'a'.repeat(64);
    const releases: ReleaseEntry[] = [
      { version: S.slice(0, 12), sha256: S, state: 'stable', parent_sha256: null, decision: null, release_sha256: null, decided_at: '2026-10-01T00:00:00Z', source: 'stable.txt' },
      { version: S.slice(0, 12), sha256: S, state: 'rejected', parent_sha256: S, decision: 'reject', release_sha256: 'r'.repeat(64), decided_at: '2026-10-01T00:05:00Z', source: 'prompts' },
    ];
    expect(promptVersions([{ id: 'run-1', releases }]).map((v) => v.state)).toEqual(['stable']);
  });
});
