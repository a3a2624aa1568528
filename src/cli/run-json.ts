/**
 * The entries of `servicegym run --json`'s `episodes` array: one object per episode, serialized
 * as the episode ends (src/cli/run-execute.ts) or when the report is written
 * (src/cli/run-finish.ts), the same either way.
 */
import { isScored, type EpisodeReportRow } from '../run/report-rows.js';
import { cleanFloats } from '../util/round.js';

/**
 * An episode's entry in the `run --json` report, keys in this order: `task_id`, `trial`,
 * `persona` (only when the run has `personas`), `termination`, `evaluation` (floats cleaned),
 * `infra_error` (null when none), `scored`, and `kept` (only for a `resumed` run: whether the
 * episode was kept from an earlier attempt).
 */
export function runEpisodeJson(r: EpisodeReportRow, personas: readonly string[] | undefined, resumed: boolean): Record<string, unknown> {
  return { task_id: r.taskId, trial: r.trial, ...(personas ? { persona: r.persona } : {}), termination: r.termination, evaluation: cleanFloats(r.evaluation), infra_error: r.infraError ?? null, scored: isScored(r), ...(resumed ? { kept: !!r.kept } : {}) };
}

/** The key of an episode's serialized entry: its task id and trial (a task id holds no NUL). */
export function episodeKey(r: Pick<EpisodeReportRow, 'taskId' | 'trial'>): string {
  return `${r.taskId}\u0000${r.trial}`;
}
