/**
 * The seed experiment's release gate (record 9-3, `release_gate`): five boolean checks, and the
 * decision `release_to_canary` when all hold, `reject` otherwise. It judges single-trial counts;
 * the statistical gate is a separate, stricter gate.
 */
import type { CaseResult } from '../campaign/evaluate.js';
import type { ApplyEditsResult } from './apply-edits.js';

export interface SeedGateChecks {
  patch_is_nonempty: boolean;
  patch_is_auditable_old_to_new_edit: boolean;
  source_cases_are_recorded: boolean;
  holdout_did_not_regress: boolean;
  boundary_improved: boolean;
}

export interface SeedGateResult {
  decision: 'release_to_canary' | 'reject';
  accepted: boolean;
  checks: SeedGateChecks;
  metrics: {
    holdout_before: [number, number];
    holdout_after: [number, number];
    boundary_before: [number, number];
    boundary_after: [number, number];
  };
}

const tally = (rs: CaseResult[], g: 'holdout' | 'boundary'): [number, number] => {
  const x = rs.filter((r) => r.group === g);
  return [x.filter((r) => r.correct).length, x.length];
};

/**
 * Evaluates the gate.
 * - `patch_is_nonempty`: at least one edit that changes text was proposed;
 * - `patch_is_auditable_old_to_new_edit`: every edit applied with a unique `old_str`;
 * - `source_cases_are_recorded`: the learning signal names its source cases and they all exist;
 * - `holdout_did_not_regress`: no holdout case correct before is wrong after;
 * - `boundary_improved`: more boundary cases correct after than before.
 * `after` is null when there is no candidate to evaluate (every check that needs it fails).
 */
export function seedGate(opts: {
  /** Number of proposed edits whose new_str differs from old_str. */
  proposedEdits: number;
  patch: ApplyEditsResult | null;
  sourceCaseIds: string[];
  before: CaseResult[];
  after: CaseResult[] | null;
}): SeedGateResult {
  const ids = new Set(opts.before.map((r) => r.id));
  const after = opts.after ?? [];
  const afterById = new Map(after.map((r) => [r.id, r]));
  const holdoutRegressed = opts.before.some((r) => r.group === 'holdout' && r.correct && !afterById.get(r.id)?.correct);
  const hb = tally(opts.before, 'holdout');
  const bb = tally(opts.before, 'boundary');
  const ha = opts.after ? tally(after, 'holdout') : hb;
  const ba = opts.after ? tally(after, 'boundary') : bb;
  const checks: SeedGateChecks = {
    patch_is_nonempty: opts.proposedEdits > 0,
    patch_is_auditable_old_to_new_edit: opts.patch?.ok ?? false,
    source_cases_are_recorded: opts.sourceCaseIds.length > 0 && opts.sourceCaseIds.every((id) => ids.has(id)),
    holdout_did_not_regress: opts.after !== null && !holdoutRegressed,
    boundary_improved: opts.after !== null && ba[0] > bb[0],
  };
  const accepted = Object.values(checks).every(Boolean);
  return {
    decision: accepted ? 'release_to_canary' : 'reject',
    accepted,
    checks,
    metrics: { holdout_before: hb, holdout_after: ha, boundary_before: bb, boundary_after: ba },
  };
}
