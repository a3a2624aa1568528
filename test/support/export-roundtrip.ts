/**
 * Shared steps of the run -> export-trajectories -> evaluate round-trip tests (surfaces and
 * dataset variants): export a stored run, read its records in the export's line order, and
 * check that evaluate scored every trajectory as its episode was stored.
 */
import fs from 'node:fs';
import { expect } from 'vitest';
import { runCli } from './cli.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs } from '../../src/store/run-log.js';
import type { EpisodeRunLog } from '../../src/spec/run-log.js';

/** One entry of `evaluate --json` (`D`: the shape a test reads of a tool output difference). */
export interface ScoredTrajectory<D = unknown> {
  task_id: string;
  termination: string;
  evaluation: Record<string, unknown> | null;
  tool_output_differences: D[];
  unreplayed: { assistant: number; user: number };
}

/** Exports stored run `runId` of store `db` to `file` and returns its lines and the stored records in the lines' order (task id, then trial). */
export async function exportStoredRun(db: string, runId: string, file: string): Promise<{ records: EpisodeRunLog[]; lines: Record<string, unknown>[] }> {
  const store = RunStore.open(db, { readonly: true });
  let stored: EpisodeRunLog[];
  try {
    stored = readEpisodeLogs(store, runId).map((e) => e.record);
  } finally {
    store.close();
  }
  const exp = await runCli(['export-trajectories', runId, '--db', db, '-o', file]);
  expect(exp.code, exp.err).toBe(0);
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const byId = new Map(stored.map((r) => [r.episode_id, r]));
  expect(lines.map((l) => l.episode_id).sort()).toEqual([...byId.keys()].sort());
  return { records: lines.map((l) => byId.get(l.episode_id as string)!), lines };
}

/** Every trajectory scored the evaluation its episode stored, every recorded output reproduced. */
export function expectStoredVerdicts(scored: ScoredTrajectory<unknown>[], records: EpisodeRunLog[]): void {
  expect(scored.map((s) => s.task_id)).toEqual(records.map((r) => r.task.id));
  scored.forEach((s, i) => {
    expect(s.termination).toBe(records[i].termination.reason);
    expect({ kind: 'task', ...s.evaluation }).toEqual(records[i].evaluation);
    expect(s.tool_output_differences).toEqual([]);
    expect(s.unreplayed).toEqual({ assistant: 0, user: 0 });
  });
}
