/**
 * The task files shipped with a dataset are validated once and kept on disk (issue 17: start-up):
 * a later process reads the same files' tasks back with one JSON.parse instead of validating them
 * again, exactly as validation made them; an edited file gives its new content, a malformed one is
 * still reported with its file and JSON path (nothing kept for it), and the cache can be off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadBuiltinTasks } from '../../src/domains/common/builtin-dataset.js';
import { SERVICEGYM_AIRLINE_TASK_FILES } from '../../src/domains/airline/servicegym-dataset.js';
import { BadInputError } from '../../src/spec/errors.js';
import { useTempCacheDir } from '../support/cache-dir.js';

const AIRLINE_TASKS = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../src/domains/airline/tasks');

describe('validated built-in task files kept on disk', () => {
  const tempDir = useTempCacheDir('sg-builtin-tasks-');
  const copies = () => {
    const d = path.join(tempDir(), 'cache', 'validated-db');
    return fs.existsSync(d) ? fs.readdirSync(d) : [];
  };

  it('keeps one copy per task-file set and reads back exactly what validation gave, as fresh objects', () => {
    const saved = process.env.SERVICEGYM_CACHE_DIR;
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    const fresh = loadBuiltinTasks(AIRLINE_TASKS, SERVICEGYM_AIRLINE_TASK_FILES);
    process.env.SERVICEGYM_CACHE_DIR = saved;
    expect(copies()).toEqual([]); // off: nothing kept
    const first = loadBuiltinTasks(AIRLINE_TASKS, SERVICEGYM_AIRLINE_TASK_FILES);
    expect(copies()).toHaveLength(1);
    const again = loadBuiltinTasks(AIRLINE_TASKS, SERVICEGYM_AIRLINE_TASK_FILES);
    expect(copies()).toHaveLength(1);
    expect(again).toStrictEqual(fresh);
    expect(first).toStrictEqual(fresh);
    expect(JSON.stringify(again)).toBe(JSON.stringify(fresh));
    expect(again).not.toBe(first);
    again[0].id = 'changed';
    expect(loadBuiltinTasks(AIRLINE_TASKS, SERVICEGYM_AIRLINE_TASK_FILES)[0].id).toBe(fresh[0].id);
  });

  it('an edited file gives its new content; a malformed one is reported with file and path, and kept nowhere', () => {
    const dir = path.join(tempDir(), 'tasks');
    fs.mkdirSync(dir, { recursive: true });
    const files = SERVICEGYM_AIRLINE_TASK_FILES.slice(0, 2);
    for (const f of files) fs.copyFileSync(path.join(AIRLINE_TASKS, f), path.join(dir, f));
    const before = loadBuiltinTasks(dir, files);
    const n = copies().length;
    const edited = JSON.parse(fs.readFileSync(path.join(dir, files[1]), 'utf8'));
    edited.description = { purpose: 'edited' };
    fs.writeFileSync(path.join(dir, files[1]), JSON.stringify(edited));
    expect(loadBuiltinTasks(dir, files)[1].description).toEqual({ purpose: 'edited' });
    expect(before[1].description).not.toEqual({ purpose: 'edited' });
    edited.user_scenario = 5;
    fs.writeFileSync(path.join(dir, files[1]), JSON.stringify(edited));
    const count = copies().length;
    let err: unknown;
    try {
      loadBuiltinTasks(dir, files);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as BadInputError).message).toContain(path.join(dir, files[1]));
    expect((err as BadInputError).message).toContain('user_scenario');
    expect(copies().length).toBe(count);
    expect(count).toBe(n + 1);
    // a duplicate id is still refused
    fs.copyFileSync(path.join(dir, files[0]), path.join(dir, files[1]));
    expect(() => loadBuiltinTasks(dir, files)).toThrow(/duplicate task id/);
  });
});
