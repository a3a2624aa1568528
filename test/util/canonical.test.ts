import { describe, expect, it } from 'vitest';
import { canonicalize } from 'json-canonicalize';
import { Rng } from '../../src/util/rng.js';
import { canonicalEqual, canonicalHash, canonicalJson, firstDifference } from '../../src/util/canonical.js';
import { unifiedDiff } from '../../src/util/unified-diff.js';
import { codePoints, fillTemplate } from '../../src/util/template.js';
import { BadInputError } from '../../src/spec/errors.js';

describe('canonical JSON', () => {
  it('ignores key order', () => {
    expect(canonicalJson({ b: 1, a: { y: 2, x: [1, { q: 1, p: 2 }] } })).toBe('{"a":{"x":[1,{"p":2,"q":1}],"y":2},"b":1}');
    expect(canonicalHash({ a: 1, b: 2 })).toBe(canonicalHash({ b: 2, a: 1 }));
    expect(canonicalHash({ a: 1 })).not.toBe(canonicalHash({ a: 2 }));
  });
  it("writes exactly what json-canonicalize's canonicalize writes (random values, undefined, toJSON, unicode keys, number forms)", () => {
    const rng = new Rng(17);
    const keys = ['a', 'b', 'B', 'ab', '10', '2', 'é', '\u20ac', '\ud83d\ude00', 'a b', '"q"', ''];
    const leaves = [0, -0, 1, -1.5, 1e21, 1e-7, 123456789012345680000, 0.1 + 0.2, 'x', 'ü\n"\\', '\u2028', '', true, false, null, undefined, new Date(0)];
    const value = (depth: number): unknown => {
      const r = rng.next();
      if (depth > 3 || r < 0.4) return rng.pick(leaves);
      if (r < 0.7) return Array.from({ length: rng.int(0, 4) }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: rng.int(0, 5) }, () => [rng.pick(keys), value(depth + 1)]));
    };
    const values = Array.from({ length: 2000 }, () => value(0));
    for (const v of values) expect(canonicalJson(v)).toBe(canonicalize(v));
    // canonicalEqual agrees with comparing the texts, on random pairs, on copies with shuffled keys and on near copies.
    const shuffled = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(shuffled) : v && typeof v === 'object' && !(v instanceof Date) ? Object.fromEntries(rng.shuffle(Object.entries(v)).map(([k, x]) => [k, shuffled(x)])) : v;
    let equalPairs = 0;
    for (let i = 0; i < values.length; i++) {
      const a = values[i];
      for (const b of [values[(i * 7 + 3) % values.length], shuffled(a), JSON.parse(JSON.stringify(a ?? null)), [a], { k: a }]) {
        const same = canonicalJson(a) === canonicalJson(b);
        equalPairs += same ? 1 : 0;
        expect(canonicalEqual(a, b)).toBe(same);
        expect(canonicalEqual(b, a)).toBe(same);
      }
    }
    expect(equalPairs).toBeGreaterThan(2000);
    const shared = { z: 1, a: [2] };
    const sparse = [1, , 3]; // eslint-disable-line no-sparse-arrays
    for (const v of [undefined, { toJSON: () => ({ b: 1, a: 2 }) }, { x: shared, y: [shared, shared] }, sparse, [undefined], { u: undefined }, new Map([[1, 2]])]) {
      expect(canonicalJson(v)).toBe(canonicalize(v));
    }
    for (const bad of [NaN, { a: [Infinity] }]) expect(() => canonicalJson(bad)).toThrow(/Non-finite/);
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    expect(() => canonicalJson(cycle)).toThrow(/Circular/);
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
