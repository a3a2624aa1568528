/**
 * An empty task selection is bad input, never "every task": `--tasks ''` or `"tasks": []` in a
 * `--config` file (e.g. a generated CI config whose list came out empty) must not start a run of
 * the whole dataset.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { selectRunTasks } from '../../src/cli/run-options.js';
import { BadInputError } from '../../src/spec/errors.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

const dir = tmpDir('sg-empty-selection-');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const NONE = { limit: null, sample: null, seed: 0 };

describe('an empty --tasks', () => {
  it('is bad input for the flag, blank or only commas', () => {
    const loaded = loadDomain('airline');
    for (const flag of ['', ' ', ',', ' , ']) expect(() => selectRunTasks(loaded, flag, NONE)).toThrow(BadInputError);
    expect(() => selectRunTasks(loaded, '', NONE)).toThrow("--tasks names no task (got '')");
    expect(selectRunTasks(loaded, undefined, NONE).length).toBe(loaded.tasks.length);
  });

  it('"tasks": [] in a config file is exit 2 naming the file and path, and nothing is stored', async () => {
    const cfg = path.join(dir, 'run.json');
    fs.writeFileSync(cfg, JSON.stringify({ tasks: [], 'agent-model': 'm', 'user-model': 'm', 'base-url': 'http://127.0.0.1:9/v1', db: 'store.db' }));
    const r = await runCli(['run', '--config', cfg, '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${cfg} at $.tasks: expected a non-empty list`);
    expect(fs.existsSync(path.join(dir, 'store.db'))).toBe(false);
  });
});
