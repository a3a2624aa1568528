/**
 * What `replay` and `campaign` share: writing the record, saving to the store, printing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CampaignOutcome } from '../campaign/runner.js';
import { buildRecord } from '../campaign/record.js';
import { saveCampaign } from '../campaign/persist.js';
import { RunStore } from '../store/store.js';
import { campaignReport } from './campaign-report.js';

export interface OutputFlags {
  json?: boolean;
  out?: string;
  db?: string;
  store?: boolean;
}

/** Record, store, print; returns the exit code (0 released to canary, 1 rejected). */
export function finishCampaign(outcome: CampaignOutcome, flags: OutputFlags, header: string, log: (l: string) => void): number {
  const record = buildRecord(outcome);
  const json = JSON.stringify(record, null, 2) + '\n';
  if (flags.out) {
    fs.mkdirSync(path.dirname(path.resolve(flags.out)), { recursive: true });
    fs.writeFileSync(flags.out, json);
    log(`record written to ${flags.out}`);
  }
  if (flags.store !== false) {
    const store = RunStore.open(flags.db!);
    try {
      const id = saveCampaign(store, outcome, record);
      log(`saved as run ${id} in ${flags.db}`);
    } finally {
      store.close();
    }
  }
  process.stdout.write(flags.json ? json : campaignReport(outcome, record, header));
  return outcome.gate.decision === 'release_to_canary' ? 0 : 1;
}
