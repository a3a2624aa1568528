/**
 * `servicegym campaign <campaign-dir> --model …`: runs a campaign live against any
 * OpenAI-compatible endpoint, journalling every receipt as it arrives so a killed run resumes
 * (`--resume`) without repeating finished calls.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { LIVE_FLAG_HELP } from './live-flags.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { BadInputError } from '../spec/errors.js';
import type { Receipt } from '../spec/receipt.js';

/** Registers `servicegym campaign` (live, journalled, resumable); exit 0 released, 1 rejected or provider failure, 2 bad input. */
export function registerCampaign(program: Command, setExit: (code: number) => void): void {
  program
    .command('campaign')
    .description('run a campaign live against an OpenAI-compatible endpoint and record receipts')
    .argument('<campaign>', 'campaign folder (campaign.json, cases, prompts)')
    .option('--model <name>', 'model name (required unless SERVICEGYM_MODEL or OPENAI_MODEL is set)')
    .option('--base-url <url>', 'OpenAI-compatible base URL (else SERVICEGYM_BASE_URL / OPENAI_BASE_URL)')
    .option('--provider <label>', 'provider label written to receipts (else the base URL host)')
    .option('--timeout <seconds>', LIVE_FLAG_HELP.timeout)
    .option('--max-retries <n>', LIVE_FLAG_HELP.maxRetries)
    .option('--max-retry-after <seconds>', LIVE_FLAG_HELP.maxRetryAfter)
    .option('--call-deadline <seconds>', LIVE_FLAG_HELP.callDeadline)
    .option('--body-timeout <seconds>', LIVE_FLAG_HELP.bodyTimeout)
    .option('--receipts <file>', 'receipt journal (JSON Lines), appended as calls return', '.servicegym/receipts.jsonl')
    .option('--resume', 'serve calls already in the receipt journal instead of repeating them')
    .option('--fresh', 'start over: discard an existing receipt journal')
    .option('--json', 'print the experiment record as JSON instead of the report')
    .option('--out <file>', 'also write the experiment record JSON here')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--no-store', 'do not save the run to the store')
    .option('--work-dir <dir>', 'where the candidate prompt working copy is written', '.servicegym/work')
    .option('-q, --quiet', 'no progress on stderr')
    .action((dir: string, flags) => campaignCommand(dir, flags, setExit));
}

/**
 * Runs `servicegym campaign <dir>` with its parsed `flags` (commander's camelCase option values)
 * and sets the exit code through `setExit` (see {@link registerCampaign}): the campaign loaded,
 * the live model made, the receipt journal continued or started ({@link journalledReceipts}),
 * every new receipt appended to it as it returns, the outcome reported and stored.
 * @throws BadInputError for a bad campaign folder, model configuration or output file, or a
 *   journal already in the way without --resume or --fresh.
 */
async function campaignCommand(dir: string, flags: Record<string, any>, setExit: (code: number) => void): Promise<void> {
  const { loadCampaign } = await import('../campaign/load.js');
  const { runCampaign } = await import('../optimizer/seed-campaign.js');
  const { resolveLiveModelConfig } = await import('../models/config.js');
  const { createModel } = await import('../models/providers.js');
  const { ResumeModel } = await import('../models/resume-model.js');
  const { SystemClock } = await import('../util/clock.js');
  const { checkOutputFiles, finishCampaign } = await import('./campaign-common.js');
  const { progressLogger } = await import('./output.js');
  const log = progressLogger(flags.quiet);
  const campaign = loadCampaign(dir);
  const cfg = resolveLiveModelConfig(flags);
  checkOutputFiles(flags);
  const live = createModel('openai-compatible', { config: cfg });
  const model = new ResumeModel(live, await journalledReceipts(flags, log));
  fs.mkdirSync(path.dirname(path.resolve(flags.receipts)), { recursive: true });
  const journal = fs.openSync(flags.receipts, 'a');
  try {
    const outcome = await runCampaign({
      campaign,
      model,
      clock: SystemClock,
      workDir: path.join(flags.workDir, campaign.spec.name),
      onProgress: log,
      onReceipt: (r) => {
        if (!model.fromJournal(r)) fs.writeSync(journal, JSON.stringify(r) + '\n');
      },
    });
    log(`${model.counts.live} live calls, ${model.counts.fromJournal} served from the journal`);
    setExit(finishCampaign(outcome, flags, `Campaign ${campaign.spec.name}: live run against ${live.endpoint}, model ${live.model}`, log));
  } finally {
    fs.closeSync(journal);
  }
}

/**
 * The receipts a run serves again instead of calling the model: with `--resume`, those of the
 * journal (`--receipts`; a torn last line set aside first); else none, after removing a non-empty
 * journal when `--fresh` is given.
 * @throws BadInputError when a non-empty journal exists and neither --resume nor --fresh is given;
 *   what reading the journal throws for a damaged line.
 */
async function journalledReceipts(flags: Record<string, any>, log: (line: string) => void): Promise<Receipt[]> {
  const { ReceiptSchema } = await import('../spec/receipt.js');
  const { readJsonLines } = await import('../util/json-file.js');
  const { counted } = await import('./output.js');
  if (flags.resume && fs.existsSync(flags.receipts)) {
    const cut = dropTornLastLine(flags.receipts);
    if (cut) log(`the journal's last line was incomplete (a run killed mid-write); it was set aside in ${cut}`);
    const previous = readJsonLines(flags.receipts, ReceiptSchema);
    log(`resuming: ${counted(previous.length, 'receipt')} in ${flags.receipts}`);
    return previous;
  }
  if (fs.existsSync(flags.receipts) && fs.statSync(flags.receipts).size > 0) {
    if (!flags.fresh) {
      throw new BadInputError('a receipt journal already exists here: pass --resume to continue that run, --fresh to discard it, or --receipts with another file', { file: flags.receipts });
    }
    fs.rmSync(flags.receipts);
  }
  return [];
}

/**
 * A journal written by a killed run may end in a torn line (no newline, not valid JSON). Moves
 * that fragment to `<file>.torn` and returns its path; returns null when the file ends cleanly.
 */
export function dropTornLastLine(file: string): string | null {
  const text = fs.readFileSync(file, 'utf8');
  if (text === '' || text.endsWith('\n')) return null;
  const cut = text.lastIndexOf('\n') + 1;
  const last = text.slice(cut);
  try {
    JSON.parse(last);
    fs.appendFileSync(file, '\n');
    return null;
  } catch {
    const aside = `${file}.torn`;
    fs.writeFileSync(aside, last);
    fs.writeFileSync(file, text.slice(0, cut));
    return aside;
  }
}
