/**
 * One writer per run: a lock file per run beside the store (`<db>.locks/<sha256 of run id>.json`)
 * holding the owner's pid, host, start time and a heartbeat refreshed every few seconds. A second
 * process that wants the same run (e.g. a second `run --resume` while the first is alive) is
 * refused naming the owner. A stale lock — its owner on this host is gone, or its heartbeat is
 * older than {@link STALE_AFTER_MS} — is taken over, with a message saying whose it was.
 *
 * Creation is atomic (`O_EXCL`); a takeover renames the stale file away first, so of two
 * processes taking over at once exactly one wins. The `.locks` folder is removed when the last lock
 * in it is released, if this process made it (a folder that was there before is left alone); a
 * process whose folder vanished between making and filling it makes it again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { BadInputError } from '../spec/errors.js';

/** Heartbeat period, ms. */
export const HEARTBEAT_MS = 5_000;
/** A lock whose heartbeat is older than this is stale, ms. */
export const STALE_AFTER_MS = 60_000;

/** What a lock file holds. */
export interface RunLockOwner {
  run_id: string;
  pid: number;
  host: string;
  started_at: string;
  heartbeat_at: string;
}

/** A held lock; `release()` removes it (only if still ours), stops the heartbeat and removes the lock folder if this process made it and it is now empty. */
export interface RunLock {
  file: string;
  release(): void;
}

/** Lock folders this process made (absolute paths): removed once empty, by the release that empties them. */
const foldersMadeHere = new Set<string>();

/** Makes the lock folder `dir` if missing, remembering it when this call made it. */
function makeLockFolder(dir: string): void {
  if (fs.mkdirSync(dir, { recursive: true }) !== undefined) foldersMadeHere.add(dir);
}

/** Removes `dir` if this process made it and no lock is left in it (another process's lock keeps it). */
function removeLockFolderIfEmpty(dir: string): void {
  if (!foldersMadeHere.has(dir)) return;
  try {
    fs.rmdirSync(dir);
    foldersMadeHere.delete(dir);
  } catch (e) {
    // ENOTEMPTY: another lock is in it (its release removes it); ENOENT: gone already.
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') foldersMadeHere.delete(dir);
  }
}

/** The lock file of `runId` for the store at `dbPath`. */
export function runLockFile(dbPath: string, runId: string): string {
  return path.join(`${path.resolve(dbPath)}.locks`, `${createHash('sha256').update(runId).digest('hex').slice(0, 32)}.json`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readOwner(file: string): RunLockOwner | null {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as RunLockOwner;
  } catch {
    return null;
  }
}

/** Why `owner` no longer holds its lock, or null when it does. */
function staleReason(owner: RunLockOwner | null, nowMs: number): string | null {
  if (!owner || typeof owner.pid !== 'number') return 'the lock file is unreadable';
  if (owner.host === os.hostname() && !alive(owner.pid)) return `process ${owner.pid} on ${owner.host} is gone`;
  const beat = Date.parse(owner.heartbeat_at);
  if (!Number.isFinite(beat) || nowMs - beat > STALE_AFTER_MS) return `no heartbeat from process ${owner.pid} on ${owner.host} since ${owner.heartbeat_at}`;
  return null;
}

/**
 * Takes the lock of `runId`. `onTakeover` receives a message when a stale lock was taken over.
 * @throws BadInputError naming the store and the owner (pid, host, start) when another live process holds it.
 */
export function acquireRunLock(dbPath: string, runId: string, opts: { onTakeover?: (message: string) => void; nowMs?: () => number } = {}): RunLock {
  const now = opts.nowMs ?? Date.now;
  const file = runLockFile(dbPath, runId);
  makeLockFolder(path.dirname(file));
  const me = (): RunLockOwner => ({ run_id: runId, pid: process.pid, host: os.hostname(), started_at: startedAt, heartbeat_at: new Date(now()).toISOString() });
  const startedAt = new Date(now()).toISOString();
  for (let tries = 0; tries < 3; tries++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me()), { flag: 'wx' });
      return held(file, me);
    } catch (e) {
      // The folder was removed by the process that made it, its last lock released: make it again.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
        makeLockFolder(path.dirname(file));
        continue;
      }
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readOwner(file);
    const why = staleReason(owner, now());
    if (!why) {
      throw new BadInputError(
        `run '${runId}' is being written by process ${owner!.pid} on ${owner!.host} (started ${owner!.started_at}, last heartbeat ${owner!.heartbeat_at}); wait for it to finish or stop it first — two writers would overwrite each other's episodes`,
        { file: dbPath },
      );
    }
    const aside = `${file}.stale-${process.pid}`;
    try {
      fs.renameSync(file, aside);
      fs.rmSync(aside, { force: true });
      opts.onTakeover?.(`took over the lock of run '${runId}': ${why}`);
    } catch {
      /* someone else took it over first; try again */
    }
  }
  throw new BadInputError(`could not take the lock of run '${runId}' (another process keeps taking it)`, { file: dbPath });
}

function held(file: string, me: () => RunLockOwner): RunLock {
  const beat = setInterval(() => {
    if (readOwner(file)?.pid === process.pid) {
      try {
        fs.writeFileSync(file, JSON.stringify(me()));
      } catch {
        /* the folder went away; nothing to refresh */
      }
    }
  }, HEARTBEAT_MS);
  beat.unref();
  let released = false;
  return {
    file,
    release() {
      if (released) return;
      released = true;
      clearInterval(beat);
      if (readOwner(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      removeLockFolderIfEmpty(path.dirname(file));
    },
  };
}
