/**
 * The tau2 DB hashes of table-DB views already computed, by what each view changed in its base
 * (`table-hash.ts`): a view's stream, hence its digest, is a function of the pristine base and the
 * records it changed, so a view whose changes were hashed before (in this process, or in an earlier
 * one over the same base) gets its digest without hashing again. Hashing a view that wrote a record
 * near the start of the stream feeds all of the stream after it (3.4 M characters for an airline
 * booking, which changes a flight); the same tasks run again (`validate`, a replayed or re-scored
 * run, trials and personas that end in the same state) end in the same changes.
 *
 * On disk the digests of one base are kept in `db-digests/<name>.txt` (named as its hash stream in
 * `db-hash/`), one line per view, appended as they are made: `<change key> <digest> <check>`, the check being 16 hex
 * digits of the sha256 of the two. A line that is cut short or does not match its check is ignored
 * (that view is hashed again); a file grown past {@link MAX_FILE_BYTES} is started over.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';

/** One record a view changed: its table, its id and its JSON as the stream writes it (null: removed from the base). */
export interface RecordChange {
  table: string;
  id: string;
  json: string | null;
}

/** Digests of views by their {@link changeKey}. */
export interface DigestMemo {
  /** The digest kept for `key`, or undefined. */
  get(key: string): string | undefined;
  /** Keeps `digest` for `key` (and appends it to the file, if any; a failed write only loses the speed-up). */
  set(key: string, digest: string): void;
}

/** A digests file larger than this is started over when read (about 3,500 views). */
export const MAX_FILE_BYTES = 512 * 1024;
/** Views kept in memory per base; the memory memo is emptied when it holds this many. */
const MAX_IN_MEMORY = 20_000;

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The key of a view's changes (64 hex digits): the sha256 of each change's `[table, id, json]`
 * JSON, one a line. `changes` must be in a fixed order (the hasher gives them in table order, then
 * id order) and hold only records that differ from the base, so that two views with the same
 * content give the same key.
 */
export function changeKey(changes: readonly RecordChange[]): string {
  const h = createHash('sha256');
  for (const c of changes) h.update(JSON.stringify([c.table, c.id, c.json])).update('\n');
  return h.digest('hex');
}

/** The check of one line: 16 hex digits of the sha256 of `key digest`. */
function lineCheck(key: string, digest: string): string {
  return createHash('sha256').update(`${key} ${digest}`).digest('hex').slice(0, 16);
}

/** The digests a file holds (its well-formed lines that match their check); empty when it is missing or unreadable. */
function readDigests(file: string): Map<string, string> {
  const kept = new Map<string, string>();
  let text: string;
  try {
    if (fs.statSync(file).size > MAX_FILE_BYTES) {
      fs.rmSync(file, { force: true });
      return kept;
    }
    text = fs.readFileSync(file, 'latin1');
  } catch {
    return kept;
  }
  for (const line of text.split('\n')) {
    const [key, digest, check, more] = line.split(' ');
    if (more !== undefined || !HEX64.test(key ?? '') || !HEX64.test(digest ?? '') || check !== lineCheck(key, digest)) continue;
    kept.set(key, digest);
  }
  return kept;
}

/**
 * A memo of view digests, kept in memory and, when `file` is given, in that file (read on the
 * first `get`). The file must be named by everything the digests depend on besides the changes:
 * the base's content and the code and record types that write the stream.
 */
export function createDigestMemo(file: string | null): DigestMemo {
  let memo: Map<string, string> | undefined;
  const load = () => (memo ??= file ? readDigests(file) : new Map());
  return {
    get: (key) => load().get(key),
    set(key, digest) {
      const m = load();
      if (m.get(key) === digest) return;
      if (m.size >= MAX_IN_MEMORY) m.clear();
      m.set(key, digest);
      if (!file) return;
      try {
        fs.mkdirSync(path.dirname(file), { recursive: true });
        // One short write with O_APPEND: lines written by processes at once do not interleave.
        fs.appendFileSync(file, `${key} ${digest} ${lineCheck(key, digest)}\n`);
      } catch {
        // a read-only or full cache: the next process hashes the view again
      }
    },
  };
}
