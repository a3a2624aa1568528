/**
 * A Vitest reporter that says, after a run, which tests were skipped and why. The default reporter
 * shows a skipped count per file but not the skipped tests' names, and so not the reason a test
 * gives in its name (` (skipped: needs chromium at /usr/bin/chromium)`, test/support/needs.ts).
 * This one lists each reason once, with the files and how many of their tests it skipped, e.g.
 *
 *     skipped, and why:
 *       needs chromium at /usr/bin/chromium: 42 tests (test/viewer/browser.test.ts 22, test/surfaces/web.test.ts 5, …)
 *
 * A test skipped on a condition of the data (a dataset without tasks) names its reason the same
 * way (test/architecture/skip-reasons.test.ts checks every `skipIf`/`runIf` does). Tests skipped
 * by `-t` filters or `.only` carry no reason and are not listed. Added to the default reporter in
 * vitest.config.ts.
 */
import path from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** The reason at the end of a skipped test's or suite's name: the innermost ` (skipped: …)`. */
export function skipReasonOf(fullName: string): string | null {
  const all = [...fullName.matchAll(/\(skipped: (.*?)\)(?= > |$)/g)];
  return all.length ? all[all.length - 1][1] : null;
}

/** Skipped tests by reason, then by file (path relative to `root`), in the order first seen. */
export function skippedByReason(modules: readonly TestModule[], root: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const m of modules) {
    for (const t of m.children.allTests()) {
      if (t.result().state !== 'skipped') continue;
      const reason = skipReasonOf(t.fullName);
      if (reason === null) continue;
      const files = out.get(reason) ?? new Map<string, number>();
      const file = path.relative(root, m.moduleId);
      files.set(file, (files.get(file) ?? 0) + 1);
      out.set(reason, files);
    }
  }
  return out;
}

/** The report's lines ('' when nothing was skipped for a reason). */
export function skipReport(byReason: Map<string, Map<string, number>>): string {
  if (byReason.size === 0) return '';
  const lines = ['skipped, and why:'];
  for (const [reason, files] of byReason) {
    const total = [...files.values()].reduce((a, b) => a + b, 0);
    lines.push(`  ${reason}: ${total} test${total === 1 ? '' : 's'} (${[...files].map(([f, n]) => `${f} ${n}`).join(', ')})`);
  }
  return lines.join('\n');
}

export default class SkipReasonReporter implements Reporter {
  private ctx?: Vitest;

  onInit(ctx: Vitest): void {
    this.ctx = ctx;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const text = skipReport(skippedByReason(modules, this.ctx?.config.root ?? process.cwd()));
    if (text) (this.ctx?.logger ?? console).log(`\n${text}\n`);
  }
}
