/** sameFile and refuseOverwrite: an output path that names a kept file by any spelling or link is refused. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refuseOverwrite, sameFile, storeFiles } from '../../src/util/same-file.js';
import { BadInputError } from '../../src/spec/errors.js';
import { tmpDir } from '../support/paths.js';

describe('sameFile', () => {
  it('matches one file by path, by another spelling and through a link; not a different file', () => {
    const dir = tmpDir('sg-same-');
    const a = path.join(dir, 'a.db');
    fs.writeFileSync(a, 'x');
    fs.symlinkSync(a, path.join(dir, 'link.db'));
    expect(sameFile(a, path.join(dir, '.', 'a.db'))).toBe(true);
    expect(sameFile(path.join(dir, 'link.db'), a)).toBe(true);
    expect(sameFile(path.join(dir, 'b.db'), a)).toBe(false);
    // Neither exists: compared by absolute path.
    expect(sameFile(path.join(dir, 'new', 'x.jsonl'), path.join(dir, 'new', '..', 'new', 'x.jsonl'))).toBe(true);
  });
});

describe('refuseOverwrite', () => {
  it("names the flag and what the file holds; the store's WAL counts as the store", () => {
    const dir = tmpDir('sg-refuse-');
    const db = path.join(dir, 'store.db');
    fs.writeFileSync(db, 'x');
    const wal = `${db}-wal`;
    let err: unknown;
    try {
      refuseOverwrite(wal, '-o/--output', storeFiles(db));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(BadInputError);
    expect((err as Error).message).toBe(`${wal}: -o/--output names the run store's write-ahead log; writing there would destroy it: give another file`);
    expect(() => refuseOverwrite(path.join(dir, 'results.jsonl'), '-o/--output', storeFiles(db))).not.toThrow();
  });
});
