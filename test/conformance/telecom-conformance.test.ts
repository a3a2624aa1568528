/**
 * Conformance with tau2 on the telecom train reference (needs ../shared): all 74 tasks identical
 * — outputs and error flags, the agent-DB and user-DB diffs, all four hashes — on tau2's
 * evaluator path (gold replay without the sync) and on its live path (sync after every call),
 * through the library and through `servicegym conformance`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTau2Telecom } from '../../src/domains/telecom/index.js';
import { readReference } from '../../src/conformance/reference.js';
import { runConformance } from '../../src/conformance/run.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { runCli } from '../support/cli.js';

const DIR = path.join(SHARED, 'peers', 'tau2', 'telecom');
const REFERENCE = path.join(SHARED, 'peers', 'tau2', 'reference', 'telecom.train.jsonl');

describe.skipIf(!HAS_SHARED)(needsShared('telecom conformance with tau2'), () => {
  it("74/74 identical on tau2's evaluator path: outputs, both diffs, both DBs' hashes", async () => {
    const report = await runConformance({ loaded: loadTau2Telecom({ dataDir: DIR }), reference: readReference(REFERENCE) });
    expect(report.tasks.filter((t) => !t.ok).map((t) => t.task_id)).toEqual([]);
    expect([report.identical, report.total]).toEqual([74, 74]);
    for (const t of report.tasks) {
      expect([t.initialHash?.ok, t.initialUserHash?.ok, t.finalHash?.ok, t.finalUserHash?.ok, t.diff?.ok, t.userDiff?.ok]).toEqual([true, true, true, true, true, true]);
    }
    const actions = report.tasks.flatMap((t) => t.actions);
    expect(actions).toHaveLength(354);
    // make_payment before the sync raised the request, reseat_sim_card after an unsynced resume_line
    expect(actions.filter((a) => a.matched === 'evaluator_replay_output').map((a) => a.name).sort()).toEqual([
      'make_payment', 'make_payment', 'make_payment', 'reseat_sim_card', 'reseat_sim_card', 'reseat_sim_card',
    ]);
  });

  it("74/74 identical on tau2's live path (--synced): live outputs and live final hashes", async () => {
    const report = await runConformance({ loaded: loadTau2Telecom({ dataDir: DIR }), reference: readReference(REFERENCE), synced: true });
    expect([report.identical, report.total]).toEqual([74, 74]);
    expect(report.tasks.flatMap((t) => t.actions).every((a) => a.matched === 'output')).toBe(true);
  });

  it('`servicegym conformance --domain telecom`: one line per task and the summary; a tampered user-DB hash exits 1', async () => {
    const r = await runCli(['conformance', '--domain', 'telecom', '--data-dir', DIR, '--reference', REFERENCE]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(75);
    expect(lines.at(-1)).toBe('conformance: 74/74 tasks identical');
    const refs = fs.readFileSync(REFERENCE, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    refs[0].final_user_db_hash = '0'.repeat(64);
    refs[0].user_db_diff = [];
    const file = path.join(tmpDir('sg-telecom-ref-'), 'tampered.jsonl');
    fs.writeFileSync(file, refs.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const bad = await runCli(['conformance', '--domain', 'telecom', '--data-dir', DIR, '--reference', file]);
    expect(bad.code).toBe(1);
    const line = bad.stdout.split('\n')[0];
    expect(line).toContain('user-DB diff mismatch: 0 missing, 5 extra');
    expect(line).toContain('final user-DB hash ');
    expect(bad.stdout.trimEnd().split('\n').at(-1)).toBe('conformance: 73/74 tasks identical');
  });
});
