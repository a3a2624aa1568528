/**
 * DDL and schema-version handling for the SQLite run store ({@link RunStore} in `store.ts`).
 *
 * The schema version lives in `PRAGMA user_version`: 0 means "no servicegym schema yet" (a fresh
 * file when it holds no tables), {@link STORE_SCHEMA_VERSION} is the current layout. Forward
 * migrations are listed in {@link MIGRATIONS}; an older file with a complete migration path is
 * migrated in place on a writable open, anything else is refused with a {@link BadInputError}.
 */
import type Database from 'better-sqlite3';
import { BadInputError } from '../spec/errors.js';
import { migrateV1ToV2 } from './migrate-v1.js';
import { migrateV2ToV3 } from './migrate-v2.js';
import { migrateV3ToV4 } from './migrate-v3.js';
import { RECEIPT_TABLES_DDL } from './receipt-tables.js';
import { shellArg } from '../util/shell-arg.js';

/** Current schema version written to `PRAGMA user_version` of every new store. */
export const STORE_SCHEMA_VERSION = 4;

/**
 * Tables of schema v4. JSON columns (`summary`, `record`, `result`, `response`, and the receipt
 * pieces) hold `JSON.stringify` text; since v2 an episode's `result` is its run-log record
 * (src/spec/run-log.ts, written by src/store/run-log.ts); since v3 a receipt's request is stored
 * content-addressed (src/store/receipt-tables.ts); since v4 a receipt carries the episode key of
 * the call that made it. Episodes are read back in rowid (insertion) order.
 */
export const SCHEMA_DDL = `
CREATE TABLE runs (
  id          TEXT PRIMARY KEY,
  kind        TEXT NOT NULL CHECK (kind IN ('campaign', 'run', 'optimize')),
  name        TEXT NOT NULL,
  domain      TEXT,
  created_at  TEXT NOT NULL,
  summary     TEXT NOT NULL,
  record      TEXT NOT NULL
);
CREATE INDEX runs_by_created ON runs (created_at DESC, id);

CREATE TABLE episodes (
  run_id      TEXT NOT NULL,
  episode_id  TEXT NOT NULL,
  task_id     TEXT NOT NULL,
  trial       INTEGER NOT NULL,
  label       TEXT NOT NULL,
  reward      REAL,
  partial     REAL,
  termination TEXT,
  result      TEXT NOT NULL,
  UNIQUE (run_id, episode_id)
);
${RECEIPT_TABLES_DDL}`;

/**
 * Forward migrations: `MIGRATIONS[n]` turns a schema-vn store into v(n+1) and runs inside the
 * opening transaction. v1 → v2 rewrites every episode's result as a run-log record
 * (`migrate-v1.ts`); v2 → v3 stores receipts content-addressed (`migrate-v2.ts`); v3 → v4 adds
 * each receipt's episode key, null for the receipts already stored (`migrate-v3.ts`); v0 (a file
 * with tables but no version) has no migration and is refused.
 */
export const MIGRATIONS: Readonly<Record<number, (db: Database.Database) => void>> = { 1: migrateV1ToV2, 2: migrateV2ToV3, 3: migrateV3ToV4 };

/** Number of user tables/indexes/views in the file (excluding SQLite's internal ones). */
function objectCount(db: Database.Database): number {
  const row = db
    .prepare("SELECT count(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .get() as { n: number };
  return row.n;
}

function readVersion(db: Database.Database): number {
  return db.pragma('user_version', { simple: true }) as number;
}

function olderError(file: string, found: number, how: string): BadInputError {
  return new BadInputError(
    `this store is from an older servicegym schema (v${found}, this is v${STORE_SCHEMA_VERSION}); ${how}`,
    { file },
  );
}

/**
 * Brings the open database `db` (stored at `file`, used in messages) to
 * {@link STORE_SCHEMA_VERSION}: creates the tables in an empty file, runs forward migrations,
 * or refuses. With `readonly`, nothing is written and only a current-version store is accepted.
 *
 * @throws BadInputError when the file is from a newer servicegym (higher `user_version`), from an
 *   older schema with no migration path (including v0 with existing tables), needs a migration
 *   but was opened read-only, or is an empty (uninitialised) file opened read-only.
 * @throws SqliteError (e.g. SQLITE_NOTADB, SQLITE_BUSY) as raised by better-sqlite3; the caller
 *   maps these to user-facing errors.
 */
export function ensureSchema(db: Database.Database, file: string, readonly: boolean): void {
  const check = (): number => {
    const version = readVersion(db);
    if (version > STORE_SCHEMA_VERSION) {
      throw new BadInputError(
        `this store is from a newer servicegym (schema v${version}, this is v${STORE_SCHEMA_VERSION}); ` +
          'upgrade servicegym to open it, or use a different --db PATH',
        { file },
      );
    }
    if (version === STORE_SCHEMA_VERSION) return version;
    if (version === 0 && objectCount(db) === 0) {
      if (readonly) {
        throw new BadInputError(
          'this store is empty (never initialised); any servicegym command run with `--db PATH` creates it',
          { file },
        );
      }
      return version;
    }
    for (let v = version; v < STORE_SCHEMA_VERSION; v++) {
      if (!MIGRATIONS[v]) {
        throw olderError(
          file,
          version,
          'open it with the servicegym version that wrote it to export what you need, then move it ' +
            'aside and re-run with a fresh `--db PATH`',
        );
      }
    }
    if (readonly) {
      throw olderError(
        file,
        version,
        `migrate it in place by opening it once for writing, e.g. \`servicegym rescore <run-id> --db ${shellArg(file)}\` (back the file up first if an older servicegym must still read it)`,
      );
    }
    return version;
  };

  if (check() === STORE_SCHEMA_VERSION) {
    // A migration whose VACUUM was cut short (process killed, a reader busy) left its free pages:
    // the next writer finishes the compaction.
    if (!readonly) compactAfterMigration(db);
    return;
  }
  let migrated = false;
  // Re-check under a write lock: another process may have initialised or migrated meanwhile.
  db.transaction(() => {
    const version = check();
    if (version === STORE_SCHEMA_VERSION) return;
    if (version === 0) {
      db.exec(SCHEMA_DDL);
    } else {
      for (let v = version; v < STORE_SCHEMA_VERSION; v++) MIGRATIONS[v](db);
      migrated = true;
    }
    db.pragma(`user_version = ${STORE_SCHEMA_VERSION}`);
  }).immediate();
  if (migrated) compactAfterMigration(db);
}

/**
 * Share of free pages (of the file's pages) from which a migration's leftovers are vacuumed away:
 * v2 → v3 frees most of a receipt-heavy store (measured: 35.4 MB of v2 receipts leave 91% of the
 * pages free, a 38.9 MB file holding 3.5 MB).
 */
export const VACUUM_FREE_SHARE = 0.25;

/**
 * After a committed migration, and when a writer opens a current store: when at least
 * {@link VACUUM_FREE_SHARE} of the file's pages are free, VACUUMs the store and truncates its WAL,
 * so the file shrinks to what it holds. A store another process is reading meanwhile
 * (SQLITE_BUSY/LOCKED) keeps its size for now: nothing is lost, and the next writer to open it
 * (or `sqlite3 FILE VACUUM`) shrinks it. A migration killed during its VACUUM is compacted the
 * same way by the next writer.
 */
function compactAfterMigration(db: Database.Database): void {
  const pages = db.pragma('page_count', { simple: true }) as number;
  const free = db.pragma('freelist_count', { simple: true }) as number;
  if (pages === 0 || free / pages < VACUUM_FREE_SHARE) return;
  try {
    db.exec('VACUUM');
    if (db.pragma('journal_mode', { simple: true }) === 'wal') db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))) return;
    throw err;
  }
}
