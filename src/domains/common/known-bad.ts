/**
 * Per-dataset lists of known-bad tasks (tasks whose gold contradicts their own scenario), kept as
 * data files beside each domain (`data/tau2-known-bad-tasks.json`), written by servicegym from
 * its own audit of the data. Each entry pins the task's content with a fingerprint, so an entry
 * stops applying when the dataset's task changes (e.g. fixed upstream); such stale entries are
 * reported by the lint instead of silently excluding a repaired task.
 */
import fs from 'node:fs';
import { z } from 'zod';
import type { KnownBadTask } from '../../spec/domain.js';
import type { Task } from '../../spec/task.js';
import { BadInputError } from '../../spec/errors.js';
import { canonicalHash } from '../../util/canonical.js';
import { validateAt } from './tau2-folder.js';

const KnownBadFileSchema = z.strictObject({
  dataset: z.string(),
  tasks: z.array(z.strictObject({ id: z.string(), task_sha256: z.string().regex(/^[0-9a-f]{64}$/), reason: z.string().min(1) })),
});

/** The fingerprint an entry pins: SHA-256 of the task's canonical JSON (as loaded). */
export function taskFingerprint(task: Task): string {
  return canonicalHash(task);
}

/** A known-bad entry whose task is missing from the dataset or differs from the audited one. */
export interface StaleKnownBad {
  id: string;
  problem: 'missing' | 'changed';
}

/**
 * Reads `file` and returns its entries for `tasks`, those whose task is missing or differs from
 * the audited one marked `stale` (they exclude nothing), and the stale ones apart. Throws BadInputError naming the file and JSON path for a malformed file.
 */
export function loadKnownBadTasks(file: string, tasks: readonly Task[]): { knownBad: KnownBadTask[]; stale: StaleKnownBad[] } {
  let value: unknown;
  try {
    value = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new BadInputError(`cannot read the known-bad task list: ${(e as Error).message}`, { file });
  }
  const parsed = validateAt(KnownBadFileSchema, value, file);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const knownBad: KnownBadTask[] = [];
  const stale: StaleKnownBad[] = [];
  for (const e of parsed.tasks) {
    const t = byId.get(e.id);
    const problem = !t ? 'missing' : taskFingerprint(t) !== e.task_sha256 ? 'changed' : null;
    if (problem) stale.push({ id: e.id, problem });
    knownBad.push({ id: e.id, reason: e.reason, ...(problem ? { stale: problem } : {}) });
  }
  return { knownBad, stale };
}
