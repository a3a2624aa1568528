/**
 * Benchmark: wall time of the offline seed replay (load + 73 replayed calls + gate + record),
 * against the recorded campaign's own wall time (`prompt_metrics.campaign_elapsed_seconds`,
 * 76.526 s against the live model).
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import { loadCampaign } from '../src/campaign/load.js';
import { runCampaign } from '../src/optimizer/seed-campaign.js';
import { buildRecord } from '../src/optimizer/campaign-record.js';
import { ReplayModel, VirtualClock } from '../src/models/replay.js';
import { DEFAULT_CAMPAIGN_DIR } from '../src/cli/paths.js';

/** The recorded campaign's wall time in seconds (seed record 9-3). */
export const RECORDED_CAMPAIGN_SECONDS = 76.526011;

export interface BenchRow {
  name: string;
  value: string;
  ratio?: string;
}

async function once(workDir: string): Promise<number> {
  const t0 = performance.now();
  const campaign = loadCampaign(DEFAULT_CAMPAIGN_DIR);
  const clock = new VirtualClock(campaign.spec.experiment?.created_at);
  const model = new ReplayModel(campaign.receipts!, campaign.spec.model.model, clock);
  const outcome = await runCampaign({ campaign, model, clock, workDir });
  JSON.stringify(buildRecord(outcome));
  return (performance.now() - t0) / 1000;
}

/** Runs the replay `runs` times after one warm-up; reports the median and its ratio to the recording. */
export async function benchSeedReplay(runs = 15): Promise<BenchRow[]> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-'));
  await once(workDir);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await once(workDir));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  return [
    { name: 'seed replay wall time (median of ' + runs + ')', value: `${(median * 1000).toFixed(1)} ms` },
    {
      name: 'recorded live campaign wall time',
      value: `${RECORDED_CAMPAIGN_SECONDS} s`,
      ratio: `replay is ${(RECORDED_CAMPAIGN_SECONDS / median).toFixed(0)}x faster (${(median / RECORDED_CAMPAIGN_SECONDS).toExponential(2)} of the recording; target < 1 s)`,
    },
  ];
}
