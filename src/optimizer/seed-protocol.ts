/**
 * The seed experiment's search protocol (record 9-3), run by the general optimiser over a
 * campaign suite: every case is both a feedback and a gate case, one trial each; the stable
 * prompt's failures become the seed learning signal ({@link buildLearningSignal}); the coding
 * agent is asked once ({@link proposeEdits}, the campaign's own templates) and its edits are
 * applied to a working copy (the stable prompt file is never written); the candidate is run on
 * every case and judged by the seed gate ({@link seedGate}).
 *
 * The protocol keeps what the seed record reports beside the optimiser's result: the signal, the
 * coding agent's call, the patch, the candidate file, the gate, and the clock readings around
 * the proposal.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel } from '../models/chat-model.js';
import { UsageTracker } from '../models/usage.js';
import { sha256Hex } from '../util/canonical.js';
import type { Clock } from '../util/clock.js';
import type { CaseResult } from '../campaign/evaluate.js';
import type { LoadedCampaign, PromptVariant } from '../campaign/load.js';
import { applyEdits, type ApplyEditsResult } from './apply-edits.js';
import type { CampaignSuite } from './campaign-suite.js';
import { estimateTokens } from './clauses.js';
import { applyEditsTool, proposeEdits, type Proposal } from './coding-agent.js';
import { buildLearningSignal, type LearningSignal } from './learning-signal.js';
import type { ProposedCandidate } from './propose.js';
import type { CandidateJudge, CandidateSource, JudgeResult, ProposalRequest, RunState, SearchProtocol } from './run-state.js';
import { seedGate, type SeedGateResult } from './seed-gate.js';
import type { Splits } from './splits.js';
import { paired, specsFor } from './stages.js';
import { usageWithoutLatency, type Rollout, type Suite } from './suite.js';

/** File name of the candidate working copy in the work folder. */
export const CANDIDATE_FILE = 'system_prompt_working.txt';

/** What the seed protocol needs beyond the run. */
export interface SeedProtocolOptions {
  campaign: LoadedCampaign;
  /** The campaign suite, keeping its episodes (the seed's verdict fields). */
  suite: CampaignSuite;
  /** The coding agent (the seed used one model for every role). */
  model: ChatModel;
  clock: Clock;
  /** Folder for the candidate working copy; created when a patch applies. */
  workDir: string;
  /** Every call's usage, latency included (the coding agent's call is added here). */
  usage: UsageTracker;
  onReceipt: (r: Receipt) => void;
  progress: (line: string) => void;
}

/** `holdout a/b, boundary c/d` of one evaluation's results. */
export function tallyLine(results: readonly CaseResult[]): string {
  const t = (g: 'holdout' | 'boundary') => {
    const rs = results.filter((r) => r.group === g);
    return `${rs.filter((r) => r.correct).length}/${rs.length}`;
  };
  return `holdout ${t('holdout')}, boundary ${t('boundary')}`;
}

/** See the module doc. One instance per campaign run: it holds that run's seed evidence. */
export class SeedProtocol implements SearchProtocol {
  readonly runLog = false;
  readonly source: CandidateSource<LearningSignal>;
  readonly judge: CandidateJudge;
  signal: LearningSignal | null = null;
  proposal: Proposal | null = null;
  patch: ApplyEditsResult | null = null;
  candidate: PromptVariant | null = null;
  candidateFile: string | null = null;
  gate: SeedGateResult | null = null;
  /** Clock readings: after the stable prompt's evaluation, and once the candidate was written (or refused). */
  failedAt: number | null = null;
  candidateAt: number | null = null;

  constructor(private readonly o: SeedProtocolOptions) {
    this.source = { signal: (run, _text, trajectories) => this.learn(run, trajectories), propose: (run, req) => this.propose(run, req) };
    this.judge = { cost: (run, c) => this.cost(run, c), judge: (run, c) => this.judgeCandidate(run, c) };
  }

  /** Every case in feedback and gate, in case order; no sealed case. */
  splits(suite: Suite): Splits {
    const ids = suite.cases.map((c) => c.id);
    return { feedback: ids, gate: [...ids], sealed: [] };
  }

  /** The seed verdicts of rollouts (in case order). */
  results(rollouts: readonly Rollout[]): CaseResult[] {
    return rollouts.map((r) => this.o.suite.episodeOf(r).result);
  }

  /** Rollout specs of one evaluation: every case, one trial. */
  specs(run: RunState) {
    return specsFor(run.splits.gate, 1, 'trial');
  }

  private learn(run: RunState, trajectories: readonly Rollout[]): LearningSignal | null {
    const results = this.results(trajectories);
    this.o.progress(`initial: ${tallyLine(results)}`);
    this.failedAt = this.o.clock.nowSeconds();
    this.signal = buildLearningSignal(results, this.o.campaign.spec);
    if (this.signal) this.o.progress(`learning signal: ${this.signal.source_case_ids.length} source cases; asking the coding agent`);
    else {
      this.o.progress('no failures: nothing to learn from, no candidate');
      this.candidateAt = this.o.clock.nowSeconds();
    }
    return this.signal;
  }

  /** Asks the coding agent once; a failed call propagates (the campaign resumes from its receipt journal). */
  private async propose(run: RunState, req: ProposalRequest<LearningSignal>): Promise<ProposedCandidate> {
    const { campaign } = this.o;
    const ca = campaign.spec.coding_agent;
    const proposal = await proposeEdits({
      model: this.o.model, system: campaign.codingSystem, userTemplate: campaign.codingUserTemplate, signal: req.signal,
      prompt: req.parentText, tool: applyEditsTool(ca.tool_description, ca.rationale_description), temperature: campaign.spec.model.temperature,
    });
    this.o.usage.add('coding_agent', proposal.call.response.usage, proposal.call.elapsedSeconds);
    this.o.onReceipt(proposal.call.receipt);
    const patch = proposal.error ? { ok: false, text: req.parentText, edits: [], reason: proposal.error } : applyEdits(req.parentText, proposal.edits);
    Object.assign(this, { proposal, patch });
    if (patch.ok) this.writeCandidate(patch.text);
    else this.o.progress(`patch rejected: ${patch.reason}`);
    this.candidateAt = this.o.clock.nowSeconds();
    const own = new UsageTracker();
    own.add('coding_agent', proposal.call.response.usage, 0);
    return {
      round: req.round, index: req.index, lineageParent: req.parent, rationale: proposal.rationale,
      // The seed's edits are plain old → new replacements: no clause, intent or evidence quotes.
      edits: proposal.edits.map((e) => ({ old_str: e.old_str, new_str: e.new_str, clause: '', intent: '', source_cases: req.signal.source_case_ids, evidence: [] })),
      check: { ok: patch.ok, text: patch.text, edits: [], ...(patch.reason ? { reason: patch.reason } : {}) },
      text: patch.text, sha256: sha256Hex(patch.text),
      addedTokens: Math.max(0, estimateTokens(patch.text) - estimateTokens(run.stable.text)),
      usage: usageWithoutLatency(own.byRole), fresh: true,
    };
  }

  private writeCandidate(text: string): void {
    fs.mkdirSync(this.o.workDir, { recursive: true });
    this.candidateFile = path.join(this.o.workDir, CANDIDATE_FILE);
    fs.writeFileSync(this.candidateFile, text);
    this.candidate = { key: 'automatic_candidate', ...this.o.campaign.spec.prompts.candidate, text, file: this.candidateFile };
  }

  private cost(run: RunState, c: ProposedCandidate): number {
    return run.book.unpaid(run.stable.text, this.specs(run)) + run.book.unpaid(c.text, this.specs(run));
  }

  /** The seed gate over the stable prompt's and the candidate's single trial on every case. */
  verdict(before: CaseResult[], after: CaseResult[] | null): SeedGateResult {
    return seedGate({
      proposedEdits: (this.proposal?.edits ?? []).filter((e) => e.old_str !== e.new_str).length,
      patch: this.patch,
      sourceCaseIds: this.signal?.source_case_ids ?? [],
      before,
      after,
    });
  }

  private async judgeCandidate(run: RunState, c: ProposedCandidate): Promise<JudgeResult> {
    const specs = this.specs(run);
    this.o.progress(`evaluating automatic_candidate on ${specs.length} cases`);
    const { rows } = await paired(run.ctx, c.text, specs);
    const after = this.results(await run.book.get(c.text, specs));
    this.o.progress(`automatic_candidate: ${tallyLine(after)}`);
    const gate = (this.gate = this.verdict(this.results(await run.book.get(run.stable.text, specs)), after));
    const failed = Object.entries(gate.checks).filter(([, ok]) => !ok).map(([k]) => `seed gate: ${k} failed`);
    return {
      input: {
        decision: gate.decision, stage: 'gate', reasons: failed.length ? failed : ['seed gate: every check passed'], gateRows: rows,
        // The rows' seeds name the trial streams; the seed campaign sends no sampling seed to the model.
        statistics: { seed_gate: { checks: gate.checks, metrics: gate.metrics }, sampling: 'unseeded' },
      },
    };
  }
}
