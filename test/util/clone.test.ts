import { describe, expect, it } from 'vitest';
import { clonePlain } from '../../src/util/clone.js';

/** What `structuredClone` gives, compared including key order and prototypes. */
function sameAsStructuredClone(v: unknown): void {
  const a = clonePlain(v);
  const b = structuredClone(v);
  expect(a).toStrictEqual(b);
  expect(JSON.stringify(a)).toBe(JSON.stringify(b));
}

describe('clonePlain (deep copy of JSON-shaped records)', () => {
  it('copies a reservation-like record deeply, keys in order, sharing nothing', () => {
    const rec = { reservation_id: 'ZFA04Y', flights: [{ flight_number: 'HAT170', date: '2024-05-22', price: 1056 }], passengers: [{ first_name: 'Mia', dob: '1992-05-26' }], insurance: 'yes', total: 12.5, nothing: null, ok: true };
    const c = clonePlain(rec);
    sameAsStructuredClone(rec);
    expect(c).not.toBe(rec);
    expect(c.flights).not.toBe(rec.flights);
    expect(c.flights[0]).not.toBe(rec.flights[0]);
    c.flights[0].price = 1;
    expect(rec.flights[0].price).toBe(1056);
    expect(Object.keys(c)).toEqual(Object.keys(rec));
  });

  it('keeps integer-like keys, a __proto__ key and null-prototype objects as structuredClone does', () => {
    const withProtoKey = JSON.parse('{"__proto__": {"x": 1}, "10": "b", "2": "a"}') as Record<string, unknown>;
    const c = clonePlain(withProtoKey);
    expect(Object.getPrototypeOf(c)).toBe(Object.prototype);
    expect(Object.keys(c)).toEqual(['2', '10', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(c, '__proto__')?.value).toEqual({ x: 1 });
    const bare = Object.assign(Object.create(null), { a: 1 });
    sameAsStructuredClone(bare);
    expect(Object.getPrototypeOf(clonePlain(bare))).toBe(Object.prototype);
  });

  it('falls back to structuredClone for what is not plain JSON data (dates, maps, holes, array extras, class instances)', () => {
    const holes = [1, , 3]; // eslint-disable-line no-sparse-arrays
    const extra = Object.assign([1, 2], { note: 'x' });
    class Money { constructor(readonly cents: number) {} }
    for (const v of [new Date(0), new Map([[1, { a: 1 }]]), holes, extra, new Money(5), { nested: [new Set([1])] }]) {
      expect(clonePlain(v)).toStrictEqual(structuredClone(v));
    }
    expect(1 in (clonePlain(holes) as unknown[])).toBe(false);
    expect((clonePlain(extra) as unknown as { note: string }).note).toBe('x');
    expect(() => clonePlain({ f: () => 1 })).toThrow();
  });
});
