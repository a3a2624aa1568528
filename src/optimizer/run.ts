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
 */
import type { ChatModel } from '../models/chat-model.js';
import type { Clock } from '../util/clock.js';
import { sha256Hex } from '../util/canonical.js';
import { Rng } from '../util/rng.js';
import { BadInputError } from '../spec/errors.js';
import { gateParams, proposerTemperature, type OptimizeConfig } from './config.js';
import { BudgetMeter, preflightEstimate, type Preflight } from './budget.js';
import type { Journal } from './journal.js';
import { paretoFront, pickParents, type PoolEntry } from './pareto.js';
import { propose, type ProposedCandidate } from './propose.js';
import type { LedgerEntry, RejectedIntent } from './proposer.js';
import { RolloutBook } from './rollout-book.js';
import { buildSignal } from './signal.js';
import { derivedSeed, splitRoles, type Splits } from './splits.js';
import { confirm, gate, screen, specsFor, type StageContext } from './stages.js';
import { ablate, ablationCost, type AblationReport } from './ablation.js';
import type { Suite, SuiteModels } from './suite.js';
import { runCanary, type CanaryOutcome } from './canary-run.js';
import { Decider, type CandidateDecision } from './decide.js';
import { findEscalations, type Escalation } from './escalation.js';
import type { ReleaseRecord } from '../release/record.js';
import type { ReleaseEntry } from '../release/lifecycle.js';

/** The models of a run. `user` is needed by task suites; `judge` defaults to the agent. */
export interface OptimizeModels {
  agent: ChatModel;
  user?: ChatModel;
  judge?: ChatModel;
  proposer: ChatModel;
}

/** Inputs of {@link runOptimization}. */
export interface OptimizeOptions {
  config: OptimizeConfig;
  /** Journal identity ({@link runIdentity}). */
  identity: string;
  suite: Suite;
  models: OptimizeModels;
  journal: Journal;
  /** Cross-run rollout cache. */
  cache?: Journal;
  /** Stamps `decided_at` in the release list (never inside hashed records). */
  clock: Clock;
  /** Folder for prompt versions and release records; null writes nothing but the journal. */
  outDir: string | null;
  onProgress?: (line: string) => void;
}

/** Overall outcome of a run. */
export type RunDecision = 'release_to_canary' | 'reject' | 'insufficient_evidence';

export interface OptimizeResult {
  decision: RunDecision;
  stopReason: string;
  /** True when the budget stopped the run. */
  budgetStopped: boolean;
  preflight: Preflight;
  splits: Splits;
  stable: { sha256: string; text: string };
  candidates: CandidateDecision[];
  releases: ReleaseRecord[];
  entries: ReleaseEntry[];
  canary: CanaryOutcome | null;
  budget: BudgetMeter;
  /** Every rollout the run used, by prompt (for the store). */
  book: RolloutBook;
  /** Episodes actually run by this process (not from journal or cache). */
  freshRollouts: number;
  /** Proposer calls made by this process. */
  freshProposals: number;
  pins: Record<string, string | null>;
  /** Feedback cases not prompt-fixable after `search.escalate_after` attempts (advice only; never changes the decision). */
  escalations: Escalation[];
}

/** Frozen splits: from the journal when resuming (after checking the identity), else new ones. */
function frozenSplits(o: OptimizeOptions): Splits {
  const start = o.journal.get('run');
  if (start?.type === 'run') {
    if (start.identity !== o.identity) throw new BadInputError(`the journal was written by a different config (identity ${start.identity.slice(0, 12)}, this config ${o.identity.slice(0, 12)}); use --fresh`, { file: o.journal.file ?? undefined });
    return start.splits as Splits;
  }
  const splits = splitRoles(o.suite.cases, { seed: o.config.seed, feedback: o.config.roles.feedback, sealed: o.config.roles.sealed, assign: o.config.roles.assign });
  o.journal.append({ type: 'run', key: 'run', identity: o.identity, seed: o.config.seed, splits });
  return splits;
}

/** Runs the optimiser; see the module doc. Only bugs and kills throw (provider faults are data). */
export async function runOptimization(o: OptimizeOptions): Promise<OptimizeResult> {
  const cfg = o.config;
  const log = o.onProgress ?? (() => {});
  const splits = frozenSplits(o);
  const preflight = preflightEstimate(cfg, splits);
  log(`split: feedback ${splits.feedback.length}, gate ${splits.gate.length}, sealed ${splits.sealed.length} cases`);
  log(`pre-flight: ${preflight.fixed_rollouts} stable rollouts + up to ${preflight.per_proposal_rollouts} per gated proposal; ${preflight.gated_proposals_fit} gated proposal(s) fit; the minimality pass up to ${preflight.ablation_rollouts} more when it fits`);
  if (preflight.warning) log(`warning: ${preflight.warning}`);

  const models: SuiteModels = { agent: o.models.agent, user: o.models.user, judge: o.models.judge ?? o.models.agent, temperature: cfg.models.agent.temperature ?? 0 };
  const pins = { agent: o.models.agent.model, user: o.models.user?.model ?? null, judge: (o.models.judge ?? o.models.agent).model, proposer: o.models.proposer.model };
  const budget = new BudgetMeter(cfg.budget);
  const book = new RolloutBook({ suite: o.suite, models, pins, runSeed: cfg.seed, journal: o.journal, cache: o.cache, budget, concurrency: cfg.concurrency });
  const stable = { text: o.suite.stablePrompt, sha256: sha256Hex(o.suite.stablePrompt) };
  const groups = new Map(o.suite.cases.map((c) => [c.id, c.group]));
  for (const group of ['boundary', 'holdout'] as const) {
    if (!splits.gate.some((id) => groups.get(id) === group)) {
      log(`warning: no ${group} case in the gate split: ${group === 'holdout' ? 'the gate cannot check for regressions (for a task suite, list the boundary tasks in suite.boundary; the others become holdout)' : 'the gate cannot see an improvement'}`);
    }
  }
  const bases = new Map(o.suite.cases.flatMap((c) => (c.base !== undefined ? [[c.id, c.base] as const] : [])));
  const ctx: StageContext = { config: cfg, splits, book, stableText: stable.text, params: gateParams(cfg.gate), groupOf: (id) => groups.get(id)!, ...(bases.size ? { baseOf: (id: string) => bases.get(id) } : {}) };
  const decider = new Decider({ config: cfg, identity: o.identity, suite: o.suite, splits, stable, pins, book, journal: o.journal, clock: o.clock, outDir: o.outDir, log });

  const texts = new Map([[stable.sha256, stable.text]]);
  const pool: string[] = [stable.sha256];
  const seen = new Set<string>([stable.sha256]);
  const ledger: LedgerEntry[] = [];
  const rejected: RejectedIntent[] = [];
  const rng = new Rng(derivedSeed(`${cfg.seed}\u0000parents`));
  const feedbackCases = o.suite.cases.filter((c) => splits.feedback.includes(c.id));
  let stop: string | null = null;
  let budgetStopped = false;
  /** Set when provider failures starved a parent's feedback rollouts. */
  let starved: string | null = null;
  let released: CandidateDecision | null = null;
  let proposals = 0;
  let freshProposals = 0;
  /** Records the first budget stop; true when `msg` says the next step does not fit. */
  const halt = (msg: string | null) => {
    if (msg && !stop) {
      stop = msg;
      budgetStopped = true;
      o.journal.append({ type: 'stop', key: `stop:${msg}`, reason: msg });
      log(msg);
    }
    return msg !== null;
  };
  const poolEntries = (): PoolEntry[] =>
    pool.map((sha) => {
      const rs = [...(book.byPrompt.get(sha)?.values() ?? [])].filter((r) => r.valid && splits.gate.includes(r.case_id));
      const rates = new Map<string, number>();
      for (const id of splits.gate) {
        const xs = rs.filter((r) => r.case_id === id);
        if (xs.length) rates.set(id, xs.filter((r) => r.success).length / xs.length);
      }
      return { sha256: sha, rates };
    });

  for (let round = 1; round <= cfg.search.rounds && !stop && !released; round++) {
    const parents = pickParents(paretoFront(poolEntries()), cfg.search.parents_per_round, rng);
    const fresh: ProposedCandidate[] = [];
    let learnable = 0;
    for (const parent of parents) {
      const parentText = texts.get(parent)!;
      const fbSpecs = specsFor(splits.feedback, cfg.trials.feedback, 'trial');
      if (halt(budget.check({ rollouts: book.unpaid(parentText, fbSpecs), proposerCalls: 0 }))) break;
      const trajectories = await book.get(parentText, fbSpecs);
      const signal = buildSignal(o.suite, trajectories);
      const invalid = trajectories.filter((r) => !r.valid);
      if (invalid.length > (1 - cfg.gate.min_coverage) * trajectories.length) {
        starved = `insufficient evidence: ${invalid.length} of ${trajectories.length} feedback rollouts of ${parent.slice(0, 12)} failed for infrastructure reasons (first: ${invalid[0].infra_error})`;
        log(starved);
      }
      if (!signal) {
        log(`round ${round}: parent ${parent.slice(0, 12)} passes every feedback rollout; nothing to learn from it`);
        continue;
      }
      learnable++;
      for (let i = 0; i < cfg.search.proposals_per_parent; i++) {
        if (halt(budget.check({ rollouts: 0, proposerCalls: 1 }))) break;
        const input = {
          system: o.suite.proposerSystem, prompt: parentText, signal, failures: trajectories.filter((r) => r.valid && !r.success),
          ledger, rejected, round, index: i, of: cfg.search.proposals_per_parent, maxEdits: cfg.search.max_edits,
          maxAddedChars: cfg.search.max_added_chars, temperature: proposerTemperature(cfg),
        };
        const p = await propose({ model: o.models.proposer, journal: o.journal, input, parentSha: parent, stableText: stable.text, index: proposals, feedbackCases, trajectories });
        proposals++;
        if ('error' in p) {
          freshProposals++;
          budget.addProposer({});
          const text = `round ${round}: proposer call ${p.index} failed (${p.error}); no candidate, not a rejection`;
          o.journal.append({ type: 'note', key: `proposer-fault:${round}:${p.index}`, text });
          log(text);
          continue;
        }
        if (p.fresh) freshProposals++;
        budget.addProposer(p.usage);
        if (!p.check.ok) {
          decider.decide(p, { decision: 'reject', stage: 'static', reasons: [p.check.reason ?? 'static checks failed'] }, rejected, ledger);
          continue;
        }
        if (seen.has(p.sha256)) {
          log(`round ${round}: proposal ${p.index} repeats candidate ${p.sha256.slice(0, 12)}; skipped`);
          continue;
        }
        seen.add(p.sha256);
        texts.set(p.sha256, p.text);
        fresh.push(p);
      }
      if (stop) break;
    }
    // Candidates already proposed are still evaluated when the proposer cap stopped the proposals.
    if (!stop && learnable === 0) {
      stop = starved ?? 'nothing to learn: every parent passes every feedback rollout';
      break;
    }
    fresh.sort((a, b) => a.addedTokens - b.addedTokens || a.index - b.index);
    for (const c of fresh) {
      const all = [
        ...specsFor(splits.feedback, cfg.trials.screen, 'trial'),
        ...specsFor(splits.gate, cfg.trials.look2, 'trial'),
        ...specsFor(splits.sealed, cfg.trials.sealed, 'sealed'),
      ];
      if (halt(budget.check({ rollouts: book.unpaid(stable.text, all) + book.unpaid(c.text, all), proposerCalls: 0 }))) break;
      const s = await screen(ctx, c.text);
      if (s.verdict !== 'pass') {
        decider.decide(c, { decision: s.verdict, stage: 'screen', reasons: s.reasons, screen: s }, rejected, ledger);
        continue;
      }
      const g = await gate(ctx, c.text);
      if (g.final.verdict !== 'pass') {
        decider.decide(c, { decision: g.final.verdict === 'continue' ? 'insufficient_evidence' : g.final.verdict, stage: 'gate', reasons: g.final.reasons, screen: s, gate: g }, rejected, ledger);
        const safe = g.final.checks.every((k) => k.name === 'boundary_improved' || k.passed !== false);
        if (g.final.verdict === 'reject' && safe) pool.push(c.sha256);
        continue;
      }
      const cf = await confirm(ctx, c.text, g.final);
      const verdict = cf.result?.verdict ?? 'pass';
      const reasons = cf.result ? [...g.final.reasons, ...cf.result.reasons] : [...g.final.reasons, 'no sealed case in the split: confirmation skipped'];
      // The minimality pass: what each edit of a releasable candidate contributes (advice only).
      let ablation: AblationReport | null = null;
      if (verdict === 'pass' && cfg.trials.ablation > 0) {
        const parentText = texts.get(c.lineageParent)!;
        const over = budget.check({ rollouts: ablationCost(ctx, c.text, parentText, c.edits, cfg.trials.ablation), proposerCalls: 0 });
        if (over) reasons.push(`ablation skipped: ${over.replace(/; stopped at a candidate boundary$/, '')}`);
        else {
          ablation = await ablate(ctx, c.text, parentText, c.edits, cfg.trials.ablation);
          for (const i of ablation?.no_measured_contribution ?? []) reasons.push(`ablation: edit ${i + 1} (${c.edits[i].clause}) showed no measured contribution on the gate cases; review it before promotion`);
        }
      }
      const d = decider.decide(c, { decision: verdict === 'pass' ? 'release_to_canary' : verdict === 'continue' ? 'insufficient_evidence' : verdict, stage: 'confirm', reasons, screen: s, gate: g, confirm: cf, ablation }, rejected, ledger);
      if (d.decision === 'release_to_canary') {
        released = d;
        break;
      }
    }
    if (stop) break;
  }
  if (!stop && !released) stop = `no candidate released after ${cfg.search.rounds} round(s)`;
  const canary = released && cfg.canary.simulate ? await runCanary({ config: cfg, suite: o.suite, book, stable, candidate: released, decider, log }) : null;

  const decisions = decider.candidates;
  const decision: RunDecision = released
    ? 'release_to_canary'
    : decisions.some((d) => d.decision === 'insufficient_evidence') || ((budgetStopped || starved !== null) && decisions.every((d) => d.stage === 'static'))
      ? 'insufficient_evidence'
      : 'reject';
  return {
    decision,
    stopReason: released ? `released ${released.sha256.slice(0, 12)} to canary` : stop!,
    budgetStopped,
    preflight,
    splits,
    stable,
    candidates: decisions,
    releases: decider.records,
    entries: decider.entries,
    canary,
    budget,
    book,
    freshRollouts: book.fresh,
    freshProposals,
    pins,
    escalations: findEscalations({ candidates: decisions, byPrompt: book.byPrompt, stableSha: stable.sha256, feedbackCases: splits.feedback, threshold: cfg.search.escalate_after }),
  };
}

