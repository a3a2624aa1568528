/**
 * `servicegym optimize <config.json>`: the optimiser over a suite (campaign cases or domain
 * tasks) against live OpenAI-compatible models; see `src/optimizer/config.ts` for the file format
 * and `src/optimizer/run.ts` for the loop.
 *
 * The output folder holds `events.jsonl` (the append-only journal), `prompts/` (every version),
 * `releases/` (hashed release records), `stable.txt` (changed only by a promotion) and
 * `record.json`; the run is saved to the store (kind `optimize`, with `releases[]`).
 * `--resume` continues a killed run from its journal without repeating finished rollouts;
 * `--dry-run` prints the split and the pre-flight estimate without calling a model (a table;
 * JSON with `--json`). `--queue redis://…` runs the rollouts on `servicegym worker`s
 * (src/cli/optimize-queue.ts); the decisions are the same as in one process.
 * Exit codes: 0 released to canary, 1 rejected / insufficient evidence / budget stop, 2 bad input.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { LIVE_FLAG_HELP } from './live-flags.js';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { LocalRateLimiter, parseRateLimit, RateLimitedModel, type CallRateLimiter } from '../models/rate-limit.js';
import type { ChatModel } from '../models/chat-model.js';
import type { OptimizeModels, OptimizeResult } from '../optimizer/run.js';
import type { LoadedOptimizeConfig, OptimizeConfig } from '../optimizer/config.js';
import type { Suite } from '../optimizer/suite.js';

/** Registers `optimize` on the program; `setExit` receives the exit code. */
export function registerOptimize(program: Command, setExit: (code: number) => void): void {
  program
    .command('optimize')
    .description('improve a prompt from failure trajectories, gated statistically, released to canary')
    .argument('<config>', 'optimiser config (JSON; see the docs of src/optimizer/config.ts)')
    .option('--resume', 'continue the run in the output folder from its journal')
    .option('--fresh', "start over: remove the output folder's journal, records and prompt versions first")
    .option('--dry-run', 'print the split and the pre-flight estimate as a table (with --json: as JSON); call no model')
    .option('--out-dir <dir>', 'output folder (default: the config’s output_dir, else .servicegym/optimize/<name>)')
    .option('--db <path>', 'run store (SQLite; default: the config’s store, else .servicegym/servicegym.db)')
    .option('--no-store', 'do not save the run to the store')
    .option('--base-url <url>', 'OpenAI-compatible base URL for roles without their own (else SERVICEGYM_BASE_URL / OPENAI_BASE_URL)')
    .option('--provider <label>', 'provider label for receipts')
    .option('--timeout <seconds>', LIVE_FLAG_HELP.timeout)
    .option('--max-retries <n>', LIVE_FLAG_HELP.maxRetries)
    .option('--strict', "task suites: strict evaluation of every rollout (ACTION in every reward basis, real transfer calls); the dataset's known-bad tasks are left out")
    .option('--max-retry-after <seconds>', LIVE_FLAG_HELP.maxRetryAfter)
    .option('--call-deadline <seconds>', LIVE_FLAG_HELP.callDeadline)
    .option('--body-timeout <seconds>', LIVE_FLAG_HELP.bodyTimeout)
    .option('--json', 'print the run record as JSON instead of the report')
    .option('-q, --quiet', 'no progress on stderr')
    .option('--queue <url>', "run the rollouts on workers ('servicegym worker') through this Redis, e.g. redis://127.0.0.1:6379; this process decides and stores")
    .option('--queue-name <name>', 'BullMQ queue of the rollouts (the workers use the same)', 'servicegym')
    .option('--rate-limit <calls-per-minute>', 'model calls per minute per provider: across all workers with --queue, else across the rollouts, judge and proposer of this process')
    .action((file: string, flags) => optimizeCommand(file, flags, setExit));
}

/**
 * Runs `servicegym optimize <file>` with its parsed `flags` (commander's camelCase option values)
 * and sets the exit code through `setExit`: 0 released to canary (or a dry run), 1 otherwise.
 * The optimiser's modules load when it runs. Checks the flags and the config file and builds the
 * suite, then prints the dry run ({@link dryRunOutput}), or runs the loop in the output folder
 * ({@link optimizeInOutput}), writes and stores its record ({@link saveOptimizeRecord}) and
 * prints it (`--json`) or the report.
 * @throws BadInputError for --resume with --fresh, a bad --queue URL or --rate-limit, a bad config
 *   file or suite, --strict on a campaign suite, or a resumed run whose canary was decided on traffic.
 */
async function optimizeCommand(file: string, flags: Record<string, any>, setExit: (code: number) => void): Promise<void> {
  const { loadOptimizeConfig } = await import('../optimizer/config.js');
  const { buildModels, buildSuite } = await import('../optimizer/setup.js');
  const { optimizeReport } = await import('./optimize-report.js');
  const { progressLogger } = await import('./output.js');
  const log = progressLogger(flags.quiet);
  if (flags.resume && flags.fresh) throw new BadInputError('--resume and --fresh exclude each other');
  if (flags.queue !== undefined) (await import('../queue/redis-url.js')).checkRedisUrl(String(flags.queue));
  const rateLimit = parseRateLimit(flags.rateLimit);
  const loaded = loadOptimizeConfig(file);
  const cfg = loaded.config;
  const { suite, domain } = await buildSuite(loaded, { strict: flags.strict === true });
  if (flags.strict && loaded.config.suite.kind !== 'tasks') throw new BadInputError('--strict applies to task suites (suite.kind "tasks"); a campaign is scored by its judge', { file: loaded.file, path: '$.suite.kind' });
  for (const k of (suite as { excluded?: { id: string; reason: string }[] }).excluded ?? []) log(`excluded (known bad): task ${k.id}: ${k.reason}`);
  if (flags.dryRun) {
    process.stdout.write(await dryRunOutput(cfg, suite, flags.json === true));
    return setExit(0);
  }
  // In one process every role's calls take slots of one limiter (queue workers share theirs in Redis).
  const models = rateLimit !== undefined && flags.queue === undefined ? rateLimitedModels(buildModels(loaded, flags), new LocalRateLimiter(rateLimit)) : buildModels(loaded, flags);
  const { outDir, result } = await optimizeInOutput(loaded, suite, models, flags, log);
  const record = await saveOptimizeRecord({ loaded, suite, result, outDir, domain }, flags, log);
  process.stdout.write(flags.json ? JSON.stringify(record, null, 2) + '\n' : optimizeReport(cfg.name, suite.id, result, outDir));
  setExit(result.decision === 'release_to_canary' ? 0 : 1);
}

/**
 * The `--dry-run` output: the suite's split into roles, the pre-flight estimate and the split's
 * warnings, as a table, or with `json` as JSON (`{suite, cases, splits, preflight, warnings}`,
 * two-space indented, with a final line break). Calls no model.
 */
async function dryRunOutput(cfg: OptimizeConfig, suite: Suite, json: boolean): Promise<string> {
  const { preflightEstimate } = await import('../optimizer/budget.js');
  const { splitRoles, splitWarnings } = await import('../optimizer/splits.js');
  const { dryRunText } = await import('./optimize-dry-run.js');
  const splits = splitRoles(suite.cases, { seed: cfg.seed, feedback: cfg.roles.feedback, sealed: cfg.roles.sealed, assign: cfg.roles.assign });
  const preflight = preflightEstimate(cfg, splits);
  const warnings = splitWarnings(suite.cases, splits, cfg.gate.min_cases_improved);
  return json ? JSON.stringify({ suite: suite.id, cases: suite.cases.length, splits, preflight, warnings }, null, 2) + '\n' : dryRunText(cfg, suite.id, splits, preflight, warnings);
}

/**
 * Runs the optimiser in its output folder (`--out-dir`, else the config's): with `--queue` the
 * run's claim on the queue comes first (a second optimiser of the run exits 2 having changed
 * nothing); `--fresh` empties the folder; the journal (`events.jsonl`) is opened (continued with
 * `--resume`), and the optional cache journal; the queue is closed at the end, also on error.
 * @throws BadInputError when a resumed run's canary was decided on traffic (resuming would lose that decision).
 */
async function optimizeInOutput(loaded: LoadedOptimizeConfig, suite: Suite, models: OptimizeModels, flags: Record<string, any>, log: (line: string) => void): Promise<{ outDir: string; result: OptimizeResult }> {
  const { resolveConfigPath } = await import('../optimizer/config.js');
  const { Journal } = await import('../optimizer/journal.js');
  const { runOptimization } = await import('../optimizer/run.js');
  const { clearOutput, markOutput, outputDir } = await import('../optimizer/setup.js');
  const { SystemClock } = await import('../util/clock.js');
  const cfg = loaded.config;
  // The queue's run claim comes before the output folder is touched: a second optimiser of the run exits 2 having changed nothing.
  const outDir = outputDir(loaded, flags.outDir);
  const runner = flags.queue ? await (await import('./optimize-queue.js')).openRolloutQueue(loaded, suite, flags) : undefined;
  let finished = false;
  try {
    if (flags.fresh) clearOutput(outDir);
    markOutput(outDir);
    const journal = Journal.open(path.join(outDir, 'events.jsonl'), { resume: !!flags.resume });
    const traffic = journal.events().find((e) => e.type === 'note' && e.key.startsWith('traffic-canary:'));
    if (traffic) throw new BadInputError(`this run's canary was decided on traffic (${traffic.type === 'note' ? traffic.text : ''}); resuming would rebuild record.json without that decision — start a new run with --fresh or another --out-dir`, { file: path.join(outDir, 'events.jsonl') });
    const cache = cfg.cache_file ? Journal.open(resolveConfigPath(loaded, cfg.cache_file), { resume: true }) : undefined;
    if (runner) log(`rollouts go to the workers on ${flags.queueName} (servicegym worker --queue ... --queue-name ${flags.queueName})`);
    const result = await runOptimization({ config: cfg, identity: loaded.identity, suite, models, journal, cache, clock: SystemClock, outDir, onProgress: log, runner });
    finished = true;
    return { outDir, result };
  } finally {
    await runner?.close({ finished });
  }
}

/**
 * Writes the run's record to `<outDir>/record.json` (with its run id) and, unless `--no-store`,
 * saves the run to the store (`--db`, else the config's store, else the default); returns the record.
 */
async function saveOptimizeRecord(run: { loaded: LoadedOptimizeConfig; suite: Suite; result: OptimizeResult; outDir: string; domain: string | null }, flags: Record<string, any>, log: (line: string) => void): Promise<Record<string, unknown>> {
  const { resolveConfigPath } = await import('../optimizer/config.js');
  const { buildRunRecord, optimizeRunId, saveOptimizeRun } = await import('../optimizer/run-record.js');
  const { RunStore } = await import('../store/store.js');
  const { SystemClock, isoSeconds } = await import('../util/clock.js');
  const { loaded, suite, result, outDir, domain } = run;
  const cfg = loaded.config;
  const record = buildRunRecord(cfg, loaded.identity, suite, result);
  record.run_id = optimizeRunId(cfg.name, record);
  fs.writeFileSync(path.join(outDir, 'record.json'), JSON.stringify(record, null, 2) + '\n');
  if (flags.store !== false) {
    const db = flags.db ?? (cfg.store ? resolveConfigPath(loaded, cfg.store) : DEFAULT_STORE_PATH);
    const store = RunStore.open(db);
    try {
      const id = saveOptimizeRun(store, record, result.book, isoSeconds(SystemClock.nowSeconds()), domain);
      log(`saved as run ${id} in ${db}`);
    } finally {
      store.close();
    }
  }
  return record;
}

/** Every model of an optimise run behind `limiter`: each call of any role first takes its provider's next slot. */
export function rateLimitedModels(models: OptimizeModels, limiter: CallRateLimiter): OptimizeModels {
  const limited = (m: ChatModel) => new RateLimitedModel(m, limiter);
  return { agent: limited(models.agent), user: models.user && limited(models.user), judge: models.judge && limited(models.judge), proposer: limited(models.proposer) };
}
