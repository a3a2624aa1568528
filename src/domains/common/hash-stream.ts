/**
 * The pristine stream of a table DB's tau2 hash (`json.dumps(db, sort_keys=True)` with Python's
 * spacing, see `table-hash.ts`) held as one byte buffer (the stream is ASCII: `ensure_ascii`):
 * where each table and record lies in it, the SHA-256 states along it, and the hash of a view's
 * stream written as edits of it (a record's JSON replaced, records inserted, a table's body
 * rewritten) without building the view's stream. Kept as bytes, not as a string: SHA-256 reads
 * slices of it in place (a string is first written out as UTF-8, a copy as long as what is hashed,
 * for every hash), and the disk cache's copy is read without decoding it.
 */
import { createHash, type Hash } from 'node:crypto';
import { pyString } from '../../util/pyjson.js';

/** Where one table lies in the stream: its body's span and, per record (ids sorted), its key, value and end. */
export interface TableLayout {
  /** The table's base ids, sorted (the order `sort_keys` writes them). */
  ids: readonly string[];
  /** Just after the table's `{`. */
  bodyStart: number;
  /** At the table's `}`. */
  bodyEnd: number;
  /** Where record k's quoted id starts (after the `, ` before it, if any). */
  keyStart: Int32Array;
  /** Where record k's JSON starts. */
  valueStart: Int32Array;
  /** Just after record k's JSON. */
  end: Int32Array;
}

/** The SHA-256 state of the stream's first `pos` characters. */
export interface Checkpoint {
  pos: number;
  hash: Hash;
}

/** One change of the pristine stream: the characters in `[start, end)` become `text` (start = end: an insertion). */
export interface StreamEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * ASCII text built piece by piece in one growing byte buffer (outside the JS heap) and read back as
 * those bytes: each piece can be dropped as soon as it is added, where an array of pieces joined at
 * the end keeps every one of them (thousands of record dumps, moved to the old generation when the
 * building is spread over many turns of the event loop) until the join. Pieces must be ASCII (the
 * stream is: `ensure_ascii` escapes the rest); a character above U+00FF would not be kept.
 */
export class AsciiText {
  private buf = Buffer.allocUnsafe(1 << 16);
  private len = 0;

  /** Appends `piece`. */
  add(piece: string): void {
    if (this.len + piece.length > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.len + piece.length));
      this.buf.copy(grown, 0, 0, this.len);
      this.buf = grown;
    }
    this.len += this.buf.write(piece, this.len, 'latin1');
  }

  /** The bytes added so far (a view of the buffer, which this object then lets go of: add nothing after). */
  bytes(): Buffer {
    const bytes = this.buf.subarray(0, this.len);
    this.buf = Buffer.alloc(0);
    return bytes;
  }
}

/** Whether `bytes` holds the ASCII text `s` at `pos`. */
function hasAt(bytes: Uint8Array, pos: number, s: string): boolean {
  if (pos + s.length > bytes.length) return false;
  for (let i = 0; i < s.length; i++) if (bytes[pos + i] !== s.charCodeAt(i)) return false;
  return true;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** Characters of the stream between two {@link Checkpoint}s; hashing them is one step of {@link hashStreamSteps} (well under a millisecond or two). */
export const CHECKPOINT_EVERY = 1 << 18;

/**
 * The layout of `stream` as the dump of the tables `tables` (in that order) whose sorted ids are
 * `idsOf(table)` and whose records' JSON lengths are `lengths[table][k]`; undefined when the
 * stream does not have exactly that shape (separators, table names, quoted ids and lengths are
 * checked; the records' JSON is taken as it is).
 */
export function layoutOf(stream: Uint8Array, tables: readonly string[], idsOf: (table: string) => readonly string[], lengths: Record<string, unknown>): TableLayout[] | undefined {
  if (stream[0] !== OPEN_BRACE) return undefined;
  const layout: TableLayout[] = [];
  let pos = 1;
  for (let ti = 0; ti < tables.length; ti++) {
    const head = (ti ? ', ' : '') + pyString(tables[ti]) + ': {';
    const ids = idsOf(tables[ti]);
    const lens = lengths[tables[ti]];
    if (!hasAt(stream, pos, head) || !Array.isArray(lens) || lens.length !== ids.length) return undefined;
    pos += head.length;
    const bodyStart = pos;
    const keyStart = new Int32Array(ids.length);
    const valueStart = new Int32Array(ids.length);
    const end = new Int32Array(ids.length);
    for (let k = 0; k < ids.length; k++) {
      if (k) {
        if (!hasAt(stream, pos, ', ')) return undefined;
        pos += 2;
      }
      keyStart[k] = pos;
      const key = pyString(ids[k]) + ': ';
      const n: unknown = lens[k];
      if (!hasAt(stream, pos, key) || !Number.isInteger(n) || (n as number) <= 0) return undefined;
      valueStart[k] = pos += key.length;
      end[k] = pos += n as number;
      if (pos > stream.length) return undefined;
    }
    if (stream[pos] !== CLOSE_BRACE) return undefined;
    layout.push({ ids, bodyStart, bodyEnd: pos, keyStart, valueStart, end });
    pos++;
  }
  return stream[pos] === CLOSE_BRACE && pos + 1 === stream.length ? layout : undefined;
}

/**
 * Hashes `stream` one {@link CHECKPOINT_EVERY} at a time, yielding after each, and returns its hex
 * SHA-256 with the hash states before each step (the first at position 0).
 */
export function* hashStreamSteps(stream: Uint8Array): Generator<void, { digest: string; checkpoints: Checkpoint[] }> {
  const h = createHash('sha256');
  const checkpoints: Checkpoint[] = [];
  for (let pos = 0; pos < stream.length; pos += CHECKPOINT_EVERY) {
    checkpoints.push({ pos, hash: h.copy() });
    h.update(stream.subarray(pos, pos + CHECKPOINT_EVERY));
    yield;
  }
  if (!checkpoints.length) checkpoints.push({ pos: 0, hash: h.copy() });
  return { digest: h.digest('hex'), checkpoints };
}

/**
 * The hex SHA-256 of `stream` with `edits` applied (sorted by start, not overlapping), hashed from
 * the last checkpoint before the first edit: only the stream from there on is fed again, in
 * views of the stream's bytes and the edits' texts (no copy of the stream is built).
 */
export function editedStreamDigest(stream: Uint8Array, checkpoints: readonly Checkpoint[], edits: readonly StreamEdit[]): string {
  let lo = 0;
  let hi = checkpoints.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (checkpoints[mid].pos <= edits[0].start) lo = mid;
    else hi = mid - 1;
  }
  const h = checkpoints[lo].hash.copy();
  let pos = checkpoints[lo].pos;
  for (const e of edits) {
    if (e.start > pos) h.update(stream.subarray(pos, e.start));
    if (e.text) h.update(e.text);
    pos = e.end;
  }
  if (pos < stream.length) h.update(stream.subarray(pos));
  return h.digest('hex');
}
