/**
 * Case roles and trial seeds, all derived from the run seed so a run is reproducible:
 *
 * - feedback: the proposer sees these cases' trajectories;
 * - gate: seen only as scores (the paired statistical gate);
 * - sealed: scored once per release candidate, on seeds of their own.
 *
 * The split is stratified by case group (boundary / holdout) so every role gets both kinds, and
 * frozen in the run's journal.
 *
 * A suite with case variants (cases carrying `base`) is split by variant instead, so each case
 * gives independent units to every role without new cases being written (optimiser notes §5.2):
 * per base case, the original goes to the gate and its variants, in an order shuffled by the run
 * seed, go to feedback (the first), gate (the second), sealed (the third) and gate (any more).
 * `roles.assign` still pins single case ids first; the shares are not used.
 */
import { sha256Hex } from '../util/canonical.js';
import { Rng } from '../util/rng.js';
import { BadInputError } from '../spec/errors.js';
import type { SuiteCase } from './suite.js';

export type Role = 'feedback' | 'gate' | 'sealed';
export const ROLES: readonly Role[] = ['feedback', 'gate', 'sealed'];

/** Case ids per role, in suite order. */
export type Splits = Record<Role, string[]>;

/** How roles are assigned. */
export interface SplitOptions {
  /** The run seed. */
  seed: number;
  /** Share of each group's cases given to feedback / sealed (rounded); the gate gets the rest. */
  feedback: number;
  sealed: number;
  /** Explicit roles by case id; the others are split by share. */
  assign?: Record<string, Role>;
}

/** A 31-bit seed from a label, stable across machines (first 8 hex digits of its sha256). */
export function derivedSeed(label: string): number {
  return parseInt(sha256Hex(label).slice(0, 8), 16) % 2147483647;
}

/**
 * Trial seeds: `stream` `trial` (feedback, screen and gate), `sealed` (fresh seeds for the
 * confirmation) or `canary`. Parent and candidate get the same seed for the same case and trial.
 */
export function trialSeed(runSeed: number, stream: 'trial' | 'sealed' | 'canary', caseId: string, trial: number): number {
  return derivedSeed(`${runSeed}\u0000${stream}\u0000${caseId}\u0000${trial}`);
}

/**
 * Splits cases into roles (see the module doc). Throws {@link BadInputError} for an unknown case
 * id in `assign`, or when no case is left for the gate.
 */
export function splitRoles(cases: readonly SuiteCase[], opts: SplitOptions): Splits {
  const ids = new Set(cases.map((c) => c.id));
  const role = new Map<string, Role>();
  for (const [id, r] of Object.entries(opts.assign ?? {})) {
    if (!ids.has(id)) throw new BadInputError(`roles.assign names unknown case '${id}'`);
    role.set(id, r);
  }
  const rng = new Rng(derivedSeed(`${opts.seed}\u0000split`));
  if (cases.some((c) => c.base !== undefined)) {
    const ORDER: Role[] = ['feedback', 'gate', 'sealed'];
    const bases = [...new Set(cases.map((c) => c.base ?? c.id))];
    for (const b of bases) {
      const mine = cases.filter((c) => (c.base ?? c.id) === b && !role.has(c.id));
      for (const c of mine) if (c.variant === undefined) role.set(c.id, 'gate');
      rng.shuffle(mine.filter((c) => c.variant !== undefined).map((c) => c.id)).forEach((id, i) => role.set(id, ORDER[i] ?? 'gate'));
    }
  }
  for (const group of ['boundary', 'holdout'] as const) {
    const free = rng.shuffle(cases.filter((c) => c.group === group && !role.has(c.id)).map((c) => c.id));
    const nf = Math.round(free.length * opts.feedback);
    const ns = Math.min(free.length - nf, Math.round(free.length * opts.sealed));
    free.forEach((id, i) => role.set(id, i < nf ? 'feedback' : i < nf + ns ? 'sealed' : 'gate'));
  }
  const out: Splits = { feedback: [], gate: [], sealed: [] };
  for (const c of cases) out[role.get(c.id)!].push(c.id);
  if (out.gate.length === 0) throw new BadInputError(`no case is left for the gate (${cases.length} cases; lower roles.feedback / roles.sealed)`);
  return out;
}

/**
 * What the gate split cannot do, as warning lines: a group with no case in the gate (no boundary
 * case: the gate cannot see an improvement; no holdout case: it cannot check for regressions),
 * and boundary cases of fewer distinct tasks than `minCasesImproved` (`gate.min_cases_improved`;
 * a task and its variants count once), with which no candidate can ever pass the gate.
 */
export function splitWarnings(cases: readonly SuiteCase[], splits: Splits, minCasesImproved: number): string[] {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const gate = splits.gate.map((id) => byId.get(id)).filter((c): c is SuiteCase => c !== undefined);
  const warnings: string[] = [];
  for (const group of ['boundary', 'holdout'] as const) {
    if (!gate.some((c) => c.group === group)) {
      warnings.push(`no ${group} case in the gate split: ${group === 'holdout' ? 'the gate cannot check for regressions (for a task suite, list the boundary tasks in suite.boundary; the others become holdout)' : 'the gate cannot see an improvement, so no candidate can be released'}`);
    }
  }
  const bases = [...new Set(gate.filter((c) => c.group === 'boundary').map((c) => c.base ?? c.id))];
  if (bases.length > 0 && bases.length < minCasesImproved) {
    warnings.push(
      `the gate split holds boundary cases of ${bases.length} distinct task(s) (${bases.join(', ')}) and the gate needs improvements on ${minCasesImproved} (gate.min_cases_improved): ` +
        'no candidate can be released; add boundary cases or lower gate.min_cases_improved',
    );
  }
  return warnings;
}
