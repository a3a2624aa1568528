/**
 * Benchmark: the optimiser at seed scale (the seed campaign's 10 cases, default config: 3
 * rounds × up to 2 parents × 3 proposals, trials 4/2/4/8/8) against the mock HTTP server playing
 * the scripted prompt-sensitive model, over several run seeds and two proposers:
 *
 * - `fix`: every proposal is a real fix (round 1 usually releases);
 * - `noop-then-fix`: round 1 proposes no-op rewordings (rejected), later rounds the fix.
 *
 * Reported per scenario: agent rollouts, proposer calls and wall time per run and per gated
 * decision (a candidate that reached the screen or a later stage), against the seed-scale
 * target of at most 450 agent rollouts and 30 proposer calls per run.
 */
import { loadCampaign } from '../src/campaign/load.js';
import { CampaignSuite } from '../src/optimizer/campaign-suite.js';
import { parseOptimizeConfig, runIdentity } from '../src/optimizer/config.js';
import { Journal } from '../src/optimizer/journal.js';
import { runOptimization } from '../src/optimizer/run.js';
import { startMockServer } from '../src/models/mock-server.js';
import { OpenAICompatibleModel } from '../src/models/openai-adapter.js';
import { DEFAULT_CAMPAIGN_DIR } from '../src/cli/paths.js';
import { optimizerHandler, type ProposerMode } from '../test/support/optimizer-model.js';
import type { BenchRow } from './seed-replay.js';

/** The seed-scale targets (optimizer notes §5.6). */
export const TARGET_ROLLOUTS = 450;
export const TARGET_PROPOSER_CALLS = 30;

interface Tally {
  runs: number;
  released: number;
  rollouts: number[];
  proposals: number[];
  gated: number;
  seconds: number;
}

async function scenario(name: string, proposer: (round: number) => ProposerMode, seeds: number): Promise<[string, Tally]> {
  const server = await startMockServer({ handler: optimizerHandler({ proposer: ({ round }) => proposer(round) }) });
  const model = new OpenAICompatibleModel({ baseURL: server.url, apiKey: 'bench', model: 'mock-model', provider: 'mock', timeoutSeconds: 10, maxRetries: 0 });
  const suite = new CampaignSuite(loadCampaign(DEFAULT_CAMPAIGN_DIR));
  const t: Tally = { runs: 0, released: 0, rollouts: [], proposals: [], gated: 0, seconds: 0 };
  try {
    for (let seed = 1; seed <= seeds; seed++) {
      const config = parseOptimizeConfig({ name: 'bench', seed, suite: { kind: 'campaign', dir: DEFAULT_CAMPAIGN_DIR }, models: { agent: { model: 'mock-model' } } });
      const t0 = performance.now();
      const r = await runOptimization({ config, identity: runIdentity(config), suite, models: { agent: model, proposer: model }, journal: Journal.open(null, { resume: false }), clock: { nowSeconds: () => 0 }, outDir: null });
      t.seconds += (performance.now() - t0) / 1000;
      t.runs++;
      if (r.decision === 'release_to_canary') t.released++;
      t.rollouts.push(r.budget.use.rollouts);
      t.proposals.push(r.budget.use.proposer_calls);
      t.gated += r.candidates.filter((c) => c.stage !== 'static').length;
    }
  } finally {
    await server.close();
  }
  return [name, t];
}

const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** Runs both scenarios over `seeds` run seeds each. */
export async function benchOptimizer(seeds = 5): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [name, t] of [await scenario('fix', () => 'fix', seeds), await scenario('noop-then-fix', (round) => (round === 1 ? 'noop' : 'fix'), seeds)]) {
    const maxR = Math.max(...t.rollouts);
    const maxP = Math.max(...t.proposals);
    rows.push(
      { name: `${name}: released`, value: `${t.released}/${t.runs} runs` },
      { name: `${name}: agent rollouts per run (mean / max)`, value: `${mean(t.rollouts).toFixed(0)} / ${maxR}`, ratio: `${maxR <= TARGET_ROLLOUTS ? 'within' : 'OVER'} the target ${TARGET_ROLLOUTS}` },
      { name: `${name}: proposer calls per run (mean / max)`, value: `${mean(t.proposals).toFixed(1)} / ${maxP}`, ratio: `${maxP <= TARGET_PROPOSER_CALLS ? 'within' : 'OVER'} the target ${TARGET_PROPOSER_CALLS}` },
      {
        name: `${name}: per gated decision (${t.gated} over ${t.runs} runs)`,
        value: `${(t.rollouts.reduce((s, x) => s + x, 0) / t.gated).toFixed(0)} rollouts, ${(t.proposals.reduce((s, x) => s + x, 0) / t.gated).toFixed(2)} proposer calls, ${((t.seconds / t.gated) * 1000).toFixed(0)} ms`,
      },
      { name: `${name}: wall time per run (mock HTTP server)`, value: `${((t.seconds / t.runs) * 1000).toFixed(0)} ms` },
    );
  }
  return rows;
}
