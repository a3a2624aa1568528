/**
 * --tasks on ids that hold glob characters: tau2 telecom's task ids all have brackets
 * (`[mobile_data_issue]data_mode_off[PERSONA:None]`), so an entry that is a task id selects that
 * task, and `\` makes a glob character literal in a pattern.
 */
import { describe, expect, it } from 'vitest';
import { globMatcher, globRegExp, selectTasksFlag } from '../../src/run/select-tasks.js';
import type { LoadedDomain } from '../../src/spec/domain.js';

const TELECOM_IDS = [
  '[mobile_data_issue]user_abroad_roaming_enabled_off[PERSONA:None]',
  '[mobile_data_issue]data_mode_off[PERSONA:None]',
  '[mobile_data_issue]data_mode_off[PERSONA:Easy]',
  '[service_issue]airplane_mode_on[PERSONA:Hard]',
  'm',
];
const loaded = { tasks: TELECOM_IDS.map((id) => ({ id })) } as unknown as LoadedDomain<any>;
const ids = (flag: string) => selectTasksFlag(loaded, flag).map((t) => t.id);

describe('--tasks with ids holding glob characters', () => {
  it('an entry equal to a task id selects that task, in the order given', () => {
    expect(ids('[mobile_data_issue]data_mode_off[PERSONA:Easy]')).toEqual(['[mobile_data_issue]data_mode_off[PERSONA:Easy]']);
    expect(ids('[service_issue]airplane_mode_on[PERSONA:Hard],[mobile_data_issue]data_mode_off[PERSONA:None]')).toEqual([
      '[service_issue]airplane_mode_on[PERSONA:Hard]',
      '[mobile_data_issue]data_mode_off[PERSONA:None]',
    ]);
  });

  it('an exact id beside a glob is that task only; a bracket that is no id is still a class', () => {
    expect(ids('[service_issue]airplane_mode_on[PERSONA:Hard],\\[mobile_data_issue\\]data_mode_off\\[PERSONA:E*')).toEqual([
      '[mobile_data_issue]data_mode_off[PERSONA:Easy]',
      '[service_issue]airplane_mode_on[PERSONA:Hard]',
    ]);
    expect(ids('[lm]')).toEqual(['m']);
  });

  it('a backslash makes the next character literal in a glob', () => {
    expect(ids('\\[mobile_data_issue\\]data_mode_off*')).toEqual(['[mobile_data_issue]data_mode_off[PERSONA:None]', '[mobile_data_issue]data_mode_off[PERSONA:Easy]']);
    expect(globRegExp('a\\*b').test('a*b')).toBe(true);
    expect(globRegExp('a\\*b').test('axxb')).toBe(false);
    expect(globRegExp('a\\?').test('ab')).toBe(false);
    expect(() => ids('\\[nothing\\]*')).toThrow(/pattern '\\\[nothing\\\]\*' matches no task/);
  });
});

describe('--tasks globs', () => {
  it('an entry given twice selects its task once', () => {
    expect(ids('m,m')).toEqual(['m']);
    expect(ids('[service_issue]airplane_mode_on[PERSONA:Hard],m,[service_issue]airplane_mode_on[PERSONA:Hard]')).toEqual(['[service_issue]airplane_mode_on[PERSONA:Hard]', 'm']);
  });

  it('many stars on long ids without a match end (a RegExp of them backtracks exponentially)', () => {
    const long = { tasks: Array.from({ length: 300 }, (_, i) => ({ id: `${'a'.repeat(60)}${i}` })) } as unknown as LoadedDomain<any>;
    expect(() => selectTasksFlag(long, `${'*a'.repeat(25)}*Z`)).toThrow(/matches no task/);
    expect(selectTasksFlag(long, `${'*a'.repeat(25)}*7`).map((t) => t.id)).toHaveLength(30);
  });

  it('matches as the glob RegExp does', () => {
    const patterns = ['*', '?', 'a*', '*b', 'a?c', 'a*c', '*a*', '[ab]*', '[!ab]?', 'a\\*', '\\[x]', '**b', 'a[-]b', '*?*', '*a*b', 'a*a'];
    const words = ['', 'a', 'b', 'ab', 'abc', 'aXc', 'a*', '[x]', 'x', 'ba', 'a-b', 'cab', 'aaab', 'aa', 'abab'];
    for (const p of patterns) {
      const re = globRegExp(p);
      const test = globMatcher(p);
      for (const w of words) expect(test(w), `${p} on '${w}'`).toBe(re.test(w));
    }
  });
});
