/**
 * The minimality pass: leave-one-edit-out ablation of a candidate that passed every stage.
 *
 * For each edit `i` of the candidate, the prompt "without i" is its lineage parent with every
 * other edit applied (for a one-edit candidate: the lineage parent itself). Both prompts run on
 * the gate cases, `trials.ablation` trials each (at most `trials.look2`), on the same trial seeds
 * as the gate (so the candidate's rollouts mostly come from the rollout book); the edit's marginal delta is the candidate's
 * successes minus the successes without it, over the valid pairs, and an edit whose removal
 * brings a critical violation counts as protective. The result goes into the release record so a
 * reviewer sees which edits earned their place (optimiser notes §5.3 "Minimality pass", §5.5
 * "per-edit ablation Δ"). It is advice: the released text is the gated one; dropping an edit
 * would need its own gate.
 */
import { applyEdits } from './apply-edits.js';
import type { ProposedEdit } from './proposer.js';
import { specsFor, type StageContext } from './stages.js';

/** One edit's leave-one-out result. */
export interface EditAblation {
  /** Index of the edit in the candidate's edit list. */
  index: number;
  clause: string;
  intent: string;
  /** False when the other edits do not apply without this one (they overlap it). */
  separable: boolean;
  reason?: string;
  /** Gate pairs (case × trial) compared, and how many had both rollouts valid. */
  pairs: number;
  valid_pairs: number;
  candidate_successes: number;
  without_successes: number;
  /** candidate_successes − without_successes (a count of rollouts, over the valid pairs). */
  delta: number;
  /** Pairs where the prompt without the edit has a critical violation and the candidate has none. */
  critical_without: number;
  /** delta > 0 or critical_without > 0. */
  contributes: boolean;
}

/** The ablation of one candidate. */
export interface AblationReport {
  /** Trials per gate case. */
  trials: number;
  cases: number;
  edits: EditAblation[];
  /** Indices of separable edits that showed no contribution. */
  no_measured_contribution: number[];
}

/**
 * The prompt without each edit: `text` is `parentText` with the other edits applied, or null
 * (with the reason) when they do not apply without it.
 */
export function ablationTexts(parentText: string, edits: readonly ProposedEdit[]): { index: number; text: string | null; reason?: string }[] {
  return edits.map((_, i) => {
    const others = edits.filter((__, j) => j !== i);
    if (others.length === 0) return { index: i, text: parentText };
    const applied = applyEdits(parentText, others);
    return applied.ok ? { index: i, text: applied.text } : { index: i, text: null, reason: `the other edits do not apply without it (${applied.reason})` };
  });
}

/**
 * Runs the leave-one-out ablation of `candidateText` (made from `parentText` by `edits`).
 * Returns null when `trials` is 0 (ablation switched off) or the split has no gate case.
 */
export async function ablate(ctx: StageContext, candidateText: string, parentText: string, edits: readonly ProposedEdit[], trials: number): Promise<AblationReport | null> {
  if (trials === 0 || ctx.splits.gate.length === 0) return null;
  const specs = specsFor(ctx.splits.gate, trials, 'trial');
  const candidate = await ctx.book.get(candidateText, specs);
  const out: EditAblation[] = [];
  for (const t of ablationTexts(parentText, edits)) {
    const e = edits[t.index];
    const base = { index: t.index, clause: e.clause, intent: e.intent };
    if (t.text === null) {
      out.push({ ...base, separable: false, reason: t.reason, pairs: 0, valid_pairs: 0, candidate_successes: 0, without_successes: 0, delta: 0, critical_without: 0, contributes: true });
      continue;
    }
    const without = await ctx.book.get(t.text, specs);
    let valid = 0;
    let withS = 0;
    let withoutS = 0;
    let critical = 0;
    specs.forEach((_, i) => {
      const c = candidate[i];
      const w = without[i];
      if (!c.valid || !w.valid) return;
      valid++;
      if (c.success) withS++;
      if (w.success) withoutS++;
      if (w.critical.length > 0 && c.critical.length === 0) critical++;
    });
    const delta = withS - withoutS;
    out.push({ ...base, separable: true, pairs: specs.length, valid_pairs: valid, candidate_successes: withS, without_successes: withoutS, delta, critical_without: critical, contributes: delta > 0 || critical > 0 });
  }
  return { trials, cases: ctx.splits.gate.length, edits: out, no_measured_contribution: out.filter((e) => e.separable && !e.contributes).map((e) => e.index) };
}

/** The unpaid rollouts of an ablation (for the budget check before it runs). */
export function ablationCost(ctx: StageContext, candidateText: string, parentText: string, edits: readonly ProposedEdit[], trials: number): number {
  if (trials === 0 || ctx.splits.gate.length === 0) return 0;
  const specs = specsFor(ctx.splits.gate, trials, 'trial');
  const texts = new Set([candidateText, ...ablationTexts(parentText, edits).flatMap((t) => (t.text === null ? [] : [t.text]))]);
  return [...texts].reduce((n, text) => n + ctx.book.unpaid(text, specs), 0);
}

/** One line per edit for reports: `edit 1 (S2.3, clarify-rule): +3 of 20 pairs`. */
export function ablationLines(a: AblationReport): string[] {
  return a.edits.map((e) => {
    const head = `edit ${e.index + 1} (${e.clause}, ${e.intent})`;
    if (!e.separable) return `${head}: not separable — ${e.reason}`;
    const sign = e.delta > 0 ? `+${e.delta}` : String(e.delta);
    const crit = e.critical_without ? `; without it ${e.critical_without} critical violation(s)` : '';
    return `${head}: ${sign} successes over ${e.valid_pairs} gate pairs (${e.candidate_successes} with, ${e.without_successes} without)${crit}${e.contributes ? '' : ' — no measured contribution'}`;
  });
}
