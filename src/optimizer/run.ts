/**
 * `servicegym optimize`: from failure trajectories to an audited prompt release.
 *
 * Per round: parents are drawn from the per-case Pareto front of the prompt pool (the stable
 * prompt plus gated candidates that were safe and non-inferior); each parent's feedback
 * trajectories become a learning signal; the proposer makes `proposals_per_parent` patches per
 * parent; each patch passes the static checks, then — fewest added tokens first — the screen,
 * the two-look statistical gate and the sealed confirmation against the stable prompt. The first
 * candidate through all of them is released to canary and the run ends (optionally after a
 * simulated canary: promote or roll back). Every decision is a hashed release record.
 *
 * The run stops when a candidate is released, the rounds are used up, nothing fails any more, or
 * the budget would be exceeded by the next candidate (never half way through one). The loop is
 * deterministic given the config, the seed and the model answers, and every rollout and proposal
 * is journalled, so a killed run resumes from `events.jsonl` without repeating finished work.
 *
 * That is the default, statistical search protocol (`statistical-protocol.ts`). The seed campaign
 * runs through the same loop with its own protocol (`seed-protocol.ts`): one parent, one proposal
 * from the seed's coding agent, the seed gate on every case. The loop's stages: open the run
 * (`run-state.ts`), propose a round, admit each proposal, judge the candidates, finish.
 */
import { paretoFront, pickParents } from './pareto.js';
import type { ProposedCandidate } from './propose.js';
import { specsFor } from './stages.js';
import { runCanary } from './canary-run.js';
import { findEscalations } from './escalation.js';
import { halt, openRun, poolEntries, type OptimizeOptions, type OptimizeResult, type RunDecision, type RunState } from './run-state.js';
import { statisticalProtocol } from './statistical-protocol.js';

export type { OptimizeModels, OptimizeOptions, OptimizeResult, RunDecision, SearchProtocol } from './run-state.js';

/** Runs the optimiser; see the module doc. Only bugs and kills throw (provider faults are data). */
export async function runOptimization(o: OptimizeOptions): Promise<OptimizeResult> {
  const run = openRun(o, statisticalProtocol);
  for (let round = 1; round <= run.cfg.search.rounds && !run.stop && !run.released; round++) {
    // Candidates already proposed are judged even when the budget stopped the proposals.
    await judgeCandidates(run, await proposeRound(run, round));
  }
  if (!run.stop && !run.released) run.stop = `no candidate released after ${run.cfg.search.rounds} round(s)`;
  return finishRun(run);
}

/**
 * A round's proposals: parents from the Pareto front of the pool, each parent's feedback rollouts
 * and learning signal, then `proposals_per_parent` proposals per learnable parent. Returns the
 * new candidates that passed the static checks; sets `run.stop` when the budget or a lack of
 * anything to learn ends the run.
 */
async function proposeRound(run: RunState, round: number): Promise<ProposedCandidate[]> {
  const parents = pickParents(paretoFront(poolEntries(run)), run.cfg.search.parents_per_round, run.rng);
  const fresh: ProposedCandidate[] = [];
  let learnable = 0;
  for (const parent of parents) {
    const parentText = run.texts.get(parent)!;
    const fbSpecs = specsFor(run.splits.feedback, run.cfg.trials.feedback, 'trial');
    if (halt(run, run.budget.check({ rollouts: run.book.unpaid(parentText, fbSpecs), proposerCalls: 0 }))) break;
    const trajectories = await run.book.get(parentText, fbSpecs);
    noteStarvation(run, parent, trajectories);
    const signal = run.protocol.source.signal(run, parentText, trajectories);
    if (!signal) {
      run.log(`round ${round}: parent ${parent.slice(0, 12)} passes every feedback rollout; nothing to learn from it`);
      continue;
    }
    learnable++;
    for (let i = 0; i < run.cfg.search.proposals_per_parent; i++) {
      if (halt(run, run.budget.check({ rollouts: 0, proposerCalls: 1 }))) break;
      const p = await run.protocol.source.propose(run, { round, ofParent: i, index: run.proposals, parent, parentText, signal, trajectories });
      run.proposals++;
      const c = admit(run, round, p);
      if (c) fresh.push(c);
    }
    if (run.stop) break;
  }
  if (!run.stop && learnable === 0) run.stop = run.starved ?? 'nothing to learn: every parent passes every feedback rollout';
  return fresh;
}

/** Notes (and logs) when provider failures starved a parent's feedback rollouts below `gate.min_coverage`. */
function noteStarvation(run: RunState, parent: string, trajectories: readonly { valid: boolean; infra_error?: string }[]): void {
  const invalid = trajectories.filter((r) => !r.valid);
  if (invalid.length > (1 - run.cfg.gate.min_coverage) * trajectories.length) {
    run.starved = `insufficient evidence: ${invalid.length} of ${trajectories.length} feedback rollouts of ${parent.slice(0, 12)} failed for infrastructure reasons (first: ${invalid[0].infra_error})`;
    run.log(run.starved);
  }
}

/**
 * One proposal's fate before judging: a proposer fault is journalled (no candidate, not a
 * rejection); a patch failing the static checks is decided as a static reject; a repeat of an
 * earlier candidate is skipped. Returns the candidate to judge, or null.
 */
function admit(run: RunState, round: number, p: ProposedCandidate | { error: string; index: number }): ProposedCandidate | null {
  if ('error' in p) {
    run.freshProposals++;
    run.budget.addProposer({});
    const text = `round ${round}: proposer call ${p.index} failed (${p.error}); no candidate, not a rejection`;
    run.o.journal.append({ type: 'note', key: `proposer-fault:${round}:${p.index}`, text });
    run.log(text);
    return null;
  }
  if (p.fresh) run.freshProposals++;
  run.budget.addProposer(p.usage);
  if (!p.check.ok) {
    run.decider.decide(p, { decision: 'reject', stage: 'static', reasons: [p.check.reason ?? 'static checks failed'] }, run.rejected, run.ledger);
    return null;
  }
  if (run.seen.has(p.sha256)) {
    run.log(`round ${round}: proposal ${p.index} repeats candidate ${p.sha256.slice(0, 12)}; skipped`);
    return null;
  }
  run.seen.add(p.sha256);
  run.texts.set(p.sha256, p.text);
  return p;
}

/** Judges a round's candidates, fewest added tokens first, until one is released or the budget stops the run. */
async function judgeCandidates(run: RunState, fresh: ProposedCandidate[]): Promise<void> {
  fresh.sort((a, b) => a.addedTokens - b.addedTokens || a.index - b.index);
  for (const c of fresh) {
    if (halt(run, run.budget.check({ rollouts: run.protocol.judge.cost(run, c), proposerCalls: 0 }))) break;
    const verdict = await run.protocol.judge.judge(run, c);
    const d = run.decider.decide(c, verdict.input, run.rejected, run.ledger);
    if (verdict.keepAsParent) run.pool.push(c.sha256);
    if (d.decision === 'release_to_canary') {
      run.released = d;
      break;
    }
  }
}

/** The optional simulated canary, the overall decision and the result. */
async function finishRun(run: RunState): Promise<OptimizeResult> {
  const { cfg, book, stable, decider, released } = run;
  const canary = released && cfg.canary.simulate ? await runCanary({ config: cfg, suite: run.o.suite, book, stable, candidate: released, decider, log: run.log }) : null;
  const decisions = decider.candidates;
  const decision: RunDecision = released
    ? 'release_to_canary'
    : decisions.some((d) => d.decision === 'insufficient_evidence') || ((run.budgetStopped || run.starved !== null) && decisions.every((d) => d.stage === 'static'))
      ? 'insufficient_evidence'
      : 'reject';
  return {
    decision,
    stopReason: released ? `released ${released.sha256.slice(0, 12)} to canary` : run.stop!,
    budgetStopped: run.budgetStopped,
    preflight: run.preflight,
    splits: run.splits,
    stable,
    candidates: decisions,
    releases: decider.records,
    entries: decider.entries,
    canary,
    budget: run.budget,
    book,
    freshRollouts: book.fresh,
    freshProposals: run.freshProposals,
    pins: run.pins,
    escalations: findEscalations({ candidates: decisions, byPrompt: book.byPrompt, stableSha: stable.sha256, feedbackCases: run.splits.feedback, threshold: cfg.search.escalate_after }),
  };
}
