/**
 * One writer per run: a lock file per run beside the store (`<db>.locks/<sha256 of run id>.json`)
 * holding the owner's pid, host, start time and a heartbeat refreshed every few seconds. A second
 * process that wants the same run (e.g. a second `run --resume` while the first is alive) is
 * refused naming the owner. A stale lock — its owner on this host is gone, or its heartbeat is
 * older than {@link STALE_AFTER_MS} — is taken over, with a message saying whose it was.
 *
 * Creation is atomic (`O_EXCL`); a takeover renames the stale file away first, so of two
 * processes taking over at once exactly one wins. The `.locks` folder is removed when the last lock
 * in it is released, if servicegym made it (by any process: {@link LOCK_FOLDER_MARK}; a folder the
 * user made is left alone); a process whose folder vanished between making and filling it makes it
 * again.
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

/** A held lock; `release()` removes it (only if still ours), stops the heartbeat and removes the lock folder if servicegym made it and no lock is left in it. */
export interface RunLock {
  file: string;
  release(): void;
}

/**
 * The file servicegym puts in a lock folder it makes. A folder holding it and no lock is removed by
 * the release that leaves it so, whichever process made it (a run that started while another held
 * the folder, or one that took over the lock of a killed run, removes it at its end); a folder
 * without it (one the user made) is never removed.
 */
const LOCK_FOLDER_MARK = '.made-by-servicegym';

/** Makes the lock folder `dir` if missing, marking it as made by servicegym when this call made it. */
function makeLockFolder(dir: string): void {
  if (fs.mkdirSync(dir, { recursive: true }) === undefined) return;
  try {
    fs.writeFileSync(path.join(dir, LOCK_FOLDER_MARK), '', { flag: 'wx' });
  } catch {
    /* unmarked, the folder is kept: litter, never a lost lock */
  }
}

/** Removes `dir` if servicegym made it and no lock is left in it (another process's lock keeps it; its release removes it). */
function removeLockFolderIfEmpty(dir: string): void {
  const mark = path.join(dir, LOCK_FOLDER_MARK);
  try {
    const names = fs.readdirSync(dir);
    if (names.length !== 1 || names[0] !== LOCK_FOLDER_MARK) return;
    fs.rmSync(mark);
  } catch {
    return; // gone already, or another release took the mark first
  }
  try {
    fs.rmdirSync(dir);
  } catch {
    // A lock came in meanwhile: the mark goes back, for the release of that lock.
    try {
      fs.writeFileSync(mark, '', { flag: 'wx' });
    } catch {
      /* the folder went away meanwhile */
    }
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
