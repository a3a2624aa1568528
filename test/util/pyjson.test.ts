import { describe, expect, it } from 'vitest';
import { PyFloat, pyDumps, pyFloatRepr, pyString } from '../../src/util/pyjson.js';

describe('pyDumps (Python json.dumps)', () => {
  it('uses Python separators and escapes non-ASCII by default', () => {
    expect(pyDumps({ a: 1, b: [true, null, 'é'] })).toBe('{"a": 1, "b": [true, null, "\\u00e9"]}');
  });
  it('keeps non-ASCII with ensureAscii false (the seed mock outputs)', () => {
    expect(pyDumps({ result: 'success', fee: '改签费 200 元' }, { ensureAscii: false })).toBe('{"result": "success", "fee": "改签费 200 元"}');
  });
  it('escapes control characters and quotes like Python', () => {
    expect(pyDumps('a"b\\c\n\t\u0001', { ensureAscii: false })).toBe('"a\\"b\\\\c\\n\\t\\u0001"');
  });
  it('prints every code unit as Python does, in plain strings and mixed with others (the plain-ASCII shortcut changes nothing)', () => {
    // Python: encode_basestring_ascii escapes all but printable ASCII; encode_basestring escapes only " \\ and controls.
    const python = (ch: string, ascii: boolean): string => {
      const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };
      const c = ch.charCodeAt(0);
      return named[ch] ?? (c < 0x20 || (ascii && c > 0x7e) ? `\\u${c.toString(16).padStart(4, '0')}` : ch);
    };
    for (const ascii of [true, false]) {
      const got: string[] = [];
      const want: string[] = [];
      for (let c = 0; c < 0x10000; c++) {
        const ch = String.fromCharCode(c);
        got.push(pyString(`ab${ch}`, ascii));
        want.push(`"ab${python(ch, ascii)}"`);
      }
      expect(got.filter((g, i) => g !== want[i])).toEqual([]);
      expect(got).toHaveLength(0x10000);
    }
    expect(pyString('HAT001 2024-05-15 ~ [x] {y}')).toBe('"HAT001 2024-05-15 ~ [x] {y}"');
    expect(pyString('')).toBe('""');
  });
  it('escapes astral characters as surrogate pairs with ensure_ascii', () => {
    expect(pyDumps('😀')).toBe('"\\ud83d\\ude00"');
  });
  it('sorts keys and indents like sort_keys=True, indent=2', () => {
    expect(pyDumps({ b: [], a: { d: [1, 2], c: {} } }, { sortKeys: true, indent: 2 })).toBe(
      '{\n  "a": {\n    "c": {},\n    "d": [\n      1,\n      2\n    ]\n  },\n  "b": []\n}',
    );
  });
  it('prints floats as Python repr', () => {
    expect(pyFloatRepr(100)).toBe('100.0');
    expect(pyFloatRepr(0.1)).toBe('0.1');
    expect(pyFloatRepr(1e-5)).toBe('1e-05');
    expect(pyFloatRepr(0.0001)).toBe('0.0001');
    expect(pyFloatRepr(1e16)).toBe('1e+16');
    expect(pyFloatRepr(1234567890123456)).toBe('1234567890123456.0');
    expect(pyFloatRepr(-2.5)).toBe('-2.5');
    expect(pyFloatRepr(1.5e300)).toBe('1.5e+300');
    expect(pyDumps({ amount: new PyFloat(100), n: 3, x: 12.5 })).toBe('{"amount": 100.0, "n": 3, "x": 12.5}');
  });
  it('skips undefined members and refuses functions', () => {
    expect(pyDumps({ a: undefined, b: 1 })).toBe('{"b": 1}');
    expect(pyDumps({ a: undefined })).toBe('{}');
    expect(pyDumps([undefined, { z: undefined, y: 2, x: undefined }])).toBe('[null, {"y": 2}]');
    // json.dumps({'b': [1, {}], 'a': 'x'}, sort_keys=True, indent=2)
    expect(pyDumps({ c: undefined, b: [1, { d: undefined }], a: 'x' }, { sortKeys: true, indent: 2 })).toBe('{\n  "a": "x",\n  "b": [\n    1,\n    {}\n  ]\n}');
    expect(() => pyDumps({ f: () => 1 })).toThrow(TypeError);
  });
});

describe('pyDumps with a type tree', () => {
  it('prints floats where the model has floats', () => {
    const types = { users: { '*': { payment_methods: { '*': { amount: 'float' } } } }, history: [{ amount: 'float' }] } as const;
    const v = { users: { u1: { payment_methods: { g: { amount: 100 }, c: { brand: 'visa' } }, age: 3 } }, history: [{ amount: 5 }, { amount: 2.5 }] };
    expect(pyDumps(v, { types: types as any })).toBe(
      '{"users": {"u1": {"payment_methods": {"g": {"amount": 100.0}, "c": {"brand": "visa"}}, "age": 3}}, "history": [{"amount": 5.0}, {"amount": 2.5}]}',
    );
  });
});
