/**
 * The task × (label, trial) matrix of a run: its order and layout. Pure, shared by the server
 * (episode order for keyboard navigation) and the UI (the grid), so both agree on "next".
 */
import type { EpisodeOutlineView, Outcome } from './types.js';

/** Success threshold of the tau2 reward (as `isSuccess` in src/evaluation/pass-k.ts). */
const TOLERANCE = 1e-6;

/** True when `reward` counts as a success (within 1e-6 of 1). */
export function isPass(reward: number | null): boolean {
  return reward !== null && Math.abs(reward - 1) <= TOLERANCE;
}

/**
 * Colour class of an episode: `error` (left out of the scores), `unjudged` (null reward),
 * `pass` (reward 1 and no partial credit lost), `partial` (reward 1 but partial score below 1),
 * `fail` (reward below 1).
 */
export function outcomeOf(reward: number | null, partial: number | null, error: string | null): Outcome {
  if (error) return 'error';
  if (reward === null) return 'unjudged';
  if (!isPass(reward)) return 'fail';
  return partial === null || partial >= 1 - TOLERANCE ? 'pass' : 'partial';
}

/** One column of the matrix. */
export interface MatrixColumn {
  label: string;
  trial: number;
}

/** Rows (tasks), columns (label, trial) and the episode at each cell. */
export interface MatrixLayout {
  tasks: string[];
  columns: MatrixColumn[];
  /** `cells[row][column]`: the episode, or null where none was run. */
  cells: (EpisodeOutlineView | null)[][];
}

type Keyed = Pick<EpisodeOutlineView, 'task_id' | 'label' | 'trial'>;

function firstAppearance<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const order = new Map<string, number>();
  for (const item of items) {
    const k = key(item);
    if (!order.has(k)) order.set(k, order.size);
  }
  return order;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * Natural order of task ids: digit runs compare as numbers, so `2` < `10` and `T9` < `T10`
 * (ties broken by plain code-point order, so the order is total).
 */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** Task ids of `items` in natural order, each once, as a rank map. */
function naturalRanks<T>(items: readonly T[], key: (item: T) => string): Map<string, number> {
  const ids = [...new Set(items.map(key))].sort(naturalCompare);
  return new Map(ids.map((id, i) => [id, i]));
}

/**
 * Episodes sorted task (natural order of ids, never completion order), then label (first
 * appearance), then trial.
 */
export function matrixOrder<T extends Keyed>(episodes: readonly T[]): T[] {
  const tasks = naturalRanks(episodes, (e) => e.task_id);
  const labels = firstAppearance(episodes, (e) => e.label);
  return [...episodes].sort(
    (x, y) =>
      tasks.get(x.task_id)! - tasks.get(y.task_id)! ||
      labels.get(x.label)! - labels.get(y.label)! ||
      x.trial - y.trial,
  );
}

/** The grid of `episodes` (any order): one row per task (natural order), one column per (label, trial). */
export function matrixLayout(episodes: readonly EpisodeOutlineView[]): MatrixLayout {
  const tasks = [...naturalRanks(episodes, (e) => e.task_id).keys()];
  const labels = [...firstAppearance(episodes, (e) => e.label).keys()];
  const trials = new Map<string, Set<number>>();
  for (const e of episodes) {
    const set = trials.get(e.label) ?? new Set<number>();
    set.add(e.trial);
    trials.set(e.label, set);
  }
  const columns: MatrixColumn[] = labels.flatMap((label) =>
    [...trials.get(label)!].sort((a, b) => a - b).map((trial) => ({ label, trial })),
  );
  const rowOf = new Map(tasks.map((t, i) => [t, i]));
  const colOf = new Map(columns.map((c, i) => [`${c.label}\u0000${c.trial}`, i]));
  const cells: (EpisodeOutlineView | null)[][] = tasks.map(() => columns.map(() => null));
  for (const e of episodes) cells[rowOf.get(e.task_id)!][colOf.get(`${e.label}\u0000${e.trial}`)!] = e;
  return { tasks, columns, cells };
}
