/**
 * The SQLite run store: runs (campaign / run / optimize records), their episodes and their model
 * receipts, in one file (default {@link DEFAULT_STORE_PATH}). WAL mode, 5 s busy timeout.
 *
 * JSON-valued fields are stored as `JSON.stringify` text and parsed on read, so they round-trip
 * as JSON does (`undefined` becomes `null`, class instances become plain objects). Receipts are
 * checked to be credential-free before they are written, and stored content-addressed
 * (src/store/receipt-tables.ts): a conversation prefix once, requests as references to it.
 *
 * Writes: every statement is prepared once per store. {@link RunStore.queueReceipt} (the model-call
 * path) buffers receipts and writes them in one transaction per batch: when 20 ms have passed since
 * the first buffered one, when 256 are buffered, or together with the next episode write, receipt
 * write, receipt read or {@link RunStore.close}, whichever comes first. {@link RunStore.queueEpisodes}
 * (a run's finished episodes) buffers episodes the same way (a batch at 64), written after the
 * queued receipts in the same transaction; every episode read writes the queued ones first.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from './paths.js';
import { BUSY_TIMEOUT_MS, fromJson, mapSqliteError } from './store-errors.js';
import { STORE_SCHEMA_VERSION, ensureSchema } from './schema.js';
import { ReceiptTables, type EncodedReceipt, type ReceiptRow, type ReceiptTextRow } from './receipt-tables.js';
import { checkpointInBackground, WRITER_AUTOCHECKPOINT_PAGES, type BackgroundCheckpointer } from './checkpointer.js';
import { readerMayOpenReadWrite } from './reader-open.js';

export { STORE_SCHEMA_VERSION };
export type { ReceiptRow, ReceiptTextRow };

export { DEFAULT_STORE_PATH } from './paths.js';

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

/** Buffered receipts are written after this many milliseconds, or once {@link QUEUE_ROWS} are buffered. */
const QUEUE_MS = 20;
const QUEUE_ROWS = 256;
/** Buffered episodes are written once this many are buffered (or with the receipts, after {@link QUEUE_MS}). */
const QUEUE_EPISODES = 64;

function toJson(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

type RunDbRow = Omit<RunRow, 'summary' | 'record'> & { summary: string; record: string };
type EpisodeDbRow = Omit<EpisodeRow, 'result'> & { result: string };

const episodeDbRow = (r: EpisodeRow): EpisodeDbRow => ({ ...r, result: toJson(r.result) });

/** A handle on one SQLite store file. Not safe to share across worker threads. */
export class RunStore {
  private readonly db: Database.Database;
  private readonly file: string;
  private readonly busyMs: number;
  private readonly receiptTables: ReceiptTables;
  private readonly prepared = new Map<string, Database.Statement>();
  /** Receipts checked and serialized by {@link queueReceipt}, not yet written. */
  private queued: EncodedReceipt[] = [];
  /** Episodes serialized by {@link queueEpisodes}, not yet written (written after the queued receipts). */
  private queuedEpisodes: EpisodeDbRow[] = [];
  /** A timed write of the queues failed: the next {@link queueEpisodes} writes them at once (and throws what it throws). */
  private flushFailed = false;
  private queueTimer: NodeJS.Timeout | undefined;
  /** `fn` inside one (deferred) transaction; made once per store. */
  private readonly inTransaction: (fn: () => void) => void;
  /** The worker checkpointing this store's log ({@link RunStore.open}'s `checkpointInBackground`). */
  private checkpointer: BackgroundCheckpointer | undefined;
  /** Settles once the store file is complete after {@link close} (see {@link whenClosed}). */
  private closing: Promise<void> = Promise.resolve();

  private constructor(db: Database.Database, file: string, busyMs: number, secrets: readonly string[]) {
    this.db = db;
    this.file = file;
    this.busyMs = busyMs;
    this.receiptTables = new ReceiptTables(db, secrets);
    this.inTransaction = db.transaction((fn: () => void) => fn());
  }

  /** The statement for `sql`, prepared once per store. */
  private prep(sql: string): Database.Statement {
    let stmt = this.prepared.get(sql);
    if (!stmt) this.prepared.set(sql, (stmt = this.db.prepare(sql)));
    return stmt;
  }

  /**
   * Opens (and by default creates) the store at `file`. Creating makes missing parent
   * directories, sets WAL mode and writes the schema; the busy timeout is 5000 ms.
   *
   * @param file path of the SQLite file (`':memory:'` for a throwaway store).
   * @param opts.readonly open without writing anything (write methods then throw); default false.
   *   Its close leaves no `-wal`/`-shm` files it made ({@link readerMayOpenReadWrite}).
   * @param opts.create create the file if missing; default true, forced false by `readonly`.
   * @param opts.busyTimeoutMs how long to wait for another writer, in milliseconds; default 5000.
   * @param opts.secrets values (API keys) that must never be stored: a receipt containing one is
   *   refused, checked on its serialized text.
   * @param opts.checkpointInBackground move the write-ahead log into the file on a worker thread
   *   (src/store/checkpointer.ts) instead of in this thread's commits and close: for a long run's
   *   many writes. Ignored for a read-only or in-memory store. Default false.
   * @throws BadInputError when the path is empty, the file is missing and may not be created, is not a SQLite
   *   database, is corrupt, is from an older or newer servicegym schema, or is locked by another
   *   process for longer than the busy timeout.
   */
  static open(file: string, opts: { readonly?: boolean; create?: boolean; busyTimeoutMs?: number; secrets?: readonly string[]; checkpointInBackground?: boolean } = {}): RunStore {
    const busyMs = opts.busyTimeoutMs ?? BUSY_TIMEOUT_MS;
    const readonly = opts.readonly ?? false;
    const create = !readonly && (opts.create ?? true);
    // SQLite opens '' as a temporary database deleted on close: a run stored there would be lost.
    if (file.trim() === '') throw new BadInputError(`the store path is empty (got '${file}'); give --db a file path (default ${DEFAULT_STORE_PATH})`);
    const inMemory = file === ':memory:';
    if (!inMemory && !readonly && fs.existsSync(file)) {
      try {
        fs.accessSync(file, fs.constants.W_OK);
      } catch {
        throw new BadInputError('the store file is not writable (check its permissions, or pass another --db PATH)', { file });
      }
    }
    const fresh = !inMemory && !fs.existsSync(file);
    if (fresh) {
      if (!create) {
        throw new BadInputError(
          'no servicegym store exists at this path; any servicegym command run with `--db PATH` creates it',
          { file },
        );
      }
      fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    }
    const readerWrites = readonly && !inMemory && readerMayOpenReadWrite(file);
    let db: Database.Database | undefined;
    try {
      db = new Database(file, { readonly: readonly && !readerWrites, fileMustExist: !create, timeout: busyMs });
      if (readerWrites) db.pragma('query_only = ON');
      db.pragma(`busy_timeout = ${busyMs}`);
      // Touch the header first so that a non-database file fails here, before any write.
      db.pragma('user_version', { simple: true });
      // A file this call creates holds nothing until its schema is written: it is made without
      // syncing to disk (the switch to WAL alone syncs its rollback journal, the folder and the file),
      // which cost a stored validate ~5 fsyncs (tens of ms on a busy disk). A power loss meanwhile
      // loses no data: none was there yet.
      // WAL with NORMAL sync: a commit survives a killed process (only a power loss can drop the latest ones).
      const normalSync = () => db!.pragma('synchronous = NORMAL');
      if (!readonly && !inMemory) {
        if (fresh) db.pragma('synchronous = OFF');
        db.pragma('journal_mode = WAL');
        if (!fresh) normalSync();
      }
      ensureSchema(db, file, readonly);
      if (fresh) normalSync();
      const store = new RunStore(db, file, busyMs, opts.secrets ?? []);
      if (opts.checkpointInBackground && !readonly && !inMemory) {
        db.pragma(`wal_autocheckpoint = ${WRITER_AUTOCHECKPOINT_PAGES}`);
        db.pragma('journal_size_limit = 0');
        store.checkpointer = checkpointInBackground(file, db.pragma('page_size', { simple: true }) as number);
      }
      return store;
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
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   * @throws SqliteError when `kind` is not one of `campaign | run | optimize` or the store is read-only.
   * @throws TypeError when `summary`/`record` cannot be JSON-stringified (cycles, BigInt).
   */
  saveRun(run: RunRow): void {
    const row = { ...run, summary: toJson(run.summary), record: toJson(run.record) };
    this.guard(() =>
      this
        .prep(
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
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   * @throws SqliteError when the store is read-only or a field has the wrong type.
   * @throws TypeError when `result` cannot be JSON-stringified.
   */
  appendEpisodes(rows: EpisodeRow[]): void {
    const values = rows.map(episodeDbRow);
    this.writeTransaction(() => this.insertEpisodes(values));
  }

  /**
   * Serializes `rows` now and queues them: they are written in one transaction, after the queued
   * receipts, within 20 ms or once 64 are queued, or with the next write, episode or receipt read,
   * or {@link close} — what {@link appendEpisodes} does, batched (a run's finished episodes).
   * After a timed write failed, the next call writes at once.
   *
   * @throws BadInputError when the store is locked by another process (on a write made by this call).
   * @throws TypeError when `result` cannot be JSON-stringified (nothing is queued).
   */
  queueEpisodes(rows: EpisodeRow[]): void {
    const values = rows.map(episodeDbRow);
    this.queuedEpisodes.push(...values);
    if (this.flushFailed || this.queuedEpisodes.length >= QUEUE_EPISODES) {
      this.flushQueues();
      return;
    }
    this.armQueueTimer();
  }

  private insertEpisodes(values: readonly EpisodeDbRow[]): void {
    const insert = this.prep(
      `INSERT OR REPLACE INTO episodes
         (run_id, episode_id, task_id, trial, label, reward, partial, termination, result)
       VALUES (@run_id, @episode_id, @task_id, @trial, @label, @reward, @partial, @termination, @result)`,
    );
    for (const v of values) insert.run(v);
  }

  /**
   * Runs `fn` in one transaction that first writes the queued receipts, then the queued episodes
   * (so an episode and the receipts of its last step land together). Only after a commit are the
   * queues dropped and the ids written cached; on an error nothing of it is written and the queues are kept.
   */
  private writeTransaction(fn: () => void): void {
    const queued = this.queued;
    const episodes = this.queuedEpisodes;
    this.guard(() => {
      try {
        this.inTransaction(() => {
          for (const enc of queued) this.writeReceipt(enc);
          if (episodes.length) this.insertEpisodes(episodes);
          fn();
        });
        this.receiptTables.commit();
      } catch (err) {
        this.receiptTables.rollback();
        throw err;
      }
    });
    this.flushFailed = false;
    if (queued.length || episodes.length) {
      this.queued = this.queued.slice(queued.length);
      this.queuedEpisodes = this.queuedEpisodes.slice(episodes.length);
      if (this.queued.length === 0 && this.queuedEpisodes.length === 0) this.clearQueueTimer();
    }
  }

  private writeReceipt(enc: EncodedReceipt): void {
    try {
      this.receiptTables.write(enc);
    } catch (err) {
      if (err instanceof Database.SqliteError && (err.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || err.code === 'SQLITE_CONSTRAINT_UNIQUE')) {
        throw new Error(`receipt ${enc.row.run_id}#${enc.row.seq} is already stored (seq must be unique within a run)`, { cause: err });
      }
      throw err;
    }
  }

  private clearQueueTimer(): void {
    if (this.queueTimer) clearTimeout(this.queueTimer);
    this.queueTimer = undefined;
  }

  /**
   * Appends `rows` in one transaction (all or nothing), together with any queued receipts, after
   * checking on their serialized text that no `request` or `response` holds a key named
   * `authorization`, `api_key` or `apiKey` (any case, any depth) nor a secret given to
   * {@link RunStore.open}.
   *
   * @throws Error when a receipt contains such a credential (nothing is written), or when a
   *   `(run_id, seq)` is already stored or repeated within `rows`.
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   * @throws TypeError when `request`/`response` cannot be JSON-stringified.
   */
  appendReceipts(rows: readonly ReceiptRow[]): void {
    const encoded = rows.map((r) => this.receiptTables.encode(r));
    this.writeTransaction(() => {
      for (const enc of encoded) this.writeReceipt(enc);
    });
  }

  /**
   * Checks and serializes `row` now (as {@link appendReceipts} does) and queues it: it is written in
   * one transaction with the other queued receipts within 20 ms, or with the next episode or
   * receipt write, receipt read or {@link close}. The hot path of a run: one call per model call.
   *
   * @throws Error when the receipt contains a credential (nothing is queued).
   * @throws TypeError when `request`/`response` cannot be JSON-stringified.
   */
  queueReceipt(row: ReceiptRow): void {
    this.queued.push(this.receiptTables.encode(row));
    if (this.queued.length >= QUEUE_ROWS) {
      this.flushQueues();
      return;
    }
    this.armQueueTimer();
  }

  private armQueueTimer(): void {
    this.queueTimer ??= setTimeout(() => {
      this.queueTimer = undefined;
      try {
        this.flushQueues();
      } catch {
        // Kept queued: the next write, read or close() writes them again and reports the error.
        this.flushFailed = true;
      }
    }, QUEUE_MS);
  }

  /**
   * Writes the queued receipts now, in one transaction (with any queued episodes).
   * @throws Error when a queued `(run_id, seq)` is already stored (the queue is kept).
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  flushReceipts(): void {
    this.flushQueues();
  }

  /** Writes the queued receipts and episodes now, in one transaction (see {@link flushReceipts}). */
  private flushQueues(): void {
    if (this.queued.length || this.queuedEpisodes.length) this.writeTransaction(() => {});
  }

  /**
   * All runs without their `record`, newest first (`created_at` descending, then `id` ascending).
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  listRuns(): Omit<RunRow, 'record'>[] {
    const rows = this.guard(
      () =>
        this
          .prep('SELECT id, kind, name, domain, created_at, summary FROM runs ORDER BY created_at DESC, id ASC')
          .all() as Omit<RunDbRow, 'record'>[],
    );
    return rows.map((r) => ({ ...r, summary: fromJson(r.summary, this.file, () => `runs.summary of run '${r.id}'`) }));
  }

  /**
   * The run with this `id`, record included, or `undefined` when there is none.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  getRun(id: string): RunRow | undefined {
    const row = this.guard(() => this.prep('SELECT * FROM runs WHERE id = ?').get(id) as RunDbRow | undefined);
    return row && { ...row, summary: fromJson(row.summary, this.file, () => `runs.summary of run '${id}'`), record: fromJson(row.record, this.file, () => `runs.record of run '${id}'`) };
  }

  /**
   * Episodes of run `runId` in insertion (rowid) order; `[]` for an unknown run.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  episodes(runId: string): EpisodeRow[] {
    this.flushQueues();
    const rows = this.guard(
      () =>
        this
          .prep(
            `SELECT run_id, episode_id, task_id, trial, label, reward, partial, termination, result
             FROM episodes WHERE run_id = ? ORDER BY rowid`,
          )
          .all(runId) as EpisodeDbRow[],
    );
    return rows.map((r) => ({ ...r, result: fromJson(r.result, this.file, () => `episodes.result of episode '${r.episode_id}' of run '${runId}'`) }));
  }

  /**
   * {@link episodes} one at a time: `visit` gets each episode of run `runId` in insertion (rowid)
   * order as it is read and parsed, with its rowid and its result's size in bytes (the terms of
   * {@link episodeStamp}), so a reader deriving a little from each record of a large run never
   * holds them all (nothing for an unknown run). `afterRowid`: only the episodes stored after that
   * rowid (added or replaced since a reader's last look). `visit` must not use this store.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  forEachEpisode(runId: string, visit: (row: EpisodeRow, at: { rowid: number; bytes: number }) => void, afterRowid = 0): void {
    this.flushQueues();
    this.guard(() => {
      const rows = this.prep(
        `SELECT rowid AS at_rowid, octet_length(result) AS at_bytes, run_id, episode_id, task_id, trial, label, reward, partial, termination, result
         FROM episodes WHERE run_id = ? AND rowid > ? ORDER BY rowid`,
      ).iterate(runId, afterRowid) as IterableIterator<EpisodeDbRow & { at_rowid: number; at_bytes: number }>;
      for (const { at_rowid, at_bytes, ...r } of rows) {
        visit({ ...r, result: fromJson(r.result, this.file, () => `episodes.result of episode '${r.episode_id}' of run '${runId}'`) }, { rowid: at_rowid, bytes: at_bytes });
      }
    });
  }

  /**
   * `read()`, every read it makes through this store seeing the store as it was at the first of
   * them, whatever other processes commit meanwhile (one read transaction): for a reader of many
   * parts that must agree with each other, such as a static export of a store a run is writing.
   * Keep it short: while it lasts, a writer's log cannot start over.
   *
   * @throws what `read` throws; BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  snapshot<T>(read: () => T): T {
    this.flushQueues();
    let out: { value: T } | undefined;
    this.guard(() =>
      this.inTransaction(() => {
        out = { value: read() };
      }),
    );
    return out!.value;
  }

  /**
   * A cheap stamp of run `runId`'s stored episodes (a covering-index read; the results' sizes come
   * from their record headers, not their text): the number of episodes, the highest rowid and the
   * results' total size in bytes. Any write changes it — an added episode raises the count, a
   * replaced one (`INSERT OR REPLACE` takes a new rowid) the highest rowid — so a reader may keep
   * what it derived from the episodes while the stamp is unchanged. `{ count: 0, last: 0, bytes: 0 }`
   * for an unknown run.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  episodeStamp(runId: string): { count: number; last: number; bytes: number } {
    this.flushQueues();
    return this.guard(
      () =>
        this.prep('SELECT count(*) AS count, coalesce(max(rowid), 0) AS last, coalesce(sum(octet_length(result)), 0) AS bytes FROM episodes WHERE run_id = ?').get(runId) as {
          count: number;
          last: number;
          bytes: number;
        },
    );
  }

  /**
   * Episodes of run `runId` in insertion (rowid) order without their `result`, each with
   * `extracted[name]`: the JSON value at path `extract[name]` of its result (SQLite JSON path such
   * as `'$.evaluation.checks'`; `null` when absent). Only the picked values are parsed, so this is
   * the cheap way to outline a run of thousands of episodes. `limit` caps the number of rows.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  episodeOutlines(runId: string, extract: Readonly<Record<string, string>> = {}, limit?: number): EpisodeOutline[] {
    const names = Object.keys(extract);
    const picks = names.map((_, i) => `, result -> ? AS x${i}`).join('');
    const sql =
      `SELECT run_id, episode_id, task_id, trial, label, reward, partial, termination${picks}
       FROM episodes WHERE run_id = ? ORDER BY rowid` + (limit === undefined ? '' : ' LIMIT ?');
    const params: unknown[] = [...names.map((n) => extract[n]), runId, ...(limit === undefined ? [] : [limit])];
    this.flushQueues();
    const rows = this.guard(() => {
      try {
        return this.prep(sql).all(...params) as Record<string, unknown>[];
      } catch (err) {
        throw this.malformedResult(err, runId);
      }
    });
    return rows.map((r) => {
      const extracted: Record<string, unknown> = {};
      names.forEach((n, i) => {
        const text = r[`x${i}`];
        extracted[n] = typeof text === 'string' ? fromJson(text, this.file, () => `episodes.result of episode '${String(r.episode_id)}' of run '${runId}'`) : null;
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
   * SQLite's `->` on a result whose bytes were damaged fails with "malformed JSON" (a plain
   * SQLITE_ERROR): that is a corrupt store, reported like {@link fromJson} does, naming the first
   * such episode of the run. Any other error is returned as it is.
   */
  private malformedResult(err: unknown, runId: string): unknown {
    if (!(err instanceof Database.SqliteError) || err.message !== 'malformed JSON') return err;
    const bad = this.prep('SELECT episode_id, result FROM episodes WHERE run_id = ? AND NOT json_valid(result) ORDER BY rowid LIMIT 1').get(runId) as { episode_id: string; result: string } | undefined;
    if (!bad) return err;
    try {
      fromJson(bad.result, this.file, () => `episodes.result of episode '${bad.episode_id}' of run '${runId}'`);
    } catch (corrupt) {
      return corrupt;
    }
    return err;
  }

  /**
   * One episode of run `runId`, or `undefined` when there is none.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  getEpisode(runId: string, episodeId: string): EpisodeRow | undefined {
    this.flushQueues();
    const row = this.guard(
      () =>
        this
          .prep(
            `SELECT run_id, episode_id, task_id, trial, label, reward, partial, termination, result
             FROM episodes WHERE run_id = ? AND episode_id = ?`,
          )
          .get(runId, episodeId) as EpisodeDbRow | undefined,
    );
    return row && { ...row, result: fromJson(row.result, this.file, () => `episodes.result of episode '${episodeId}' of run '${runId}'`) };
  }

  /**
   * Receipts of run `runId` ordered by `seq` (queued ones written first); `[]` for an unknown run.
   * `request` and `response` are parsed from exactly the text written ({@link receiptTexts}).
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  receipts(runId: string): ReceiptRow[] {
    return this.receiptTexts(runId).map((r) => ({ ...r, request: fromJson(r.request, this.file, () => `the request of receipt ${r.seq} of run '${runId}'`), response: fromJson(r.response, this.file, () => `the response of receipt ${r.seq} of run '${runId}'`) }));
  }

  /**
   * Receipts of run `runId` ordered by `seq`, with `request` and `response` as their stored JSON
   * text: byte-identical to `JSON.stringify` of what was appended (content addressing is undone).
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  receiptTexts(runId: string): ReceiptTextRow[] {
    this.flushReceipts();
    return this.guard(() => this.receiptTables.read(runId));
  }

  /**
   * Number of receipts of run `runId` (queued ones written first): the next free `seq` of a run
   * whose receipts were numbered from 0.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  receiptCount(runId: string): number {
    this.flushReceipts();
    return this.guard(() => this.receiptTables.count(runId));
  }

  /**
   * The `episode_id`s already stored for run `runId` (empty for an unknown run), so that a
   * killed run can be resumed by skipping them.
   *
   * @throws BadInputError when the store is locked by another process, or is corrupt (naming the file).
   */
  finishedEpisodeIds(runId: string): Set<string> {
    this.flushQueues();
    const rows = this.guard(
      () =>
        this.prep('SELECT episode_id FROM episodes WHERE run_id = ?').pluck().all(runId) as string[],
    );
    return new Set(rows);
  }

  /**
   * Writes the queued receipts and episodes, then closes the connection; idempotent. Every other method throws
   * TypeError afterwards. Everything written is committed when it returns; with `checkpointInBackground`
   * the worker then moves the rest of the log into the file ({@link whenClosed}).
   * @throws what {@link flushReceipts} throws (the connection is closed all the same).
   */
  close(): void {
    this.clearQueueTimer();
    try {
      if (this.db.open) this.flushReceipts();
    } finally {
      this.db.close();
      if (this.checkpointer) this.closing = this.checkpointer.stop();
    }
  }

  /**
   * Resolves once the store is one file again after {@link close}: at once, or with
   * `checkpointInBackground` when the worker has moved the rest of the log into the file and
   * removed it (the process does not exit before). Never rejects.
   */
  whenClosed(): Promise<void> {
    return this.closing;
  }
}
