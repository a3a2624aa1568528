/**
 * The disk cache of derived domain data (issue 17, start-up of `run`): servicegym's generated
 * airline DB is read back instead of generated again, and the tau2 hash stream of a base DB is
 * read back instead of serialising every record again. What is read back is exactly what would
 * have been derived (deep-equal DB, byte-identical hashes of pristine and written states); a
 * changed key misses; a corrupt file is derived again and rewritten, never trusted.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cachedJson, cacheKey, dbContentKey, sourceFingerprint, writeAtomically } from '../../src/domains/common/disk-cache.js';
import { AsciiText } from '../../src/domains/common/hash-stream.js';
import { GENERATOR_MODULES, servicegymAirlineDb, servicegymAirlineDbJson } from '../../src/domains/airline/servicegym-dataset.js';
import { airlineDbHash } from '../../src/domains/airline/state.js';
import { createTableDbHasher } from '../../src/domains/common/table-hash.js';
import { TABLE_RECORD_TYPES, type AirlineDb } from '../../src/domains/airline/schema.js';
import { CowDb } from '../../src/env/cow-db.js';
import { ROOT, tmpDir } from '../support/paths.js';

const saved = process.env.SERVICEGYM_CACHE_DIR;
let dir: string;
let cache: string;
beforeAll(() => {
  dir = tmpDir('sg-gencache-');
});
beforeEach(() => {
  cache = fs.mkdtempSync(path.join(dir, 'cache-'));
  process.env.SERVICEGYM_CACHE_DIR = cache;
});
afterAll(() => {
  if (saved === undefined) delete process.env.SERVICEGYM_CACHE_DIR;
  else process.env.SERVICEGYM_CACHE_DIR = saved;
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const files = (sub: string) => (fs.existsSync(path.join(cache, sub)) ? fs.readdirSync(path.join(cache, sub)).map((f) => path.join(cache, sub, f)) : []);

/** Hashes of a pristine view and of views that wrote early, late, and a new record (each hashing resumes at a different place). */
function hashes(db: AirlineDb, hash: (v: CowDb<AirlineDb>) => string = airlineDbHash): string[] {
  const v = new CowDb(db);
  const out = [hash(v)];
  const users = Object.keys(db.users).sort();
  const early = v.fork();
  early.mut('flights', Object.keys(db.flights).sort()[0]).origin = 'XXX';
  const late = v.fork();
  late.mut('users', users[users.length - 1]).membership = 'gold';
  const added = v.fork();
  added.put('reservations', 'ZZZZZZ', { ...db.reservations[Object.keys(db.reservations)[0]], reservation_id: 'ZZZZZZ' });
  for (const s of [early, late, added]) out.push(hash(s));
  return out;
}

describe('cachedJson', () => {
  it('derives once, reads back later, and misses when the key changes', () => {
    let made = 0;
    const make = () => ({ n: ++made, list: [1, 2.5, 'x'] });
    const a = cachedJson('t', () => 'k1', make);
    const b = cachedJson('t', () => 'k1', make);
    expect(made).toBe(1);
    expect(b).toEqual({ n: 1, list: [1, 2.5, 'x'] });
    expect(b).not.toBe(a);
    expect(dbContentKey(b)).toBe('k1');
    expect(cachedJson('t', () => 'k2', make)).toEqual({ n: 2, list: [1, 2.5, 'x'] });
    expect(files('t').map((f) => path.basename(f)).sort()).toEqual(['k1.json', 'k2.json']);
  });

  it('a corrupt or truncated file is derived again and rewritten', () => {
    let made = 0;
    const make = () => ({ n: ++made });
    cachedJson('t', () => 'k', make);
    const f = path.join(cache, 't', 'k.json');
    const good = fs.readFileSync(f, 'utf8');
    for (const bad of ['', 'garbage', good.slice(0, -3), good.replace('"n":1', '"n":7'), `${'0'.repeat(64)}\n{"n":1}`, good.slice(0, 64) + '\n[1]']) {
      fs.writeFileSync(f, bad);
      const before = made;
      expect(cachedJson('t', () => 'k', make)).toEqual({ n: before + 1 });
      expect(fs.readFileSync(f, 'utf8')).not.toBe(bad);
      expect(cachedJson('t', () => 'k', make)).toEqual({ n: before + 1 }); // the rewritten file is read back
    }
  });

  it('SERVICEGYM_CACHE_DIR=off derives every time and writes nothing', () => {
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    let made = 0;
    cachedJson('t', () => 'k', () => ({ n: ++made }));
    cachedJson('t', () => 'k', () => ({ n: ++made }));
    expect(made).toBe(2);
    expect(files('t')).toEqual([]);
  });
});

describe('writeAtomically', () => {
  it('writes pieces one after another: the file is their concatenation (strings as UTF-8), and replaces the file whole', () => {
    const f = path.join(cache, 'w', 'x.txt');
    writeAtomically(f, 'old content that is longer');
    writeAtomically(f, [`${'a'.repeat(70_000)}\n`, Buffer.from('bytes '), 'caf\u00e9 \u2713', '']);
    expect(fs.readFileSync(f, 'utf8')).toBe(`${'a'.repeat(70_000)}\nbytes caf\u00e9 \u2713`);
    expect(fs.readdirSync(path.dirname(f))).toEqual(['x.txt']);
  });

  it('a write that fails leaves nothing behind and throws nothing (only the speed-up is lost)', () => {
    const blocker = path.join(cache, 'blocker');
    fs.writeFileSync(blocker, 'a file where a folder should be');
    expect(() => writeAtomically(path.join(blocker, 'x.txt'), ['a', 'b'])).not.toThrow();
    expect(fs.readFileSync(blocker, 'utf8')).toBe('a file where a folder should be');
  });
});

describe('AsciiText', () => {
  it('gives the pieces joined, across many growths of its buffer', () => {
    const pieces = Array.from({ length: 5_000 }, (_, i) => `, "id${i}": ${JSON.stringify({ i, s: 'x'.repeat(i % 97) })}`);
    pieces.push('y'.repeat(300_000), '');
    const text = new AsciiText();
    for (const p of pieces) text.add(p);
    expect(text.bytes().toString('latin1')).toBe(pieces.join(''));
  });
});

describe('sourceFingerprint', () => {
  it('changes when the text of a listed module changes', () => {
    const mod = path.join(dir, 'mods');
    fs.mkdirSync(mod, { recursive: true });
    fs.writeFileSync(path.join(mod, 'a.ts'), 'export const a = 1;\n');
    fs.writeFileSync(path.join(mod, 'b.ts'), 'export const b = 1;\n');
    const url = `file://${path.join(mod, 'a.ts')}`;
    const before = sourceFingerprint(url, ['./a', './b']);
    expect(sourceFingerprint(url, ['./a', './b'])).toBe(before);
    fs.writeFileSync(path.join(mod, 'b.ts'), 'export const b = 2;\n');
    expect(sourceFingerprint(url, ['./a', './b'])).not.toBe(before);
    expect(() => sourceFingerprint(url, ['./missing'])).toThrow();
  });

  it("the generated airline DB's key covers every module its generation imports", () => {
    const here = path.join(ROOT, 'src', 'domains', 'airline');
    const listed = new Set(GENERATOR_MODULES.map((m) => path.resolve(here, `${m}.ts`)));
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const m of fs.readFileSync(file, 'utf8').matchAll(/^import (?!type )[^'"]*['"](\.[^'"]+)\.js['"]/gm)) visit(path.resolve(path.dirname(file), `${m[1]}.ts`));
    };
    for (const m of ['./data/generate', './data/seed-records']) visit(path.resolve(here, `${m}.ts`));
    for (const f of seen) expect(listed.has(f), `${path.relative(ROOT, f)} is imported by the generator but not in GENERATOR_MODULES`).toBe(true);
  });
});

describe("servicegym's generated airline DB on disk", () => {
  it('is generated once, read back identical, and hashes byte-identically with and without the cache', () => {
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    const fresh = servicegymAirlineDbJson() as AirlineDb;
    const expected = hashes(fresh);
    expect(expected[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(expected).size).toBe(4);
    process.env.SERVICEGYM_CACHE_DIR = cache;

    const first = servicegymAirlineDb();
    expect(files('generated-db')).toHaveLength(1);
    expect(isDeepStrictEqual(first, fresh)).toBe(true);
    expect(hashes(first)).toEqual(expected); // derives the hash stream and keeps it
    expect(files('db-hash')).toHaveLength(1);

    const written = fs.readFileSync(files('generated-db')[0], 'utf8');
    const again = servicegymAirlineDb(); // a later process: read back, not generated
    expect(again).not.toBe(first);
    expect(fs.readFileSync(files('generated-db')[0], 'utf8')).toBe(written);
    expect(isDeepStrictEqual(again, fresh)).toBe(true);
    expect(JSON.stringify(again)).toBe(JSON.stringify(fresh)); // same key order too
    // A new hasher has no in-process cache: the base records' JSON comes from the kept stream.
    expect(hashes(again, createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES))).toEqual(expected);

    // What is read back is what is on disk: a file with a consistent checksum is believed.
    const body = written.slice(65).replace('"gold"', '"platinum"');
    fs.writeFileSync(files('generated-db')[0], `${sha256(body)}\n${body}`);
    expect(JSON.stringify(servicegymAirlineDb())).toContain('"platinum"');
    const [hashFile] = files('db-hash');
    const kept = fs.readFileSync(hashFile, 'utf8');
    const nl = kept.indexOf('\n');
    const forged = kept.slice(nl + 1).replace('"regular"', '"silver!"');
    fs.writeFileSync(hashFile, `${JSON.stringify({ ...JSON.parse(kept.slice(0, nl)), digest: sha256(forged) })}\n${forged}`);
    fs.writeFileSync(files('generated-db')[0], written);
    fs.rmSync(path.join(cache, 'db-digests'), { recursive: true }); // the digests already made would answer first (digest-memo.test.ts)
    expect(createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES)(new CowDb(servicegymAirlineDb()))).toBe(sha256(forged));
  });

  it('another seed is another entry', () => {
    servicegymAirlineDb(2026);
    servicegymAirlineDb(7);
    expect(files('generated-db')).toHaveLength(2);
  });

  it('a corrupt DB file or hash stream is derived again, with the same DB and hashes', () => {
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    const fresh = servicegymAirlineDbJson() as AirlineDb;
    const expected = hashes(fresh);
    process.env.SERVICEGYM_CACHE_DIR = cache;
    hashes(servicegymAirlineDb(), createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES));
    const [dbFile] = files('generated-db');
    const [hashFile] = files('db-hash');
    const stream = fs.readFileSync(hashFile, 'utf8');
    const nl = stream.indexOf('\n');
    const header = JSON.parse(stream.slice(0, nl)) as { digest: string; lengths: Record<string, number[]> };
    const shifted = { ...header, lengths: { ...header.lengths, users: header.lengths.users.map((n, i) => (i === 0 ? n + 1 : i === 1 ? n - 1 : n)) } };
    const corruptStreams = [
      'garbage',
      stream.slice(0, nl) + '\n' + stream.slice(nl + 1).replace('"gold"', '"GOLD"'), // a changed record: the digest does not match
      JSON.stringify(shifted) + stream.slice(nl), // record boundaries off by one
      JSON.stringify({ ...header, digest: '0'.repeat(64) }) + stream.slice(nl),
      stream.slice(0, -10),
    ];
    for (const bad of corruptStreams) {
      fs.writeFileSync(dbFile, fs.readFileSync(dbFile, 'utf8').replace('"gold"', '"GOLD"')); // checksum mismatch
      fs.writeFileSync(hashFile, bad);
      fs.rmSync(path.join(cache, 'db-digests'), { recursive: true, force: true }); // so that the views are hashed from the stream
      const db = servicegymAirlineDb();
      expect(isDeepStrictEqual(db, fresh)).toBe(true);
      expect(hashes(db, createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES))).toEqual(expected);
      expect(fs.readFileSync(hashFile, 'utf8')).toBe(stream); // rewritten
    }
  });

  it('a DB without a content key (or with the cache off) keeps nothing on disk', () => {
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    const db = servicegymAirlineDb();
    expect(dbContentKey(db)).toBeUndefined();
    process.env.SERVICEGYM_CACHE_DIR = cache;
    hashes(structuredClone(db), createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES));
    expect(files('db-hash')).toEqual([]);
    expect(cacheKey([1, 'a'])).toMatch(/^[0-9a-f]{32}$/);
  });
});

describe('the hasher\'s once-per-base work in steps (warmSteps: a run does it between answers)', () => {
  /** Iterates `steps` to its end; returns how many steps it took. */
  const count = (steps: Iterator<unknown>) => {
    let n = 0;
    while (!steps.next().done) n++;
    return n;
  };

  it('made afresh and read back from the disk cache: many small steps, after which every hash equals the one-piece hasher\'s', () => {
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    const fresh = servicegymAirlineDbJson() as AirlineDb;
    const expected = hashes(fresh);
    process.env.SERVICEGYM_CACHE_DIR = cache;
    const db = servicegymAirlineDb();
    // The pristine stream is megabytes long; a step feeds about 64 KB of it.
    const cold = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES);
    expect(count(cold.warmSteps(new CowDb(db)))).toBeGreaterThan(20);
    expect(files('db-hash')).toHaveLength(1); // the stream was kept, as the first hash keeps it
    expect(hashes(db, cold)).toEqual(expected);
    // A later process's hasher reads the stream back, in steps too (each hashes 256 K characters of it).
    const warm = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES);
    expect(count(warm.warmSteps(new CowDb(db)))).toBeGreaterThan(10);
    expect(hashes(db, warm)).toEqual(expected);
    // Done: nothing is left to do for that base.
    expect(count(warm.warmSteps(new CowDb(db)))).toBe(0);
  });

  it('a hash asked for while the steps are half done is the same; the steps then stop, and every later hash is the same too', () => {
    process.env.SERVICEGYM_CACHE_DIR = 'off';
    const db = servicegymAirlineDbJson() as AirlineDb;
    const expected = hashes(db);
    const hasher = createTableDbHasher<AirlineDb>(TABLE_RECORD_TYPES);
    const steps = hasher.warmSteps(new CowDb(db));
    for (let i = 0; i < 10; i++) expect(steps.next().done).toBe(false);
    expect(hashes(db, hasher)).toEqual(expected); // made in one piece meanwhile
    expect(count(steps)).toBe(0); // the steps stop there: nothing is made twice
    expect(hashes(db, hasher)).toEqual(expected);
  });
});
