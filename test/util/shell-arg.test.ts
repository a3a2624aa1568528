/**
 * shellArg: a value printed into a command line for the user to copy is one shell word that a
 * POSIX shell reads back as the same value (spaces, quotes, `$`, globs, non-ASCII, empty).
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellArg } from '../../src/util/shell-arg.js';

describe('shellArg', () => {
  it('leaves plain words alone and single-quotes the rest', () => {
    expect(shellArg('run-airline-2026-12-02T14-37-57-866Z')).toBe('run-airline-2026-12-02T14-37-57-866Z');
    expect(shellArg('.servicegym/servicegym.db')).toBe('.servicegym/servicegym.db');
    expect(shellArg('/tmp/my runs/store.db')).toBe("'/tmp/my runs/store.db'");
    expect(shellArg("it's a run")).toBe("'it'\\''s a run'");
    expect(shellArg('')).toBe("''");
  });

  it('reads back as the same single argument in sh', () => {
    const values = ['/tmp/my runs/store.db', "it's a run", 'a/b c#?%é', '$HOME `id` $(id) *', 'tab\there', 'line\nbreak', '', '-x', "''", '\\'];
    for (const v of values) {
      const out = execFileSync('sh', ['-c', `printf '%s|%s' "$#" ${shellArg(v)}`, 'sh']).toString();
      expect(out, JSON.stringify(v)).toBe(`0|${v}`);
    }
  });
});
