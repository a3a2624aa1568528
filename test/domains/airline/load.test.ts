/**
 * Loading tau2's airline folder (needs ../shared): the pristine DB hash equals tau2's, all gold
 * actions replay without errors, and malformed files exit 2 naming the file and the JSON path.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { loadDomain } from '../../../src/domains/index.js';
import { AIRLINE_TAU2_NOW, airlineDbHash, loadAirline, type AirlineState } from '../../../src/domains/airline/index.js';
import { AIRLINE_DB_TYPES } from '../../../src/domains/airline/schema.js';
import { Environment } from '../../../src/env/environment.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { pyDumps } from '../../../src/util/pyjson.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../../support/paths.js';
import { runCli } from '../../support/cli.js';

const AIRLINE_DIR = path.join(SHARED, 'peers', 'tau2', 'airline');
const REFERENCE = path.join(SHARED, 'peers', 'tau2', 'reference', 'airline.train.jsonl');
const PRISTINE_HASH = '8f43f67512d22babc541ae00354b4bfb43dbf42f7a8dfedcdc6f60e56f1e3c84';

/** Runs `servicegym …args` in process, capturing stdout and stderr. */
const cli = runCli;

afterEach(() => vi.restoreAllMocks());

/** A copy of the airline folder in a temp dir; `db.json` linked unless `dbText` is given. */
function airlineCopy(opts: { tasks?: string; dbText?: string } = {}): string {
  const dir = tmpDir('sg-airline-');
  fs.copyFileSync(path.join(AIRLINE_DIR, 'policy.md'), path.join(dir, 'policy.md'));
  fs.writeFileSync(path.join(dir, 'tasks.json'), opts.tasks ?? fs.readFileSync(path.join(AIRLINE_DIR, 'tasks.json'), 'utf8'));
  if (opts.dbText !== undefined) fs.writeFileSync(path.join(dir, 'db.json'), opts.dbText);
  else fs.symlinkSync(path.join(AIRLINE_DIR, 'db.json'), path.join(dir, 'db.json'));
  return dir;
}

const conformance = (dir: string) => cli(['conformance', '--domain', 'airline', '--data-dir', dir, '--reference', REFERENCE]);

describe('airline package without a data folder', () => {
  it("loads servicegym's own dataset: five seed tasks, 16 tools, its own now", async () => {
    const l = loadDomain('airline');
    expect(l.mode).toBe('servicegym');
    expect(l.tasks.map((t) => t.id)).toEqual(['T01', 'T02', 'T03', 'T15', 'T17']);
    expect(l.domain.tools.map((t) => t.name)).toContain('change_flights_split_payment');
    expect(l.now).toBe('2026-10-14T15:00:00');
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('tau2 airline folder'), () => {
  it('loads 50 tasks, the policy and 14 tools; the pristine DB hash equals tau2\'s', async () => {
    const loaded = loadAirline({ dataDir: AIRLINE_DIR });
    expect(loaded.mode).toBe('tau2');
    expect(loaded.tasks).toHaveLength(50);
    expect(loaded.policy).toBe(fs.readFileSync(path.join(AIRLINE_DIR, 'policy.md'), 'utf8'));
    expect(loaded.domain.tools).toHaveLength(14);
    expect(airlineDbHash(loaded.domain.initialState())).toBe(PRISTINE_HASH);
    // validated once per process: a second load shares the same DB object
    expect(loadAirline({ dataDir: AIRLINE_DIR }).domain.initialState().base).toBe(loaded.domain.initialState().base);
  });

  it('every gold action of the 43 tasks with actions replays without error; hashes match a full dump', async () => {
    const loaded = loadAirline({ dataDir: AIRLINE_DIR });
    const withActions = loaded.tasks.filter((t) => (t.evaluation_criteria?.actions ?? []).length > 0);
    expect(withActions).toHaveLength(43);
    for (const task of withActions) {
      const env = new Environment<AirlineState>(loaded.domain, { now: AIRLINE_TAU2_NOW });
      for (const a of task.evaluation_criteria!.actions!) {
        const r = (await env.execute({ id: a.action_id, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } }, a.requestor));
        expect(r.error, `task ${task.id} ${a.name}: ${r.output}`).toBe(false);
      }
      if (task.id === '23' || task.id === '11') {
        const full = pyDumps(env.state.materialize(), { sortKeys: true, ensureAscii: true, types: AIRLINE_DB_TYPES });
        expect(env.stateHash()).toBe(createHash('sha256').update(full).digest('hex'));
      }
    }
  });

  it('a task with an unknown field: exit 2 naming tasks.json and $[3].foo', async () => {
    const tasks = JSON.parse(fs.readFileSync(path.join(AIRLINE_DIR, 'tasks.json'), 'utf8'));
    tasks[3].foo = 1;
    const dir = airlineCopy({ tasks: JSON.stringify(tasks, null, 2) });
    const r = await conformance(dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`servicegym: error: ${path.join(dir, 'tasks.json')} at $[3].foo: Unrecognized key: "foo"\n`);
  });

  it('a gift card amount given as a string: exit 2 naming db.json and the path', async () => {
    const db = JSON.parse(fs.readFileSync(path.join(AIRLINE_DIR, 'db.json'), 'utf8'));
    db.users.raj_sanchez_7340.payment_methods.gift_card_4964153.amount = '163';
    const dir = airlineCopy({ dbText: JSON.stringify(db) });
    const r = await conformance(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `servicegym: error: ${path.join(dir, 'db.json')} at $.users.raj_sanchez_7340.payment_methods.gift_card_4964153.amount: Invalid input: expected number, received string\n`,
    );
  });

  it('a truncated db.json: exit 2 naming the file, the JSON path and line', async () => {
    const text = fs.readFileSync(path.join(AIRLINE_DIR, 'db.json'), 'utf8');
    const cut = text.slice(0, text.indexOf('\n    "reservations": {') + 2000);
    const dir = airlineCopy({ dbText: cut });
    const r = await conformance(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^servicegym: error: ${path.join(dir, 'db.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at \\$\\.reservations\\.\\w+.*: invalid JSON \\(\\w+\\) at line \\d+, column \\d+`));
  });

  it('a missing folder or reference file: exit 2', async () => {
    expect((await conformance(path.join(tmpDir(), 'nope'))).code).toBe(2);
    const r = await cli(['conformance', '--domain', 'airline', '--data-dir', AIRLINE_DIR, '--reference', path.join(tmpDir(), 'none.jsonl')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('none.jsonl: file not found');
  });
});
