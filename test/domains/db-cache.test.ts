/**
 * The validated-DB disk copy (issue 17: a domain DB loads once per process and faster): a second
 * process reads the validated airline DB back instead of validating 7 MB again, and what it reads
 * is exactly what validation produced (same JSON, same tau2 DB hash). A changed file misses. An
 * unchanged file (same real path, size, modification time, inode) is found through the stat index
 * without reading it; a file rewritten in place misses the index and is read again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadAirlineDb, airlineDbHash } from '../../src/domains/airline/index.js';
import { loadRetailDb, retailDbHash } from '../../src/domains/retail/index.js';
import { parseRetailDb } from '../../src/domains/retail/domain.js';
import { RetailDbSchema } from '../../src/domains/retail/schema.js';
import { pythonKeyOrder } from '../../src/domains/common/json-key-order.js';
import { createCachedDbLoader, validateAt } from '../../src/domains/common/tau2-folder.js';
import { CowDb } from '../../src/env/cow-db.js';
import { dbCacheDir, dbContentKey } from '../../src/domains/common/disk-cache.js';
import { createTableDbHasher } from '../../src/domains/common/table-hash.js';
import { AirlineDbSchema, TABLE_RECORD_TYPES, type AirlineDb } from '../../src/domains/airline/schema.js';
import { HAS_SHARED, needsShared, SHARED } from '../support/paths.js';
import { useTempCacheDir } from '../support/cache-dir.js';

describe.skipIf(!HAS_SHARED)(needsShared('validated DB kept on disk'), () => {
  const tempDir = useTempCacheDir('sg-dbcache-');

  it('reads back exactly the validated DB, and misses when the file changes', () => {
    const text = fs.readFileSync(path.join(SHARED, 'peers/tau2/airline/db.json'), 'utf8');
    const a = path.join(tempDir(), 'a.json');
    const b = path.join(tempDir(), 'b.json');
    fs.writeFileSync(a, text);
    fs.writeFileSync(b, text);
    const validated = loadAirlineDb(a);
    const copies = fs.readdirSync(path.join(tempDir(), 'cache', 'validated-db'));
    expect(copies).toHaveLength(1);
    const copy = loadAirlineDb(b); // another path: not the in-process cache, the disk copy
    expect(copy).not.toBe(validated);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(validated));
    expect(airlineDbHash(new CowDb(copy) as never)).toBe(airlineDbHash(new CowDb(validated) as never));
    // Both carry the copy's name as content key, so the hash stream is kept once and read back (same hash as tau2's reference).
    expect(dbContentKey(copy)).toBe(dbContentKey(validated));
    expect(fs.readdirSync(path.join(tempDir(), 'cache', 'db-hash'))).toHaveLength(1);
    const readBack = createCachedDbLoader((value, file) => validateAt(AirlineDbSchema, value, file), { schema: AirlineDbSchema, name: 'airline-db' })(b);
    const hasher = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES);
    expect(hasher(new CowDb(readBack))).toBe(airlineDbHash(new CowDb(validated) as never));
    const c = path.join(tempDir(), 'c.json');
    fs.writeFileSync(c, text.replace('"flights"', '"flights" ').trimEnd() + '\n');
    loadAirlineDb(c);
    expect(fs.readdirSync(path.join(tempDir(), 'cache', 'validated-db'))).toHaveLength(2);
  });

  it('a later process finds an unchanged file through the stat index without reading it; a file rewritten in place is read again', () => {
    const text = fs.readFileSync(path.join(SHARED, 'peers/tau2/airline/db.json'), 'utf8');
    const f = path.join(tempDir(), 'indexed.json');
    fs.writeFileSync(f, text);
    // A fresh loader stands for a new process: no in-process cache.
    const loader = () => createCachedDbLoader((value, file) => validateAt(AirlineDbSchema, value, file), { schema: AirlineDbSchema, name: 'airline-db' });
    const first = loader()(f);
    const read = vi.spyOn(fs, 'readFileSync');
    try {
      const again = loader()(f);
      expect(read.mock.calls.filter(([p]) => p === f)).toEqual([]);
      expect(JSON.stringify(again)).toBe(JSON.stringify(first));
      // Same size, later modification time, same inode: the index misses, the new text is validated.
      const flight = Object.keys(first.flights)[0];
      const changed = text.replace(`"origin": "${first.flights[flight].origin}"`, '"origin": "ZZZ"');
      expect(changed.length).toBe(text.length);
      fs.writeFileSync(f, changed);
      fs.utimesSync(f, new Date(), new Date(Date.now() + 5000));
      read.mockClear();
      const rewritten = loader()(f);
      expect(read.mock.calls.filter(([p]) => p === f)).toHaveLength(1);
      expect(rewritten.flights[flight].origin).toBe('ZZZ');
    } finally {
      read.mockRestore();
    }
  });

  it("retail's copy keeps the text order of its integer-keyed dicts (variants print in tau2's order; same DB hash)", () => {
    const text = fs.readFileSync(path.join(SHARED, 'peers/tau2/retail/db.json'), 'utf8');
    const a = path.join(tempDir(), 'retail-a.json');
    const b = path.join(tempDir(), 'retail-b.json');
    fs.writeFileSync(a, text);
    fs.writeFileSync(b, text);
    const validated = loadRetailDb(a);
    expect(fs.readdirSync(path.join(tempDir(), 'cache', 'validated-db')).filter((f) => f.endsWith('-key-orders.copy'))).toHaveLength(1);
    const copy = loadRetailDb(b);
    expect(copy).not.toBe(validated);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(validated));
    // Product 1075968781 lists its variants in an order JavaScript's objects do not keep.
    const variants = (db: typeof copy) => db.products['1075968781'].variants;
    expect(pythonKeyOrder(variants(validated))).not.toEqual(Object.keys(variants(validated)));
    expect(pythonKeyOrder(variants(copy))).toEqual(pythonKeyOrder(variants(validated)));
    // The products table itself is keyed by integer-like ids: its text order comes back too, before any product is read.
    const fresh = createCachedDbLoader(parseRetailDb, { schema: RetailDbSchema, name: 'retail-db', keyOrders: true })(b);
    expect(pythonKeyOrder(fresh.products)).toEqual(pythonKeyOrder(validated.products));
    expect(Object.getOwnPropertyDescriptor(fresh.products, '1075968781')?.get).toBeTypeOf('function');
    expect(retailDbHash(new CowDb(copy) as never)).toBe(retailDbHash(new CowDb(validated) as never));
  });

  it('a bad file is still reported with its path (nothing cached for it)', () => {
    const bad = path.join(tempDir(), 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ flights: { X: { flight_number: 1 } }, users: {}, reservations: {} }));
    expect(() => loadAirlineDb(bad)).toThrow(/flights/);
  });

  it('SERVICEGYM_CACHE_DIR=off keeps nothing on disk', () => {
    expect(dbCacheDir({ SERVICEGYM_CACHE_DIR: 'off' })).toBeNull();
    expect(dbCacheDir({ XDG_CACHE_HOME: '/x' })).toBe(path.join('/x', 'servicegym'));
  });
});

describe.skipIf(!HAS_SHARED)(needsShared('a DB read back from its disk copy'), () => {
  const tempDir = useTempCacheDir('sg-dbcache-lazy-');

  it('parses each table the first time it is read, and holds the same DB', () => {
    const f = path.join(tempDir(), 'db.json');
    fs.copyFileSync(path.join(SHARED, 'peers/tau2/airline/db.json'), f);
    const loader = () => createCachedDbLoader((value, file) => validateAt(AirlineDbSchema, value, file), { schema: AirlineDbSchema, name: 'airline-db' });
    const validated = loader()(f);
    const copy = loader()(f); // a new process: the copy, through the stat index
    expect(Object.keys(copy)).toEqual(['flights', 'users', 'reservations']);
    for (const t of ['flights', 'users', 'reservations']) expect(Object.getOwnPropertyDescriptor(copy, t)?.get, t).toBeTypeOf('function');
    const user = Object.keys(validated.users)[0];
    expect(copy.users[user]).toEqual(validated.users[user]);
    expect(Object.getOwnPropertyDescriptor(copy, 'users')?.value).toBe(copy.users); // parsed once, then a plain property
    expect(Object.getOwnPropertyDescriptor(copy, 'flights')?.get).toBeTypeOf('function'); // not read: not parsed
    // Each record too is parsed the first time it is read: the table lists every id, the others are still unread.
    const [other] = Object.keys(validated.users).slice(1);
    expect(Object.keys(copy.users)).toEqual(Object.keys(validated.users));
    expect(Object.getOwnPropertyDescriptor(copy.users, user)?.value).toBe(copy.users[user]);
    expect(Object.getOwnPropertyDescriptor(copy.users, other)?.get).toBeTypeOf('function');
    expect(Object.prototype.hasOwnProperty.call(copy.users, other)).toBe(true);
    expect(Object.prototype.hasOwnProperty.call(copy.users, 'no such user')).toBe(false);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(validated));
    expect(airlineDbHash(new CowDb(copy) as never)).toBe(airlineDbHash(new CowDb(validated) as never));
  });

  it('hashing it with its hash stream on disk reads no record: a view that wrote one record parses that one only', () => {
    const f = path.join(tempDir(), 'db.json');
    fs.copyFileSync(path.join(SHARED, 'peers/tau2/airline/db.json'), f);
    const loader = () => createCachedDbLoader((value, file) => validateAt(AirlineDbSchema, value, file), { schema: AirlineDbSchema, name: 'airline-db' });
    const validated = loader()(f);
    const written = (db: AirlineDb) => {
      const v = new CowDb(db);
      const [user] = Object.keys(db.users).sort();
      v.mut('users', user).name.first_name = 'Changed';
      return v;
    };
    // Made afresh from the parsed DB, its stream then kept on disk.
    const pristine = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES)(new CowDb(validated));
    expect(fs.readdirSync(path.join(tempDir(), 'cache', 'db-hash'))).toHaveLength(1);
    const changed = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES)(written(validated));
    const copy = loader()(f); // a new process: the copy, through the stat index
    const hasher = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES);
    const parsed = () => (['flights', 'users', 'reservations'] as const).flatMap((t) => Object.keys(copy[t]).filter((id) => !Object.getOwnPropertyDescriptor(copy[t], id)?.get).map((id) => `${t}/${id}`));
    const steps = hasher.warmSteps(new CowDb(copy));
    while (!steps.next().done);
    expect(hasher(new CowDb(copy))).toBe(pristine);
    expect(parsed()).toEqual([]);
    expect(hasher(written(copy))).toBe(changed);
    expect(parsed()).toEqual([`users/${Object.keys(validated.users).sort()[0]}`]);
  });

  it('a truncated copy is not used: the file is validated again', () => {
    const f = path.join(tempDir(), 'db.json');
    const copies = path.join(tempDir(), 'cache', 'validated-db');
    for (const c of fs.readdirSync(copies)) fs.truncateSync(path.join(copies, c), fs.statSync(path.join(copies, c)).size - 10);
    const again = createCachedDbLoader((value, file) => validateAt(AirlineDbSchema, value, file), { schema: AirlineDbSchema, name: 'airline-db' })(f);
    expect(Object.getOwnPropertyDescriptor(again, 'flights')?.value).toBeTypeOf('object'); // validated, not read lazily from the copy
    expect(Object.keys(again.flights).length).toBeGreaterThan(0);
  });

  it('a copy damaged in place (same size) is not used: the file is validated again, the copy replaced', () => {
    const f = path.join(tempDir(), 'damaged.json');
    fs.copyFileSync(path.join(SHARED, 'peers/tau2/airline/db.json'), f);
    const loader = () => createCachedDbLoader((value, file) => validateAt(AirlineDbSchema, value, file), { schema: AirlineDbSchema, name: 'airline-db' });
    const validated = loader()(f);
    const user = Object.keys(validated.users)[0];
    const copies = path.join(tempDir(), 'cache', 'validated-db');
    const [name] = fs.readdirSync(copies).filter((c) => fs.readFileSync(path.join(copies, c)).includes(`"${user}"`));
    const copy = path.join(copies, name);
    const buf = fs.readFileSync(copy);
    // One byte in the users table: a quote that no longer parses (the table would fail when first read, mid-run) ...
    const broken = Buffer.from(buf);
    broken[buf.indexOf(`"${user}"`, buf.indexOf(10))] = 0x78;
    fs.writeFileSync(copy, broken);
    const again = loader()(f);
    expect(Object.getOwnPropertyDescriptor(again, 'users')?.value).toBeTypeOf('object'); // validated, not read from the copy
    expect(again.users[user]).toEqual(validated.users[user]);
    // ... and the copy was replaced: the next process reads it lazily again.
    expect(fs.readFileSync(copy).equals(buf)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(loader()(f), 'users')?.get).toBeTypeOf('function');
    // A damaged value that still parses (another first name) is not read either.
    const first = validated.users[user].name.first_name;
    const at = buf.indexOf(`"first_name":"${first}"`);
    expect(at).toBeGreaterThan(0);
    const other = Buffer.from(buf);
    other[at + 14] = other[at + 14] === 0x5a ? 0x59 : 0x5a;
    fs.writeFileSync(copy, other);
    expect(loader()(f).users[user].name.first_name).toBe(first);
  });
});
