/**
 * Comparing two runs task by task. Pure (no Node APIs), so the server answers
 * `/api/compare` with it and a static export computes the same view in the browser.
 *
 * A task passes in a run when it has a scored episode and every scored episode has reward 1
 * (pass^k's all-trials reading). Episodes with infrastructure or evaluation errors are not
 * scored. When a run has several labels (a campaign's prompt versions), tasks are keyed
 * `label/task`, so a campaign compares version by version. `noise` says which differences exceed
 * run-to-run noise: the pass^1 difference with a paired bootstrap interval over tasks, and per
 * task a Fisher exact test of the two runs' successes.
 */
import { unifiedDiff } from '../util/unified-diff.js';
import { isPass } from './matrix.js';
import { compareTrialSets } from '../evaluation/pass-k-ci.js';
import type { Change, CompareNoise, CompareRow, CompareView, EpisodeOutlineView, RunDetail, TaskOutcome } from './types.js';

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);

/** Task key → outcome, in first-appearance order. */
export function taskOutcomes(episodes: readonly EpisodeOutlineView[]): Map<string, TaskOutcome> {
  const multiLabel = new Set(episodes.map((e) => e.label)).size > 1;
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

const passes = (t: TaskOutcome): boolean => t.scored > 0 && t.passed === t.scored;

function changeOf(a: TaskOutcome | null, b: TaskOutcome | null): Change {
  if (!a) return 'added';
  if (!b) return 'removed';
  if (passes(a) === passes(b)) return 'unchanged';
  return passes(b) ? 'fixed' : 'broken';
}

/** Task key → rewards of its scored episodes (the keys `taskOutcomes` uses). */
function trialRewards(episodes: readonly EpisodeOutlineView[]): Map<string, (number | null)[]> {
  const multiLabel = new Set(episodes.map((e) => e.label)).size > 1;
  const out = new Map<string, (number | null)[]>();
  for (const e of episodes) {
    if (e.error) continue;
    const key = multiLabel ? `${e.label}/${e.task_id}` : e.task_id;
    out.set(key, [...(out.get(key) ?? []), e.reward]);
  }
  return out;
}

/** Which differences exceed run-to-run noise (`evaluation/pass-k-ci.ts`); null without a common scored task. */
function noiseOf(a: RunDetail, b: RunDetail): { view: CompareNoise; byTask: Map<string, { p: number; beyond_noise: boolean }> } | null {
  const ra = trialRewards(a.episodes);
  const rb = trialRewards(b.episodes);
  if (![...ra.keys()].some((k) => rb.has(k))) return null;
  const c = compareTrialSets(ra, rb);
  const byTask = new Map(c.per_task.map((t) => [t.task, { p: t.p, beyond_noise: t.beyond_noise }]));
  const { per_task, ...rest } = c;
  return { view: { ...rest, tasks_beyond_noise: per_task.filter((t) => t.beyond_noise).map((t) => t.task) }, byTask };
}

/** The comparison of run A (baseline) with run B: per-task changes, noise and the prompt diff. */
export function compareRuns(a: RunDetail, b: RunDetail): CompareView {
  const ta = taskOutcomes(a.episodes);
  const tb = taskOutcomes(b.episodes);
  const noise = noiseOf(a, b);
  const keys = [...ta.keys(), ...[...tb.keys()].filter((k) => !ta.has(k))];
  const rows: CompareRow[] = keys.map((key) => {
    const x = ta.get(key) ?? null;
    const y = tb.get(key) ?? null;
    const delta = x?.partial_mean != null && y?.partial_mean != null ? y.partial_mean - x.partial_mean : null;
    return { key, a: x, b: y, change: changeOf(x, y), partial_delta: delta, noise: noise?.byTask.get(key) ?? null };
  });
  const counts: Record<Change, number> = { fixed: 0, broken: 0, unchanged: 0, added: 0, removed: 0 };
  for (const r of rows) counts[r.change]++;
  const prompt_diff =
    a.prompt !== null && b.prompt !== null ? unifiedDiff(a.prompt, b.prompt, `${a.run.id} (A)`, `${b.run.id} (B)`) : '';
  return { a: a.run, b: b.run, rows, counts, prompt_diff, noise: noise?.view ?? null };
}
