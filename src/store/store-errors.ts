/**
 * How the run store (store.ts) reports SQLite's failures and damaged values: as
 * {@link BadInputError}s naming the store file and what to do, never as a crash.
 */
import Database from 'better-sqlite3';
import { BadInputError } from '../spec/errors.js';

/** Busy timeout in milliseconds before a locked store is reported. */
export const BUSY_TIMEOUT_MS = 5000;

/** What to do about a corrupt store. */
const RECOVER = 'restore the file from a backup, or copy out what still reads with `sqlite3 FILE .recover` and use another --db PATH';

/**
 * Parses a stored JSON column. SQLite checks the structure of its pages, not the bytes of a value:
 * a damaged page can leave text that is not the JSON servicegym wrote. That is a corrupt store,
 * reported as such (BadInputError naming the file and the row `where()` describes), not a crash.
 * @throws BadInputError when `text` is not JSON.
 */
export function fromJson(text: string, file: string, where: () => string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new BadInputError(`this servicegym store is corrupt: ${where()} is not the JSON servicegym wrote (${(err as Error).message}); ${RECOVER}`, { file });
  }
}

/**
 * SQLite's read-only errors of a write-ahead-log store whose folder (or its -shm file) may not be
 * written: the -wal and -shm files cannot be made, or the shared-memory index cannot be set up.
 * Not the bare SQLITE_READONLY of a write through a read-only connection (a caller's mistake).
 */
const FOLDER_NOT_WRITABLE = new Set(['SQLITE_READONLY_DIRECTORY', 'SQLITE_READONLY_CANTINIT', 'SQLITE_READONLY_CANTLOCK']);

/**
 * Turns better-sqlite3 errors that are the user's concern (a locked store after `busyMs`
 * milliseconds, a file that is not SQLite, a corrupt or unopenable store, a store in a folder that
 * may not be written) into
 * {@link BadInputError}s naming `file`; any other error is returned as it is.
 */
export function mapSqliteError(err: unknown, file: string, busyMs = BUSY_TIMEOUT_MS): unknown {
  if (!(err instanceof Database.SqliteError)) return err;
  const code = err.code;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new BadInputError(
      `the store is locked by another process (still busy after ${busyMs / 1000} s); ` +
        'wait for it to finish or use a different `--db PATH`',
      { file },
    );
  }
  if (code === 'SQLITE_NOTADB') {
    return new BadInputError('this file is not a SQLite database, so it cannot be a servicegym store', { file });
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return new BadInputError(`this servicegym store is corrupt (SQLite: ${err.message}); ${RECOVER}`, { file });
  }
  if (FOLDER_NOT_WRITABLE.has(code)) {
    return new BadInputError(
      `the store's folder is not writable, and SQLite makes the store's -wal and -shm files beside it even to read it (SQLite: ${err.message}, ${code}); ` +
        'make the folder writable, or copy the store into one that is and pass --db COPY',
      { file },
    );
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new BadInputError(`cannot open the store: ${err.message}`, { file });
  }
  return err;
}
