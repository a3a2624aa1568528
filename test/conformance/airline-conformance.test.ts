/**
 * Conformance with tau2 on the airline train reference (needs ../shared): all 25 tasks
 * identical (outputs, error flags, per-field diff, initial and final hash), through the library
 * and through `servicegym conformance`; a tampered reference is reported and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadAirline } from '../../src/domains/airline/index.js';
import { readReference } from '../../src/conformance/reference.js';
import { runConformance } from '../../src/conformance/run.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const AIRLINE_DIR = path.join(SHARED, 'peers', 'tau2', 'airline');
const REFERENCE = path.join(SHARED, 'peers', 'tau2', 'reference', 'airline.train.jsonl');

const cli = runCli;

afterEach(() => vi.restoreAllMocks());

describe.skipIf(!HAS_SHARED)(needsShared('airline conformance with tau2'), () => {
  it('25/25 tasks identical', async () => {
    const report = (await runConformance({ loaded: loadAirline({ dataDir: AIRLINE_DIR }), reference: readReference(REFERENCE) }));
    const bad = report.tasks.filter((t) => !t.ok).map((t) => t.task_id);
    expect(bad).toEqual([]);
    expect([report.identical, report.total]).toEqual([25, 25]);
    // every task checked both hashes and the diff
    for (const t of report.tasks) expect([t.initialHash?.ok, t.finalHash?.ok, t.diff?.ok]).toEqual([true, true, true]);
    expect(report.tasks.reduce((n, t) => n + t.actions.length, 0)).toBe(84);
  });

  it('`servicegym conformance` prints one line per task and the summary; exit 0', async () => {
    const r = await cli(['conformance', '--domain', 'airline', '--data-dir', AIRLINE_DIR, '--reference', REFERENCE]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(26);
    expect(lines[0]).toBe('task 1: ok (2 actions)');
    expect(lines.at(-1)).toBe('conformance: 25/25 tasks identical');
  });

  it('--json prints the report', async () => {
    const r = await cli(['conformance', '--domain', 'airline', '--data-dir', AIRLINE_DIR, '--reference', REFERENCE, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect([j.domain, j.identical, j.total]).toEqual(['airline', 25, 25]);
  });

  it('a tampered reference: the differing action, character, diff and hash are reported; exit 1', async () => {
    const lines = fs.readFileSync(REFERENCE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const t11 = lines.find((l) => l.task_id === '11');
    t11.actions[0].output = t11.actions[0].output.replace('"cabin": "basic_economy"', '"cabin": "basic_economz"');
    t11.diff[0].after = 1.5;
    t11.final_db_hash = '0'.repeat(64);
    const file = path.join(tmpDir('sg-ref-'), 'tampered.jsonl');
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const r = await cli(['conformance', '--domain', 'airline', '--data-dir', AIRLINE_DIR, '--reference', file]);
    expect(r.code).toBe(1);
    const line = r.stdout.split('\n').find((l) => l.startsWith('task 11:'))!;
    const at = t11.actions[0].output.indexOf('economz') + 'econom'.length;
    expect(line).toContain(`action 0 update_reservation_flights: output differs at char ${at}`);
    expect(line).toContain('diff mismatch: 1 missing, 1 extra');
    expect(line).toContain('final hash 045abae0');
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('conformance: 24/25 tasks identical');
  });
});
