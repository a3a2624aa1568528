/**
 * The canary on real traffic: outcomes of conversations the canary prompt served (graded by the
 * user's own pipeline, or by `servicegym run` with the canary prompt) are judged with the canary
 * rules ({@link canaryDecision}) against stable's resolution rate, and a promotion or rollback
 * becomes a hashed release record appended to the optimise run's record — the same lifecycle as
 * the optimiser's simulated canary, fed from outside.
 *
 * Episode file (JSON Lines), one conversation per line, in the order they were served:
 * `{"id": "conv-0192", "success": true, "critical": false, "valid": true}` — `success`: the
 * request was resolved within policy; `critical`: a forbidden write or state change happened
 * (rolls back at once); `valid: false` marks a conversation lost to an infrastructure fault (it is
 * skipped). `critical` and `valid` may be left out (false, true).
 *
 * {@link applyTrafficCanary} is pure: the caller reads and writes files and supplies the time.
 */
import { z } from 'zod';
import { readJsonLines } from '../util/json-file.js';
import { BadInputError } from '../spec/errors.js';
import { canaryDecision, type CanaryDecision, type CanaryEpisode, type CanaryParams } from './canary.js';
import { sealRecord, verifyRecord, type ReleaseRecord, type ReleaseRecordBody } from './record.js';
import type { ReleaseEntry } from './lifecycle.js';

/** One line of an episode file (see the module doc). */
export const TrafficEpisodeSchema = z.strictObject({
  id: z.string().min(1),
  success: z.boolean(),
  critical: z.boolean().optional(),
  valid: z.boolean().optional(),
});

/**
 * Reads an episode file. Throws BadInputError naming the file, the line and the path inside it
 * for a malformed line, and for a file with no episode or a repeated id.
 */
export function readTrafficEpisodes(file: string): CanaryEpisode[] {
  const lines = readJsonLines(file, TrafficEpisodeSchema);
  if (lines.length === 0) throw new BadInputError('no episode in the file', { file, path: '$' });
  const seen = new Set<string>();
  return lines.map((l, i) => {
    if (seen.has(l.id)) throw new BadInputError(`episode id '${l.id}' appears twice (episode ${i + 1})`, { file, path: '$.id' });
    seen.add(l.id);
    return { id: l.id, success: l.success, critical: l.critical ?? false, valid: l.valid ?? true };
  });
}

/** Success rate of the valid episodes (stable's traffic); throws BadInputError when none is valid. */
export function resolutionRate(episodes: readonly CanaryEpisode[], file: string): number {
  const valid = episodes.filter((e) => e.valid);
  if (valid.length === 0) throw new BadInputError('no valid episode to take stable\'s resolution rate from', { file, path: '$.valid' });
  return valid.filter((e) => e.success).length / valid.length;
}

/** The parts of an optimise run record (`record.json`) this reads and extends. */
export interface OptimizeRunRecordLike {
  releases: ReleaseEntry[];
  release_records: ReleaseRecord[];
  [k: string]: unknown;
}

/** The result of {@link applyTrafficCanary}. */
export interface TrafficCanaryResult {
  decision: CanaryDecision;
  /** The prompt in canary state that was judged. */
  canary: ReleaseEntry;
  /** The hashed canary release record (null while the canary continues). */
  release: ReleaseRecord | null;
  /** The run record with the new lifecycle entries and release record (unchanged on continue). */
  record: OptimizeRunRecordLike;
  /** True when the canary became stable: the caller replaces the stable prompt text. */
  promoted: boolean;
}

/** Current state per prompt: the last entry of each sha256 in `releases[]` order. */
function currentEntries(releases: readonly ReleaseEntry[]): ReleaseEntry[] {
  const last = new Map<string, ReleaseEntry>();
  for (const e of releases) last.set(e.sha256, e);
  return [...last.values()];
}

/**
 * Judges the run's canary prompt on `episodes` (see the module doc). `now` stamps the lifecycle
 * entries (ISO-8601, not part of the hashed record). `source` says where the episodes came from
 * (kept in the record's statistics).
 *
 * @throws BadInputError when the record has no prompt in canary state, or its release record is
 *   missing or does not verify.
 */
export function applyTrafficCanary(run: OptimizeRunRecordLike, opts: { episodes: readonly CanaryEpisode[]; params: CanaryParams; now: string; source: string; stableSource: string }): TrafficCanaryResult {
  const current = currentEntries(run.releases);
  const canary = current.find((e) => e.state === 'canary');
  if (!canary) {
    const states = current.map((e) => `${e.version} ${e.state}`).join(', ');
    throw new BadInputError(`no prompt is in canary state (${states || 'no releases'}): only a prompt released to canary can be promoted or rolled back`, { path: '$.releases' });
  }
  const released = run.release_records.find((r) => r.sha256 === canary.release_sha256);
  if (!released) throw new BadInputError(`the release record ${canary.release_sha256} of canary ${canary.version} is missing from release_records`, { path: '$.release_records' });
  if (!verifyRecord(released) || released.candidate?.sha256 !== canary.sha256) throw new BadInputError(`the release record ${canary.release_sha256} of canary ${canary.version} does not verify (it was changed after it was sealed)`, { path: '$.release_records' });
  const decision = canaryDecision(opts.episodes, opts.params);
  if (decision.decision === 'continue') return { decision, canary, release: null, record: run, promoted: false };
  const { sha256: _s, ...base } = released;
  const body: ReleaseRecordBody = {
    ...base,
    decision: decision.decision,
    stage: 'canary',
    reasons: [decision.reason],
    edit_checks: [],
    outcomes: { screen: [], gate: [], sealed: [], canary: opts.episodes.filter((e) => e.valid).slice(0, decision.episodes) },
    statistics: {
      traffic: opts.source,
      stable_rate_from: opts.stableSource,
      sprt: decision.sprt,
      p0: decision.p0,
      p1: decision.p1,
      episodes: decision.episodes,
      rules: opts.params,
    },
    costs: {},
  };
  const release = sealRecord(body);
  const entries: ReleaseEntry[] = [{ ...canary, state: decision.decision === 'promote' ? 'stable' : 'rolled_back', decision: decision.decision, release_sha256: release.sha256, decided_at: opts.now }];
  if (decision.decision === 'promote') {
    const stable = current.find((e) => e.state === 'stable' && e.sha256 !== canary.sha256);
    if (stable) entries.push({ ...stable, state: 'retired', decision: 'promote', release_sha256: release.sha256, decided_at: opts.now });
  }
  const record = { ...run, releases: [...run.releases, ...entries], release_records: [...run.release_records, release] };
  return { decision, canary, release, record, promoted: decision.decision === 'promote' };
}
