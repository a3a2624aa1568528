/**
 * The table-DB hasher (src/domains/common/table-hash.ts) hashes a view as edits of the pristine
 * stream (changed records replaced, new ones inserted, a table with removed records rewritten):
 * every kind and place of write gives exactly the digest of the view's whole dump, as tau2 writes it.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CowDb } from '../../src/env/cow-db.js';
import { createTableDbHasher } from '../../src/domains/common/table-hash.js';
import { pyDumps, type PyTypeTree } from '../../src/util/pyjson.js';

type Db = Record<string, Record<string, Record<string, unknown>>>;
const TYPES: Record<string, PyTypeTree> = { flights: { price: 'float' }, notes: {}, users: { balance: 'float', cards: ['float'] } };

/** sha256 of the whole dump of the view, as tau2 computes it. */
const DB_TYPES: PyTypeTree = Object.fromEntries(Object.entries(TYPES).map(([t, r]) => [t, { '*': r }]));
const whole = (v: CowDb<Db>) => createHash('sha256').update(pyDumps(v.materialize(), { sortKeys: true, ensureAscii: true, types: DB_TYPES })).digest('hex');

/** A seeded generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function baseDb(): Db {
  const flights: Db[string] = {};
  for (let i = 0; i < 400; i++) flights[`F${String(i * 3).padStart(4, '0')}`] = { price: i * 1.5, seats: i % 7, origin: 'JFK', note: i % 50 ? 'ok' : 'café ✈' };
  const users: Db[string] = {};
  for (let i = 0; i < 300; i++) users[`user_${i * 2}`] = { balance: i, cards: [i, 2.25], name: `User ${i}` };
  return { flights, notes: {}, users };
}

describe('table-DB hash of a view (edits of the pristine stream)', () => {
  const base = baseDb();
  const hasher = createTableDbHasher<Db>(TYPES);

  it('the pristine DB, and writes at the start, middle and end of each table', () => {
    const v = new CowDb(base);
    expect(hasher(v)).toBe(whole(v));
    const cases: ((w: CowDb<Db>) => void)[] = [
      (w) => (w.mut('flights', 'F0000').seats = 99),
      (w) => (w.mut('users', 'user_598').balance = 1.5),
      (w) => w.put('flights', 'A000', { price: 1, seats: 0 }), // before every id
      (w) => w.put('users', 'zz', { balance: 2 }), // after every id
      (w) => w.put('flights', 'F0001', { price: 3 }), // between two ids
      (w) => (w.put('notes', 'n2', { t: 'b' }), w.put('notes', 'n1', { t: 'a' })), // into an empty table
      (w) => w.remove('flights', 'F0000'), // the first record
      (w) => (w.remove('users', 'user_0'), w.remove('users', 'user_2'), w.put('users', 'a', { balance: 0 })),
      (w) => w.remove('users', 'user_598'), // the last record
      (w) => (w.put('flights', 'X1', { price: 0 }), w.remove('flights', 'X1')), // added, then removed
      (w) => w.put('flights', 'F0003', base.flights.F0003), // the base's own record put back
      (w) => (w.mut('flights', 'F0300').origin = 'LAX', w.put('flights', 'F0301', { price: 2 }), w.put('flights', 'F0299', { price: 4 })),
    ];
    for (const write of cases) {
      const w = v.fork();
      write(w);
      expect(hasher(w)).toBe(whole(w));
    }
  });

  it('any mix of changes, insertions and removals (400 seeded views, branched views included)', () => {
    const next = rng(17);
    const pick = <X>(xs: readonly X[]) => xs[Math.floor(next() * xs.length)];
    const tables = Object.keys(TYPES);
    let prev = new CowDb(base);
    for (let n = 0; n < 400; n++) {
      const w = next() < 0.3 ? prev.branch() : new CowDb(base);
      for (let k = Math.floor(next() * 6); k >= 0; k--) {
        const table = pick(tables);
        const ids = w.ids(table);
        const r = next();
        if (r < 0.4 && ids.length) w.mut(table, pick(ids)).price = next() * 100;
        else if (r < 0.7) w.put(table, `${pick(['A', 'F0', 'F2', 'n', 'user_3', 'zz'])}${Math.floor(next() * 1000)}`, { price: 1.25, who: 'ünï' });
        else if (ids.length) w.remove(table, pick(ids));
      }
      expect(hasher(w)).toBe(whole(w));
      prev = w;
    }
  });
});
