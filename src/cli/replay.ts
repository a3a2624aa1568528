/**
 * `servicegym replay [campaign-dir]`: re-runs a campaign offline from its recorded receipts.
 * With no folder it replays the embedded seed experiment.
 *
 * `--gate statistical` also judges the replayed evidence with the optimiser's statistical gate
 * (the seed's own decision is still reproduced and reported): the report gains that gate's checks
 * and decision, `--json` a `statistical_gate` field, and the exit code follows that decision
 * (0 only for release_to_canary; the seed's evidence gives insufficient_evidence, exit 1).
 */
import path from 'node:path';
import type { Command } from 'commander';
import type { ReplayModel } from '../models/replay.js';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { DEFAULT_CAMPAIGN_DIR } from './paths.js';
import type { ReportAddendum } from './campaign-common.js';

/** Registers `servicegym replay`; exit 0 released, 1 rejected or not reproduced, 2 bad input. */
export function registerReplay(program: Command, setExit: (code: number) => void): void {
  program
    .command('replay')
    .description('replay a campaign from its receipts, offline (default: the embedded seed experiment)')
    .argument('[campaign]', 'campaign folder (with campaign.json and receipts)', DEFAULT_CAMPAIGN_DIR)
    .option('--json', 'print the experiment record as JSON instead of the report')
    .option('--out <file>', 'also write the experiment record JSON here')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--no-store', 'do not save the run to the store')
    .option('--work-dir <dir>', 'where the candidate prompt working copy is written', '.servicegym/work')
    .option('-q, --quiet', 'no progress on stderr')
    .option('--gate <kind>', "also judge the evidence with another gate: 'seed' (the record's own, default) or 'statistical'", 'seed')
    .action(async (dir: string, flags) => {
      const { loadCampaign } = await import('../campaign/load.js');
      const { runCampaign } = await import('../optimizer/seed-campaign.js');
      const { VirtualClock } = await import('../models/replay.js');
      const { createModel } = await import('../models/providers.js');
      const { checkOutputFiles, finishCampaign } = await import('./campaign-common.js');
      const { seedStatisticalGate, seedStatisticalText } = await import('../optimizer/seed-statistical.js');
      const { progressLogger } = await import('./output.js');
      if (flags.gate !== 'seed' && flags.gate !== 'statistical') throw new BadInputError(`--gate must be 'seed' or 'statistical', got '${flags.gate}'`);
      const log = progressLogger(flags.quiet);
      const campaign = loadCampaign(dir);
      if (!campaign.receipts) throw new BadInputError('the campaign names no receipts_file; replay needs recorded receipts', { file: path.join(dir, 'campaign.json'), path: '$.receipts_file' });
      checkOutputFiles(flags, path.resolve(campaign.dir, campaign.spec.receipts_file!));
      if (campaign.receipts.length === 0) throw new BadInputError('holds no receipt; replay needs the recorded receipts (one JSON object per line)', { file: path.resolve(campaign.dir, campaign.spec.receipts_file!), path: '$' });
      const clock = new VirtualClock(campaign.spec.experiment?.created_at);
      // The provider registry's `replay` kind is a ReplayModel: it also counts the receipts it served.
      const model = createModel('replay', { receipts: campaign.receipts, model: campaign.spec.model.model, clock }) as ReplayModel;
      const started = performance.now();
      const outcome = await runCampaign({ campaign, model, clock, workDir: path.join(flags.workDir, campaign.spec.name), onProgress: log });
      const used = model.consumed();
      const roles = Object.entries(used.byRole).map(([k, v]) => `${v} ${k}`).join(', ');
      log(`replayed ${used.total} of ${campaign.receipts.length} receipts (${roles}) in ${((performance.now() - started) / 1000).toFixed(3)} s`);
      const header = `Campaign ${campaign.spec.name}: replay of ${used.total} recorded calls (${roles}), model ${campaign.spec.model.model}`;
      let addendum: ReportAddendum | undefined;
      if (flags.gate === 'statistical') {
        const v = seedStatisticalGate(outcome);
        log(`statistical gate: ${v.decision}`);
        addendum = { text: seedStatisticalText(v), json: { statistical_gate: v }, exitCode: v.decision === 'release_to_canary' ? 0 : 1 };
      }
      setExit(finishCampaign(outcome, flags, header, log, addendum));
    });
}
