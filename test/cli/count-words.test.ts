/**
 * Counts and rates in the CLI's summary lines: the noun agrees with its number (`1 task`,
 * `2 tasks`), and a rate reads sensibly however long the run took (`12.5 tasks/s`, or for a slow
 * run of a few episodes `25.0 s per task` instead of `0.0 tasks/s`; nothing when too short to rate).
 */
import { describe, expect, it } from 'vitest';
import { counted, rateText } from '../../src/cli/output.js';
import { summaryText } from '../../src/cli/run-report.js';
import type { RunSummary } from '../../src/run/summary.js';

describe('counted', () => {
  it('agrees with one and many, irregular plurals given', () => {
    expect([counted(0, 'task'), counted(1, 'task'), counted(2, 'task')]).toEqual(['0 tasks', '1 task', '2 tasks']);
    expect(counted(1, 'trajectory', 'trajectories')).toBe('1 trajectory');
    expect(counted(3, 'trajectory', 'trajectories')).toBe('3 trajectories');
  });
});

describe('rateText', () => {
  it('per second at one a second or more, else seconds per item; nothing when too short or empty', () => {
    expect(rateText(114, 0.5, 'task')).toBe('228.0 tasks/s');
    expect(rateText(5, 5, 'episode')).toBe('1.0 episodes/s');
    // One slow browser episode: 0.04 episodes/s would print as 0.0.
    expect(rateText(1, 25, 'episode')).toBe('25.0 s per episode');
    expect(rateText(4, 10, 'task')).toBe('2.5 s per task');
    expect(rateText(3, 0.0004, 'task')).toBe('');
    expect(rateText(0, 2, 'task')).toBe('');
  });
});

describe('run summary', () => {
  it('says 1 infrastructure error, 2 harness errors, 1 evaluation error', () => {
    const s = { episodes: 6, scored: 2, infraErrors: 1, harnessErrors: 2, evaluationErrors: 1, unjudged: 0, rewardMean: 1, partialMean: 1, passHatK: [], terminations: {} } as unknown as RunSummary;
    expect(summaryText(s).split('\n')[0]).toBe('episodes: 6 (2 scored, 1 infrastructure error, 2 harness errors, 1 evaluation error, 0 not judged)');
  });
});
