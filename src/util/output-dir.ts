/**
 * Guards a command's output folder: a command that writes a set of files (an imported campaign,
 * an exported site) must not mix them into an unrelated non-empty folder or silently replace
 * someone's files. A folder is accepted when it does not exist, is empty, already holds an
 * earlier output of the same command (recognised by a marker file), or `force` is set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BadInputError } from '../spec/errors.js';

export interface OutputDirOptions {
  /** A file (relative to the folder) that only an earlier output of this command writes. */
  marker: string;
  /** How that file begins when this command wrote it (a file of the same name by someone else is not a marker). */
  markerPrefix: string;
  /** What the command writes, for the message, e.g. `'an exported viewer site'`. */
  what: string;
  /** The flag that allows writing anyway, for the message, e.g. `'--force'`. */
  forceFlag: string;
  /** Write into a non-empty folder that is not an earlier output. */
  force?: boolean;
}

/**
 * Creates `dir` if needed and returns whether it held an earlier output (the marker file).
 *
 * @throws BadInputError naming the folder when the path is empty, a file or a dangling link, or
 *   the folder is non-empty without the marker and `force` is not set (the message lists a few
 *   of the files found).
 */
export function prepareOutputDir(dir: string, opts: OutputDirOptions): { earlier: boolean } {
  if (dir.trim() === '') throw new BadInputError('the output folder is an empty path');
  if (!fs.existsSync(dir)) {
    if (isDanglingLink(dir)) throw new BadInputError('the output path is a symbolic link to nothing', { file: dir });
    fs.mkdirSync(dir, { recursive: true });
    return { earlier: false };
  }
  if (!fs.statSync(dir).isDirectory()) throw new BadInputError(`the output path is not a folder`, { file: dir });
  const entries = fs.readdirSync(dir);
  if (entries.length === 0) return { earlier: false };
  if (hasMarker(path.join(dir, opts.marker), opts.markerPrefix)) return { earlier: true };
  if (opts.force) return { earlier: false };
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? `, … (${entries.length} entries)` : '');
  throw new BadInputError(`the output folder is not empty (${shown}) and does not hold ${opts.what}; choose an empty or new folder, or pass ${opts.forceFlag} to write into it anyway`, { file: dir });
}

function isDanglingLink(p: string): boolean {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** True when `file` is a regular file beginning with `prefix`. */
function hasMarker(file: string, prefix: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    const fd = fs.openSync(file, 'r');
    try {
      const want = Buffer.from(prefix, 'utf8');
      const buf = Buffer.alloc(want.length);
      const n = fs.readSync(fd, buf, 0, want.length, 0);
      return n === want.length && buf.equals(want);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}
