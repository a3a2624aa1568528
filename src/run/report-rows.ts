/**
 * The per-episode facts a run report prints, taken either from a record just produced by
 * `runDomainTasks` or from an episode record stored by an earlier attempt of the same run (so that a
 * resumed run reports every episode, not only the ones it ran this time).
 */
import type { TaskEvaluation } from '../evaluation/types.js';
import type { StoredEpisode } from '../store/run-log.js';
import type { EpisodeRunLog } from '../spec/run-log.js';
import type { DomainEpisodeRecord } from './task-run.js';
import type { Task } from '../spec/task.js';

/** One episode as reported: `trial` counts from 0; `kept` marks an episode finished by an earlier attempt. */
export interface EpisodeReportRow {
  taskId: string;
  trial: number;
  persona?: string;
  termination: string;
  /** Null when the evaluator threw or the episode failed for infrastructure reasons. */
  evaluation: TaskEvaluation | null;
  evaluationError?: string;
  infraError?: string;
  /** The episode ended as `harness_error` (a tool's code threw): not scored, never the agent's failure. */
  harnessError?: string;
  kept?: boolean;
  /**
   * The episode's task, for which of its checks count (`zero_if_failed`, src/evaluation/counted.ts):
   * reports list only counted checks as failing. Absent: counted through the rubric and basis only.
   */
  task?: Pick<Task, 'servicegym'>;
}

/**
 * Whether the episode was scored: false for an infrastructure or harness error and when the
 * evaluator failed, whose episodes are left out of the run's scores (src/run/summary.ts). Such an
 * episode may still carry the evaluator's output over its cut-short trajectory (a reward of 0,
 * stored as it is), which says nothing about the agent: reports show it as not scored.
 */
export function isScored(r: Pick<EpisodeReportRow, 'evaluation' | 'infraError' | 'harnessError'>): boolean {
  return r.evaluation !== null && !r.infraError && !r.harnessError;
}

/** `rows` with their tasks attached (by id, from `tasks`), so reports list only the checks that count. */
export function withTasks(rows: readonly EpisodeReportRow[], tasks: readonly Task[]): EpisodeReportRow[] {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  return rows.map((r) => ({ ...r, task: byId.get(r.taskId) }));
}

/** The report row of an episode just run. */
export function reportRowOf(rec: DomainEpisodeRecord): EpisodeReportRow {
  return {
    taskId: rec.taskId,
    trial: rec.trial,
    ...(rec.persona !== undefined ? { persona: rec.persona } : {}),
    termination: rec.episode.termination,
    evaluation: rec.evaluation,
    ...(rec.evaluationError ? { evaluationError: rec.evaluationError } : {}),
    ...(rec.infraError ? { infraError: rec.infraError } : {}),
    ...(rec.harnessError ? { harnessError: rec.harnessError } : {}),
  };
}

/** The evaluation of a stored task episode as the evaluator gave it (judge receipts are kept per run, not here). */
export function taskEvaluationOfRecord(record: EpisodeRunLog): TaskEvaluation | null {
  const ev = record.evaluation;
  if (ev?.kind !== 'task') return null;
  const { kind: _k, ...rest } = ev;
  return { ...rest, receipts: [] } as unknown as TaskEvaluation;
}

/** The report row of an episode stored by `runDomainTasks` (its run-log record), marked `kept`. */
export function reportRowOfStored(episode: StoredEpisode): EpisodeReportRow {
  const r = episode.record;
  return {
    taskId: r.task.id,
    trial: r.trial,
    ...(r.persona !== null ? { persona: r.persona } : {}),
    termination: r.termination.reason,
    evaluation: taskEvaluationOfRecord(r),
    ...(r.evaluation_error ? { evaluationError: r.evaluation_error } : {}),
    ...(r.termination.infra_error ? { infraError: r.termination.infra_error } : {}),
    ...(r.termination.harness_error ? { harnessError: r.termination.harness_error } : {}),
    kept: true,
  };
}

/**
 * Every episode of a resumed run: the stored ones that were kept plus the ones just run (a
 * re-run replaces its stored row), ordered by the task order given, then trial.
 */
export function mergeReportRows(taskOrder: readonly string[], kept: readonly EpisodeReportRow[], fresh: readonly EpisodeReportRow[]): EpisodeReportRow[] {
  const key = (r: EpisodeReportRow) => `${r.taskId}\u0000${r.trial}`;
  const byKey = new Map<string, EpisodeReportRow>();
  for (const r of kept) byKey.set(key(r), r);
  for (const r of fresh) byKey.set(key(r), r);
  return [...byKey.values()].sort(byTaskOrder(taskOrder, (r) => r.taskId));
}

/**
 * A sort comparator of episodes by `taskOrder` (task ids), tasks not in it last by id, then by
 * trial: the order of a run's report rows and results files. `taskOf` reads an item's task id.
 */
export function byTaskOrder<T extends { trial: number }>(taskOrder: readonly string[], taskOf: (x: T) => string): (a: T, b: T) => number {
  const rank = new Map(taskOrder.map((id, i) => [id, i]));
  return (a, b) => {
    const ta = taskOf(a);
    const tb = taskOf(b);
    // Items of one task (most comparisons) skip localeCompare, which costs far more than the rest.
    return (rank.get(ta) ?? Infinity) - (rank.get(tb) ?? Infinity) || (ta === tb ? 0 : ta.localeCompare(tb)) || a.trial - b.trial;
  };
}
