/**
 * Loading tau2's retail folder (needs ../shared): the pristine DB hash equals tau2's, the gold
 * actions replay with exactly the errors tau2's gold trajectories have, `validate` scores every
 * deterministic component 1 (NL assertions reported as not judged), and malformed files exit 2
 * naming the file and the JSON path. Without a data folder the package says the servicegym
 * dataset is not available yet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { loadDomain } from '../../../src/domains/index.js';
import { loadRetail, retailDbHash, type RetailState } from '../../../src/domains/retail/index.js';
import { Environment } from '../../../src/env/environment.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../../support/paths.js';
import { runCli } from '../../support/cli.js';

const RETAIL_DIR = path.join(SHARED, 'peers', 'tau2', 'retail');
const REFERENCE = path.join(SHARED, 'peers', 'tau2', 'reference', 'retail.train.jsonl');
const PRISTINE_HASH = 'b25c9cb211f5efcaee5dd646054a73c4a9f43f4f5acc32c10713cd9f9ac20e9c';

/** Runs `servicegym …args` in process, capturing stdout and stderr. */
const cli = runCli;

afterEach(() => vi.restoreAllMocks());

/** A copy of the retail folder in a temp dir; `db.json` linked unless `dbText` is given. */
function retailCopy(opts: { tasks?: string; dbText?: string } = {}): string {
  const dir = tmpDir('sg-retail-');
  fs.copyFileSync(path.join(RETAIL_DIR, 'policy.md'), path.join(dir, 'policy.md'));
  fs.writeFileSync(path.join(dir, 'tasks.json'), opts.tasks ?? fs.readFileSync(path.join(RETAIL_DIR, 'tasks.json'), 'utf8'));
  if (opts.dbText !== undefined) fs.writeFileSync(path.join(dir, 'db.json'), opts.dbText);
  else fs.symlinkSync(path.join(RETAIL_DIR, 'db.json'), path.join(dir, 'db.json'));
  return dir;
}

const conformance = (dir: string) => cli(['conformance', '--domain', 'retail', '--data-dir', dir, '--reference', REFERENCE]);

describe('retail package without a data folder', () => {
  it("loads servicegym's own dataset: five seed tasks and the servicegym tools", async () => {
    const l = loadDomain('retail');
    expect(l.mode).toBe('servicegym');
    expect(l.tasks.map((t) => t.id)).toEqual(['T04', 'T05', 'T06', 'T13', 'T16']);
    const names = l.domain.tools.map((t) => t.name);
    for (const n of ['cancel_pending_order_item', 'exchange_and_return_delivered_order_items', 'add_payment_method']) expect(names).toContain(n);
    expect(l.now).toBe('2026-10-14T15:00:00');
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('tau2 retail folder'), () => {
  it("loads 114 tasks, the policy and 16 tools; the pristine DB hash equals tau2's", async () => {
    const loaded = loadRetail({ dataDir: RETAIL_DIR });
    expect([loaded.mode, loaded.now, loaded.tasks.length, loaded.domain.tools.length]).toEqual(['tau2', undefined, 114, 16]);
    expect(loaded.policy).toBe(fs.readFileSync(path.join(RETAIL_DIR, 'policy.md'), 'utf8'));
    expect(retailDbHash(loaded.domain.initialState())).toBe(PRISTINE_HASH);
    expect(loadRetail({ dataDir: RETAIL_DIR }).domain.initialState().base).toBe(loaded.domain.initialState().base);
  });

  it('the gold actions of the 112 tasks with actions fail only where tau2\'s gold calls fail', async () => {
    const loaded = loadRetail({ dataDir: RETAIL_DIR });
    const failures: string[] = [];
    let n = 0;
    for (const task of loaded.tasks) {
      const env = new Environment<RetailState>(loaded.domain, { now: '1970-01-01T00:00:00' });
      for (const a of task.evaluation_criteria?.actions ?? []) {
        n++;
        const r = (await env.execute({ id: a.action_id, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } }, a.requestor));
        if (r.error) failures.push(`${a.action_id} ${r.output}`);
      }
    }
    expect(n).toBe(550);
    // 18 failing gold calls in 15 tasks, as the reference README counts them: reads of wrong ids,
    // and two writes tau2 itself rejects
    expect(failures).toHaveLength(18);
    expect(new Set(failures.map((f) => f.split('_')[0])).size).toBe(15);
    expect(failures.filter((f) => !/^\d+_\d+ Error: (Product|User|Order) not found$/.test(f))).toEqual([
      '64_6 Error: Non-delivered order cannot be exchanged',
      '106_0 Error: Insufficient gift card balance to pay for the price difference',
    ]);
  });

  it('validate: every task scores 1 on every deterministic component; NL assertions are listed as not judged; exit 1 (not at reward 1) unless --allow-not-judged', async () => {
    const strictRule = await cli(['validate', '--domain', 'retail', '--data-dir', RETAIL_DIR, '--no-store', '-q', '--tasks', '0,2,57']);
    expect(strictRule.code).toBe(1);
    expect(strictRule.stderr).toMatch(/^servicegym: \d episode\(s\) not judged are not at reward 1, so validate fails; give --judge-model to judge them, or --allow-not-judged/m);
    const r = await cli(['validate', '--domain', 'retail', '--data-dir', RETAIL_DIR, '--no-store', '-q', '--allow-not-judged']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^validate: 74\/114 tasks score reward 1 and partial 100%, 40 not judged \(NL assertions need --judge-model; every other component scores 1\) \(\d+\.\d tasks\/s\)$/);
    const nl = lines.find((l) => l.startsWith('NL not judged (no --judge-model): '))!;
    expect(nl.split(': ')[1].split(', ')).toHaveLength(40);
    expect(r.stdout).not.toContain('failing checks'); // no table of failing tasks
    expect(r.stdout).toContain('40 not judged)');
    expect(r.stdout).toContain('(reward mean a lower bound: 40 episode(s) not judged count 0; judge them with --judge-model)');
  });

  it('validate --personas: the "NL not judged" line names each task once, not once per persona', async () => {
    const r = await cli(['validate', '--domain', 'retail', '--data-dir', RETAIL_DIR, '--no-store', '-q', '--tasks', '0,2,57', '--personas', 'impatient,vague', '--allow-not-judged']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('\nNL not judged (no --judge-model): 2\n');
    expect(r.stdout).toContain('validate: 4/6 episodes (3 tasks × 2 personas) score reward 1 and partial 100%, 2 not judged');
  });

  it('validate --json: not-judged tasks carry reward null and only the NL check not passed', async () => {
    const r = await cli(['validate', '--domain', 'retail', '--data-dir', RETAIL_DIR, '--no-store', '-q', '--json', '--tasks', '0,2,57', '--allow-not-judged']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.tasks.map((t: { task_id: string; reward: number | null; not_judged: boolean }) => [t.task_id, t.reward, t.not_judged])).toEqual([
      ['0', 1, false],
      ['2', null, true],
      ['57', 1, false],
    ]);
    expect(j.tasks[1].failing.map((f: { id: string; verdict: string }) => `${f.id} ${f.verdict}`)).toEqual(['tau2_nl_assertion not_judged']);
  });

  it('a task with an unknown field: exit 2 naming tasks.json and $[3].foo', async () => {
    const tasks = JSON.parse(fs.readFileSync(path.join(RETAIL_DIR, 'tasks.json'), 'utf8'));
    tasks[3].foo = 1;
    const dir = retailCopy({ tasks: JSON.stringify(tasks, null, 2) });
    const r = await conformance(dir);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`servicegym: error: ${path.join(dir, 'tasks.json')} at $[3].foo: Unrecognized key: "foo"\n`);
  });

  it('a variant price given as a string: exit 2 naming db.json and the path', async () => {
    const db = JSON.parse(fs.readFileSync(path.join(RETAIL_DIR, 'db.json'), 'utf8'));
    db.products['1656367028'].variants['1151293680'].price = '272.33';
    const dir = retailCopy({ dbText: JSON.stringify(db) });
    const r = await cli(['validate', '--domain', 'retail', '--data-dir', dir, '--no-store', '-q']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`servicegym: error: ${path.join(dir, 'db.json')} at $.products["1656367028"].variants["1151293680"].price: Invalid input: expected number, received string\n`);
  });

  it('an unknown order status and a truncated db.json: exit 2 naming the file and the JSON path', async () => {
    const db = JSON.parse(fs.readFileSync(path.join(RETAIL_DIR, 'db.json'), 'utf8'));
    db.orders['#W2611340'].status = 'shipped';
    const r = await conformance(retailCopy({ dbText: JSON.stringify(db) }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('db.json at $.orders["#W2611340"].status: Invalid option');
    const text = fs.readFileSync(path.join(RETAIL_DIR, 'db.json'), 'utf8');
    const dir = retailCopy({ dbText: text.slice(0, text.indexOf('"orders": {') + 3000) });
    const t = await conformance(dir);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(new RegExp(`^servicegym: error: ${path.join(dir, 'db.json').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at \\$\\.orders\\["#W\\d+"\\].*: invalid JSON \\(\\w+\\) at line \\d+, column \\d+`));
  });
});
