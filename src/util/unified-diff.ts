/**
 * Unified diffs in the form Python's `difflib.unified_diff` prints them (3 lines of context,
 * `--- a` / `+++ b` headers without timestamps), as the seed record's `diff` field has them.
 */
import { structuredPatch } from 'diff';

function range(start: number, length: number): string {
  if (length === 1) return `${start}`;
  return `${length === 0 ? start : start},${length}`;
}

/** The unified diff from `before` to `after`; empty string when they are equal. */
export function unifiedDiff(before: string, after: string, fromFile: string, toFile: string): string {
  if (before === after) return '';
  const patch = structuredPatch(fromFile, toFile, before, after, undefined, undefined, { context: 3 });
  let out = `--- ${fromFile}\n+++ ${toFile}\n`;
  for (const h of patch.hunks) {
    out += `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@\n`;
    for (const line of h.lines) if (!line.startsWith('\\')) out += `${line}\n`;
  }
  return out;
}
