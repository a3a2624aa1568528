/**
 * A run's report from its stored episodes: what a producer of a distributed run (or a merge of
 * shard stores) prints, since its episodes were run elsewhere. Same summary as a single-process
 * run of the same episodes: outcomes in task order then trial order.
 */
import type { RunStore } from '../store/store.js';
import { readEpisodeLogs, type StoredEpisode } from '../store/run-log.js';
import { mergeUsage } from '../run/run-tasks.js';
import { compareEpisodeKeys, episodeOutcome, summarizeRun, type EpisodeOutcome, type RunSummary } from '../run/summary.js';
import { reportRowOfStored, type EpisodeReportRow } from '../run/report-rows.js';
import type { UsageByRole } from '../models/usage.js';

/** The stored run as a report: rows (task order, then trial), summary and usage of every stored episode. */
export interface StoredRunReport {
  rows: EpisodeReportRow[];
  summary: RunSummary;
  usage: UsageByRole;
}

/**
 * A run's report built episode by episode (each episode's record may leave memory once added):
 * rows, outcomes and usage, put in task order then trial order by {@link report}.
 */
export class RunReportBuilder {
  private readonly entries: { row: EpisodeReportRow; outcome: EpisodeOutcome; usage: UsageByRole }[] = [];

  /** Adds a stored episode (its record as stored, or as a worker returned it for storing); returns its report row. */
  add(e: StoredEpisode): EpisodeReportRow {
    const row = reportRowOfStored(e);
    delete row.kept;
    const outcome = episodeOutcome({ ...row, termination: row.termination as EpisodeOutcome['termination'] });
    this.entries.push({ row, outcome, usage: e.record.usage as UsageByRole });
    return row;
  }

  /** The report: `taskOrder` gives the task order (unknown task ids sort last, by id), then trial. */
  report(taskOrder: readonly string[]): StoredRunReport {
    const rank = new Map(taskOrder.map((id, i) => [id, i]));
    const entries = [...this.entries].sort(
      (a, b) => (rank.get(a.row.taskId) ?? Infinity) - (rank.get(b.row.taskId) ?? Infinity) || a.row.taskId.localeCompare(b.row.taskId) || a.row.trial - b.row.trial,
    );
    return { rows: entries.map((e) => e.row), summary: summarizeRun(entries.map((e) => e.outcome)), usage: mergeUsage([...entries].sort((a, b) => compareEpisodeKeys(a.row, b.row)).map((e) => e.usage)) };
  }
}

/**
 * Reads every episode of `runId` and summarises them as `runTasks` would have. `taskOrder` gives the
 * task order (unknown task ids sort last, by id).
 */
export function storedRunReport(store: RunStore, runId: string, taskOrder: readonly string[]): StoredRunReport {
  const builder = new RunReportBuilder();
  for (const e of readEpisodeLogs(store, runId)) builder.add(e);
  return builder.report(taskOrder);
}
