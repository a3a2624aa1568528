/**
 * Checkpoints a WAL-mode store on a worker thread, so that a long run's writer does not.
 *
 * SQLite moves the write-ahead log into the database file (a checkpoint) when a commit finds the
 * log past 1,000 pages, inside that commit: the writing thread copies the pages and waits for two
 * fsyncs, and the last connection to close does the same for what is left. A run that stores
 * thousands of model calls spends that time on its only thread, between answers it should be
 * handling. Here a second connection on a worker thread runs a PASSIVE checkpoint (it never blocks
 * the writer, nor waits for it) once the log holds {@link LOG_PAGES} pages, looking at the log's
 * size every {@link LOOK_EVERY_MS}. The writer keeps one fsync per {@link LOG_PAGES} pages: its
 * first commit after a checkpoint starts the log over and syncs the log's header; its
 * `journal_size_limit` of 0 truncates the log then, so that its size counts the pages written
 * since. The writer's own automatic checkpoint stays on at a higher threshold
 * ({@link WRITER_AUTOCHECKPOINT_PAGES}), a bound on the log should the worker fall behind or fail.
 *
 * On {@link BackgroundCheckpointer.stop} the worker closes its connection after the writer closed
 * its own: being the last connection, it checkpoints the rest and removes the log, off the main
 * thread; `stop` returns when that is done, and the process waits for it before exiting. Killed
 * at any point, the store is intact (a checkpoint is crash-safe; the log is kept until it is
 * fully copied).
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the worker looks at the log's size, ms. */
export const LOOK_EVERY_MS = 50;

/** Pages in the log that make the worker checkpoint (SQLite's own automatic checkpoint threshold). */
export const LOG_PAGES = 1_000;

/**
 * How long after the store opens the worker starts, ms: starting a thread takes the opening
 * thread several milliseconds, better spent later than before a run's first model calls.
 */
export const START_AFTER_MS = 100;

/** The writer's own automatic checkpoint threshold while a worker checkpoints, pages (SQLite's default is 1,000). */
export const WRITER_AUTOCHECKPOINT_PAGES = 8_000;

/**
 * The worker (a script, so that it needs no file of its own beside the bundled code): opens the
 * store, checkpoints when the log passes `logBytes`, and on 'stop' closes (the last connection's
 * checkpoint) and exits.
 * Any error ends the worker quietly: the writer's automatic checkpoint and its close still apply.
 */
const WORKER_SOURCE = `
const fs = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
let db;
try {
  db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
  db.pragma('synchronous = NORMAL');
} catch { process.exit(0); }
const wal = workerData.file + '-wal';
const timer = setInterval(() => {
  try {
    if (fs.statSync(wal).size >= workerData.logBytes) db.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
}, workerData.everyMs);
parentPort.on('message', (m) => {
  if (m !== 'stop') return;
  clearInterval(timer);
  try { db.close(); } catch {}
  process.exit(0);
});
`;

/** A worker checkpointing one store file; see the module doc. */
export interface BackgroundCheckpointer {
  /**
   * Tells the worker to close its connection (checkpointing the rest) and exit; call after the
   * writer closed. Resolves once the worker has exited (at once when it had not started: it is
   * not started then). Idempotent: every call returns the same promise.
   */
  stop(): Promise<void>;
}

/**
 * Checkpoints the WAL-mode store `file` (pages of `pageSize` bytes) on a worker thread started
 * {@link START_AFTER_MS} from now (see the module doc). The caller sets its own connection's
 * `wal_autocheckpoint` to {@link WRITER_AUTOCHECKPOINT_PAGES} and `journal_size_limit` to 0.
 * Neither the wait nor the worker keeps the process alive until {@link BackgroundCheckpointer.stop}.
 */
export function checkpointInBackground(file: string, pageSize: number): BackgroundCheckpointer {
  let worker: Worker | undefined;
  const start = setTimeout(() => (worker = startWorker(file, pageSize)), START_AFTER_MS);
  start.unref();
  let stopped: Promise<void> | undefined;
  return {
    stop() {
      if (stopped) return stopped;
      clearTimeout(start);
      const w = worker;
      if (!w) return (stopped = Promise.resolve());
      stopped = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      // Kept alive until it has closed: its close is the store's last checkpoint.
      w.ref();
      w.postMessage('stop');
      return stopped;
    },
  };
}

function startWorker(file: string, pageSize: number): Worker {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  // A log frame is a 24-byte header and a page.
  const logBytes = 32 + LOG_PAGES * (24 + pageSize);
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, sqlite, everyMs: LOOK_EVERY_MS, logBytes } });
  worker.unref();
  // A worker that fails to start or throws leaves the checkpoints to the writer, as without it.
  worker.on('error', () => {});
  return worker;
}
