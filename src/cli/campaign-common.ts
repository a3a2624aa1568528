/**
 * What `replay` and `campaign` share: writing the record, saving to the store, printing.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { CampaignOutcome } from '../optimizer/seed-campaign.js';
import { buildRecord } from '../optimizer/campaign-record.js';
import { saveCampaign } from '../optimizer/campaign-persist.js';
import { RunStore } from '../store/store.js';
import { campaignReport } from './campaign-report.js';
import { refuseOverwrite, storeFiles, type KeptFile } from '../util/same-file.js';

export interface OutputFlags {
  json?: boolean;
  out?: string;
  db?: string;
  store?: boolean;
}

/** A second verdict on the same outcome (e.g. the statistical gate): appended to the report, merged into `--json`, and deciding the exit code. */
export interface ReportAddendum {
  text: string;
  json: Record<string, unknown>;
  exitCode: number;
}

/**
 * Checked before any call: `--out` (the record) must not name the store in use, the receipt
 * journal (`receipts`, campaign) or the cassette being replayed (`cassette`, replay), and the
 * receipt journal must not name the store (`--fresh` would delete it, appending would corrupt it).
 *
 * @throws BadInputError naming the flag and the file.
 */
export function checkOutputFiles(flags: OutputFlags & { receipts?: string }, cassette?: string): void {
  const store = flags.store !== false && flags.db ? storeFiles(flags.db) : [];
  const kept: KeptFile[] = [...store, ...(flags.receipts ? [{ file: flags.receipts, what: 'the receipt journal' }] : []), ...(cassette ? [{ file: cassette, what: "the campaign's recorded receipts" }] : [])];
  if (flags.out) refuseOverwrite(flags.out, '--out', kept);
  if (flags.receipts) refuseOverwrite(flags.receipts, '--receipts', store);
}

/** Record, store, print; returns the exit code (0 released to canary, 1 rejected; the addendum's when given). */
export function finishCampaign(outcome: CampaignOutcome, flags: OutputFlags, header: string, log: (l: string) => void, addendum?: ReportAddendum): number {
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
  if (flags.json) process.stdout.write(addendum ? JSON.stringify({ ...record, ...addendum.json }, null, 2) + '\n' : json);
  else process.stdout.write(campaignReport(outcome, record, header) + (addendum?.text ?? ''));
  if (addendum) return addendum.exitCode;
  return outcome.gate.decision === 'release_to_canary' ? 0 : 1;
}
