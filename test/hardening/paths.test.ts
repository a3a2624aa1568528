/**
 * Issue 11 items 1 and 5: a path built from file content never leaves its folder, and
 * `optimize --fresh` clears only a folder an optimise run wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli as cli } from '../support/cli.js';
import { HAS_SHARED, SEED_CAMPAIGN, SEED_RECORD, tmpDir } from '../support/paths.js';

let recordText: string;
beforeAll(async () => {
  if (HAS_SHARED) recordText = fs.readFileSync(SEED_RECORD, 'utf8');
  else {
    const r = await cli(['replay', '--json', '--no-store', '-q', '--work-dir', tmpDir('sg-w-')]);
    recordText = r.stdout;
  }
});

describe('import-record: evaluation keys are names, not paths (item 1)', () => {
  it('a key "../../other/prompts/stable" is bad input naming the file and JSON path; nothing is written anywhere', async () => {
    const root = tmpDir('sg-escape-');
    const victim = path.join(root, 'other', 'prompts');
    fs.mkdirSync(victim, { recursive: true });
    fs.writeFileSync(path.join(victim, 'stable.txt'), 'the other campaign');
    const rec = JSON.parse(recordText);
    const key = '../../other/prompts/stable';
    rec.evaluations = Object.fromEntries(Object.entries(rec.evaluations).map(([k, v]) => [k === 'manual' ? key : k, v]));
    const file = path.join(root, 'crafted.json');
    fs.writeFileSync(file, JSON.stringify(rec));
    const out = path.join(root, 'a', 'out');
    const r = await cli(['import-record', file, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(file);
    expect(r.err).toContain(`$.evaluations["${key}"]`);
    expect(fs.readFileSync(path.join(victim, 'stable.txt'), 'utf8')).toBe('the other campaign');
    expect(fs.existsSync(out)).toBe(false);
  });

  it('an experiment id with a path separator is refused (it becomes the campaign and work-folder name)', async () => {
    const root = tmpDir('sg-escape-id-');
    const rec = JSON.parse(recordText);
    rec.experiment_id = '../../x';
    const file = path.join(root, 'r.json');
    fs.writeFileSync(file, JSON.stringify(rec));
    const r = await cli(['import-record', file, '--out', path.join(root, 'out')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('$.experiment_id');
  });
});

describe('campaign folders: files and names stay inside (item 1)', () => {
  const copy = (): string => {
    const dir = tmpDir('sg-camp-');
    fs.cpSync(SEED_CAMPAIGN, dir, { recursive: true });
    return dir;
  };
  const edit = (dir: string, f: (spec: any) => void) => {
    const file = path.join(dir, 'campaign.json');
    const spec = JSON.parse(fs.readFileSync(file, 'utf8'));
    f(spec);
    fs.writeFileSync(file, JSON.stringify(spec));
    return file;
  };

  it('a prompt file outside the folder is bad input naming campaign.json and the JSON path', async () => {
    const dir = copy();
    const specFile = edit(dir, (s) => (s.prompts.stable.file = '../../../etc/hostname'));
    const r = await cli(['replay', dir, '--no-store', '-q', '--work-dir', tmpDir('sg-w-')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${specFile} at $.prompts.stable.file`);
  });

  it('a campaign name that climbs out of the work folder is refused before anything is written', async () => {
    const dir = copy();
    const work = path.join(tmpDir('sg-w-'), 'work');
    const escaped = `escaped-${process.pid}-${Date.now()}`;
    const specFile = edit(dir, (s) => (s.name = `../../${escaped}`));
    const r = await cli(['replay', dir, '--no-store', '-q', '--work-dir', work]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${specFile} at $.name`);
    expect(fs.existsSync(path.join(work, '..', '..', escaped))).toBe(false);
  });
});

describe('optimize --fresh (item 5)', () => {
  const KEY = 'test-fake-key-FRESH-0005';
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.SERVICEGYM_API_KEY;
    process.env.SERVICEGYM_API_KEY = KEY;
  });
  afterEach(() => (saved === undefined ? delete process.env.SERVICEGYM_API_KEY : (process.env.SERVICEGYM_API_KEY = saved)));

  it('refuses to clear a folder that is not an optimise output ("output_dir": "."), leaving the user\'s files', async () => {
    const dir = tmpDir('sg-fresh-');
    fs.mkdirSync(path.join(dir, 'prompts'));
    fs.writeFileSync(path.join(dir, 'prompts', 'mine.txt'), 'my prompt');
    fs.mkdirSync(path.join(dir, 'releases'));
    fs.writeFileSync(path.join(dir, 'stable.txt'), 'my stable prompt');
    const file = path.join(dir, 'optimize.json');
    fs.writeFileSync(file, JSON.stringify({
      name: 'fresh', seed: 1, suite: { kind: 'campaign', dir: SEED_CAMPAIGN },
      models: { agent: { model: 'm', temperature: 0 } }, output_dir: '.',
    }));
    const r = await cli(['optimize', file, '--fresh', '--no-store', '-q', '--base-url', 'http://127.0.0.1:9/v1', '--max-retries', '0', '--timeout', '1']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${dir}: --fresh refused: this folder is not an optimise output folder`);
    expect(fs.readFileSync(path.join(dir, 'stable.txt'), 'utf8')).toBe('my stable prompt');
    expect(fs.readFileSync(path.join(dir, 'prompts', 'mine.txt'), 'utf8')).toBe('my prompt');
    expect(fs.existsSync(path.join(dir, 'releases'))).toBe(true);
  });
});
