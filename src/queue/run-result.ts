/**
 * A run's report from its stored episodes: what a producer of a distributed run (or a merge of
 * shard stores) prints, since its episodes were run elsewhere. Same summary as a single-process
 * run of the same episodes: outcomes in task order then trial order.
 */
import type { RunStore } from '../store/store.js';
import { readEpisodeLogs } from '../store/run-log.js';
import { mergeUsage } from '../run/run-tasks.js';
import { summarizeRun, type EpisodeOutcome, type RunSummary } from '../run/summary.js';
import { reportRowOfStored, type EpisodeReportRow } from '../run/report-rows.js';
import type { UsageByRole } from '../models/usage.js';

/** The stored run as a report: rows (task order, then trial), summary and usage of every stored episode. */
export interface StoredRunReport {
  rows: EpisodeReportRow[];
  summary: RunSummary;
  usage: UsageByRole;
}

/**
 * Reads every episode of `runId` and summarises them as `runTasks` would have. `taskOrder` gives the
 * task order (unknown task ids sort last, by id).
 */
export function storedRunReport(store: RunStore, runId: string, taskOrder: readonly string[]): StoredRunReport {
  const rank = new Map(taskOrder.map((id, i) => [id, i]));
  const episodes = readEpisodeLogs(store, runId).sort(
    (a, b) => (rank.get(a.record.task.id) ?? Infinity) - (rank.get(b.record.task.id) ?? Infinity) || a.record.task.id.localeCompare(b.record.task.id) || a.record.trial - b.record.trial,
  );
  const rows: EpisodeReportRow[] = [];
  const outcomes: EpisodeOutcome[] = [];
  const usage: UsageByRole[] = [];
  for (const e of episodes) {
    const row = reportRowOfStored(e);
    delete row.kept;
    rows.push(row);
    const cs = (row.evaluation as { cross_side?: { count?: unknown } } | null)?.cross_side;
    outcomes.push({
      taskId: row.taskId, trial: row.trial, termination: row.termination as EpisodeOutcome['termination'],
      reward: row.evaluation?.reward ?? null, partial: row.evaluation?.partial ?? null,
      infraError: row.infraError !== undefined, harnessError: row.harnessError !== undefined, evaluationError: row.evaluationError !== undefined,
      ...(typeof cs?.count === 'number' ? { crossSide: cs.count } : {}),
    });
    usage.push(e.record.usage as UsageByRole);
  }
  return { rows, summary: summarizeRun(outcomes), usage: mergeUsage(usage) };
}
