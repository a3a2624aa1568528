/**
 * Store schema v2 → v3: receipts stored content-addressed (src/store/receipt-tables.ts). Every
 * v2 receipt row (`request` and `response` as whole `JSON.stringify` text) is rewritten as a
 * template plus a reference to its conversation prefix, each message stored once; a request that
 * does not split back into exactly the same text stays whole. Runs and episodes are unchanged.
 * The receipt tables are created as the current schema has them (since v4 with the episode key
 * columns, left null here; the v3 → v4 step that follows then finds them there).
 * Runs inside the opening transaction, paging through the old rows (bounded memory).
 */
import type Database from 'better-sqlite3';
import { RECEIPT_TABLES_DDL, ReceiptTables, type ReceiptTextRow } from './receipt-tables.js';

/** Tables of schema v1 and v2 (kept to build old stores in tests and to document the migration). */
export const SCHEMA_V2_DDL = `
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

CREATE TABLE receipts (
  run_id          TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  kind            TEXT NOT NULL,
  provider        TEXT NOT NULL,
  endpoint        TEXT NOT NULL,
  request         TEXT NOT NULL,
  response        TEXT NOT NULL,
  elapsed_seconds REAL NOT NULL,
  PRIMARY KEY (run_id, seq)
);
`;

/** Old rows read per page. */
const PAGE = 500;

/** Rewrites the receipts of a v2 store content-addressed (runs inside the migration transaction). */
export function migrateV2ToV3(db: Database.Database): void {
  db.exec('ALTER TABLE receipts RENAME TO receipts_v2');
  db.exec(RECEIPT_TABLES_DDL);
  const tables = new ReceiptTables(db);
  const page = db.prepare(
    `SELECT rowid AS rowid, run_id, seq, kind, provider, endpoint, request, response, elapsed_seconds
     FROM receipts_v2 WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`,
  );
  let last = 0;
  for (;;) {
    const rows = page.all(last) as (ReceiptTextRow & { rowid: number })[];
    if (rows.length === 0) break;
    for (const { rowid, ...row } of rows) {
      tables.writeStoredText(row);
      last = rowid;
    }
  }
  tables.rollback();
  db.exec('DROP TABLE receipts_v2');
}
