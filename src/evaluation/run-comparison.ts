/**
 * Comparing run B with baseline run A without misleading (issue 18, item 4): `servicegym compare`
 * prints it and the viewer can show the same (pure: no clock, no I/O, no Node APIs).
 *
 * - **Per task, success rates**, never a pass/fail flip: 3/4 → 4/4 is +25 points, 1/4 → 3/4 is
 *   +50 points; `direction` is `improved` / `regressed` / `same` by rate, and a two-sided Fisher
 *   exact test says whether that task's change exceeds run-to-run noise (p < 0.05).
 * - **Overall**: the mean success rate (pass^1) of each run over the common tasks and B − A with
 *   a 95% paired bootstrap interval over tasks (`pass-k-ci.ts`); beyond noise when it excludes 0,
 *   and `too_few_tasks` (whatever the interval) with fewer common tasks than `minTasksForNoise`
 *   (6 at 95%), as for pass^k below.
 * - **pass^k side by side** for k = 1..(fewest trials of a common task in either run), each with
 *   its bootstrap interval, and B − A with a paired bootstrap interval (seed 0, 2000 resamples).
 * - **The whole configuration**: every stored setting that differs (models, prompt hash,
 *   temperature, trials, personas, step limit, dataset …; result fields such as means and usage
 *   are not settings; the agent and user simulator kinds of a task run, so a `validate` run's
 *   gold-action agent and scripted customer show against a `run`'s LLM agent and LLM user simulator), plus
 *   a unified diff of the agent's system prompts (not for an agent whose prompt is per task:
 *   `prompt_note` says why).
 * - **Task sets**: the runs are comparable when they ran the same tasks of the same dataset
 *   (same domain and data source); otherwise `task_sets.same` is false with the reason, and a
 *   caller refuses unless forced (then only common tasks are compared).
 *
 * Episodes with an infrastructure, harness or evaluation error are not scored; a not-judged reward (null)
 * counts as a failure, so rates are lower bounds. A campaign or optimise run with several labels
 * (its prompt versions) keys its tasks `label/task`, so versions compare one by one; a task run's
 * labels are personas, pooled per task (pass^k across personas, as `run` reports it).
 */
import { Rng } from '../util/rng.js';
import { unifiedDiff } from '../util/unified-diff.js';
import { compareTrialSets, fisherExact, noiseVerdict, passHatKIntervals, type NoiseVerdict } from './pass-k-ci.js';
import { isSuccess, taskPassHatK, type TrialRewards } from './pass-k.js';
import { cleanFloat } from '../util/round.js';

/** What a comparison needs of a run (the viewer's `RunDetail` maps onto it). */
export interface ComparedRun {
  id: string;
  /** `run` (a task run: labels are personas, pooled per task), `campaign` or `optimize` (labels are prompt versions, compared one by one). */
  kind: string;
  domain: string | null;
  /** The run's stored config and summary (the store's `summary` column). */
  config: Record<string, unknown> | null;
  /** The agent's system prompt (first episode), when known. */
  prompt: string | null;
  episodes: readonly { task_id: string; label: string; reward: number | null; error: string | null }[];
}

/** One task's success in one run: reward-1 episodes of the scored ones. */
export interface TaskRate {
  passed: number;
  trials: number;
  rate: number;
}

/** One task of the comparison. */
export interface TaskRateRow {
  task: string;
  a: TaskRate | null;
  b: TaskRate | null;
  /** B's rate minus A's; null when the task is in one run only. */
  delta: number | null;
  /** Two-sided Fisher exact p-value of A's successes vs B's; null when not in both runs. */
  p: number | null;
  beyond_noise: boolean;
  /**
   * B against A: `added` / `removed` for a task in one run only; `unscored` when one of the runs has
   * no scored trial of it (every episode an infrastructure error), so there is nothing to compare.
   */
  direction: 'improved' | 'regressed' | 'same' | 'added' | 'removed' | 'unscored';
}

/** A value with its bootstrap interval. */
export interface Interval {
  value: number;
  low: number;
  high: number;
}

/** pass^k of both runs at one k, and B − A with its paired interval. */
export interface PassHatKPair {
  k: number;
  a: Interval;
  b: Interval;
  /** `verdict` as the overall one (`too_few_tasks` below `min_tasks`); `beyond_noise` is `verdict === 'beyond'`. */
  delta: Interval & { beyond_noise: boolean; verdict: NoiseVerdict };
}

/** One differing setting: a dotted key and both values (undefined → null). */
export interface ConfigDifference {
  key: string;
  a: unknown;
  b: unknown;
}

/** The comparison (see the module doc). */
export interface RunComparison {
  a: string;
  b: string;
  task_sets: { same: boolean; reason: string | null; common: number; only_a: string[]; only_b: string[] };
  tasks: TaskRateRow[];
  /** Mean success rate over the common tasks; null when no common task has scored trials. */
  overall: { tasks: number; a: number; b: number; delta: number; low: number; high: number; level: number; beyond_noise: boolean; verdict: NoiseVerdict; min_tasks: number } | null;
  pass_hat_k: PassHatKPair[];
  config_diff: ConfigDifference[];
  /** Unified diff of A's agent system prompt to B's; empty when equal, unknown or not comparable. */
  prompt_diff: string;
  /** Why the prompts are not diffed (an agent with a prompt per task); null when they are. */
  prompt_note: string | null;
  counts: Record<TaskRateRow['direction'], number> & { beyond_noise: number };
}

/** Stored summary fields that are results or bookkeeping, not settings. */
const RESULT_KEYS = new Set([
  'command', 'episodes', 'scored', 'infraErrors', 'harnessErrors', 'evaluationErrors', 'unjudged', 'rewardMean', 'partialMean', 'passHatK', 'passHatKInterval',
  'terminations', 'crossSide', 'usage', 'unattached_usage', 'replayed_usage', 'attempts', 'tasks', 'task_ids', 'candidates', 'decision', 'stop_reason', 'budget', 'rows', 'cost_usd',
  // why a run stopped before every planned episode started, and how many did not: an outcome, not a setting
  'halted',
]);

/**
 * Stored summary fields that say where and how fast a run ran, kept for its `--resume` (the base
 * URL, the absolute paths of its data folder and prompt file, `-j`, `--threads`, `--rate-limit`),
 * not what it ran: the dataset, the prompt and the host are compared as `data`, `prompt_sha256`
 * and `provider`. Not listed as differences, so neither are they between shards of one run.
 */
const PLACE_KEYS = new Set(['base_url', 'data_dir', 'prompt_path', 'concurrency', 'threads', 'rate_limit']);

/** Rates, differences and bounds without float noise (the reported-number rounding). */
const clean = cleanFloat;

/** Task key → rewards of the scored episodes (`label/task` when the run has several labels). */
export function trialRewardsOf(run: ComparedRun): Map<string, (number | null)[]> {
  const multi = run.kind !== 'run' && new Set(run.episodes.map((e) => e.label)).size > 1;
  const out = new Map<string, (number | null)[]>();
  for (const e of run.episodes) {
    const key = multi ? `${e.label}/${e.task_id}` : e.task_id;
    if (!out.has(key)) out.set(key, []);
    if (!e.error) out.get(key)!.push(e.reward);
  }
  return out;
}

const rateOf = (r: readonly (number | null)[]): TaskRate => {
  const passed = r.filter(isSuccess).length;
  return { passed, trials: r.length, rate: r.length ? clean(passed / r.length) : 0 };
};

/** Flattens a config object to dotted keys (arrays and scalars are leaves). */
function flatten(v: unknown, prefix: string, out: Map<string, unknown>): void {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    for (const [k, x] of Object.entries(v)) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, v);
}

/**
 * The agent and user simulator a task run used, as settings both kinds of task run share: a run
 * that records its roles (`agent_role`, `user_role`: `validate` records the gold-action oracle
 * and its scripted customer) shows them, else its recorded kind (`agent`, `user`), else an LLM
 * agent and an LLM user simulator when it recorded their models (`run`). Null when unknown.
 */
function roleSettings(c: Record<string, unknown>): { agent: string | null; user: string | null } {
  const role = (described: unknown, kind: unknown, model: unknown, llm: string) =>
    typeof described === 'string' ? described : typeof kind === 'string' ? kind : typeof model === 'string' ? llm : null;
  return { agent: role(c.agent_role, c.agent, c.agent_model, 'LLM agent'), user: role(c.user_role, c.user, c.user_model, 'LLM user simulator') };
}

/** Stored keys {@link roleSettings} folds into `agent` and `user`, and the prompt marker. */
const ROLE_KEYS = new Set(['agent_role', 'user_role', 'agent_prompt']);

/**
 * Why two runs' agent prompts are not diffed, or null: a run whose agent prompt differs per task
 * (stored `agent_prompt: "per_task"`, as `validate` does: its agent plays the gold actions and its
 * one-line prompt names the task) has no one prompt to diff.
 */
function promptNote(a: ComparedRun, b: ComparedRun): string | null {
  const sides = ([['A', a], ['B', b]] as const).filter(([, r]) => r.config?.agent_prompt === 'per_task');
  if (!sides.length) return null;
  const who = sides.map(([side, r]) => `${side}'s agent (${roleSettings(r.config ?? {}).agent ?? 'unknown'})`).join(' and ');
  return `not diffed: ${who} has a prompt per task, not one prompt under test`;
}

/**
 * A setting's value as compared: an empty list is no value, as an absent or null one is (a run
 * that records `tags: []` and one that records no tags have the same tags, none).
 */
const settingValue = (v: unknown): unknown => (v === undefined || (Array.isArray(v) && v.length === 0) ? null : v);

/**
 * Every setting that differs between the runs' stored configs (result fields and where the run
 * ran, {@link PLACE_KEYS}, left out; `judge_votes` too for a run without a judge model), sorted
 * by key. A setting one run does not record and the other records as null or `[]` is the same: a
 * `validate` run records no tags and no image delivery (`screenshots`, which `run` records only on
 * a surface that hands the agent images), so neither differs from a `run` without them.
 */
export function configDifferences(a: ComparedRun, b: ComparedRun): ConfigDifference[] {
  const settings = (r: ComparedRun) => {
    const m = new Map<string, unknown>([['domain', r.domain]]);
    for (const [k, v] of Object.entries(r.config ?? {})) if (!RESULT_KEYS.has(k) && !ROLE_KEYS.has(k) && !PLACE_KEYS.has(k)) flatten(v, k, m);
    if (r.kind === 'run') for (const [k, v] of Object.entries(roleSettings(r.config ?? {}))) m.set(k, v);
    // Votes are the judge's: a run without a judge model cast none, whatever `--judge-votes` it stored.
    if (settingValue(r.config?.judge_model) === null) m.delete('judge_votes');
    return m;
  };
  const sa = settings(a);
  const sb = settings(b);
  const keys = [...new Set([...sa.keys(), ...sb.keys()])].sort();
  return keys.flatMap((key) => {
    const x = settingValue(sa.get(key));
    const y = settingValue(sb.get(key));
    return JSON.stringify(x) === JSON.stringify(y) ? [] : [{ key, a: x, b: y }];
  });
}

/** Whether the runs ran the same tasks of the same dataset; the reason when not. */
function taskSets(a: ComparedRun, b: ComparedRun, ka: string[], kb: string[]): RunComparison['task_sets'] {
  const inB = new Set(kb);
  const inA = new Set(ka);
  const only_a = ka.filter((k) => !inB.has(k));
  const only_b = kb.filter((k) => !inA.has(k));
  const common = ka.length - only_a.length;
  const data = (r: ComparedRun) => JSON.stringify([r.domain, r.config?.data ?? null, r.config?.mode ?? null]);
  let reason: string | null = null;
  const named = (r: ComparedRun) => [r.domain ?? '-', r.config?.data, r.config?.mode].filter((x) => x !== undefined && x !== null).join(' ');
  // A task run stored before its dataset was recorded (validate runs of earlier versions) cannot be matched: say so.
  const unrecorded = [a, b].filter((r) => r.kind === 'run' && r.config !== null && r.config.data === undefined && r.config.mode === undefined);
  if (data(a) !== data(b) && unrecorded.length) reason = `run ${unrecorded.map((r) => r.id).join(' and ')} does not record its dataset (stored by an earlier servicegym; run it again to record it)`;
  else if (data(a) !== data(b)) reason = `different datasets (A: ${named(a)}; B: ${named(b)})`;
  else if (only_a.length || only_b.length) reason = `different task sets (${common} in common, ${only_a.length} only in A, ${only_b.length} only in B)`;
  return { same: reason === null, reason, common, only_a, only_b };
}

/** Paired percentile bootstrap of the mean of `diffs` over tasks (seed 0, 2000 resamples, 95%). */
function pairedInterval(diffs: readonly number[]): { low: number; high: number } {
  const rng = new Rng(0);
  const n = diffs.length;
  const draws: number[] = [];
  for (let b = 0; b < 2000; b++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += diffs[Math.floor(rng.next() * n)];
    draws.push(s / n);
  }
  draws.sort((x, y) => x - y);
  const q = (p: number) => {
    const h = (n && draws.length - 1) * p;
    const lo = Math.floor(h);
    return draws[lo] + (h - lo) * ((draws[Math.min(lo + 1, draws.length - 1)] ?? draws[lo]) - draws[lo]);
  };
  return { low: q(0.025), high: q(0.975) };
}

/** pass^k of both runs over `common` tasks, k = 1..(fewest trials), with intervals. */
function passHatKPairs(ra: Map<string, (number | null)[]>, rb: Map<string, (number | null)[]>, common: string[]): PassHatKPair[] {
  const keys = common.filter((k) => ra.get(k)!.length > 0 && rb.get(k)!.length > 0);
  if (!keys.length) return [];
  const pick = (m: Map<string, (number | null)[]>): TrialRewards => new Map(keys.map((k) => [k, m.get(k)!]));
  const [ta, tb] = [pick(ra), pick(rb)];
  const ia = passHatKIntervals(ta);
  const ib = passHatKIntervals(tb);
  const kmax = Math.min(ia.length, ib.length);
  const out: PassHatKPair[] = [];
  for (let k = 1; k <= kmax; k++) {
    const per = (m: Map<string, (number | null)[]>) => keys.map((key) => taskPassHatK(m.get(key)!.length, m.get(key)!.filter(isSuccess).length, k));
    const pa = per(ra);
    const diffs = per(rb).map((x, i) => x - pa[i]);
    const delta = diffs.reduce((s, x) => s + x, 0) / diffs.length;
    const { low, high } = pairedInterval(diffs);
    const [lo, hi] = [clean(Math.min(low, delta)), clean(Math.max(high, delta))];
    const iv = (x: { value: number; low: number; high: number }): Interval => ({ value: x.value, low: x.low, high: x.high });
    const verdict = noiseVerdict(keys.length, lo, hi, 0.95);
    out.push({ k, a: iv(ia[k - 1]), b: iv(ib[k - 1]), delta: { value: clean(delta), low: lo, high: hi, beyond_noise: verdict === 'beyond', verdict } });
  }
  return out;
}

/** Compares run B with baseline A (see the module doc). */
export function compareRunResults(a: ComparedRun, b: ComparedRun): RunComparison {
  const ra = trialRewardsOf(a);
  const rb = trialRewardsOf(b);
  const ka = [...ra.keys()];
  const kb = [...rb.keys()];
  const sets = taskSets(a, b, ka, kb);
  const common = ka.filter((k) => rb.has(k));
  const tasks: TaskRateRow[] = [...ka, ...sets.only_b].map((task) => {
    const x = ra.has(task) ? rateOf(ra.get(task)!) : null;
    const y = rb.has(task) ? rateOf(rb.get(task)!) : null;
    if (!x || !y) return { task, a: x, b: y, delta: null, p: null, beyond_noise: false, direction: x ? 'removed' : 'added' };
    const both = x.trials > 0 && y.trials > 0;
    const p = both ? clean(fisherExact(x.passed, x.trials, y.passed, y.trials)) : null;
    const delta = both ? clean(y.rate - x.rate) : null;
    return { task, a: x, b: y, delta, p, beyond_noise: p !== null && p < 0.05, direction: delta === null ? 'unscored' : delta === 0 ? 'same' : delta > 0 ? 'improved' : 'regressed' };
  });
  const counts = { improved: 0, regressed: 0, same: 0, added: 0, removed: 0, unscored: 0, beyond_noise: 0 };
  for (const t of tasks) {
    counts[t.direction]++;
    if (t.beyond_noise) counts.beyond_noise++;
  }
  let overall: RunComparison['overall'] = null;
  const scoredCommon = common.filter((k) => ra.get(k)!.length > 0 && rb.get(k)!.length > 0);
  if (scoredCommon.length) {
    const pick = (m: Map<string, (number | null)[]>) => new Map(scoredCommon.map((k) => [k, m.get(k)!]));
    const { per_task: _, ...rest } = compareTrialSets(pick(ra), pick(rb));
    overall = rest;
  }
  const prompt_note = promptNote(a, b);
  const prompt_diff = prompt_note === null && a.prompt !== null && b.prompt !== null ? unifiedDiff(a.prompt, b.prompt, `${a.id} (A)`, `${b.id} (B)`) : '';
  return { a: a.id, b: b.id, task_sets: sets, tasks, overall, pass_hat_k: passHatKPairs(ra, rb, common), config_diff: configDifferences(a, b), prompt_diff, prompt_note, counts };
}
