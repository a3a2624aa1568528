/**
 * The SQLite run store: runs (campaign / run / optimize records), their episodes and their model
 * receipts, in one file (default {@link DEFAULT_STORE_PATH}). WAL mode, 5 s busy timeout.
 *
 * JSON-valued fields are stored as `JSON.stringify` text and parsed on read, so they round-trip
 * as JSON does (`undefined` becomes `null`, class instances become plain objects). Receipts are
 * checked to be credential-free before they are written.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BadInputError } from '../spec/errors.js';
import { STORE_SCHEMA_VERSION, ensureSchema } from './schema.js';

export { STORE_SCHEMA_VERSION };

export { DEFAULT_STORE_PATH } from './paths.js';

/** Busy timeout in milliseconds before a locked store is reported. */
const BUSY_TIMEOUT_MS = 5000;

/** One campaign, run or optimisation, keyed by `id`. */
export interface RunRow {
  id: string;
  kind: 'campaign' | 'run' | 'optimize';
  name: string;
  domain: string | null;
  /** ISO-8601 timestamp; listing sorts on this text. */
  created_at: string;
  /** JSON value. */
  summary: unknown;
  /** JSON value, may be large. */
  record: unknown;
}

/** One episode of a run; `(run_id, episode_id)` is unique. */
export interface EpisodeRow {
  run_id: string;
  episode_id: string;
  task_id: string;
  /** Trial index (integer). */
  trial: number;
  /** E.g. the evaluation name `'initial'` or a prompt version. */
  label: string;
  reward: number | null;
  partial: number | null;
  termination: string | null;
  /** JSON value: trajectory, tool log, evaluation. */
  result: unknown;
}

/** An episode without its `result`, plus values picked out of it ({@link RunStore.episodeOutlines}). */
export interface EpisodeOutline extends Omit<EpisodeRow, 'result'> {
  /** Picked JSON values by name; `null` where the path is absent. */
  extracted: Record<string, unknown>;
}

/** One model call of a run; `(run_id, seq)` is unique. Must not contain credentials. */
export interface ReceiptRow {
  run_id: string;
  /** Call sequence number within the run (integer). */
  seq: number;
  kind: string;
  provider: string;
  endpoint: string;
  /** JSON value. */
  request: unknown;
  /** JSON value. */
  response: unknown;
  /** Wall time of the call, in seconds. */
  elapsed_seconds: number;
}

/** Keys (compared lower-cased) that mark a credential inside a receipt. */
const CREDENTIAL_KEYS = new Set(['authorization', 'api_key', 'apikey']);

/** JSON path of the first credential-named key inside `value`, or undefined. */
function findCredentialKey(value: unknown, at: string, seen = new Set<object>()): string | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined;
  seen.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findCredentialKey(value[i], `${at}[${i}]`, seen);
      if (hit) return hit;
    }
    return undefined;
  }
  for (const [key, child] of Object.entries(value)) {
    const here = `${at}.${key}`;
    if (CREDENTIAL_KEYS.has(key.toLowerCase())) return here;
    const hit = findCredentialKey(child, here, seen);
    if (hit) return hit;
  }
  return undefined;
}

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

function fromJson(text: string): unknown {
  return JSON.parse(text) as unknown;
}

type RunDbRow = Omit<RunRow, 'summary' | 'record'> & { summary: string; record: string };
type EpisodeDbRow = Omit<EpisodeRow, 'result'> & { result: string };
type ReceiptDbRow = Omit<ReceiptRow, 'request' | 'response'> & { request: string; response: string };

/** Turns better-sqlite3 errors that are the user's concern into {@link BadInputError}s. */
function mapSqliteError(err: unknown, file: string, busyMs = BUSY_TIMEOUT_MS): unknown {
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
    return new BadInputError('this servicegym store is corrupt (SQLite reports a malformed database)', { file });
  }
  if (code.startsWith('SQLITE_CANTOPEN')) {
    return new BadInputError(`cannot open the store: ${err.message}`, { file });
  }
  return err;
}

/** A handle on one SQLite store file. Not safe to share across worker threads. */
export class RunStore {
  private readonly db: Database.Database;
  private readonly file: string;
  private readonly busyMs: number;

  private constructor(db: Database.Database, file: string, busyMs: number) {
    this.db = db;
    this.file = file;
    this.busyMs = busyMs;
  }

  /**
   * Opens (and by default creates) the store at `file`. Creating makes missing parent
   * directories, sets WAL mode and writes the schema; the busy timeout is 5000 ms.
   *
   * @param file path of the SQLite file (`':memory:'` for a throwaway store).
   * @param opts.readonly open without writing anything (write methods then throw); default false.
   * @param opts.create create the file if missing; default true, forced false by `readonly`.
   * @param opts.busyTimeoutMs how long to wait for another writer, in milliseconds; default 5000.
   * @throws BadInputError when the file is missing and may not be created, is not a SQLite
   *   database, is corrupt, is from an older or newer servicegym schema, or is locked by another
   *   process for longer than the busy timeout.
   */
  static open(file: string, opts: { readonly?: boolean; create?: boolean; busyTimeoutMs?: number } = {}): RunStore {
    const busyMs = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    const readonly = opts.readonly ?? false;
    const create = !readonly && (opts.create ?? true);
    const inMemory = file === ':memory:';
    if (!inMemory && !readonly && fs.existsSync(file)) {
      try {
        fs.accessSync(file, fs.constants.W_OK);
      } catch {
        throw new BadInputError('the store file is not writable (check its permissions, or pass another --db PATH)', { file });
      }
    }
    if (!inMemory && !fs.existsSync(file)) {
      if (!create) {
        throw new BadInputError(
          'no servicegym store exists at this path; any servicegym command run with `--db PATH` creates it',
          { file },
        );
      }
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    }
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly, fileMustExist: !create, timeout: busyMs });
      db.pragma(`busy_timeout = ${busyMs}`);
      // Touch the header first so that a non-database file fails here, before any write.
      db.pragma('user_version', { simple: true });
      if (!readonly && !inMemory) db.pragma('journal_mode = WAL');
      ensureSchema(db, file, readonly);
      return new RunStore(db, file, busyMs);
    } catch (err) {
      db?.close();
      throw mapSqliteError(err, file, busyMs);
    }
  }

  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw mapSqliteError(err, this.file, this.busyMs);
    }
  }

  /**
   * Inserts `run`, or replaces every field of the run with the same `id`.
   *
   * @throws BadInputError when the store is locked by another process.
   * @throws SqliteError when `kind` is not one of `campaign | run | optimize` or the store is read-only.
   * @throws TypeError when `summary`/`record` cannot be JSON-stringified (cycles, BigInt).
   */
  saveRun(run: RunRow): void {
    const row = { ...run, summary: toJson(run.summary), record: toJson(run.record) };
    this.guard(() =>
      this.db
        .prepare(
          `INSERT INTO runs (id, kind, name, domain, created_at, summary, record)
           VALUES (@id, @kind, @name, @domain, @created_at, @summary, @record)
           ON CONFLICT (id) DO UPDATE SET kind = excluded.kind, name = excluded.name,
             domain = excluded.domain, created_at = excluded.created_at,
             summary = excluded.summary, record = excluded.record`,
        )
        .run(row),
    );
  }

  /**
   * Appends `rows` in one transaction (all or nothing). Re-appending an existing
   * `(run_id, episode_id)` replaces that episode; the replacement counts as a new insertion, so
   * {@link episodes} lists it after the episodes appended before it.
   *
   * @throws BadInputError when the store is locked by another process.
   * @throws SqliteError when the store is read-only or a field has the wrong type.
   * @throws TypeError when `result` cannot be JSON-stringified.
   */
  appendEpisodes(rows: EpisodeRow[]): void {
    const values = rows.map((r) => ({ ...r, result: toJson(r.result) }));
    this.guard(() => {
      const insert = this.db.prepare(
        `INSERT OR REPLACE INTO episodes
           (run_id, episode_id, task_id, trial, label, reward, partial, termination, result)
         VALUES (@run_id, @episode_id, @task_id, @trial, @label, @reward, @partial, @termination, @result)`,
      );
      this.db.transaction(() => values.forEach((v) => insert.run(v)))();
    });
  }

  /**
   * Appends `rows` in one transaction (all or nothing) after checking that no `request` or
   * `response` holds a key named `authorization`, `api_key` or `apiKey` (any case, any depth).
   *
   * @throws Error when a receipt contains such a credential key (nothing is written), or when a
   *   `(run_id, seq)` is already stored or repeated within `rows`.
   * @throws BadInputError when the store is locked by another process.
   * @throws TypeError when `request`/`response` cannot be JSON-stringified.
   */
  appendReceipts(rows: ReceiptRow[]): void {
    for (const r of rows) {
      const hit = findCredentialKey(r.request, '$.request') ?? findCredentialKey(r.response, '$.response');
      if (hit) {
        throw new Error(
          `refusing to store receipt ${r.run_id}#${r.seq}: it contains a credential key at ${hit}; receipts must be credential-free`,
        );
      }
    }
    const values = rows.map((r) => ({ ...r, request: toJson(r.request), response: toJson(r.response) }));
    this.guard(() => {
      const insert = this.db.prepare(
        `INSERT INTO receipts (run_id, seq, kind, provider, endpoint, request, response, elapsed_seconds)
         VALUES (@run_id, @seq, @kind, @provider, @endpoint, @request, @response, @elapsed_seconds)`,
      );
      this.db.transaction(() => {
        for (const v of values) {
          try {
            insert.run(v);
          } catch (err) {
            if (err instanceof Database.SqliteError && err.code.startsWith('SQLITE_CONSTRAINT')) {
              throw new Error(`receipt ${v.run_id}#${v.seq} is already stored (seq must be unique within a run)`, {
                cause: err,
              });
            }
            throw err;
          }
        }
      })();
    });
  }

  /**
   * All runs without their `record`, newest first (`created_at` descending, then `id` ascending).
   *
   * @throws BadInputError when the store is locked by another process.
   */
  listRuns(): Omit<RunRow, 'record'>[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare('SELECT id, kind, name, domain, created_at, summary FROM runs ORDER BY created_at DESC, id ASC')
          .all() as Omit<RunDbRow, 'record'>[],
    );
    return rows.map((r) => ({ ...r, summary: fromJson(r.summary) }));
  }

  /**
   * The run with this `id`, record included, or `undefined` when there is none.
   *
   * @throws BadInputError when the store is locked by another process.
   */
  getRun(id: string): RunRow | undefined {
    const row = this.guard(() => this.db.prepare('SELECT * FROM runs WHERE id = ?').get(id) as RunDbRow | undefined);
    return row && { ...row, summary: fromJson(row.summary), record: fromJson(row.record) };
  }

  /**
   * Episodes of run `runId` in insertion (rowid) order; `[]` for an unknown run.
   *
   * @throws BadInputError when the store is locked by another process.
   */
  episodes(runId: string): EpisodeRow[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare(
            `SELECT run_id, episode_id, task_id, trial, label, reward, partial, termination, result
             FROM episodes WHERE run_id = ? ORDER BY rowid`,
          )
          .all(runId) as EpisodeDbRow[],
    );
    return rows.map((r) => ({ ...r, result: fromJson(r.result) }));
  }

  /**
   * Episodes of run `runId` in insertion (rowid) order without their `result`, each with
   * `extracted[name]`: the JSON value at path `extract[name]` of its result (SQLite JSON path such
   * as `'$.evaluation.checks'`; `null` when absent). Only the picked values are parsed, so this is
   * the cheap way to outline a run of thousands of episodes. `limit` caps the number of rows.
   *
   * @throws BadInputError when the store is locked by another process.
   */
  episodeOutlines(runId: string, extract: Readonly<Record<string, string>> = {}, limit?: number): EpisodeOutline[] {
    const names = Object.keys(extract);
    const picks = names.map((_, i) => `, result -> ? AS x${i}`).join('');
    const sql =
      `SELECT run_id, episode_id, task_id, trial, label, reward, partial, termination${picks}
       FROM episodes WHERE run_id = ? ORDER BY rowid` + (limit === undefined ? '' : ' LIMIT ?');
    const params: unknown[] = [...names.map((n) => extract[n]), runId, ...(limit === undefined ? [] : [limit])];
    const rows = this.guard(() => this.db.prepare(sql).all(...params) as Record<string, unknown>[]);
    return rows.map((r) => {
      const extracted: Record<string, unknown> = {};
      names.forEach((n, i) => {
        const text = r[`x${i}`];
        extracted[n] = typeof text === 'string' ? fromJson(text) : null;
      });
      return {
        run_id: r.run_id as string,
        episode_id: r.episode_id as string,
        task_id: r.task_id as string,
        trial: r.trial as number,
        label: r.label as string,
        reward: r.reward as number | null,
        partial: r.partial as number | null,
        termination: r.termination as string | null,
        extracted,
      };
    });
  }

  /**
   * One episode of run `runId`, or `undefined` when there is none.
   *
   * @throws BadInputError when the store is locked by another process.
   */
  getEpisode(runId: string, episodeId: string): EpisodeRow | undefined {
    const row = this.guard(
      () =>
        this.db
          .prepare(
            `SELECT run_id, episode_id, task_id, trial, label, reward, partial, termination, result
             FROM episodes WHERE run_id = ? AND episode_id = ?`,
          )
          .get(runId, episodeId) as EpisodeDbRow | undefined,
    );
    return row && { ...row, result: fromJson(row.result) };
  }

  /**
   * Receipts of run `runId` ordered by `seq`; `[]` for an unknown run.
   *
   * @throws BadInputError when the store is locked by another process.
   */
  receipts(runId: string): ReceiptRow[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare(
            `SELECT run_id, seq, kind, provider, endpoint, request, response, elapsed_seconds
             FROM receipts WHERE run_id = ? ORDER BY seq`,
          )
          .all(runId) as ReceiptDbRow[],
    );
    return rows.map((r) => ({ ...r, request: fromJson(r.request), response: fromJson(r.response) }));
  }

  /**
   * The `episode_id`s already stored for run `runId` (empty for an unknown run), so that a
   * killed run can be resumed by skipping them.
   *
   * @throws BadInputError when the store is locked by another process.
   */
  finishedEpisodeIds(runId: string): Set<string> {
    const rows = this.guard(
      () =>
        this.db.prepare('SELECT episode_id FROM episodes WHERE run_id = ?').pluck().all(runId) as string[],
    );
    return new Set(rows);
  }

  /** Closes the connection; idempotent. Every other method throws TypeError afterwards. */
  close(): void {
    this.db.close();
  }
}
