/**
 * A test skipped because the machine lacks something says what, in one wording (test/support/needs.ts):
 * its name (or its suite's) ends ` (skipped: needs …)` — ../shared's tau2 data, chromium, redis-server,
 * script — and the skip reporter (test/support/skip-reporter.ts) lists those reasons after a run,
 * since the default reporter shows only a skipped count.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SHARED, needsShared, sharedSkipReason, HAS_SHARED } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing, REDIS_NEED, SHARED_NEED, skipReason, type Need } from '../support/needs.js';
import { chromiumPath } from '../../src/surfaces/browser-pool.js';
import { skipReasonOf, skipReport } from '../support/skip-reporter.js';

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? (e.name === 'fixtures' ? [] : testFiles(p)) : /\.ts$/.test(e.name) ? [p] : [];
  });
}

/** The index of the `)` closing the parenthesis opened just before `from` (strings and comments aside: skip conditions hold none that matter). */
function closingParen(text: string, from: number): number {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return i;
  }
  return text.length;
}

describe('skips that need something of the machine or the data', () => {
  it('every conditional describe/it names its reason through needing or needsShared, so the skip reporter lists it', () => {
    const bare: string[] = [];
    let guarded = 0;
    for (const file of testFiles(path.join(ROOT, 'test'))) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/\b(?:describe|it|test)\.(?:skipIf|runIf)\(/g)) {
        guarded++;
        const close = closingParen(text, m.index! + m[0].length);
        const rest = text.slice(close + 1).replace(/^\(\s*/, '');
        if (!/^(needing|needsShared)\(/.test(rest)) bare.push(`${path.relative(ROOT, file)}: ${text.slice(m.index!, m.index! + 100)}`);
      }
    }
    expect(guarded).toBeGreaterThan(40);
    expect(bare).toEqual([]);
  });

  it('the name says what is missing and where, only when it is missing', () => {
    expect(sharedSkipReason(false)).toBe(` (skipped: needs ../shared (tau2 peer data, seed records) at ${SHARED})`);
    expect(sharedSkipReason(true)).toBe('');
    expect(needsShared('tau2 airline folder')).toBe(`tau2 airline folder${sharedSkipReason(HAS_SHARED)}`);
    expect(SHARED_NEED.reason).toBe(`needs ../shared (tau2 peer data, seed records) at ${SHARED}`);
    expect(CHROMIUM_NEED.reason).toBe(`needs chromium at ${chromiumPath()}`);
    expect(REDIS_NEED.reason).toBe('needs redis-server on PATH (each queue test starts its own on 127.0.0.1)');
    const gone = (reason: string): Need => ({ present: false, reason });
    const here: Need = { present: true, reason: 'needs nothing' };
    expect(needing('a test', here)).toBe('a test');
    expect(lacks(here)).toBe(false);
    expect(needing('a test', gone('needs chromium at /x'), here, gone('needs ../shared (tau2 peer data) at /y'))).toBe('a test (skipped: needs chromium at /x; needs ../shared (tau2 peer data) at /y)');
    expect(lacks(here, gone('z'))).toBe(true);
    expect(skipReason()).toBe('');
  });

  it('the skip reporter lists each reason once with its files and counts', () => {
    expect(skipReasonOf('web surface in Chromium (skipped: needs chromium at /x) > opens a page')).toBe('needs chromium at /x');
    expect(skipReasonOf('a (skipped: needs a) > b (skipped: needs b)')).toBe('needs b');
    expect(skipReasonOf('filtered out by -t')).toBeNull();
    const byReason = new Map([['needs chromium at /x', new Map([['test/a.test.ts', 3], ['test/b.test.ts', 1]])], ['needs script (util-linux) on PATH', new Map([['test/c.test.ts', 1]])]]);
    expect(skipReport(byReason)).toBe('skipped, and why:\n  needs chromium at /x: 4 tests (test/a.test.ts 3, test/b.test.ts 1)\n  needs script (util-linux) on PATH: 1 test (test/c.test.ts 1)');
    expect(skipReport(new Map())).toBe('');
  });
});
