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

/**
 * Writes `evaluate`'s results file (one line per trajectory, numbered per task as trials) and
 * applies `--fail-under` to the reward mean; `log` gets the progress and the verdict. Returns the
 * fail-under message, or null when it passed or was not asked for.
 */
export function writeEvaluateResults(source: string, results: readonly EvaluatedTrajectory[], flags: ResultsFlags, log: (line: string) => void): string | null {
  const rows: EpisodeReportRow[] = numberedRows(results.map((r) => ({ taskId: r.task_id, termination: r.termination, evaluation: r.evaluation, ...(r.evaluation_error ? { evaluationError: r.evaluation_error } : {}), ...(r.task ? { task: r.task } : {}) })));
  if (flags.output) log(writeResults(flags.output, rows, { suite: `evaluate ${path.basename(source)}`, classname: 'servicegym.evaluate', timestamp: new Date().toISOString() }));
  const under = failUnderMessage(summaryOfRows(rows), flags.failUnder);
  if (under) log(under);
  return under;
}
