/**
 * Whether a stored run is finished. `servicegym run` and `validate` store a run's row when they
 * start (settings only) and again when they finish (with the summary's scores, `scored` among
 * them); campaigns and optimisations are stored once, finished. A task run without `scored` is
 * therefore unfinished: `in_progress` while a live process holds its lock (src/store/run-lock.ts),
 * else `interrupted` (killed or crashed; `run --resume` continues it).
 */
import type { RunStatus } from './types.js';

/** The status of a run of `kind` with stored `summary`; `writing` tells whether a live process holds its lock. */
export function runStatus(kind: string, summary: unknown, writing: boolean): RunStatus {
  if (kind !== 'run') return 'complete';
  const s = summary && typeof summary === 'object' ? (summary as Record<string, unknown>) : {};
  if (typeof s.scored === 'number') return 'complete';
  return writing ? 'in_progress' : 'interrupted';
}

/** Tags of a run (`summary.tags`, strings only). */
export function runTags(summary: unknown): string[] {
  const tags = summary && typeof summary === 'object' ? (summary as Record<string, unknown>).tags : undefined;
  return Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string' && t !== '') : [];
}
