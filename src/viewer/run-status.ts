/**
 * Whether a stored run is finished. `servicegym run` and `validate` store a run's row when they
 * start (settings only) and again when they finish (with the summary's scores, `scored` among
 * them); campaigns and optimisations are stored once, finished. A task run without `scored` is
 * therefore unfinished: `in_progress` while a live process holds its lock (src/store/run-lock.ts),
 * else `interrupted` (killed or crashed; `run --resume` continues it). A finished run that stopped
 * before every planned episode started (Ctrl-C, SIGTERM, `--max-cost`) is `stopped`.
 */
import fs from 'node:fs';
import os from 'node:os';
import { runLockFile, STALE_AFTER_MS } from '../store/run-lock.js';
import type { RunHalted, RunStatus } from './types.js';

/**
 * The status of a run of `kind` with stored `summary`; `writing` tells whether a live process
 * holds its lock. A finished task run whose summary says it stopped before every episode started
 * ({@link runHalted}) is `stopped`.
 */
export function runStatus(kind: string, summary: unknown, writing: boolean): RunStatus {
  if (kind !== 'run') return 'complete';
  const s = summary && typeof summary === 'object' ? (summary as Record<string, unknown>) : {};
  if (typeof s.scored === 'number') return runHalted(summary) ? 'stopped' : 'complete';
  return writing ? 'in_progress' : 'interrupted';
}

/**
 * Why a run stopped before every planned episode started: the stored summary's `halted`
 * (`{reason, not_started}`, written by `servicegym run`, src/cli/run-execute.ts), when it has that
 * shape (a non-empty reason, a whole number of at least 1); else undefined.
 */
export function runHalted(summary: unknown): RunHalted | undefined {
  const h = summary && typeof summary === 'object' ? (summary as Record<string, unknown>).halted : undefined;
  if (!h || typeof h !== 'object') return undefined;
  const { reason, not_started } = h as Record<string, unknown>;
  return typeof reason === 'string' && reason !== '' && Number.isInteger(not_started) && (not_started as number) >= 1 ? { reason, not_started: not_started as number } : undefined;
}

/** Tags of a run (`summary.tags`, strings only). */
export function runTags(summary: unknown): string[] {
  const tags = summary && typeof summary === 'object' ? (summary as Record<string, unknown>).tags : undefined;
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string' && t !== '') : [];
}

/**
 * True when a live process holds the lock of `runId` (src/store/run-lock.ts): its heartbeat is
 * younger than {@link STALE_AFTER_MS} and, on this host, its pid runs. Reads only; never takes or
 * removes a lock.
 */
export function runLockHeld(dbPath: string, runId: string, nowMs: number = Date.now()): boolean {
  let owner: { pid?: unknown; host?: unknown; heartbeat_at?: unknown };
  try {
    owner = JSON.parse(fs.readFileSync(runLockFile(dbPath, runId), 'utf8'));
  } catch {
    return false;
  }
  const beat = Date.parse(String(owner.heartbeat_at));
  if (typeof owner.pid !== 'number' || !Number.isFinite(beat) || nowMs - beat > STALE_AFTER_MS) return false;
  if (owner.host !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
