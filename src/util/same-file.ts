/**
 * An output file must not be one of the files the command reads or keeps: `export-trajectories
 * -o` naming the store wrote JSON Lines over it (every run lost), and `evaluate run.jsonl -o
 * run.jsonl` replaced the trajectories with their results.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../spec/errors.js';

/** A file the command must not overwrite, and what it holds (for the message). */
export interface KeptFile {
  file: string;
  what: string;
}

/**
 * Whether `a` and `b` name the same file: the same device and inode when both exist (so a link,
 * `./x` and `x` are caught), else the same absolute path.
 */
export function sameFile(a: string, b: string): boolean {
  try {
    const [x, y] = [fs.statSync(a), fs.statSync(b)];
    return x.dev === y.dev && x.ino === y.ino;
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

/**
 * Throws when `output` (the value of `flag`) is one of `kept`.
 *
 * @throws BadInputError naming the flag, the file and what writing it would destroy.
 */
export function refuseOverwrite(output: string, flag: string, kept: readonly KeptFile[]): void {
  const hit = kept.find((k) => sameFile(output, k.file));
  if (hit) throw new BadInputError(`${flag} names ${hit.what}; writing there would destroy it: give another file`, { file: output });
}

/** The files of the SQLite store at `db` (the database, its write-ahead log and shared memory). */
export function storeFiles(db: string): KeptFile[] {
  return [
    { file: db, what: 'the run store' },
    { file: `${db}-wal`, what: "the run store's write-ahead log" },
    { file: `${db}-shm`, what: "the run store's shared-memory file" },
  ];
}
