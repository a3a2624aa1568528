/**
 * A run's summary: reward and partial-credit means, pass^1..k (the evaluator's
 * `passHatKCurve`, as the values of `passHatKIntervals`), termination counts.
 *
 * Which episodes count: an episode whose agent or user failed for infrastructure reasons (a
 * provider failure after retries, a replay miss, an exception in agent/user code) is recorded but
 * left out of the means and of pass^k, as tau2 drops infrastructure errors; so is an episode that
 * ended as `harness_error` (a bug in tool or surface code, counted apart) and one whose evaluation
 * threw. A null reward (a reward-basis component not judged) counts as 0 in the mean
 * and as a failure in pass^k, as the evaluator's pass^k does, so both are lower bounds; `unjudged`
 * says how many there were.
 */
import type { TerminationReason } from '../evaluation/types.js';
import { passHatKIntervals, type PassHatKInterval } from '../evaluation/pass-k-ci.js';

/** One episode's outcome as the summary needs it. */
export interface EpisodeOutcome {
  taskId: string;
  trial: number;
  termination: TerminationReason;
  /** tau2 reward, or null when not judged. */
  reward: number | null;
  /** Partial credit in [0, 1], or null when unknown. */
  partial: number | null;
  /** True when the episode failed for infrastructure reasons (see module doc). */
  infraError: boolean;
  /** True when the episode ended as `harness_error` (a tool's code threw); left out like an infrastructure error. */
  harnessError?: boolean;
  /** True when the evaluator threw (reward and partial are then null). */
  evaluationError: boolean;
  /** Cross-side tool uses in the episode (domains with user tools); absent otherwise. */
  crossSide?: number;
}

/** Counts, means and pass^k of a run (see the module doc for which episodes count). */
export interface RunSummary {
  /** Distinct tasks with at least one episode. */
  tasks: number;
  /** Episodes summarised (this run's plus finished ones given with their scores). */
  episodes: number;
  /** Episodes in the means and pass^k. */
  scored: number;
  infraErrors: number;
  /** Episodes that ended as `harness_error` (a bug in tool or surface code), left out of the scores. */
  harnessErrors: number;
  evaluationErrors: number;
  /** Scored episodes with a null reward (not judged; counted as 0 / failure). */
  unjudged: number;
  /** Mean tau2 reward over scored episodes (null rewards as 0); null when none. */
  rewardMean: number | null;
  /** Mean partial credit over scored episodes with one; null when none. */
  partialMean: number | null;
  /** pass^k for k = 1..(fewest scored trials of a task). */
  passHatK: { k: number; value: number }[];
  /**
   * pass^k with its 95% percentile-bootstrap interval over tasks (seed 0, 2000 resamples; see
   * `evaluation/pass-k-ci.ts`): how far run-to-run noise alone could move it.
   */
  passHatKInterval: PassHatKInterval[];
  terminations: Partial<Record<TerminationReason, number>>;
  /**
   * Domains with user tools: scored episodes in which a party used the other side's tools (see
   * `evaluation/cross-side.ts`), out of the scored ones; absent when no episode had any.
   */
  crossSide?: { episodes: number; measured: number; uses: number };
}

/**
 * The summary's view of one finished episode, from the fields a live record and a stored row share:
 * `termination`, the evaluation (reward, partial, and the `cross_side.count` of domains with user
 * tools), and whether it ended in an infrastructure, harness or evaluator error (their messages, or
 * undefined).
 */
export function episodeOutcome(e: {
  taskId: string;
  trial: number;
  termination: TerminationReason;
  evaluation: { reward: number | null; partial: number } | null | undefined;
  infraError?: string;
  harnessError?: string;
  evaluationError?: string;
}): EpisodeOutcome {
  const cs = (e.evaluation as { cross_side?: { count?: unknown } } | null | undefined)?.cross_side;
  return {
    taskId: e.taskId,
    trial: e.trial,
    termination: e.termination,
    reward: e.evaluation?.reward ?? null,
    partial: e.evaluation?.partial ?? null,
    infraError: e.infraError !== undefined,
    harnessError: e.harnessError !== undefined,
    evaluationError: e.evaluationError !== undefined,
    ...(typeof cs?.count === 'number' ? { crossSide: cs.count } : {}),
  };
}

/**
 * The canonical episode order of a run's aggregates: task id (code-unit order, not locale), then
 * trial — the store's episode key `task#trial`. Floats summed in this order give the same bits
 * whatever order the episodes arrived, finished or were kept from an earlier attempt in.
 */
export function compareEpisodeKeys(a: { taskId: string; trial: number }, b: { taskId: string; trial: number }): number {
  return a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : a.trial - b.trial;
}

/** Same key (duplicates, e.g. imported results): ordered by their values, so the order given never shows. */
function compareOutcomes(a: EpisodeOutcome, b: EpisodeOutcome): number {
  const v = (o: EpisodeOutcome) => [o.termination, o.reward ?? -1, o.partial ?? -1, +o.infraError, +!!o.harnessError, +o.evaluationError, o.crossSide ?? -1] as const;
  const [x, y] = [v(a), v(b)];
  const i = x.findIndex((xi, j) => xi !== y[j]);
  return compareEpisodeKeys(a, b) || (i < 0 ? 0 : x[i] < y[i] ? -1 : 1);
}

/**
 * Summarises episode outcomes, given in any order: they are taken in the canonical order
 * ({@link compareEpisodeKeys}), so the summary (its float means and the key order of
 * `terminations`) is a pure function of the set of outcomes — a resumed run prints the same bits.
 */
export function summarizeRun(given: readonly EpisodeOutcome[]): RunSummary {
  const outcomes = [...given].sort(compareOutcomes);
  const terminations: Partial<Record<TerminationReason, number>> = {};
  const perTask = new Map<string, (number | null)[]>();
  let scored = 0, infra = 0, harness = 0, evalErrors = 0, unjudged = 0, rewardSum = 0, partialSum = 0, partialN = 0;
  for (const o of outcomes) {
    terminations[o.termination] = (terminations[o.termination] ?? 0) + 1;
    if (o.harnessError) { harness++; continue; }
    if (o.infraError) { infra++; continue; }
    if (o.evaluationError) { evalErrors++; continue; }
    scored++;
    if (o.reward === null) unjudged++;
    rewardSum += o.reward ?? 0;
    if (o.partial !== null) { partialSum += o.partial; partialN++; }
    const list = perTask.get(o.taskId) ?? [];
    list.push(o.reward);
    perTask.set(o.taskId, list);
  }
  // The intervals carry the exact pass^k values (the same numbers as passHatKCurve's): computed once.
  const intervals = perTask.size ? passHatKIntervals(perTask) : [];
  return {
    tasks: new Set(outcomes.map((o) => o.taskId)).size,
    episodes: outcomes.length,
    scored,
    infraErrors: infra,
    harnessErrors: harness,
    evaluationErrors: evalErrors,
    unjudged,
    rewardMean: scored ? rewardSum / scored : null,
    partialMean: partialN ? partialSum / partialN : null,
    passHatK: intervals.map(({ k, value }) => ({ k, value })),
    passHatKInterval: intervals,
    terminations,
    ...crossSideSummary(outcomes),
  };
}

function crossSideSummary(outcomes: readonly EpisodeOutcome[]): Pick<RunSummary, 'crossSide'> {
  const measured = outcomes.filter((o) => !o.infraError && !o.evaluationError);
  if (!measured.some((o) => (o.crossSide ?? 0) > 0)) return {};
  return {
    crossSide: {
      episodes: measured.filter((o) => (o.crossSide ?? 0) > 0).length,
      measured: measured.length,
      uses: measured.reduce((s, o) => s + (o.crossSide ?? 0), 0),
    },
  };
}
