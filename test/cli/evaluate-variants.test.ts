/**
 * A run's dataset variant travels with its export: tau2 telecom run (validate: the oracle agent)
 * in its default form, in solo mode (the agent does the phone-side steps itself, with the user
 * tools and `done`) and with the workflow policy; the run's config records `dataset_variant`, the
 * export writes it on every line, and `evaluate` loads the dataset with it, so every episode
 * scores the evaluation the run stored with every recorded tool output reproduced. A file
 * without the field (an export made before it existed) is replayed in the variant
 * `--policy-variant` / `--solo` name; a variant the domain does not offer is exit 2.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectStoredVerdicts, exportStoredRun, type ScoredTrajectory } from '../support/export-roundtrip.js';
import { HAS_SHARED, needsShared, SHARED, tmpDir } from '../support/paths.js';
import { RunStore } from '../../src/store/store.js';
import type { EpisodeRunLog } from '../../src/spec/run-log.js';
import { datasetVariantConfig, parseDatasetVariant, runDatasetVariant } from '../../src/cli/dataset-variant.js';

const DATA = path.join(SHARED, 'peers', 'tau2', 'telecom');
const TASKS = ['[mobile_data_issue]data_saver_mode_on[PERSONA:Easy]', '[service_issue]overdue_bill_suspension[PERSONA:Easy]'];
const dir = tmpDir('sg-evaluate-variants-');
const db = path.join(dir, 'store.db');
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Scored = ScoredTrajectory<{ replayed: unknown }>;

/** Runs the oracle with `flags` (validate stores the run), exports it; the stored records in the export's line order. */
async function runAndExport(name: string, flags: string[]): Promise<{ runId: string; records: EpisodeRunLog[]; file: string; lines: Record<string, unknown>[] }> {
  const v = await runCli(['validate', '--domain', 'telecom', '--data-dir', DATA, ...flags, '--tasks', TASKS.join(','), '--db', db, '-q', '--json']);
  expect(v.code, v.err).toBe(0);
  const runId = (JSON.parse(v.out) as { run_id: string }).run_id;
  const store = RunStore.open(db, { readonly: true });
  let summary: unknown;
  try {
    summary = store.getRun(runId)!.summary;
  } finally {
    store.close();
  }
  expect(runDatasetVariant(summary)).toEqual(datasetVariantConfig(flagsOf(flags)).dataset_variant ?? {});
  const file = path.join(dir, `${name}.jsonl`);
  return { runId, ...(await exportStoredRun(db, runId, file)), file };
}

function flagsOf(flags: string[]): { policyVariant?: string; solo?: boolean } {
  const i = flags.indexOf('--policy-variant');
  return { ...(i >= 0 ? { policyVariant: flags[i + 1] } : {}), ...(flags.includes('--solo') ? { solo: true } : {}) };
}

async function evaluate(file: string, extra: string[] = [], domain = 'telecom', dataDir = DATA): Promise<{ code: number; scored: Scored[]; err: string }> {
  const r = await runCli(['evaluate', file, '--domain', domain, '--data-dir', dataDir, '--json', '-q', ...extra]);
  return { code: r.code, scored: r.out ? (JSON.parse(r.out) as Scored[]) : [], err: r.err };
}

const stripVariant = (lines: Record<string, unknown>[], file: string): string => {
  fs.writeFileSync(file, lines.map(({ dataset_variant: _v, ...l }) => JSON.stringify(l)).join('\n') + '\n');
  return file;
};

describe('dataset variant of a run, as recorded and read', () => {
  it('records only a variant that is not the default, and reads back what it recorded', () => {
    expect(datasetVariantConfig({})).toEqual({});
    expect(datasetVariantConfig({ solo: false })).toEqual({});
    expect(datasetVariantConfig({ solo: true, policyVariant: 'workflow' })).toEqual({ dataset_variant: { policy: 'workflow', solo: true } });
    expect(runDatasetVariant({ dataset_variant: { solo: true } })).toEqual({ solo: true });
    expect(runDatasetVariant({ surface: 'api' })).toEqual({});
    expect(runDatasetVariant(null)).toEqual({});
    expect(parseDatasetVariant({ policy: 'workflow', solo: false })).toEqual({ variant: { policy: 'workflow' } });
    expect(parseDatasetVariant({ solo: 'yes' })).toEqual({ error: 'dataset_variant.solo: expected a boolean' });
    expect(parseDatasetVariant({ mode: 'x' })).toEqual({ error: 'dataset_variant: unknown key(s) "mode" (known: policy, solo)' });
    expect(parseDatasetVariant([])).toHaveProperty('error');
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('run -> export-trajectories -> evaluate in each tau2 telecom variant gives the stored verdicts'), () => {
  const exports = new Map<string, Awaited<ReturnType<typeof runAndExport>>>();
  const VARIANTS: Record<string, { flags: string[]; line: unknown }> = {
    default: { flags: [], line: undefined },
    solo: { flags: ['--solo'], line: { solo: true } },
    workflow: { flags: ['--policy-variant', 'workflow'], line: { policy: 'workflow' } },
  };

  for (const [name, { flags, line }] of Object.entries(VARIANTS)) {
    it(`${name}: the export carries the variant and evaluate gives the stored verdicts`, async () => {
      const x = await runAndExport(name, flags);
      exports.set(name, x);
      expect(x.lines.map((l) => l.dataset_variant)).toEqual(TASKS.map(() => line));
      expect(x.records.every((r) => r.evaluation?.kind === 'task' && r.evaluation.reward === 1)).toBe(true);
      const { code, scored, err } = await evaluate(x.file);
      expect(code, err).toBe(0);
      expectStoredVerdicts(scored, x.records);
    }, 300_000);
  }

  it('solo: the agent called phone-side tools, which a replay in the default dataset does not have; --solo replays a file without the variant', async () => {
    const solo = exports.get('solo') ?? (await runAndExport('solo', ['--solo']));
    const bare = stripVariant(solo.lines, path.join(dir, 'solo-bare.jsonl'));
    const plain = await evaluate(bare);
    expect(plain.code).toBe(1);
    expect(plain.scored.flatMap((s) => s.tool_output_differences.map((d) => d.replayed))).toContain("Error: Tool 'make_payment' not found.");
    expect(plain.scored.some((s) => s.evaluation?.reward === 0)).toBe(true);
    const flagged = await evaluate(bare, ['--solo']);
    expect(flagged.code, flagged.err).toBe(0);
    expectStoredVerdicts(flagged.scored, solo.records);
    // The flags replace the line's variant: the workflow policy without solo mode lacks the tools again.
    const replaced = await evaluate(solo.file, ['--policy-variant', 'workflow']);
    expect(replaced.code).toBe(1);
  }, 300_000);

  it('one file mixing variants: each line is replayed in its own', async () => {
    const solo = exports.get('solo') ?? (await runAndExport('solo', ['--solo']));
    const plain = exports.get('default') ?? (await runAndExport('default', []));
    const mixed = path.join(dir, 'mixed.jsonl');
    fs.writeFileSync(mixed, [plain.lines[0], solo.lines[0], plain.lines[1], solo.lines[1]].map((l) => JSON.stringify(l)).join('\n') + '\n');
    const { code, scored, err } = await evaluate(mixed);
    expect(code, err).toBe(0);
    expectStoredVerdicts(scored, [plain.records[0], solo.records[0], plain.records[1], solo.records[1]]);
  }, 300_000);

  it('refuses a variant the domain does not offer and a malformed one (exit 2, nothing scored)', async () => {
    const messages = [{ role: 'assistant', content: 'Hi! How can I help you today?' }, { role: 'user', content: 'Hello. ###STOP###' }];
    const unknown = path.join(dir, 'unknown-variant.jsonl');
    fs.writeFileSync(unknown, [JSON.stringify({ task_id: TASKS[0], messages }), JSON.stringify({ task_id: TASKS[1], dataset_variant: { policy: 'nope' }, messages })].join('\n') + '\n');
    const bad = await evaluate(unknown);
    expect([bad.code, bad.scored]).toEqual([2, []]);
    expect(bad.err).toContain(`${unknown}:2: dataset_variant {"policy":"nope"}: domain 'telecom' has no policy variant 'nope' (known: manual, workflow)`);
    const flag = await evaluate(unknown, ['--policy-variant', 'nope']);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("domain 'telecom' has no policy variant 'nope' (known: manual, workflow)");
    const malformed = path.join(dir, 'malformed-variant.jsonl');
    fs.writeFileSync(malformed, JSON.stringify({ task_id: TASKS[0], dataset_variant: { solo: 'yes' }, messages }) + '\n');
    const m = await evaluate(malformed);
    expect([m.code, m.scored]).toEqual([2, []]);
    expect(m.err).toContain(`${malformed}:1: dataset_variant.solo: expected a boolean`);
    const airline = path.join(dir, 'airline.jsonl');
    fs.writeFileSync(airline, JSON.stringify({ task_id: '0', messages }) + '\n');
    const noSolo = await evaluate(airline, ['--solo'], 'airline', path.join(SHARED, 'peers', 'tau2', 'airline'));
    expect(noSolo.code).toBe(2);
    expect(noSolo.err).toContain("domain 'airline' has no solo mode");
  }, 120_000);
});
