/**
 * `-o FILE` and `--fail-under R` for commands that score episodes (`validate`, `evaluate`; `run`
 * parses them with its other options in `run-options.ts`): checked before any work, then the
 * results file written and the threshold applied at the end (`run-end.ts`).
 */
import path from 'node:path';
import type { TaskEvaluation } from '../evaluation/types.js';
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';
import { writableResultsFormat } from '../run/results-export.js';
import type { EpisodeReportRow } from '../run/report-rows.js';
import { failUnderMessage, numberedRows, summaryOfRows, writeResults } from './run-end.js';

/** The parsed flags: the results file (format checked) and the reward threshold. */
export interface ResultsFlags {
  output: string | null;
  failUnder: number | null;
}

/** Parses `--output` and `--fail-under`; throws BadInputError for another extension or a reward outside 0..1. */
export function parseResultsFlags(flags: { output?: string; failUnder?: string }): ResultsFlags {
  const output = flags.output === undefined ? null : String(flags.output);
  if (output !== null) writableResultsFormat(output);
  const raw = flags.failUnder;
  if (raw === undefined) return { output, failUnder: null };
  const x = /^\s*(\d+(\.\d+)?|\.\d+)\s*$/.test(String(raw)) ? Number(raw) : NaN;
  if (!(x >= 0 && x <= 1)) throw new BadInputError(`--fail-under must be a reward from 0 to 1, got '${raw}'`);
  return { output, failUnder: x };
}

/** One scored trajectory as `evaluate` reports it. */
export interface EvaluatedTrajectory {
  task_id: string;
  termination: string;
  evaluation: TaskEvaluation | null;
  evaluation_error: string | null;
  /** The trajectory's task: which of its checks count (the results file lists only those). */
  task?: Pick<Task, 'servicegym'>;
}

/** `evaluate`'s results as report rows, numbered per task as trials (0, 1, ... in file order). */
function evaluateRows(results: readonly EvaluatedTrajectory[]): EpisodeReportRow[] {
  return numberedRows(results.map((r) => ({ taskId: r.task_id, termination: r.termination, evaluation: r.evaluation, ...(r.evaluation_error ? { evaluationError: r.evaluation_error } : {}), ...(r.task ? { task: r.task } : {}) })));
}

const mean3 = (x: number | null) => (x === null ? 'n/a' : x.toFixed(3));
const pct1 = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * `evaluate`'s last report line, as `validate` and `rescore` end theirs: how many trajectories
 * score reward 1, the reward and partial means (the run summary's: a not-judged reward counts 0,
 * the mean `--fail-under` compares), how many were not judged or not scored, and how many of
 * them (`replayed`) replayed as recorded, e.g.
 * `evaluate: reward 1 on 1/2 trajectories (reward mean 0.500, partial mean 80.0%), 0 not judged, 2/2 replayed as recorded`.
 */
export function evaluateSummaryLine(results: readonly EvaluatedTrajectory[], replayed: number): string {
  const s = summaryOfRows(evaluateRows(results));
  const perfect = results.filter((r) => r.evaluation?.reward === 1).length;
  const errors = s.evaluationErrors + s.infraErrors + s.harnessErrors;
  return `evaluate: reward 1 on ${perfect}/${plural(results.length, 'trajectory', 'trajectories')} (reward mean ${mean3(s.rewardMean)}, partial mean ${pct1(s.partialMean)}), ${s.unjudged} not judged${errors ? `, ${errors} not scored` : ''}, ${replayed}/${results.length} replayed as recorded`;
}

/**
 * Writes `evaluate`'s results file (one line per trajectory, numbered per task as trials) and
 * applies `--fail-under` to the reward mean; `log` gets the progress and the verdict. Returns the
 * fail-under message, or null when it passed or was not asked for.
 */
export function writeEvaluateResults(source: string, results: readonly EvaluatedTrajectory[], flags: ResultsFlags, log: (line: string) => void): string | null {
  const rows = evaluateRows(results);
  if (flags.output) log(writeResults(flags.output, rows, { suite: `evaluate ${path.basename(source)}`, classname: 'servicegym.evaluate', timestamp: new Date().toISOString() }));
  const under = failUnderMessage(summaryOfRows(rows), flags.failUnder);
  if (under) log(under);
  return under;
}
