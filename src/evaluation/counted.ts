/**
 * Which checks of a task evaluation count (src/evaluation/compose.ts `evaluateTask`): the tau2
 * component checks of the reward basis the episode was scored on (under `--strict` ACTION is in
 * every basis), the servicegym checks the partial-credit rubric or `zero_if_failed` name, and the
 * strict-mode flags. The other component checks (e.g. `tau2_action` outside strict mode) are
 * diagnostics: computed, but no part of the reward or the partial score.
 */
import type { CheckResult, TaskEvaluation } from './types.js';

/** What of a task decides which checks count: its servicegym `zero_if_failed` ids (src/spec/task.ts `Task` is one). */
export type CountingTask = { servicegym?: { zero_if_failed?: readonly string[] } };

/** Kinds of the tau2 component checks (`tau2_db` is `DB`, ...). */
const COMPONENT_KINDS = new Set(['DB', 'ENV_ASSERTION', 'COMMUNICATE', 'NL_ASSERTION', 'ACTION']);

/** True when `check` feeds `ev`'s reward or partial score (see the module doc). */
export function checkCounts(check: CheckResult, ev: Pick<TaskEvaluation, 'reward_basis' | 'rubric'>, task?: CountingTask): boolean {
  if (COMPONENT_KINDS.has(check.kind) && check.id.startsWith('tau2_')) return (ev.reward_basis as string[]).includes(check.kind);
  if (check.kind === 'STRICT') return true;
  return ev.rubric.some((r) => r.checks.includes(check.id)) || (task?.servicegym?.zero_if_failed ?? []).includes(check.id);
}

/** The failed checks that count towards `ev`'s reward or partial score, in evaluation order. */
export function countedFailures(ev: Pick<TaskEvaluation, 'reward_basis' | 'rubric' | 'checks'>, task?: CountingTask): CheckResult[] {
  return ev.checks.filter((c) => c.verdict === 'fail' && checkCounts(c, ev, task));
}

/**
 * The checks a report lists as not passed (failing-check columns, results files): failed and
 * not-judged checks that count towards `ev`'s reward or partial score ({@link checkCounts}), in
 * evaluation order. Diagnostics, such as `tau2_action` outside strict mode or an NL assertion
 * outside the reward basis, are left out, as they are left out of the scores. `task` supplies the
 * servicegym `zero_if_failed` ids; without it those checks count only through the rubric.
 */
export function countedNotPassed(ev: Pick<TaskEvaluation, 'reward_basis' | 'rubric' | 'checks'>, task?: CountingTask): CheckResult[] {
  return ev.checks.filter((c) => c.verdict !== 'pass' && checkCounts(c, ev, task));
}
