/**
 * Paths built from file content (an evaluation key, a campaign name, a canary version, a file a
 * spec names) are checked before use: a name must match a plain-name pattern, and a relative path
 * must resolve inside its folder. A crafted record such as an evaluation key
 * `../../other/prompts/stable` is bad input, never a write outside the output folder.
 */
import path from 'node:path';
import { BadInputError } from '../spec/errors.js';

/** A plain file or folder name: letters, digits, `.`, `_`, `-`, 1-128 characters, not starting with `.`. */
export const SAFE_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/**
 * Returns `name` when it is a plain name ({@link SAFE_NAME}: no separator, no `..`, no leading dot).
 * @throws BadInputError naming `where.file` and `where.path` otherwise.
 */
export function safeName(name: string, what: string, where: { file?: string; path?: string } = {}): string {
  if (typeof name !== 'string' || !SAFE_NAME.test(name)) {
    throw new BadInputError(`${what} ${JSON.stringify(name)} is not a plain name (letters, digits, '.', '_', '-'; no path separators, no leading dot)`, where);
  }
  return name;
}

/**
 * Resolves `rel` against `dir` and returns the absolute path when it stays inside `dir`
 * (the folder itself excluded). Absolute paths and `..` escapes are refused.
 * @throws BadInputError naming `where.file` and `where.path` when the path leaves the folder.
 */
export function insideDir(dir: string, rel: string, what: string, where: { file?: string; path?: string } = {}): string {
  const root = path.resolve(dir);
  const full = path.resolve(root, rel);
  const back = path.relative(root, full);
  if (typeof rel !== 'string' || rel === '' || path.isAbsolute(rel) || back === '' || back.startsWith('..') || path.isAbsolute(back)) {
    throw new BadInputError(`${what} ${JSON.stringify(rel)} must be a relative path inside ${root}`, where);
  }
  return full;
}
