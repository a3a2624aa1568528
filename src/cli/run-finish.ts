/**
 * The end of `servicegym run` (src/cli/run-command.ts): the report of every episode of the run
 * (the kept ones of a resumed run included) on stdout, as text or `--json`; the results file
 * (`-o`); on stderr why the run stopped early, a `--max-cost` that capped nothing, the
 * `--fail-under` verdict and the hint to open or continue the run; and the exit code.
 */
import { episodesPerTrial, excludedLines } from '../run/task-run.js';
import { mergeReportRows, withTasks, type EpisodeReportRow } from '../run/report-rows.js';
import { cleanFloats } from '../util/round.js';
import { shellArg } from '../util/shell-arg.js';
import { snakeKeys } from './output.js';
import { notStartedLine } from '../run/results-export.js';
import { runEpisodes, shardEpisodes, type Shard } from '../queue/shard.js';
import { endHint, episodeJsonText, failUnderMessage, latencyOf, passHatKStopNote, writeResults, writeRunJson, type NotStartedResults } from './run-end.js';
import { episodeKey, runEpisodeJson } from './run-json.js';
import type { RunOutcome } from './run-execute.js';
import type { RunPlan } from './run-plan.js';
import type { RunStart } from './run-resume.js';
import { EXIT_INTERRUPTED, endBySignalAtExit } from './run-interrupt.js';

/** A run at its end: its flags, plan, id, start, `--shard` (when given) and what its episodes came to. */
export interface FinishedRun {
  flags: Record<string, any>;
  plan: RunPlan;
  runId: string;
  start: RunStart;
  /** `--shard i/N` parsed: the run planned that shard's episodes only. */
  shard?: Shard;
  outcome: RunOutcome;
}

/**
 * Writes the end of run `runId` (see the module comment) and sets the exit code. After Ctrl-C (or
 * SIGTERM) during the episodes, the process ends by that signal once it has exited
 * (src/cli/run-interrupt.ts: a shell shows 130, or 143 for SIGTERM), whether or not every episode
 * had started, and 130 is the exit code should the signal not end it. Else 1 when an
 * episode had an infrastructure error, the provider refused the credential, `--max-cost` stopped
 * the run or `--fail-under` failed; else 0. Writes the `-o` file (its parent folders created),
 * with every planned episode that never started as `not_started` when the run stopped early.
 * @throws what writing the results file throws (a path that cannot be written).
 */
export async function finishRun(run: FinishedRun, setExit: (code: number) => void): Promise<void> {
  const { flags, plan, runId, start, outcome } = run;
  const { res } = outcome;
  const { extras, tasks } = plan;
  // Every episode of the run, the kept ones of a resumed run included.
  const rows = withTasks(mergeReportRows(tasks.map((t) => t.id), start.kept, res.rows ?? outcome.fresh), tasks);
  if (flags.json) {
    const jsonEpisode = (r: EpisodeReportRow) => runEpisodeJson(r, plan.personas, !!flags.resume);
    writeRunJson((text) => process.stdout.write(text), { run_id: runId, name: outcome.runName, tags: extras.tags, strict: plan.strict, summary: cleanFloats(snakeKeys(jsonSummary(res))), usage: cleanFloats(res.usage), excluded_known_bad: plan.excluded }, rows, (r) => (!r.kept && outcome.jsonTexts.get(episodeKey(r))) || episodeJsonText(jsonEpisode(r)));
  } else process.stdout.write(await runReportText(run, rows));
  if (extras.output) plan.log(writeResults(extras.output, rows, { suite: runId, classname: `servicegym.${flags.domain}`, timestamp: start.createdAt }, res.rows ? latencyOf(res.records) : outcome.latency, notStartedResults(run, rows)));
  if (res.stopped) process.stderr.write(`servicegym: the run stopped: the provider refused the credential (${res.stopped}); fix the key and continue with --resume ${shellArg(runId)}\n`);
  if (res.halted) process.stderr.write(`servicegym: the run stopped: ${res.halted.reason}; ${res.halted.notStarted} episode(s) not started; continue with --resume ${shellArg(runId)}${res.halted.interrupted ? '' : ' and a higher --max-cost'}\n`);
  // A cap on provider-reported cost caps nothing when the provider reports none: say so rather than let the user believe it held.
  const maxCost = extras.maxCostUsd;
  if (maxCost !== null && outcome.costUsd === null && rows.some((r) => !r.kept)) process.stderr.write(`servicegym: --max-cost $${maxCost} had no effect: the provider reported no cost for any call of this run (the cap counts provider-reported costs only)\n`);
  const failUnder = failUnderMessage(res.summary, extras.failUnder);
  if (failUnder) process.stderr.write(`servicegym: ${failUnder}\n`);
  if (res.signal && !res.halted) process.stderr.write(`servicegym: every episode had started when ${res.signal} came: the run is complete\n`);
  if (!flags.quiet) process.stderr.write(`${endHint(runId, flags.db, res.summary.infraErrors > 0 || !!res.stopped || !!res.halted)}\n`);
  if (res.signal) endBySignalAtExit(res.signal);
  setExit(res.signal ? EXIT_INTERRUPTED : res.summary.infraErrors > 0 || res.stopped || res.halted || failUnder ? 1 : 0);
}

/**
 * The text report of a run: its id (and `(strict)`), the episode table, the per-persona table
 * (with `--personas`), the left-out known-bad tasks, the summary, why pass^k stops early, the
 * model calls and the usage table; ends with a line break.
 */
async function runReportText(run: FinishedRun, rows: readonly EpisodeReportRow[]): Promise<string> {
  const { runId, plan, outcome: { res } } = run;
  const { strict, personas, tasks, trials, excluded } = plan;
  const [{ callsText, episodeTable, personaTable, summaryText, usageTable }, { painter }] = await Promise.all([import('./run-report.js'), import('./colour.js')]);
  const stopNote = passHatKStopNote(res.summary, rows, trials * Math.max(...tasks.map((t) => episodesPerTrial(t, personas))));
  return `run ${runId}${strict ? ' (strict)' : ''}\n\n${episodeTable(rows, painter())}\n\n${personas ? `${personaTable(rows, personas)}\n\n` : ''}${excludedLines(excluded)}${summaryText(res.summary)}\n${stopNote ? `${stopNote}\n` : ''}${callsText(res.usage, res.summary.infraErrors)}\n\n${usageTable(res.usage)}\n`;
}

/**
 * The planned episodes (every task × trial × persona of the plan, or of its `--shard`) that are
 * not among `rows` of a run that stopped before every episode started (`halted`: Ctrl-C, SIGTERM,
 * `--max-cost`), as `not_started` result lines whose message names why the run stopped and the
 * `--resume` that runs them; undefined for a run that did not stop so.
 */
function notStartedResults(run: FinishedRun, rows: readonly EpisodeReportRow[]): NotStartedResults | undefined {
  const { halted } = run.outcome.res;
  if (!halted) return undefined;
  const { tasks, trials, personas } = run.plan;
  const planned = run.shard ? shardEpisodes(tasks, trials, personas, run.shard) : runEpisodes(tasks, trials, personas);
  const present = new Set(rows.map((r) => `${r.taskId}\u0000${r.trial}`));
  const message = `not started: the run stopped (${halted.reason}); continue with --resume ${shellArg(run.runId)}`;
  return { lines: planned.filter((e) => !present.has(`${e.taskId}\u0000${e.trial}`)).map((e) => notStartedLine(e, message)), taskOrder: tasks.map((t) => t.id) };
}

/**
 * The run's summary as `--json` prints it (camelCase; the caller makes it snake_case): with
 * `halted` ({reason, notStarted}: why the run stopped before every episode started — `--max-cost`
 * or Ctrl-C/SIGTERM — and how many did not), as the stored run's summary has it, so a reader of the
 * JSON can tell a stopped run from a complete one.
 */
function jsonSummary(res: RunOutcome['res']): Record<string, unknown> {
  return res.halted ? { ...res.summary, halted: { reason: res.halted.reason, notStarted: res.halted.notStarted } } : { ...res.summary };
}
