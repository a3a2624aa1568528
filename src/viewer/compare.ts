/**
 * Comparing two runs task by task. Pure (no Node APIs), so the server answers
 * `/api/compare` with it and a static export computes the same view in the browser.
 *
 * A task's success rate in a run is the share of its scored episodes with reward 1; a task
 * `improved` when B's rate is higher than A's and `regressed` when lower (so 1/4 → 3/4 is an
 * improvement, not "unchanged"). Episodes with infrastructure or evaluation errors are not
 * scored. When a run has several labels (a campaign's prompt versions), tasks are keyed
 * `label/task`, so a campaign compares version by version. `noise` says which differences exceed
 * run-to-run noise: the pass^1 difference with a paired bootstrap interval over tasks, and per
 * task a Fisher exact test of the two runs' successes. `task_sets` tells whether the runs ran
 * the same tasks (the UI refuses to compare different sets unless asked to), `config` diffs the
 * whole configuration.
 */
import { unifiedDiff } from '../util/unified-diff.js';
import { isPass, naturalCompare } from './matrix.js';
import { compareTrialSets } from '../evaluation/pass-k-ci.js';
import { configDiff } from './config-diff.js';
import type { Change, CompareNoise, CompareRow, CompareView, EpisodeOutlineView, RunDetail, TaskOutcome, TaskSets } from './types.js';

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

/** Share of scored episodes with reward 1; null when none was scored. */
export const successRate = (t: TaskOutcome | null): number | null => (t && t.scored > 0 ? t.passed / t.scored : null);

function changeOf(a: TaskOutcome | null, b: TaskOutcome | null): Change {
  if (!a) return 'added';
  if (!b) return 'removed';
  const ra = successRate(a);
  const rb = successRate(b);
  if (ra === null || rb === null || Math.abs(rb - ra) < 1e-9) return 'unchanged';
  return rb > ra ? 'improved' : 'regressed';
}

/** Keys in natural task order within each label, labels in first-appearance order. */
function orderKeys(keys: string[]): string[] {
  const labelOf = (k: string) => (k.includes('/') ? k.slice(0, k.indexOf('/')) : '');
  const labels = [...new Set(keys.map(labelOf))];
  return [...keys].sort((x, y) => labels.indexOf(labelOf(x)) - labels.indexOf(labelOf(y)) || naturalCompare(x, y));
}

/** Whether A and B ran the same task set (keys) in the same domain. */
function taskSets(a: RunDetail, b: RunDetail, ka: string[], kb: string[]): TaskSets {
  const sa = new Set(ka);
  const sb = new Set(kb);
  const onlyA = ka.filter((k) => !sb.has(k));
  const onlyB = kb.filter((k) => !sa.has(k));
  const sameDomain = a.run.domain === b.run.domain;
  return { same: sameDomain && onlyA.length === 0 && onlyB.length === 0, same_domain: sameDomain, common: ka.length - onlyA.length, only_a: onlyA, only_b: onlyB };
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

/** The comparison of run A (baseline) with run B: per-task success-rate changes, noise, task sets, the configuration and prompt diffs. */
export function compareRuns(a: RunDetail, b: RunDetail): CompareView {
  const ta = taskOutcomes(a.episodes);
  const tb = taskOutcomes(b.episodes);
  const noise = noiseOf(a, b);
  const keys = orderKeys([...ta.keys(), ...[...tb.keys()].filter((k) => !ta.has(k))]);
  const rows: CompareRow[] = keys.map((key) => {
    const x = ta.get(key) ?? null;
    const y = tb.get(key) ?? null;
    const delta = x?.partial_mean != null && y?.partial_mean != null ? y.partial_mean - x.partial_mean : null;
    const [ra, rb] = [successRate(x), successRate(y)];
    const rate_delta = ra !== null && rb !== null ? rb - ra : null;
    return { key, a: x, b: y, change: changeOf(x, y), rate_a: ra, rate_b: rb, rate_delta, partial_delta: delta, noise: noise?.byTask.get(key) ?? null };
  });
  const counts: Record<Change, number> = { improved: 0, regressed: 0, unchanged: 0, added: 0, removed: 0 };
  for (const r of rows) counts[r.change]++;
  const prompt_diff =
    a.prompt !== null && b.prompt !== null ? unifiedDiff(a.prompt, b.prompt, `${a.run.id} (A)`, `${b.run.id} (B)`) : '';
  return {
    a: a.run,
    b: b.run,
    rows,
    counts,
    prompt_diff,
    noise: noise?.view ?? null,
    task_sets: taskSets(a, b, [...ta.keys()], [...tb.keys()]),
    config: configDiff(a, b),
  };
}
