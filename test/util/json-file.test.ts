/**
 * JSON syntax errors name where parsing stopped, and call a file truncated only when it was cut
 * short (parsing reached the end, or a string/number was cut off by it), not when a value is
 * missing in the middle of a complete document.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonText } from '../../src/util/json-file.js';

const message = (text: string): string => {
  try {
    parseJsonText(text, 'run.json');
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('parsed');
};

describe('parseJsonText', () => {
  it('a missing value before the closing brace is a syntax error at its key, not a truncation', () => {
    const m = message('{"agent-model": "M", "user-model": }');
    expect(m).toContain('run.json at $["user-model"]: invalid JSON (ValueExpected) at line 1, column 36');
    expect(m).not.toContain('truncated');
  });

  it('a document cut short says so: open array, open string, after a comma, mid-value', () => {
    for (const text of ['{"a": 1, "b": [1, 2', '{"a": "abc', '{"a": 1,', '{"a": 12', '{"a": 1, "b": [1, 2\n\n']) {
      expect(message(text)).toContain('(the file looks truncated)');
    }
  });
});
