/**
 * The CSV export (issue 18, item 9) is safe to open in a spreadsheet: text that would run as a
 * formula is prefixed with `'`, control characters are dropped, RFC 4180 quoting is kept.
 */
import { describe, expect, it } from 'vitest';
import { toCsv, type EpisodeResultLine } from '../../src/run/results-export.js';

function line(over: Partial<EpisodeResultLine>): EpisodeResultLine {
  return {
    task_id: 'T01', trial: 0, persona: null, termination: 'user_stop', reward: 1, partial: 1, status: 'passed',
    failing_checks: [], not_judged_checks: [], error: null, seconds: 1.5, ...over,
  } as EpisodeResultLine;
}

describe('toCsv', () => {
  it('neutralises formula cells and control characters, keeps numbers and quoting', () => {
    const rows = toCsv([
      line({ task_id: '=HYPERLINK("http://x","y")', error: '@SUM(A1)\u0007 bell', persona: '+1 caller', failing_checks: ['-db', 'a,b'] }),
      line({ task_id: 'T02', reward: -0, partial: 0.25, error: 'plain, with comma' }),
    ]).split('\r\n');
    expect(rows[1]).toBe(`"'=HYPERLINK(""http://x"",""y"")",0,'+1 caller,user_stop,1,1,passed,"'-db;a,b",,'@SUM(A1) bell,1.5`);
    expect(rows[2]).toBe('T02,0,,user_stop,0,0.25,passed,,,"plain, with comma",1.5');
    expect(rows[3]).toBe('');
  });
});
