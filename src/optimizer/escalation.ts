/**
 * Escalation of cases that are "not prompt-fixable" (optimizer notes §5.3): a feedback case that
 * the stable prompt fails and that stays failing under at least `threshold` candidate prompts
 * that were actually tried on it is tagged, with the evidence of what keeps failing and a
 * recommendation for a fix outside the prompt (a guard or tool precondition in the back-end or
 * harness, a check of the task's tooling, a scripted procedure). Advice only: nothing here is
 * applied, and escalations never change a run's decision.
 *
 * A pure, deterministic function of its inputs (no model call, no clock, no I/O): rollouts are
 * read in key order, never in the order they finished, so concurrency cannot change the output.
 *
 * A case `C` (one of the feedback case ids) gets an entry when all of these hold:
 * - (a) the stable prompt has at least one valid feedback rollout of `C` (stream `trial`) that
 *   failed;
 * - (b) at least `threshold` distinct candidates that reached the screen stage or later (any
 *   stage but `static`) have at least one valid rollout of `C` — each such candidate is one
 *   attempt;
 * - (c) none of those attempts succeeded on `C` in any valid rollout (any stream).
 * Invalid rollouts (infrastructure faults) are ignored throughout.
 */
import { versionOf } from '../release/lifecycle.js';
import type { CandidateDecision } from './decide.js';
import { DIMENSION_NAMES, type Dimension, type Rollout } from './suite.js';

/** Default number of failed attempts after which a case is escalated (`search.escalate_after`). */
export const DEFAULT_ESCALATE_AFTER = 3;

/**
 * One escalated case.
 *
 * ```json
 * {
 *   "case_id": "H5-紧急安全",
 *   "attempts": 3,
 *   "candidates": ["1a2b3c4d5e6f", "…", "…"],
 *   "rollouts": 6,
 *   "stable": { "rollouts": 4, "failures": 4 },
 *   "failing": {
 *     "rollouts": 10,
 *     "critical": ["forbidden write on a mandatory-escalation case: change_flight({…})"],
 *     "tools": ["change_flight"],
 *     "state_paths": [],
 *     "dimensions": [{ "dimension": "rule_compliance", "failures": 10 }, { "dimension": "task_resolution", "failures": 10 }]
 *   },
 *   "recommendation": "Add a tool precondition or guard on change_flight in the back-end/harness: …"
 * }
 * ```
 */
export interface Escalation {
  case_id: string;
  /** Candidates with at least one valid rollout of the case (all failed). */
  attempts: number;
  /** Their versions (sha256 prefixes), in decision order. */
  candidates: string[];
  /** Valid rollouts of those candidates on the case (every one failed). */
  rollouts: number;
  /** The stable prompt's valid feedback rollouts of the case, and how many failed (≥ 1). */
  stable: { rollouts: number; failures: number };
  /** What keeps failing, over the failed rollouts: the stable's `stable.failures` plus the candidates' `rollouts`. */
  failing: EscalationEvidence;
  /** A deterministic sentence built from {@link failing}; advice, never applied. */
  recommendation: string;
}

/** The evidence of an {@link Escalation}. */
export interface EscalationEvidence {
  /** Failed rollouts the evidence is drawn from. */
  rollouts: number;
  /** Distinct critical violation texts, most frequent first (ties in code-unit order). */
  critical: string[];
  /** Tool names the critical violations name as forbidden writes, most frequent first. */
  tools: string[];
  /** State paths a failing `unchanged` (forbidden state change) check names, when no tool is named. */
  state_paths: string[];
  /** Failed dimensions with the number of rollouts each failed in (dimension order; zero counts left out). */
  dimensions: { dimension: Dimension; failures: number }[];
}

/** Inputs of {@link findEscalations}. */
export interface EscalationInput {
  /** The run's decided candidates (their `stage` says how far each got). */
  candidates: readonly CandidateDecision[];
  /** `RolloutBook.byPrompt`: prompt sha256 → `case#trial#stream` → rollout. */
  byPrompt: ReadonlyMap<string, ReadonlyMap<string, Rollout>>;
  stableSha: string;
  feedbackCases: readonly string[];
  /** Attempts needed (integer ≥ 1); default {@link DEFAULT_ESCALATE_AFTER}. */
  threshold?: number;
}

const byCodeUnits = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The stream of a `case#trial#stream` rollout key. */
const streamOf = (key: string): string => key.slice(key.lastIndexOf('#') + 1);

/** A prompt's rollouts of one case, in key order, with their keys. */
function rolloutsOf(byPrompt: EscalationInput['byPrompt'], sha: string, caseId: string): [string, Rollout][] {
  return [...(byPrompt.get(sha) ?? new Map<string, Rollout>())].filter(([, r]) => r.case_id === caseId).sort(([a], [b]) => byCodeUnits(a, b));
}

/** Distinct values, most frequent first, ties in code-unit order. */
function ranked(values: readonly string[]): string[] {
  const n = new Map<string, number>();
  for (const v of values) n.set(v, (n.get(v) ?? 0) + 1);
  return [...n].sort(([a, x], [b, y]) => y - x || byCodeUnits(a, b)).map(([v]) => v);
}

/**
 * The write tool a critical violation names, or null. Recognised shapes (the suites'):
 * `forbidden write on a <kind> case: <tool>(<args>)` (campaign-suite.ts) and
 * `write where the task's gold makes none: <tool>(<args>)` (task-suite.ts); more loosely, any
 * text where "write" precedes a colon followed by `<tool>(`.
 */
export function criticalTool(text: string): string | null {
  const m = /\bwrites?\b[^:]*:\s*([A-Za-z_][\w.-]*)\s*\(/i.exec(text);
  return m ? m[1] : null;
}

/**
 * The state paths a failing `unchanged` check names (task-suite.ts:
 * `<id> (unchanged) failed: <n> field(s) changed under <path>, <path>: …`), or [].
 */
export function criticalStatePaths(text: string): string[] {
  const m = /\(unchanged\) failed: \d+ field\(s\) changed under (.+?): /.exec(text);
  return m ? m[1].split(', ').map((p) => p.trim()).filter((p) => p !== '') : [];
}

/** "a", "a and b", "a, b and c". */
function list(xs: readonly string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

/** The recommendation sentence for an entry (see the module doc); deterministic. */
export function recommend(e: Pick<Escalation, 'attempts' | 'rollouts' | 'failing'>): string {
  const f = e.failing;
  const tried = `${e.attempts} candidate prompt(s) over ${e.rollouts} valid rollout(s) did not fix it`;
  const fails = (d: Dimension) => f.dimensions.find((x) => x.dimension === d)?.failures ?? 0;
  if (f.tools.length) {
    const tools = list(f.tools.slice(0, 3)) + (f.tools.length > 3 ? ` (and ${f.tools.length - 3} more)` : '');
    return `Add a tool precondition or guard on ${tools} in the back-end/harness that refuses the call on this kind of case (or requires a hand-off first): the agent keeps making a forbidden write with it, and ${tried}.`;
  }
  if (f.state_paths.length) {
    return `Guard the state under ${list(f.state_paths.slice(0, 3))} in the back-end/harness (a precondition on the write tools that change it): a forbidden state change keeps happening, and ${tried}.`;
  }
  if (f.critical.length) {
    return `Add a guard in the back-end/harness against the critical violation that keeps recurring ("${[...f.critical[0]].slice(0, 80).join('')}"): ${tried}.`;
  }
  if (fails('rule_compliance') > 0) {
    return `Enforce the rule outside the prompt — a scripted procedure or a harness check (required hand-off, ordering, confirmation before writes): rule_compliance failed in ${fails('rule_compliance')} of ${f.rollouts} failed rollout(s) without a critical violation, and ${tried}.`;
  }
  if (fails('task_resolution') > 0) {
    return `Check the task and its tooling for a missing capability (a tool, a datum or an action the agent would need) or a wrong expectation, or handle the case with a scripted procedure: task_resolution failed in ${fails('task_resolution')} of ${f.rollouts} failed rollout(s) without a critical violation, and ${tried}.`;
  }
  return `Review this case outside the prompt (a guard, a tool precondition or a scripted procedure): ${tried}.`;
}

/**
 * The escalated feedback cases, ordered by case id (code-unit order); see the module doc for the
 * rule and {@link Escalation} for the shape. Throws RangeError for a threshold that is not an
 * integer ≥ 1.
 */
export function findEscalations(input: EscalationInput): Escalation[] {
  const threshold = input.threshold ?? DEFAULT_ESCALATE_AFTER;
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError(`escalation threshold must be an integer ≥ 1, got ${threshold}`);
  const tried: CandidateDecision[] = [];
  const seen = new Set<string>([input.stableSha]);
  for (const c of input.candidates) {
    if (c.stage === 'static' || seen.has(c.sha256)) continue;
    seen.add(c.sha256);
    tried.push(c);
  }
  const out: Escalation[] = [];
  for (const caseId of [...new Set(input.feedbackCases)].sort(byCodeUnits)) {
    const stable = rolloutsOf(input.byPrompt, input.stableSha, caseId)
      .filter(([k, r]) => r.valid && streamOf(k) === 'trial')
      .map(([, r]) => r);
    const stableFailed = stable.filter((r) => !r.success);
    if (stableFailed.length === 0) continue;
    const attempts: { version: string; rollouts: Rollout[] }[] = [];
    let fixed = false;
    for (const c of tried) {
      const rs = rolloutsOf(input.byPrompt, c.sha256, caseId).map(([, r]) => r).filter((r) => r.valid);
      if (rs.length === 0) continue;
      if (rs.some((r) => r.success)) {
        fixed = true;
        break;
      }
      attempts.push({ version: versionOf(c.sha256), rollouts: rs });
    }
    if (fixed || attempts.length < threshold) continue;
    const failed = [...stableFailed, ...attempts.flatMap((a) => a.rollouts)];
    const critical = failed.flatMap((r) => r.critical);
    const tools = critical.map(criticalTool).filter((t): t is string => t !== null);
    const failing: EscalationEvidence = {
      rollouts: failed.length,
      critical: ranked(critical),
      tools: ranked(tools),
      state_paths: tools.length ? [] : ranked(critical.flatMap(criticalStatePaths)),
      dimensions: DIMENSION_NAMES.map((dimension) => ({ dimension, failures: failed.filter((r) => r.dimensions[dimension]?.verdict === 'fail').length })).filter((d) => d.failures > 0),
    };
    const rollouts = attempts.reduce((n, a) => n + a.rollouts.length, 0);
    const entry = { attempts: attempts.length, rollouts, failing };
    out.push({
      case_id: caseId,
      attempts: attempts.length,
      candidates: attempts.map((a) => a.version),
      rollouts,
      stable: { rollouts: stable.length, failures: stableFailed.length },
      failing,
      recommendation: recommend(entry),
    });
  }
  return out;
}

/**
 * What keeps failing, as one line of text: the distinct critical violations (the first, cut to
 * `width` code points, and how many more) and the failed dimensions with counts, e.g.
 * `critical: forbidden write on a … case: change_flight(…) (+1 more); rule_compliance ×10, task_resolution ×10`.
 */
export function failingSummary(f: EscalationEvidence, width = 90): string {
  const cutTo = (s: string) => ([...s].length > width ? `${[...s].slice(0, width - 1).join('')}…` : s);
  const parts: string[] = [];
  if (f.critical.length) parts.push(`critical: ${cutTo(f.critical[0])}${f.critical.length > 1 ? ` (+${f.critical.length - 1} more)` : ''}`);
  if (f.dimensions.length) parts.push(f.dimensions.map((d) => `${d.dimension} ×${d.failures}`).join(', '));
  return parts.join('; ') || 'no failed dimension recorded';
}
