/**
 * Per-label scores of a run with several labels (a campaign's or an optimisation's prompt
 * versions, a run's personas or modes), so the run page shows each version's reward and pass^k
 * instead of one pooled number (issue 18, item 6). Same rules as the run's own scores: infra and
 * evaluation errors are left out, a null reward counts as 0 and as a failure of pass^k.
 */
import { passHatKIntervals } from '../evaluation/pass-k-ci.js';
import { isPass } from './matrix.js';
import type { EpisodeOutlineView, LabelBreakdown } from './types.js';

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** One row per label in first-appearance order; `[]` when the run has fewer than two labels. */
export function labelBreakdown(episodes: readonly EpisodeOutlineView[]): LabelBreakdown[] {
  const labels = [...new Set(episodes.map((e) => e.label))];
  if (labels.length < 2) return [];
  return labels.map((label) => {
    const mine = episodes.filter((e) => e.label === label);
    const scored = mine.filter((e) => !e.error);
    const perTask = new Map<string, (number | null)[]>();
    for (const e of scored) perTask.set(e.task_id, [...(perTask.get(e.task_id) ?? []), e.reward]);
    return {
      label,
      tasks: new Set(mine.map((e) => e.task_id)).size,
      episodes: mine.length,
      scored: scored.length,
      passed: scored.filter((e) => isPass(e.reward)).length,
      reward_mean: mean(scored.map((e) => e.reward ?? 0)),
      partial_mean: mean(scored.flatMap((e) => (e.partial === null ? [] : [e.partial]))),
      pass_hat_k: perTask.size ? passHatKIntervals(perTask) : [],
    };
  });
}
