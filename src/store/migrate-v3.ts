/**
 * Store schema v3 → v4: every receipt gets the episode key of the call that made it (task, trial,
 * persona, attempt, call index; src/store/receipt-tables.ts), so that `run --resume` can serve an
 * episode killed in flight its own stored answers. A v3 receipt does not say which episode made
 * it: its key columns stay null (such receipts are never served again). Nothing else changes.
 * Runs inside the opening transaction; adding a nullable column does not rewrite the table.
 */
import type Database from 'better-sqlite3';

/** Tables of schema v3 (kept to build old stores in tests and to document the migration). */
export const SCHEMA_V3_DDL = `
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

CREATE TABLE receipt_templates (
  id    INTEGER PRIMARY KEY,
  hash  BLOB NOT NULL UNIQUE,
  slot  INTEGER NOT NULL,
  body  TEXT NOT NULL
);

CREATE TABLE receipt_messages (
  id      INTEGER PRIMARY KEY,
  hash    BLOB NOT NULL UNIQUE,
  parent  INTEGER REFERENCES receipt_messages (id),
  message TEXT NOT NULL
);

CREATE TABLE receipts (
  run_id          TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  kind            TEXT NOT NULL,
  provider        TEXT NOT NULL,
  endpoint        TEXT NOT NULL,
  template        INTEGER REFERENCES receipt_templates (id),
  prefix          INTEGER REFERENCES receipt_messages (id),
  request         TEXT,
  response        TEXT NOT NULL,
  elapsed_seconds REAL NOT NULL,
  PRIMARY KEY (run_id, seq),
  CHECK ((template IS NULL) = (request IS NOT NULL))
);
`;

/** The columns v4 adds to `receipts`, with their types. */
export const RECEIPT_EPISODE_COLUMNS: readonly (readonly [name: string, type: string])[] = [
  ['task_id', 'TEXT'],
  ['trial', 'INTEGER'],
  ['persona', 'TEXT'],
  ['attempt', 'INTEGER'],
  ['call_index', 'INTEGER'],
];

/**
 * Adds the episode key columns to a v3 `receipts` table. Columns already there are left alone: a
 * store migrated from v2 in the same transaction got the current receipt tables (with them).
 */
export function migrateV3ToV4(db: Database.Database): void {
  const have = new Set((db.prepare('PRAGMA table_info(receipts)').all() as { name: string }[]).map((c) => c.name));
  for (const [name, type] of RECEIPT_EPISODE_COLUMNS) {
    if (!have.has(name)) db.exec(`ALTER TABLE receipts ADD COLUMN ${name} ${type}`);
  }
}
