/**
 * Reading JSON and JSON Lines files with errors that name the file, the JSON path and what was
 * expected. Every user-supplied file goes through here.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { ParseError } from 'jsonc-parser';
import type { z } from 'zod';
import { BadInputError, jsonPath } from '../spec/errors.js';

/**
 * The tolerant JSON parser, loaded only to describe a file that failed to parse or decode: it is
 * the one CommonJS package a command would otherwise load at start-up (about 20 ms of CPU with
 * Node's CommonJS loader), and a file that parses never needs it.
 */
const jsonc = (): typeof import('jsonc-parser') => createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');

/** Reads a UTF-8 text file; throws {@link BadInputError} when it is missing or unreadable. */
export function readTextFile(file: string): string {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new BadInputError(code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a file' : `cannot read file (${code ?? (e as Error).message})`, { file });
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const lenient = new TextDecoder('utf-8').decode(bytes);
    const idx = lenient.indexOf('\uFFFD');
    const ok = idx < 0 ? 0 : Buffer.byteLength(lenient.slice(0, idx), 'utf8');
    // For a JSON file, the JSON path of the value holding the bad byte ('$' for other text).
    const where = idx < 0 ? '$' : jsonPath(jsonc().getLocation(lenient, idx).path);
    throw new BadInputError(`not valid UTF-8 text (first bad byte at offset ${ok}); expected a UTF-8 file`, { file, path: where });
  }
}

/**
 * Parses JSON text; on a syntax error or truncation throws {@link BadInputError} with the JSON
 * path where parsing stopped (e.g. `$.api_turns[72].response`), the line and column.
 */
export function parseJsonText(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { getLocation, parse: parseTolerant, printParseErrorCode } = jsonc();
    const errors: ParseError[] = [];
    parseTolerant(text, errors, { allowTrailingComma: false, disallowComments: true });
    const err = errors[0];
    const offset = err ? err.offset : text.length;
    const loc = getLocation(text, offset);
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const col = offset - before.lastIndexOf('\n');
    const what = err ? printParseErrorCode(err.error) : 'InvalidJSON';
    // Parsing stopped at the end of the text, or on a string/number/comment cut off by the end:
    // the file was cut short (a missing value before a closing brace is a syntax error, not this).
    const end = text.trimEnd().length;
    const cutToken = err !== undefined && offset + err.length >= end && /^UnexpectedEndOf/.test(what);
    const truncated = offset >= end || cutToken ? ' (the file looks truncated)' : '';
    throw new BadInputError(`invalid JSON (${what}) at line ${line}, column ${col}${truncated}; expected a complete JSON document`, {
      file,
      // Right after a comma jsonc-parser reports an empty property name; name the enclosing object.
      path: jsonPath(loc.isAtPropertyKey && loc.path.at(-1) === '' ? loc.path.slice(0, -1) : loc.path),
    });
  }
}

/**
 * Validates `value` against `schema`; throws {@link BadInputError} naming the first bad path.
 * With `keepRaw` the input value itself is returned (zod rebuilds objects with known keys
 * first; recorded requests and responses must keep their key order).
 */
export function validate<T>(schema: z.ZodType<T>, value: unknown, file: string, opts: { keepRaw?: boolean } = {}): T {
  const r = schema.safeParse(value);
  if (r.success) return opts.keepRaw ? (value as T) : r.data;
  const issue = r.error.issues[0];
  throw new BadInputError(issue.message, { file, path: jsonPath(issue.path) });
}

/** Reads, parses and validates a JSON file (`keepRaw`: see {@link validate}). */
export function readJsonFile<T>(file: string, schema: z.ZodType<T>, opts: { keepRaw?: boolean } = {}): T {
  return validate(schema, parseJsonText(readTextFile(file), file), file, opts);
}

/**
 * Reads a JSON Lines file, validating each non-empty line; errors name the line number and the
 * path inside it. Values are returned as parsed (key order kept), not as zod rebuilt them.
 */
export function readJsonLines<T>(file: string, schema: z.ZodType<T>): T[] {
  const out: T[] = [];
  readTextFile(file)
    .split('\n')
    .forEach((line, i) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        throw new BadInputError(`line ${i + 1} is not valid JSON (${(e as Error).message})`, { file, path: '$' });
      }
      const r = schema.safeParse(value);
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new BadInputError(`line ${i + 1}: ${issue.message}`, { file, path: jsonPath(issue.path) });
      }
      out.push(value as T);
    });
  return out;
}
