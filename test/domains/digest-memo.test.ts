/**
 * The digests of table-DB views already made (src/domains/common/digest-memo.ts): a later process
 * (a new hasher) gets the digest of a view whose changes were hashed before without reading the
 * base's hash stream, whatever order the view wrote them in; the digest is always the one of the
 * view's whole dump; a line cut short or damaged is not believed; a file grown too large starts over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CowDb } from '../../src/env/cow-db.js';
import { createTableDbHasher } from '../../src/domains/common/table-hash.js';
import { changeKey, MAX_FILE_BYTES } from '../../src/domains/common/digest-memo.js';
import { setDbContentKey } from '../../src/domains/common/disk-cache.js';
import { pyDumps, type PyTypeTree } from '../../src/util/pyjson.js';
import { tmpDir } from '../support/paths.js';

type Db = Record<string, Record<string, Record<string, unknown>>>;
const TYPES: Record<string, PyTypeTree> = { flights: { price: 'float' }, users: { balance: 'float' } };
const DB_TYPES: PyTypeTree = Object.fromEntries(Object.entries(TYPES).map(([t, r]) => [t, { '*': r }]));
/** sha256 of the whole dump of the view, as tau2 computes it. */
const whole = (v: CowDb<Db>) => createHash('sha256').update(pyDumps(v.materialize(), { sortKeys: true, ensureAscii: true, types: DB_TYPES })).digest('hex');

function baseDb(): Db {
  const flights: Db[string] = {};
  for (let i = 0; i < 300; i++) flights[`F${String(i).padStart(4, '0')}`] = { price: i * 1.5, seats: i % 7 };
  const users: Db[string] = {};
  for (let i = 0; i < 200; i++) users[`user_${i}`] = { balance: i, name: `User ${i}` };
  return { flights, users };
}

/** Views of `base` that change records in several ways; `reverse` makes the same changes in the other order. */
function views(base: Db, reverse = false): CowDb<Db>[] {
  const writes: ((w: CowDb<Db>) => void)[][] = [
    [],
    [(w) => (w.mut('flights', 'F0001').seats = 99), (w) => (w.mut('users', 'user_5').balance = 2.5)],
    [(w) => w.put('flights', 'A1', { price: 1 }), (w) => w.remove('users', 'user_7')],
    [(w) => w.put('flights', 'F0003', base.flights.F0003), (w) => (w.mut('flights', 'F0299').price = 3)],
  ];
  return writes.map((ws) => {
    const w = new CowDb(base);
    for (const write of reverse ? [...ws].reverse() : ws) write(w);
    return w;
  });
}

describe('digests of views already made', () => {
  let dir = '';
  const saved = process.env.SERVICEGYM_CACHE_DIR;
  beforeEach(() => {
    dir = tmpDir('sg-digests-');
    process.env.SERVICEGYM_CACHE_DIR = path.join(dir, 'cache');
  });
  afterEach(() => {
    vi.restoreAllMocks();
    if (saved === undefined) delete process.env.SERVICEGYM_CACHE_DIR;
    else process.env.SERVICEGYM_CACHE_DIR = saved;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A base DB with a content key (a new object each call: what a later process loads). */
  const keyedBase = () => {
    const base = baseDb();
    setDbContentKey(base, 'digest-memo-test');
    return base;
  };
  const digestsFile = () => {
    const folder = path.join(dir, 'cache', 'db-digests');
    const [f] = fs.readdirSync(folder);
    return path.join(folder, f);
  };
  /** The files under the cache folder that `fs.readFileSync` read while `f` ran. */
  const readWhile = <R>(f: () => R): { result: R; read: string[] } => {
    const spy = vi.spyOn(fs, 'readFileSync');
    try {
      const result = f();
      return { result, read: spy.mock.calls.map((c) => String(c[0])).filter((p) => p.startsWith(dir)) };
    } finally {
      spy.mockRestore();
    }
  };

  it('a later process gets them without reading the hash stream, whatever order the view wrote its changes in', () => {
    const first = views(keyedBase());
    const expected = first.map(whole);
    expect(new Set(expected).size).toBe(4);
    expect(first.map(createTableDbHasher<Db>(TYPES))).toEqual(expected);
    expect(fs.readdirSync(path.join(dir, 'cache', 'db-hash'))).toHaveLength(1);
    expect(fs.readFileSync(digestsFile(), 'latin1').trim().split('\n')).toHaveLength(4);

    const later = createTableDbHasher<Db>(TYPES);
    const { result, read } = readWhile(() => views(keyedBase(), true).map(later));
    expect(result).toEqual(expected);
    expect(read.filter((p) => p.includes(`${path.sep}db-hash${path.sep}`))).toEqual([]);

    // Other changes are hashed from the stream (read now) and kept too.
    const other = new CowDb(keyedBase());
    other.mut('users', 'user_199').name = 'Zoë';
    const again = readWhile(() => later(other));
    expect(again.result).toBe(whole(other));
    expect(again.read.some((p) => p.includes(`${path.sep}db-hash${path.sep}`))).toBe(true);
    expect(fs.readFileSync(digestsFile(), 'latin1').trim().split('\n')).toHaveLength(5);
  });

  it('a damaged or cut-short line is not believed: that view is hashed again, correctly', () => {
    const base = keyedBase();
    const vs = views(base);
    vs.forEach(createTableDbHasher<Db>(TYPES));
    const f = digestsFile();
    const lines = fs.readFileSync(f, 'latin1').trim().split('\n');
    const wrong = (line: string) => line.replace(/ ([0-9a-f])/, (_m, c: string) => ` ${c === '0' ? '1' : '0'}`); // the digest's first digit
    fs.writeFileSync(f, [wrong(lines[0]), wrong(lines[1]), lines[2].slice(0, 100), lines[3]].join('\n') + '\n');
    const later = createTableDbHasher<Db>(TYPES);
    expect(views(keyedBase()).map(later)).toEqual(vs.map(whole));
  });

  it('a file grown past its size limit is started over', () => {
    views(keyedBase()).forEach(createTableDbHasher<Db>(TYPES));
    const kept = fs.readFileSync(digestsFile(), 'latin1');
    fs.appendFileSync(digestsFile(), 'x'.repeat(MAX_FILE_BYTES));
    const later = createTableDbHasher<Db>(TYPES);
    const vs = views(keyedBase());
    expect(later(vs[1])).toBe(whole(vs[1]));
    expect(fs.readFileSync(digestsFile(), 'latin1')).toBe(kept.split('\n')[1] + '\n');
  });

  it('the change key depends on every table, id and JSON, not on how the lines could be split', () => {
    const key = changeKey([{ table: 'flights', id: 'F1', json: '{"a": 1}' }]);
    expect(changeKey([{ table: 'flights', id: 'F1', json: '{"a": 1}' }])).toBe(key);
    expect(changeKey([{ table: 'flights', id: 'F1', json: null }])).not.toBe(key);
    expect(changeKey([{ table: 'users', id: 'F1', json: '{"a": 1}' }])).not.toBe(key);
    expect(changeKey([{ table: 'flights', id: 'F1", "x', json: '{"a": 1}' }])).not.toBe(changeKey([{ table: 'flights', id: 'F1', json: 'x", "{"a": 1}' }]));
    expect(changeKey([])).not.toBe(key);
  });
});
