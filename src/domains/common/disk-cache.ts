/**
 * The on-disk cache of derived domain data, in the folder of {@link dbCacheDir} (off with
 * `SERVICEGYM_CACHE_DIR=off`): DBs generated from a seed (`generated-db/`), the tau2 hash
 * stream of a base DB (`db-hash/`, see `table-hash.ts`) and the digests of views of it
 * (`db-digests/`, see `digest-memo.ts`). Every entry is named by a content key of
 * everything it was derived from (inputs and the code that derived it), written atomically, and
 * checked when read: a missing, unreadable or corrupt entry is derived again, never trusted.
 *
 * A base DB object may carry a content key ({@link setDbContentKey}): a string that names its
 * content exactly (e.g. the generator's key, or the validated copy's name), so that what is derived
 * from the DB (its hash) can be cached under the same key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '../../util/canonical.js';

/**
 * The cache folder: `SERVICEGYM_CACHE_DIR`, else `$XDG_CACHE_HOME/servicegym`, else
 * `~/.cache/servicegym`; `SERVICEGYM_CACHE_DIR=off` turns every disk copy off (null).
 */
export function dbCacheDir(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.SERVICEGYM_CACHE_DIR === 'off') return null;
  return env.SERVICEGYM_CACHE_DIR || path.join(env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'servicegym');
}

/**
 * Writes `content` to `f` atomically, making its folder; a failure (read-only home, full disk) only
 * loses the speed-up. An array is written piece after piece (the file is their concatenation), so a
 * multi-megabyte body and its header line are never joined into one more string.
 */
export function writeAtomically(f: string, content: string | Uint8Array | readonly (string | Uint8Array)[]): void {
  const tmp = `${f}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(f), { recursive: true });
    if (!Array.isArray(content)) fs.writeFileSync(tmp, content as string | Uint8Array);
    else {
      const fd = fs.openSync(tmp, 'w');
      try {
        for (const piece of content as readonly (string | Uint8Array)[]) writeAll(fd, piece);
      } finally {
        fs.closeSync(fd);
      }
    }
    fs.renameSync(tmp, f);
  } catch {
    // the next process derives it again
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // nothing more to do
    }
  }
}

/** Writes all of `piece` at the file position of `fd` (a string as UTF-8). */
function writeAll(fd: number, piece: string | Uint8Array): void {
  const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
  for (let at = 0; at < bytes.length; ) at += fs.writeSync(fd, bytes, at, bytes.length - at);
}

/** `<cache folder>/<folder>/<name>`, or null when the disk cache is off. */
export function cachePath(folder: string, name: string): string | null {
  const dir = dbCacheDir();
  return dir ? path.join(dir, folder, name) : null;
}

/** The text of a cache file, or undefined when it is missing or unreadable. */
export function readCacheText(f: string): string | undefined {
  try {
    return fs.readFileSync(f, 'utf8');
  } catch {
    return undefined;
  }
}

/** The bytes of a cache file, or undefined when it is missing or unreadable. */
export function readCacheBytes(f: string): Buffer | undefined {
  try {
    return fs.readFileSync(f);
  } catch {
    return undefined;
  }
}

/**
 * A fingerprint of code: 32 hex digits of the sha256 of the text of the modules `relative`
 * (paths without extension, relative to the module at `moduleUrl`; each read with that module's
 * own extension, `.js` when built, `.ts` from the sources). Cache keys include it, so a change to
 * the code that derives a cached value can never serve a stale one.
 * @throws Error when a listed module cannot be read (a wrong list is a programming error).
 */
export function sourceFingerprint(moduleUrl: string, relative: readonly string[]): string {
  const file = fileURLToPath(moduleUrl);
  const ext = path.extname(file);
  const h = createHash('sha256');
  for (const r of relative) h.update(r).update('\0').update(fs.readFileSync(path.join(path.dirname(file), r + ext))).update('\0');
  return h.digest('hex').slice(0, 32);
}

/** 32 hex digits naming `parts` (their JSON). */
export function cacheKey(parts: unknown): string {
  return sha256Hex(JSON.stringify(parts)).slice(0, 32);
}

const contentKeys = new WeakMap<object, string>();

/** Records that `db`'s content is exactly what `key` names (see the module doc). */
export function setDbContentKey(db: object, key: string): void {
  contentKeys.set(db, key);
}

/** The content key of a base DB object, if it has one. */
export function dbContentKey(db: object): string | undefined {
  return contentKeys.get(db);
}

/**
 * A JSON value derived by `make` (a pure function of what `key()` names), kept in
 * `<cache folder>/<folder>/<key>.json` as its sha256 and its JSON: a later process reads it back
 * with one `JSON.parse` instead of deriving it again. A file whose checksum does not match, or
 * that does not parse, is derived again (and rewritten). `make`'s value must survive a JSON round
 * trip unchanged (no `undefined` fields, no `-0`, no non-JSON objects). The value gets the key as
 * its content key ({@link setDbContentKey}). With the cache off, just `make()`.
 */
export function cachedJson<T extends object>(folder: string, key: () => string, make: () => T): T {
  if (!dbCacheDir()) return make();
  const k = key();
  const f = cachePath(folder, `${k}.json`)!;
  let value = parseChecked<T>(readCacheText(f));
  if (value === undefined) {
    value = make();
    const body = JSON.stringify(value);
    writeAtomically(f, [`${sha256Hex(body)}\n`, body]);
  }
  setDbContentKey(value, k);
  return value;
}

/** The object in a `<sha256>\n<JSON>` cache text, or undefined when it is missing, does not match its checksum or is not an object. */
function parseChecked<T extends object>(text: string | undefined): T | undefined {
  if (text === undefined || text.indexOf('\n') !== 64) return undefined;
  const body = text.slice(65);
  if (text.slice(0, 64) !== sha256Hex(body)) return undefined;
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
