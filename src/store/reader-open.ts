/**
 * How a reader opens a store file (`RunStore.open(file, { readonly: true })`): read-only, or
 * read-write with `query_only` so that its close removes the `-wal`/`-shm` files its reads made.
 */
import fs from 'node:fs';
import path from 'node:path';

/**
 * Whether a read-only open of `file` uses a read-write connection with `query_only` set. A
 * read-only connection to a WAL-mode store creates its `-wal` and `-shm` files but cannot remove
 * them (that is the last connection's checkpoint on close, a write), so every read-only command
 * left two empty files beside the store. A `query_only` connection writes nothing through its
 * statements, and as the last connection its close removes the files its reads made. Only when
 * no log with a frame in it is there: a log holding frames belongs to a writer (open, or killed with
 * commits the next writer checkpoints), and a reader then opens read-only and leaves it as it is;
 * so does a reader of a file or folder it may not write. An empty log is one a writer left when it
 * closed while another connection was open (its close, not the last, could not remove it): it
 * holds no commit, and without this every later reader left it there until the next write.
 */
export function readerMayOpenReadWrite(file: string): boolean {
  if (logHoldsFrames(`${file}-wal`)) return false;
  try {
    fs.accessSync(file, fs.constants.W_OK);
    fs.accessSync(path.dirname(path.resolve(file)), fs.constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** A write-ahead log's header, and the smallest frame (a 24-byte frame header and a page of at least 512 bytes), bytes. */
const WAL_HEADER_BYTES = 32;
const WAL_MIN_FRAME_BYTES = 24 + 512;

/** Whether the write-ahead log `wal` may hold a frame (a commit's pages): it is long enough for one, or cannot be looked at. */
function logHoldsFrames(wal: string): boolean {
  try {
    return fs.statSync(wal).size >= WAL_HEADER_BYTES + WAL_MIN_FRAME_BYTES;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}
