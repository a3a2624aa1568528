/**
 * The release lifecycle of prompt versions: stable → candidate → canary → stable.
 *
 * - A candidate is a prompt the optimiser proposed; its gate decision moves it to `canary`
 *   (`release_to_canary`), `rejected` (`reject`) or leaves it a `candidate`
 *   (`insufficient_evidence`: undecided, never counted as a rejection).
 * - A canary is `promote`d (it becomes `stable`, the old stable `retired`) or `rollback`ed
 *   (`rolled_back`). The stable prompt is never overwritten before a promotion.
 *
 * {@link promptVersions} folds the `releases[]` lists of many optimise runs (store records) into
 * one state per prompt hash, the latest decision winning — what `servicegym prompts` and the
 * viewer show.
 */
import type { ReleaseDecision } from './record.js';

export type PromptState = 'stable' | 'candidate' | 'canary' | 'rejected' | 'rolled_back' | 'retired';

/** One entry of an optimise run record's `releases[]`. */
export interface ReleaseEntry {
  /** First 12 hex digits of `sha256`. */
  version: string;
  sha256: string;
  state: PromptState;
  parent_sha256: string | null;
  /** The decision that set the state (null for the run's starting stable prompt). */
  decision: ReleaseDecision | null;
  /** sha256 of the release record (null for the starting stable prompt). */
  release_sha256: string | null;
  /** ISO-8601 time of the decision (wall clock; not part of the hashed record). */
  decided_at: string;
  /** Where the text came from or where it is kept. */
  source: string;
}

/** The state a decision puts a prompt in. */
export function stateAfter(decision: ReleaseDecision): PromptState {
  switch (decision) {
    case 'release_to_canary':
      return 'canary';
    case 'reject':
      return 'rejected';
    case 'insufficient_evidence':
      return 'candidate';
    case 'promote':
      return 'stable';
    case 'rollback':
      return 'rolled_back';
  }
}

/** The 12-hex-digit version label of a prompt hash. */
export const versionOf = (sha256: string): string => sha256.slice(0, 12);

/** A prompt version as listed, with the run that last decided it. */
export interface PromptVersion extends ReleaseEntry {
  run_id: string;
}

/**
 * Folds runs' release lists into one row per prompt: the entry with the latest `decided_at`
 * wins (ties: the later run in `runs` order, then the later entry); a rejected or undecided
 * candidate identical to its parent is skipped. Sorted newest first.
 */
export function promptVersions(runs: readonly { id: string; releases: readonly ReleaseEntry[] }[]): PromptVersion[] {
  const latest = new Map<string, PromptVersion>();
  for (const run of runs) {
    for (const e of run.releases) {
      // A candidate identical to its parent (no edit applied) is no version of its own: its
      // reject or insufficient_evidence must not relabel the stable prompt it equals.
      if (e.decision !== null && e.sha256 === e.parent_sha256 && (e.state === 'rejected' || e.state === 'candidate')) continue;
      const cur = latest.get(e.sha256);
      if (!cur || e.decided_at >= cur.decided_at) latest.set(e.sha256, { ...e, run_id: run.id });
    }
  }
  return [...latest.values()].sort((a, b) => (a.decided_at < b.decided_at ? 1 : a.decided_at > b.decided_at ? -1 : a.version.localeCompare(b.version)));
}
