/**
 * Running the optimiser in process on the seed campaign with the scripted model of
 * `optimizer-model.ts` (tests and the bench).
 */
import { loadCampaign } from '../../src/campaign/load.js';
import { CampaignSuite } from '../../src/optimizer/campaign-suite.js';
import { parseOptimizeConfig, runIdentity, type OptimizeConfig } from '../../src/optimizer/config.js';
import { Journal } from '../../src/optimizer/journal.js';
import { runOptimization, type OptimizeResult } from '../../src/optimizer/run.js';
import type { ChatModel } from '../../src/models/chat-model.js';
import { InProcessModel, optimizerHandler, type OptimizerHandlerOptions } from './optimizer-model.js';
import { SEED_CAMPAIGN } from './paths.js';

const campaign = loadCampaign(SEED_CAMPAIGN);

/** A config for the seed campaign suite; `over` is merged one level deep. */
export function seedConfig(over: Record<string, any> = {}): OptimizeConfig {
  const base: Record<string, any> = {
    name: 'seed-opt',
    seed: 1,
    suite: { kind: 'campaign', dir: SEED_CAMPAIGN },
    models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' } },
  };
  const merged: Record<string, any> = { ...base };
  for (const [k, v] of Object.entries(over)) merged[k] = v && typeof v === 'object' && !Array.isArray(v) && typeof base[k] === 'object' ? { ...base[k], ...v } : v;
  return parseOptimizeConfig(merged);
}

/** Options of {@link optimizeInProcess}. */
export interface InProcessRun {
  config?: OptimizeConfig;
  handler?: OptimizerHandlerOptions;
  model?: ChatModel;
  journal?: Journal;
  /** Cross-run rollout cache. */
  cache?: Journal;
  outDir?: string | null;
  log?: (line: string) => void;
}

/** One in-process run on the seed campaign. */
export async function optimizeInProcess(o: InProcessRun = {}): Promise<OptimizeResult> {
  const config = o.config ?? seedConfig();
  const model = o.model ?? new InProcessModel('mock-model', optimizerHandler(o.handler));
  return runOptimization({
    config,
    identity: runIdentity(config),
    suite: new CampaignSuite(campaign),
    models: { agent: model, proposer: model },
    journal: o.journal ?? Journal.open(null, { resume: false }),
    cache: o.cache,
    clock: { nowSeconds: () => 1767225600 },
    outDir: o.outDir ?? null,
    onProgress: o.log,
  });
}
