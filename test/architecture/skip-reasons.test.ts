/**
 * A test that needs ../shared (tau2's data, the seed records) and is skipped without it says so in
 * its name, through one helper (`needsShared` in test/support/paths.ts), so a clone without the
 * peer data sees why tests were skipped rather than a bare count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SHARED, needsShared, sharedSkipReason, HAS_SHARED } from '../support/paths.js';

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? (e.name === 'fixtures' ? [] : testFiles(p)) : /\.ts$/.test(e.name) ? [p] : [];
  });
}

describe('skips that need ../shared', () => {
  it('every describe/it skipped without ../shared names its reason through needsShared', () => {
    const bare: string[] = [];
    let guarded = 0;
    for (const file of testFiles(path.join(ROOT, 'test'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:describe|it|test)\.(?:skipIf\(\s*!HAS_SHARED\s*\)|runIf\(\s*HAS_SHARED\s*\))\(\s*([^\s])/g)) {
        guarded++;
        if (!text.slice(m.index! + m[0].length - 1).startsWith('needsShared(')) bare.push(`${path.relative(ROOT, file)}: ${text.slice(m.index!, m.index! + 80)}`);
      }
    }
    expect(guarded).toBeGreaterThan(20);
    expect(bare).toEqual([]);
  });

  it('the name says what is missing and where, only when it is missing', () => {
    expect(sharedSkipReason(false)).toBe(` (skipped: needs ../shared, the tau2 data and seed records, at ${SHARED})`);
    expect(sharedSkipReason(true)).toBe('');
    expect(needsShared('tau2 airline folder')).toBe(`tau2 airline folder${sharedSkipReason(HAS_SHARED)}`);
  });
});
