import { describe, expect, it } from 'vitest';
import { canonicalHash, canonicalJson, firstDifference } from '../../src/util/canonical.js';
import { unifiedDiff } from '../../src/util/unified-diff.js';
import { codePoints, fillTemplate } from '../../src/util/template.js';
import { BadInputError } from '../../src/spec/errors.js';

describe('canonical JSON', () => {
  it('ignores key order', () => {
    expect(canonicalJson({ b: 1, a: { y: 2, x: [1, { q: 1, p: 2 }] } })).toBe('{"a":{"x":[1,{"p":2,"q":1}],"y":2},"b":1}');
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: 2 }));
  });
  it('names the first differing path', () => {
    expect(firstDifference({ messages: [{ content: 'x' }] }, { messages: [{ content: 'y' }] })).toBe('messages[0].content');
    expect(firstDifference({ a: [1, 2] }, { a: [1] })).toBe('a[1]');
    expect(firstDifference({ 'a-b': 1 }, { 'a-b': 2 })).toBe('["a-b"]');
    expect(firstDifference({ a: 1, b: [1] }, { b: [1], a: 1 })).toBeUndefined();
    expect(firstDifference(1, 'x')).toBe('$');
  });
});

describe('unifiedDiff', () => {
  it('prints difflib-style headers and hunks', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = 'a\nb\nc\nd\nE\nf\ng\nh\n';
    expect(unifiedDiff(before, after, 'p (before)', 'p (after)')).toBe(
      '--- p (before)\n+++ p (after)\n@@ -2,7 +2,7 @@\n b\n c\n d\n-e\n+E\n f\n g\n h\n',
    );
    expect(unifiedDiff('x\n', 'x\n', 'a', 'b')).toBe('');
    expect(unifiedDiff('x\n', 'x\ny\n', 'a', 'b')).toBe('--- a\n+++ b\n@@ -1 +1,2 @@\n x\n+y\n');
  });
});

describe('templates', () => {
  it('fills placeholders literally and rejects unknown ones', () => {
    expect(fillTemplate('【{{user}}】$&{{user}}', { user: '$1 张' })).toBe('【$1 张】$&$1 张');
    expect(() => fillTemplate('{{nope}}', {})).toThrow(BadInputError);
  });
  it('counts code points like Python len()', () => {
    expect(codePoints('云舒😀')).toBe(3);
  });
});
