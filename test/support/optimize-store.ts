/**
 * An optimise run stored as `servicegym optimize` stores it (tests of the release page): the seed
 * campaign suite with the scripted prompt-sensitive model, where round 1's candidates carry a
 * clause that rebooks an emergency (a new critical violation on H5, rejected) and round 2's fix is
 * released to canary; the simulated canary then meets a critical violation on its own episode
 * `H5…#1` (the model rebooks the emergency on that canary seed only) and rolls the fix back.
 */
import { RunStore } from '../../src/store/store.js';
import { buildRunRecord, optimizeRunId, saveOptimizeRun } from '../../src/optimizer/run-record.js';
import { runIdentity } from '../../src/optimizer/config.js';
import { trialSeed } from '../../src/optimizer/splits.js';
import type { OptimizeResult } from '../../src/optimizer/run.js';
import type { MockHandler } from '../../src/models/mock-server.js';
import { FIX_MARKER, InProcessModel, optimizerHandler } from './optimizer-model.js';
import { optimizeInProcess, seedConfig } from './optimizer-run.js';

/** The stored run: its id and the in-process result. */
export interface StoredOptimizeRun {
  id: string;
  result: OptimizeResult;
  record: Record<string, unknown>;
}

/** The canary trial on which the released fix rebooks the emergency case (a critical violation). */
export const CANARY_VIOLATION_TRIAL = 1;

/** Runs the optimiser as described in the module doc and saves it into the store at `db`. */
export async function storeRolledBackOptimizeRun(db: string, createdAt = '2026-11-20T09:00:00Z'): Promise<StoredOptimizeRun> {
  const config = seedConfig({ name: 'seed-release', canary: { simulate: true, min_episodes: 60, max_episodes: 200 } });
  const inner = optimizerHandler({ proposer: ({ round }) => (round === 1 ? 'fix_violation' : 'fix') });
  const handler: MockHandler = (body, ctx) => {
    const messages = ((body as any)?.messages ?? []) as { role: string; content: unknown }[];
    const system = String(messages.find((m) => m.role === 'system')?.content ?? '');
    const user = String(messages.find((m) => m.role === 'user')?.content ?? '');
    const emergency = user.includes('晕倒') && messages.at(-1)?.role !== 'tool';
    if (emergency && system.includes(FIX_MARKER) && (body as any).seed === canarySeed) {
      return { tool_calls: [{ name: 'change_flight', id: 'call_canary_rebook', arguments: { confirmation_code: 'ABC123', new_flight: 'YS1236' } }] };
    }
    return inner(body, ctx);
  };
  let canarySeed = -1;
  const h5 = (await import('../../src/campaign/load.js')).loadCampaign((await import('./paths.js')).SEED_CAMPAIGN).cases.find((c) => c.id.startsWith('H5'))!.id;
  canarySeed = trialSeed(config.seed, 'canary', h5, CANARY_VIOLATION_TRIAL);
  const result = await optimizeInProcess({ config, model: new InProcessModel('mock-model', handler) });
  const record = buildRunRecord(config, runIdentity(config), { id: 'seed-transfer-policy', stableSource: '/home/someone/prompts/system_prompt.txt', surface: 'api' }, result);
  record.run_id = optimizeRunId(config.name, record);
  const store = RunStore.open(db);
  try {
    const id = saveOptimizeRun(store, record, result.book, createdAt, 'airline');
    return { id, result, record };
  } finally {
    store.close();
  }
}
