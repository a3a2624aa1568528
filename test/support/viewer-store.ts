/**
 * A run store filled by real runs, for the viewer tests: the seed campaign replay and a
 * `validate` run through the CLI (every airline seed task perfect), plus a scripted run of the
 * airline seed tasks with faulty agents, stored as `servicegym run` stores (see faulty-airline.ts).
 * Comparing the faulty run (A) with the validate run (B): T01, T02, T15 fixed; T03, T17 unchanged.
 */
import path from 'node:path';
import { vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadDomain } from '../../src/domains/index.js';
import { RunStore } from '../../src/store/store.js';
import { storeScriptedRun } from './scripted-run.js';
import { faultyAirlinePlay } from './faulty-airline.js';

/** Run ids of a filled store. */
export interface ViewerStore {
  db: string;
  campaignId: string;
  validateId: string;
  faultyId: string;
}

/** Id of the scripted faulty airline run. */
export const FAULTY_RUN_ID = 'scripted-airline-faulty';

async function quietCli(args: string[]): Promise<void> {
  const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  let code: number;
  try {
    code = await main(['node', 'servicegym', ...args]);
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  if (code !== 0) throw new Error(`servicegym ${args.join(' ')} exited ${code}`);
}

/** Fills `dir/store.db` with the campaign replay, a validate run and the faulty scripted run. */
export async function fillViewerStore(dir: string): Promise<ViewerStore> {
  const db = path.join(dir, 'store.db');
  await quietCli(['replay', '--db', db, '-q', '--work-dir', path.join(dir, 'work')]);
  const store = RunStore.open(db);
  try {
    const loaded = loadDomain('airline');
    await storeScriptedRun({
      store,
      runId: FAULTY_RUN_ID,
      name: 'scripted airline (faulty agents)',
      loaded,
      tasks: loaded.tasks,
      trials: 2,
      play: faultyAirlinePlay,
      createdAt: new Date(Date.now() - 3_600_000).toISOString(),
      agentModel: 'scripted-faulty',
    });
  } finally {
    store.close();
  }
  await quietCli(['validate', '--db', db, '-q']);
  const reader = RunStore.open(db, { readonly: true });
  try {
    const runs = reader.listRuns();
    const id = (pred: (r: (typeof runs)[number]) => boolean, what: string) => {
      const hit = runs.find(pred);
      if (!hit) throw new Error(`the filled store has no ${what} run (has ${runs.map((r) => r.id).join(', ')})`);
      return hit.id;
    };
    return {
      db,
      campaignId: id((r) => r.kind === 'campaign', 'campaign'),
      validateId: id((r) => r.name === 'validate airline', 'validate'),
      faultyId: FAULTY_RUN_ID,
    };
  } finally {
    reader.close();
  }
}
