/**
 * Conformance with tau2 on the retail train reference (needs ../shared): all 72 tasks identical
 * (outputs — including the gold read calls that return errors — error flags, per-field diff,
 * initial and final hash), through the library and through `servicegym conformance`; a tampered
 * reference is reported and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadRetail } from '../../src/domains/retail/index.js';
import { readReference } from '../../src/conformance/reference.js';
import { runConformance } from '../../src/conformance/run.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const RETAIL_DIR = path.join(SHARED, 'peers', 'tau2', 'retail');
const REFERENCE = path.join(SHARED, 'peers', 'tau2', 'reference', 'retail.train.jsonl');

const cli = runCli;

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!HAS_SHARED)(needsShared('retail conformance with tau2'), () => {
  it('72/72 tasks identical', async () => {
    const report = (await runConformance({ loaded: loadRetail({ dataDir: RETAIL_DIR }), reference: readReference(REFERENCE) }));
    expect(report.tasks.filter((t) => !t.ok).map((t) => t.task_id)).toEqual([]);
    expect([report.identical, report.total]).toEqual([72, 72]);
    for (const t of report.tasks) expect([t.initialHash?.ok, t.finalHash?.ok, t.diff?.ok]).toEqual([true, true, true]);
    const actions = report.tasks.flatMap((t) => t.actions);
    expect(actions.every((a) => a.matched === 'output')).toBe(true);
    expect(actions.filter((a) => a.got.error)).toHaveLength(13); // the train split's failing gold calls
  });

  it('`servicegym conformance` prints one line per task and the summary; exit 0', async () => {
    const r = await cli(['conformance', '--domain', 'retail', '--data-dir', RETAIL_DIR, '--reference', REFERENCE]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(73);
    expect(lines[0]).toBe('task 0: ok (5 actions)');
    expect(lines.at(-1)).toBe('conformance: 72/72 tasks identical');
  });

  it('a tampered reference: the differing action and the hash are reported; exit 1', async () => {
    const lines = fs.readFileSync(REFERENCE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const t3 = lines.find((l) => l.task_id === '3');
    const i = t3.actions.findIndex((a: { name: string }) => a.name === 'modify_pending_order_items');
    t3.actions[i].output = t3.actions[i].output.replace('0.04999999999999716', '0.05');
    t3.final_db_hash = '0'.repeat(64);
    const file = path.join(tmpDir('sg-ref-'), 'tampered.jsonl');
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await cli(['conformance', '--domain', 'retail', '--data-dir', RETAIL_DIR, '--reference', file]);
    expect(r.code).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.startsWith('task 3:'))!;
    expect(line).toContain(`action ${i} modify_pending_order_items: output differs at char`);
    expect(line).toContain('final hash ');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('conformance: 71/72 tasks identical');
  });
});
