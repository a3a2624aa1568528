/**
 * The failing-checks column of `run` and `validate` lists only checks that count towards the
 * reward or the partial score (src/evaluation/counted.ts): `tau2_action` outside strict mode and
 * an NL assertion outside the reward basis are diagnostics, left out as the scores leave them out.
 */
import { describe, expect, it } from 'vitest';
import { episodeTable } from '../../src/cli/run-report.js';
import type { TaskEvaluation } from '../../src/evaluation/types.js';

const ev = (basis: string[]): TaskEvaluation => ({
  task_id: 'T01', termination: 'user_stop', reward: 1, reward_breakdown: {}, reward_basis: basis, partial: 0.6, not_judged: false,
  checks: [
    { id: 'tau2_db', kind: 'DB', verdict: 'pass', evidence: '' },
    { id: 'tau2_nl_assertion', kind: 'NL_ASSERTION', verdict: 'not_judged', evidence: '' },
    { id: 'tau2_action', kind: 'ACTION', verdict: 'fail', evidence: '' },
    { id: 'reason_stated', kind: 'transcript', verdict: 'fail', evidence: '' },
    { id: 'untouched', kind: 'unchanged', verdict: 'fail', evidence: '' },
    { id: 'diagnostic', kind: 'transcript', verdict: 'fail', evidence: '' },
  ],
  rubric: [{ id: 'r', weight: 100, description: '', verdict: 'fail', checks: ['reason_stated'] }],
  db_diff: [], receipts: [],
}) as unknown as TaskEvaluation;

const failingCell = (table: string) => table.split('\n')[1].split(/\s{2,}/).pop();

describe('the failing-checks column', () => {
  it('leaves out tau2_action and an NL assertion outside the basis; lists zero_if_failed checks of the task', () => {
    const row = { taskId: 'T01', trial: 0, termination: 'user_stop', evaluation: ev(['DB']) };
    expect(failingCell(episodeTable([row]))).toBe('reason_stated');
    expect(failingCell(episodeTable([{ ...row, task: { servicegym: { zero_if_failed: ['untouched'] } as never } }]))).toBe('reason_stated, untouched');
  });

  it('lists them when they count (strict: ACTION in the basis; NL_ASSERTION in the basis, not judged)', () => {
    const row = { taskId: 'T01', trial: 0, termination: 'user_stop', evaluation: ev(['DB', 'NL_ASSERTION', 'ACTION']) };
    expect(failingCell(episodeTable([row]))).toBe('tau2_nl_assertion (not judged), tau2_action, reason_stated');
  });
});
