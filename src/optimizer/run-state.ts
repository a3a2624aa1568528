/**
 * One optimisation run in progress: its inputs and outputs ({@link OptimizeOptions},
 * {@link OptimizeResult}), the search protocol it runs ({@link SearchProtocol}: where candidates
 * come from and how each is judged), and the state every stage of the loop reads and updates
 * ({@link RunState}, built by {@link openRun}).
 */
import type { ChatModel } from '../models/chat-model.js';
import type { Clock } from '../util/clock.js';
import { sha256Hex } from '../util/canonical.js';
import { Rng } from '../util/rng.js';
import { BadInputError } from '../spec/errors.js';
import { gateParams, type OptimizeConfig } from './config.js';
import { BudgetMeter, preflightEstimate, type Preflight } from './budget.js';
import type { Journal } from './journal.js';
import type { PoolEntry } from './pareto.js';
import type { ProposedCandidate } from './propose.js';
import type { LedgerEntry, RejectedIntent } from './proposer.js';
import { RolloutBook } from './rollout-book.js';
import type { RolloutRunner } from './rollout-runner.js';
import { derivedSeed, splitRoles, splitWarnings, type Splits } from './splits.js';
import type { StageContext } from './stages.js';
import type { Rollout, Suite, SuiteCase, SuiteModels } from './suite.js';
import type { CanaryOutcome } from './canary-run.js';
import { Decider, type CandidateDecision, type DecisionInput } from './decide.js';
import type { Escalation } from './escalation.js';
import type { ReleaseRecord } from '../release/record.js';
import type { ReleaseEntry } from '../release/lifecycle.js';

/** The models of a run. `user` is needed by task suites; `judge` defaults to the agent. */
export interface OptimizeModels {
  agent: ChatModel;
  user?: ChatModel;
  judge?: ChatModel;
  proposer: ChatModel;
}

/** One proposal to make from a parent's learning signal. */
export interface ProposalRequest<S> {
  round: number;
  /** Proposal number within this parent (0-based) and within the run. */
  ofParent: number;
  index: number;
  /** The parent's sha256 and text. */
  parent: string;
  parentText: string;
  signal: S;
  /** The parent's feedback rollouts the signal was built from. */
  trajectories: readonly Rollout[];
}

/**
 * Where candidates come from. `signal` turns a parent's feedback rollouts into what the proposer
 * learns from (null: every rollout passed, nothing to learn); `propose` makes one candidate from
 * it (static checks included: `check.ok` false is decided as a static reject), or reports an
 * infrastructure fault of the proposer call as `{ error }` (no candidate, not a rejection).
 */
export interface CandidateSource<S = unknown> {
  signal(run: RunState, parentText: string, trajectories: readonly Rollout[]): S | null;
  propose(run: RunState, req: ProposalRequest<S>): Promise<ProposedCandidate | { error: string; index: number }>;
}

/** A judge's verdict: the decision to record and whether the candidate may become a parent. */
export interface JudgeResult {
  input: DecisionInput;
  /** A rejected but safe, non-inferior candidate joins the parent pool. */
  keepAsParent?: boolean;
}

/** How a candidate that passed the static checks is judged against the stable prompt. */
export interface CandidateJudge {
  /** Rollouts judging `c` needs at most (stable's included), for the budget check before it starts. */
  cost(run: RunState, c: ProposedCandidate): number;
  judge(run: RunState, c: ProposedCandidate): Promise<JudgeResult>;
}

/**
 * A search protocol: the statistical one by default (`statistical-protocol.ts`); the seed
 * campaign's (`seed-protocol.ts`) proposes once with the seed's coding agent and judges with the
 * seed gate on every case.
 */
export interface SearchProtocol {
  /** Fixed case roles; default: split by `config.roles` and the run seed. */
  splits?(suite: Suite): Splits;
  source: CandidateSource<any>;
  judge: CandidateJudge;
  /** Whether the run's own progress lines (split, pre-flight, decisions) are printed; default true. */
  runLog?: boolean;
}

/** Inputs of `runOptimization`. */
export interface OptimizeOptions {
  config: OptimizeConfig;
  /** Journal identity (`runIdentity`). */
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
  /** Default: the statistical protocol. */
  protocol?: SearchProtocol;
  /** Where fresh rollouts run; default in this process (`inProcessRunner`). See `rollout-runner.ts`. */
  runner?: RolloutRunner;
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

/** What every stage of the loop reads and updates. */
export interface RunState {
  o: OptimizeOptions;
  cfg: OptimizeConfig;
  protocol: SearchProtocol;
  log: (line: string) => void;
  splits: Splits;
  preflight: Preflight;
  pins: Record<string, string | null>;
  budget: BudgetMeter;
  book: RolloutBook;
  stable: { sha256: string; text: string };
  ctx: StageContext;
  decider: Decider;
  /** Candidate texts by sha256, the parent pool, and every sha256 proposed so far. */
  texts: Map<string, string>;
  pool: string[];
  seen: Set<string>;
  /** The proposer's memory: per-case effects of earlier candidates, and rejected intents. */
  ledger: LedgerEntry[];
  rejected: RejectedIntent[];
  rng: Rng;
  feedbackCases: SuiteCase[];
  stop: string | null;
  budgetStopped: boolean;
  /** Set when provider failures starved a parent's feedback rollouts. */
  starved: string | null;
  released: CandidateDecision | null;
  /** Proposals made (journal and fresh) and proposer calls made by this process. */
  proposals: number;
  freshProposals: number;
}

/** Frozen splits: from the journal when resuming (after checking the identity), else new ones. */
function frozenSplits(o: OptimizeOptions, protocol: SearchProtocol): Splits {
  const start = o.journal.get('run');
  if (start?.type === 'run') {
    if (start.identity !== o.identity) throw new BadInputError(`the journal was written by a different config (identity ${start.identity.slice(0, 12)}, this config ${o.identity.slice(0, 12)}); use --fresh`, { file: o.journal.file ?? undefined });
    return start.splits as Splits;
  }
  const c = o.config;
  const splits = protocol.splits?.(o.suite) ?? splitRoles(o.suite.cases, { seed: c.seed, feedback: c.roles.feedback, sealed: c.roles.sealed, assign: c.roles.assign });
  o.journal.append({ type: 'run', key: 'run', identity: o.identity, seed: c.seed, splits });
  return splits;
}

/** The stages' shared context: gate parameters, case groups and variant bases. */
function stageContext(o: OptimizeOptions, splits: Splits, book: RolloutBook, stableText: string): StageContext {
  const groups = new Map(o.suite.cases.map((c) => [c.id, c.group]));
  const bases = new Map(o.suite.cases.flatMap((c) => (c.base !== undefined ? [[c.id, c.base] as const] : [])));
  return { config: o.config, splits, book, stableText, params: gateParams(o.config.gate), groupOf: (id) => groups.get(id)!, ...(bases.size ? { baseOf: (id: string) => bases.get(id) } : {}) };
}

/** Opens a run: frozen splits, pre-flight estimate (logged), models, budget, rollout book, decider, empty search state. */
export function openRun(o: OptimizeOptions, defaultProtocol: () => SearchProtocol): RunState {
  const cfg = o.config;
  const protocol = o.protocol ?? defaultProtocol();
  const log = protocol.runLog === false ? () => {} : (o.onProgress ?? (() => {}));
  const splits = frozenSplits(o, protocol);
  const preflight = preflightEstimate(cfg, splits);
  log(`split: feedback ${splits.feedback.length}, gate ${splits.gate.length}, sealed ${splits.sealed.length} cases`);
  log(`pre-flight: ${preflight.fixed_rollouts} stable rollouts + up to ${preflight.per_proposal_rollouts} per gated proposal; ${preflight.gated_proposals_fit} gated proposal(s) fit; the minimality pass up to ${preflight.ablation_rollouts} more when it fits`);
  if (preflight.warning) log(`warning: ${preflight.warning}`);
  const judge = o.models.judge ?? o.models.agent;
  const models: SuiteModels = { agent: o.models.agent, user: o.models.user, judge, temperature: cfg.models.agent.temperature ?? 0 };
  const pins = { agent: o.models.agent.model, user: o.models.user?.model ?? null, judge: judge.model, proposer: o.models.proposer.model };
  const budget = new BudgetMeter(cfg.budget);
  const book = new RolloutBook({ suite: o.suite, models, pins, runSeed: cfg.seed, journal: o.journal, cache: o.cache, budget, concurrency: cfg.concurrency, runner: o.runner });
  const stable = { text: o.suite.stablePrompt, sha256: sha256Hex(o.suite.stablePrompt) };
  for (const w of splitWarnings(o.suite.cases, splits, cfg.gate.min_cases_improved)) log(`warning: ${w}`);
  const decider = new Decider({ config: cfg, identity: o.identity, suite: o.suite, splits, stable, pins, book, journal: o.journal, clock: o.clock, outDir: o.outDir, log });
  return {
    o, cfg, protocol, log, splits, preflight, pins, budget, book, stable, decider,
    ctx: stageContext(o, splits, book, stable.text),
    texts: new Map([[stable.sha256, stable.text]]),
    pool: [stable.sha256],
    seen: new Set([stable.sha256]),
    ledger: [],
    rejected: [],
    rng: new Rng(derivedSeed(`${cfg.seed}\u0000parents`)),
    feedbackCases: o.suite.cases.filter((c) => splits.feedback.includes(c.id)),
    stop: null,
    budgetStopped: false,
    starved: null,
    released: null,
    proposals: 0,
    freshProposals: 0,
  };
}

/** Records the first budget stop; true when `msg` says the next step does not fit. */
export function halt(run: RunState, msg: string | null): boolean {
  if (msg && !run.stop) {
    run.stop = msg;
    run.budgetStopped = true;
    run.o.journal.append({ type: 'stop', key: `stop:${msg}`, reason: msg });
    run.log(msg);
  }
  return msg !== null;
}

/** The parent pool with each prompt's per-case success rates on the gate cases (for the Pareto front). */
export function poolEntries(run: RunState): PoolEntry[] {
  const gate = run.splits.gate;
  return run.pool.map((sha) => {
    const rs = [...(run.book.byPrompt.get(sha)?.values() ?? [])].filter((r) => r.valid && gate.includes(r.case_id));
    const rates = new Map<string, number>();
    for (const id of gate) {
      const xs = rs.filter((r) => r.case_id === id);
      if (xs.length) rates.set(id, xs.filter((r) => r.success).length / xs.length);
    }
    return { sha256: sha, rates };
  });
}
