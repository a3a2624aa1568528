/**
 * SQLite's failures reach the user as BadInputErrors naming the store and what to do
 * (src/store/store-errors.ts). A store in a folder the user may not write (a shared or read-only
 * folder) fails as SQLite cannot make the -wal and -shm files a WAL store needs even to be read:
 * `servicegym view`, `export-trajectories`, `compare` and `rescore` on such a store printed
 * "internal error: SqliteError: attempt to write a readonly database" and a stack (exit 70).
 * The errors are built here as better-sqlite3 throws them: a folder's permissions do not hold
 * for root, whom the test may run as.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../src/spec/errors.js';
import { mapSqliteError } from '../../src/store/store-errors.js';

const FILE = '/shared/runs/servicegym.db';

describe('SQLite errors of a store', () => {
  it('a folder SQLite may not make the -wal and -shm files in is a BadInputError naming the store and the way out', () => {
    for (const code of ['SQLITE_READONLY_DIRECTORY', 'SQLITE_READONLY_CANTINIT', 'SQLITE_READONLY_CANTLOCK']) {
      const err = mapSqliteError(new Database.SqliteError('attempt to write a readonly database', code), FILE);
      expect(err).toBeInstanceOf(BadInputError);
      expect((err as Error).message).toBe(
        `${FILE}: the store's folder is not writable, and SQLite makes the store's -wal and -shm files beside it even to read it (SQLite: attempt to write a readonly database, ${code}); make the folder writable, or copy the store into one that is and pass --db COPY`,
      );
    }
  });

  it('a write through a read-only connection stays the SqliteError it is (a caller mistake, not the user\'s)', () => {
    const err = new Database.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY');
    expect(mapSqliteError(err, FILE)).toBe(err);
  });
});
