/**
 * The optimiser's default search protocol. Candidates: the generalised learning signal of a
 * parent's feedback rollouts ({@link buildSignal}) and one auditable patch per proposer call
 * ({@link propose}: edits with clause, intent, source cases and evidence quotes, then the static
 * edit checks). Judging, on paired rollouts against the stable prompt: the screen, the two-look
 * statistical gate, the sealed confirmation and — for a releasable candidate — the
 * leave-one-edit-out minimality pass (advice only).
 */
import { proposerTemperature } from './config.js';
import { propose, type ProposedCandidate } from './propose.js';
import { buildSignal, type OptimizerSignal } from './signal.js';
import { confirm, gate, screen, specsFor, type GateRun } from './stages.js';
import { ablate, ablationCost, type AblationReport } from './ablation.js';
import type { CandidateJudge, CandidateSource, JudgeResult, ProposalRequest, RunState, SearchProtocol } from './run-state.js';
import type { GateResult } from './gate.js';
import type { Rollout } from './suite.js';

/** Candidates from the generalised signal and the auditable-patch proposer. */
export const statisticalSource: CandidateSource<OptimizerSignal> = {
  signal: (run: RunState, _parentText: string, trajectories: readonly Rollout[]) => buildSignal(run.o.suite, trajectories),
  propose: (run: RunState, req: ProposalRequest<OptimizerSignal>) => {
    const cfg = run.cfg;
    const input = {
      system: run.o.suite.proposerSystem, prompt: req.parentText, signal: req.signal, failures: req.trajectories.filter((r) => r.valid && !r.success),
      ledger: run.ledger, rejected: run.rejected, round: req.round, index: req.ofParent, of: cfg.search.proposals_per_parent, maxEdits: cfg.search.max_edits,
      maxAddedChars: cfg.search.max_added_chars, temperature: proposerTemperature(cfg),
    };
    return propose({ model: run.o.models.proposer, journal: run.o.journal, input, parentSha: req.parent, stableText: run.stable.text, index: req.index, feedbackCases: run.feedbackCases, trajectories: req.trajectories });
  },
};

/** Every rollout judging a candidate may need: feedback (screen), gate (look 2) and sealed trials, stable's and the candidate's. */
function judgeCost(run: RunState, c: ProposedCandidate): number {
  const { splits, cfg, book } = run;
  const all = [...specsFor(splits.feedback, cfg.trials.screen, 'trial'), ...specsFor(splits.gate, cfg.trials.look2, 'trial'), ...specsFor(splits.sealed, cfg.trials.sealed, 'sealed')];
  return book.unpaid(run.stable.text, all) + book.unpaid(c.text, all);
}

/** The minimality pass over a releasable candidate, when it fits the budget; notes go to `reasons`. */
async function minimality(run: RunState, c: ProposedCandidate, reasons: string[]): Promise<AblationReport | null> {
  if (run.cfg.trials.ablation === 0) return null;
  const parentText = run.texts.get(c.lineageParent)!;
  const trials = run.cfg.trials.ablation;
  const over = run.budget.check({ rollouts: ablationCost(run.ctx, c.text, parentText, c.edits, trials), proposerCalls: 0 });
  if (over) {
    reasons.push(`ablation skipped: ${over.replace(/; stopped at a candidate boundary$/, '')}`);
    return null;
  }
  const ablation = await ablate(run.ctx, c.text, parentText, c.edits, trials);
  for (const i of ablation?.no_measured_contribution ?? []) reasons.push(`ablation: edit ${i + 1} (${c.edits[i].clause}) showed no measured contribution on the gate cases; review it before promotion`);
  return ablation;
}

/** A gate verdict as a decision. */
const gateDecision = (v: GateResult['verdict']) => (v === 'pass' ? 'release_to_canary' : v === 'continue' ? 'insufficient_evidence' : v);

/** A failed gate: rejected, and kept as a parent when it was safe (only `boundary_improved` failed). */
function gateFailure(g: GateRun, input: JudgeResult['input']): JudgeResult {
  const safe = g.final.checks.every((k) => k.name === 'boundary_improved' || k.passed !== false);
  return { input, keepAsParent: g.final.verdict === 'reject' && safe };
}

/** Screen, gate, sealed confirmation, minimality pass. */
async function judge(run: RunState, c: ProposedCandidate): Promise<JudgeResult> {
  const s = await screen(run.ctx, c.text);
  if (s.verdict !== 'pass') return { input: { decision: s.verdict, stage: 'screen', reasons: s.reasons, screen: s } };
  const g = await gate(run.ctx, c.text);
  if (g.final.verdict !== 'pass') return gateFailure(g, { decision: gateDecision(g.final.verdict), stage: 'gate', reasons: g.final.reasons, screen: s, gate: g });
  const cf = await confirm(run.ctx, c.text, g.final);
  const verdict = cf.result?.verdict ?? 'pass';
  const reasons = cf.result ? [...g.final.reasons, ...cf.result.reasons] : [...g.final.reasons, 'no sealed case in the split: confirmation skipped'];
  // The minimality pass: what each edit of a releasable candidate contributes (advice only).
  const ablation = verdict === 'pass' ? await minimality(run, c, reasons) : null;
  return { input: { decision: gateDecision(verdict), stage: 'confirm', reasons, screen: s, gate: g, confirm: cf, ablation } };
}

export const statisticalJudge: CandidateJudge = { cost: judgeCost, judge };

/** The default protocol: see the module doc. */
export function statisticalProtocol(): SearchProtocol {
  return { source: statisticalSource, judge: statisticalJudge };
}
