/**
 * How `servicegym validate` classes an episode: perfect, not judged with every judged component
 * perfect (exit 0, counted on the last line), or failing.
 */
import { describe, expect, it } from 'vitest';
import { classifyValidateEpisode, notJudgedClause, notJudgedTasks } from '../../src/cli/validate-verdict.js';
import type { TaskEvaluation } from '../../src/evaluation/types.js';

const ev = (over: Partial<TaskEvaluation>): TaskEvaluation =>
  ({
    task_id: 't',
    termination: 'user_stop',
    reward: 1,
    reward_breakdown: { DB: 1, NL_ASSERTION: 1 },
    reward_basis: ['DB', 'NL_ASSERTION'],
    partial: 1,
    not_judged: false,
    checks: [],
    rubric: [],
    db_diff: [],
    receipts: [],
    ...over,
  }) as TaskEvaluation;

describe('classifyValidateEpisode', () => {
  it('perfect, not judged (DB 1, NL pending) and failing', () => {
    expect(classifyValidateEpisode(ev({}), undefined)).toBe('perfect');
    const pending = ev({ reward: null, partial: 0.5, not_judged: true, reward_breakdown: { DB: 1, NL_ASSERTION: null } });
    expect(classifyValidateEpisode(pending, undefined)).toBe('not_judged');
    expect(classifyValidateEpisode({ ...pending, reward_breakdown: { DB: 0, NL_ASSERTION: null }, reward: 0 }, undefined)).toBe('failing');
    expect(classifyValidateEpisode({ ...pending, rubric: [{ id: 'r', weight: 50, description: '', verdict: 'fail', checks: [] }] }, undefined)).toBe('failing');
    const zeroed = { ...pending, checks: [{ id: 'no_refund', kind: 'unchanged', verdict: 'fail' as const, evidence: '' }] };
    expect(classifyValidateEpisode(zeroed, undefined)).toBe('not_judged');
    expect(classifyValidateEpisode(zeroed, { servicegym: { zero_if_failed: ['no_refund'] } } as never)).toBe('failing');
    expect(classifyValidateEpisode(undefined, undefined)).toBe('failing');
    expect(classifyValidateEpisode(ev({ partial: 0.9 }), undefined)).toBe('failing');
  });

  it('the last-line clause says how many were not judged', () => {
    expect(notJudgedClause(0)).toBe(', 0 not judged');
    expect(notJudgedClause(40)).toBe(', 40 not judged (NL assertions need --judge-model; every other component scores 1)');
  });

  it('the "NL not judged" line names each task once, with personas only when some of its episodes were judged', () => {
    const run = ['impatient', 'vague'].flatMap((persona) => ['0', '2', '57'].map((taskId) => ({ taskId, persona })));
    const pending = run.filter((e) => e.taskId === '2' || (e.taskId === '57' && e.persona === 'vague'));
    expect(notJudgedTasks(pending, run)).toBe('2, 57 (vague)');
    // Without personas: one episode per task, named once each.
    const plain = [{ taskId: 'T01' }, { taskId: 'T02' }, { taskId: 'T03' }];
    expect(notJudgedTasks([plain[0], plain[2]], plain)).toBe('T01, T03');
    expect(notJudgedTasks([], plain)).toBe('');
  });
});
