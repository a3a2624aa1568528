/**
 * How `servicegym validate` classes an oracle episode, and the words of its last line.
 *
 * - `perfect`: reward 1 and partial 100%.
 * - `not_judged`: some check could not be judged (NL assertions without `--judge-model`), and
 *   every check that was judged and feeds the reward or the partial score passed — each
 *   reward-basis component scored 1 or was not judged, no rubric item failed, no
 *   `zero_if_failed` check failed. Never counted as passed. It is not at reward 1, so it fails
 *   `validate` (exit 1) unless `--allow-not-judged` is given: then it is accepted, because no
 *   deterministic component can tell it apart from a perfect task.
 * - `failing`: anything else (a component scored 0, an evaluation or infrastructure error).
 */
import type { TaskEvaluation } from '../evaluation/types.js';
import type { Task } from '../spec/task.js';

/** The class of one validate episode (see the module doc). */
export type ValidateClass = 'perfect' | 'not_judged' | 'failing';

/** Classes an episode's evaluation; `task` supplies servicegym `zero_if_failed` ids (if any). */
export function classifyValidateEpisode(ev: TaskEvaluation | null | undefined, task: Task | undefined): ValidateClass {
  if (!ev) return 'failing';
  if (ev.reward === 1 && ev.partial === 1) return 'perfect';
  if (!ev.not_judged || ev.reward !== null) return 'failing';
  if (!ev.reward_basis.every((b) => ev.reward_breakdown[b] === 1 || ev.reward_breakdown[b] === null)) return 'failing';
  if (ev.rubric.some((r) => r.verdict === 'fail')) return 'failing';
  const zeroIds = new Set(task?.servicegym?.zero_if_failed ?? []);
  if (ev.checks.some((c) => zeroIds.has(c.id) && c.verdict === 'fail')) return 'failing';
  return 'not_judged';
}

/** The clause of the last line saying how many episodes were not judged (see the module doc). */
export function notJudgedClause(n: number): string {
  return n ? `, ${n} not judged (NL assertions need --judge-model; every other component scores 1)` : ', 0 not judged';
}

/** An episode as {@link notJudgedTasks} sees it: its task and, in a persona run, its persona. */
type EpisodeOf = { taskId: string; persona?: string };

/**
 * The tasks of the not-judged episodes `notJudged`, each named once in first-appearance order,
 * for the "NL not judged" line: `T01, T05`. A task of which only some episodes (personas) were
 * not judged, out of `all`, names them: `T02 (impatient, vague)`.
 */
export function notJudgedTasks(notJudged: readonly EpisodeOf[], all: readonly EpisodeOf[]): string {
  const byTask = new Map<string, EpisodeOf[]>();
  for (const e of notJudged) byTask.set(e.taskId, [...(byTask.get(e.taskId) ?? []), e]);
  return [...byTask]
    .map(([taskId, mine]) => {
      const every = mine.length === all.filter((e) => e.taskId === taskId).length;
      const personas = [...new Set(mine.flatMap((e) => (e.persona === undefined ? [] : [e.persona])))];
      return every || !personas.length ? taskId : `${taskId} (${personas.join(', ')})`;
    })
    .join(', ');
}
