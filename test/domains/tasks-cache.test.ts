/**
 * Validated tau2 tasks kept on disk (issue 17: validate start-up): a later process reads an
 * unchanged `tasks.json` back through the stat index without reading or validating it; a file
 * edited after a cached run gives the new content; a malformed file is still reported with its
 * file and JSON path (nothing cached for it); `SERVICEGYM_CACHE_DIR=off` keeps nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { loadTau2Tasks } from '../../src/domains/common/tau2-folder.js';
import { BadInputError } from '../../src/spec/errors.js';
import { HAS_SHARED, needsShared, ROOT, SHARED } from '../support/paths.js';
import { useTempCacheDir } from '../support/cache-dir.js';

describe.skipIf(!HAS_SHARED)(needsShared('validated tasks kept on disk'), () => {
  const tempDir = useTempCacheDir('sg-taskcache-');
  const copies = () => (fs.existsSync(path.join(tempDir(), 'cache', 'validated-db')) ? fs.readdirSync(path.join(tempDir(), 'cache', 'validated-db')) : []);

  it('reads an unchanged file back without reading it; each call gets its own array', () => {
    const f = path.join(tempDir(), 'tasks.json');
    fs.copyFileSync(path.join(SHARED, 'peers/tau2/airline/tasks.json'), f);
    const first = loadTau2Tasks(f);
    expect(first).toHaveLength(50);
    expect(copies()).toHaveLength(1);
    const read = vi.spyOn(fs, 'readFileSync');
    try {
      const again = loadTau2Tasks(f);
      expect(read.mock.calls.filter(([p]) => p === f)).toEqual([]);
      expect(again).toEqual(first);
      expect(again).not.toBe(first);
      again[0].id = 'changed';
      expect(loadTau2Tasks(f)[0].id).toBe(first[0].id);
    } finally {
      read.mockRestore();
    }
  });

  it('a file edited after a cached run gives the new content', () => {
    const f = path.join(tempDir(), 'tasks.json');
    const tasks = JSON.parse(fs.readFileSync(f, 'utf8'));
    expect((loadTau2Tasks(f)[0].user_scenario.instructions as { reason_for_call: string }).reason_for_call).not.toBe('A changed reason.');
    tasks[0].user_scenario.instructions.reason_for_call = 'A changed reason.';
    fs.writeFileSync(f, JSON.stringify(tasks, null, 2));
    expect((loadTau2Tasks(f)[0].user_scenario.instructions as { reason_for_call: string }).reason_for_call).toBe('A changed reason.');
    expect(copies()).toHaveLength(2);
  });

  it('a malformed file is still reported with its file and JSON path, and is not cached', () => {
    const f = path.join(tempDir(), 'tasks.json');
    const tasks = JSON.parse(fs.readFileSync(f, 'utf8'));
    loadTau2Tasks(f);
    tasks[3].bogus = 1;
    fs.writeFileSync(f, JSON.stringify(tasks));
    const n = copies().length;
    expect(() => loadTau2Tasks(f)).toThrow(BadInputError);
    expect(() => loadTau2Tasks(f)).toThrow(`${f} at $[3].bogus`);
    tasks.splice(3, 1);
    tasks[4].id = tasks[0].id;
    fs.writeFileSync(f, JSON.stringify(tasks));
    expect(() => loadTau2Tasks(f)).toThrow(`${f} at $[4].id: duplicate task id '${tasks[0].id}' (first at $[0])`);
    expect(copies()).toHaveLength(n);
  });

  it('SERVICEGYM_CACHE_DIR=off: validate keeps no copy and still reads the edited file', () => {
    const folder = path.join(tempDir(), 'folder');
    fs.mkdirSync(folder);
    for (const name of ['db.json', 'policy.md', 'tasks.json']) fs.copyFileSync(path.join(SHARED, 'peers/tau2/airline', name), path.join(folder, name));
    const off = path.join(tempDir(), 'off');
    const validate = () => spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src', 'cli', 'bin.ts'), 'validate', '--data-dir', folder, '--tasks', '0', '--no-store', '-q', '--json'], { cwd: ROOT, env: { ...process.env, SERVICEGYM_CACHE_DIR: 'off', HOME: off, XDG_CACHE_HOME: off }, encoding: 'utf8', timeout: 120_000 });
    expect(validate().status).toBe(0);
    const tasks = JSON.parse(fs.readFileSync(path.join(folder, 'tasks.json'), 'utf8'));
    tasks[0].bogus = true;
    fs.writeFileSync(path.join(folder, 'tasks.json'), JSON.stringify(tasks));
    const r = validate();
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${path.join(folder, 'tasks.json')} at $[0].bogus`);
    expect(fs.existsSync(off)).toBe(false);
  }, 240_000);
});

describe('copies kept on disk are pruned', () => {
  const tempDir = useTempCacheDir('sg-taskcache-prune-');

  it('writing a copy removes those older than a week and keeps at most the newest 32', () => {
    const copies = path.join(tempDir(), 'cache', 'validated-db');
    fs.mkdirSync(copies, { recursive: true });
    const old = path.join(copies, `${'a'.repeat(64)}-${'b'.repeat(16)}.copy`);
    fs.writeFileSync(old, 'x');
    fs.utimesSync(old, new Date(Date.now() - 8 * 24 * 3600e3), new Date(Date.now() - 8 * 24 * 3600e3));
    const task = { id: 't0', user_scenario: { instructions: 'Ask for a refund.' }, evaluation_criteria: { actions: [], reward_basis: ['DB'] } };
    for (let i = 0; i < 40; i++) {
      const f = path.join(tempDir(), `tasks-${i}.json`);
      fs.writeFileSync(f, JSON.stringify([{ ...task, id: `t${i}` }]));
      expect(loadTau2Tasks(f)[0].id).toBe(`t${i}`);
    }
    const left = fs.readdirSync(copies);
    expect(left).not.toContain(path.basename(old));
    expect(left).toHaveLength(32);
    expect(loadTau2Tasks(path.join(tempDir(), 'tasks-39.json'))[0].id).toBe('t39');
  });
});
