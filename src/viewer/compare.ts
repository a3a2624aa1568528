/**
 * Comparing two runs for the compare page. The numbers come from the one comparison of the
 * project, `evaluation/run-comparison.ts` (what `servicegym compare` prints): per-task success
 * rates and their differences with a Fisher exact test, the overall success-rate difference with
 * its paired bootstrap interval, pass^k side by side, the differing settings, the prompt diff and
 * whether the runs ran the same tasks of the same dataset. This module adds what the page links:
 * each task's episodes and partial-score means, in natural task order. Pure (no Node APIs), so a
 * static export computes the same view in the browser.
 */
import { compareRunResults, type ComparedRun } from '../evaluation/run-comparison.js';
import { naturalCompare } from './matrix.js';
import type { CompareRow, CompareView, EpisodeOutlineView, RunDetail, TaskOutcome } from './types.js';
import { isPass } from './matrix.js';

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** The comparison input of a run (its stored summary is its configuration). */
export function comparedRun(d: RunDetail): ComparedRun {
  return { id: d.run.id, kind: d.run.kind, domain: d.run.domain, config: (d.summary ?? null) as Record<string, unknown> | null, prompt: d.prompt, episodes: d.episodes };
}

/** Task key → outcome, keyed as the comparison keys tasks (`label/task` for a campaign's or optimisation's versions). */
export function taskOutcomes(episodes: readonly EpisodeOutlineView[], kind: string): Map<string, TaskOutcome> {
  const multiLabel = kind !== 'run' && new Set(episodes.map((e) => e.label)).size > 1;
  const groups = new Map<string, EpisodeOutlineView[]>();
  for (const e of episodes) {
    const key = multiLabel ? `${e.label}/${e.task_id}` : e.task_id;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const out = new Map<string, TaskOutcome>();
  for (const [key, list] of groups) {
    const scored = list.filter((e) => !e.error);
    out.set(key, {
      episodes: list.length,
      scored: scored.length,
      passed: scored.filter((e) => isPass(e.reward)).length,
      reward_mean: mean(scored.map((e) => e.reward ?? 0)),
      partial_mean: mean(scored.flatMap((e) => (e.partial === null ? [] : [e.partial]))),
      episode_ids: list.map((e) => e.episode_id),
    });
  }
  return out;
}

/** Keys in natural task order within each label, labels in first-appearance order. */
function orderKeys(keys: string[]): string[] {
  const labelOf = (k: string) => (k.includes('/') ? k.slice(0, k.indexOf('/')) : '');
  const labels = [...new Set(keys.map(labelOf))];
  return [...keys].sort((x, y) => labels.indexOf(labelOf(x)) - labels.indexOf(labelOf(y)) || naturalCompare(x, y));
}

/** The comparison of run A (baseline) with run B, with each task's episodes and partial means. */
export function compareRuns(a: RunDetail, b: RunDetail): CompareView {
  const comparison = compareRunResults(comparedRun(a), comparedRun(b));
  const ta = taskOutcomes(a.episodes, a.run.kind);
  const tb = taskOutcomes(b.episodes, b.run.kind);
  const byTask = new Map(comparison.tasks.map((t) => [t.task, t]));
  const rows: CompareRow[] = orderKeys([...byTask.keys()]).map((key) => {
    const t = byTask.get(key)!;
    const x = ta.get(key) ?? null;
    const y = tb.get(key) ?? null;
    return {
      key,
      a: x,
      b: y,
      change: t.direction,
      rate_a: t.a && t.a.trials ? t.a.rate : null,
      rate_b: t.b && t.b.trials ? t.b.rate : null,
      rate_delta: t.delta,
      partial_delta: x?.partial_mean != null && y?.partial_mean != null ? y.partial_mean - x.partial_mean : null,
      noise: t.p === null ? null : { p: t.p, beyond_noise: t.beyond_noise },
    };
  });
  return { a: a.run, b: b.run, rows, comparison };
}
