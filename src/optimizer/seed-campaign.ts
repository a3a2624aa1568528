/**
 * Running a campaign end to end through the general optimiser: the campaign's cases as a suite
 * ({@link CampaignSuite}, no sampling seed sent, model errors propagate) and the seed
 * experiment's protocol ({@link SeedProtocol}), in the seed's order: evaluate the stable prompt,
 * build the learning signal from its failures, ask the coding agent for edits, apply them to a
 * working copy (the stable prompt file is never written; its hash is checked before and after),
 * evaluate the candidate, decide with the seed gate; then evaluate the control prompts on the
 * same cases for the report.
 */
import fs from 'node:fs';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel } from '../models/chat-model.js';
import { UsageTracker } from '../models/usage.js';
import { sha256Hex } from '../util/canonical.js';
import { isoSeconds, roundSeconds, type Clock } from '../util/clock.js';
import { unifiedDiff } from '../util/unified-diff.js';
import { promptEvaluation, type PromptEvaluation } from '../campaign/evaluate.js';
import type { LoadedCampaign, PromptVariant } from '../campaign/load.js';
import type { LearningSignal } from './learning-signal.js';
import type { ApplyEditsResult } from './apply-edits.js';
import type { Proposal } from './coding-agent.js';
import type { SeedGateResult } from './seed-gate.js';
import { CampaignSuite } from './campaign-suite.js';
import { runIdentity, type OptimizeConfig } from './config.js';
import { Journal } from './journal.js';
import { runOptimization } from './run.js';
import type { OptimizeResult } from './run-state.js';
import { CANDIDATE_FILE, SeedProtocol, tallyLine } from './seed-protocol.js';

export { CANDIDATE_FILE };

export interface CampaignRunOptions {
  campaign: LoadedCampaign;
  model: ChatModel;
  clock: Clock;
  /** Folder for the candidate working copy; created if missing. */
  workDir: string;
  onReceipt?: (r: Receipt) => void;
  /** Progress lines (for stderr). */
  onProgress?: (line: string) => void;
}

export interface CampaignOutcome {
  campaign: LoadedCampaign;
  startedAt: number;
  finishedAt: number;
  /** Seconds from the end of the stable evaluation to the candidate written. */
  failureToCandidateSeconds: number;
  initial: PromptEvaluation;
  signal: LearningSignal | null;
  proposal: Proposal | null;
  patch: ApplyEditsResult | null;
  candidate: PromptVariant | null;
  candidateEval: PromptEvaluation | null;
  controls: PromptEvaluation[];
  gate: SeedGateResult;
  diff: string;
  stableHash: { before: string; after: string };
  candidateFile: string | null;
  receipts: Receipt[];
  usage: UsageTracker;
  /** The general optimiser's result behind this outcome (its release record carries the seed gate). */
  optimization: OptimizeResult;
}

/**
 * The optimiser config of the seed protocol: one round, one parent, one proposal, one trial per
 * case, sequential rollouts (receipts keep the recorded order), the campaign's model and
 * temperature, and budget caps that fit exactly the stable, candidate and control evaluations.
 * The gate, role and canary fields are the config defaults; the seed protocol reads none of them
 * but `gate.min_coverage`. Spelled out rather than parsed: a first zod parse of the config schema
 * costs more than the whole seed replay.
 */
export function seedConfig(c: LoadedCampaign): OptimizeConfig {
  const rollouts = c.cases.length * (2 + c.controls.length);
  return {
    name: c.spec.name.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[^A-Za-z0-9]/, 'c'),
    seed: 0,
    suite: { kind: 'campaign', dir: c.dir },
    roles: { feedback: 0.4, sealed: 0.2 },
    trials: { feedback: 1, screen: 1, look1: 1, look2: 1, sealed: 1, ablation: 0 },
    gate: { alpha: 0.05, alpha_look1: 0.01, holdout_margin: 0.05, min_cases_improved: 2, min_trials_per_case: 4, min_coverage: 0.9, confirm_fraction: 0.5, screen_min_net: 1 },
    search: { rounds: 1, parents_per_round: 1, proposals_per_parent: 1, max_edits: 3, max_added_chars: 600, escalate_after: 3 },
    budget: { max_rollouts: rollouts, max_judge_calls: rollouts, max_proposer_calls: 1, max_tokens: null, max_cost_usd: null },
    // One model for every role, at the campaign's temperature (the release record pins both).
    models: { agent: { model: c.spec.model.model, temperature: c.spec.model.temperature }, proposer: { model: c.spec.model.model, temperature: c.spec.model.temperature } },
    canary: { simulate: false, min_episodes: 200, max_episodes: 400, resolution_drop: 0.1, alpha: 0.05, beta: 0.05 },
    concurrency: 1,
  };
}

/** One prompt's evaluation on every case, from the run's rollouts (run now when not yet run). */
async function evaluation(result: OptimizeResult, suite: CampaignSuite, prompt: Pick<PromptVariant, 'key' | 'label' | 'row_label' | 'text'>): Promise<PromptEvaluation> {
  const specs = result.splits.gate.map((caseId) => ({ caseId, trial: 0, stream: 'trial' as const }));
  const rollouts = await result.book.get(prompt.text, specs);
  return promptEvaluation(prompt, rollouts.map((r) => suite.episodeOf(r)));
}

/** Runs the campaign. Model errors (ProviderError, ReplayMissError) propagate. */
export async function runCampaign(opts: CampaignRunOptions): Promise<CampaignOutcome> {
  const { campaign, model, clock } = opts;
  const usage = new UsageTracker();
  const receipts: Receipt[] = [];
  const onReceipt = (r: Receipt) => {
    receipts.push(r);
    opts.onReceipt?.(r);
  };
  const progress = opts.onProgress ?? (() => {});
  const startedAt = clock.nowSeconds();
  const stableFile = campaign.stable.file!;
  const hashBefore = sha256Hex(fs.readFileSync(stableFile, 'utf8'));
  const suite = new CampaignSuite(campaign, { now: isoSeconds(startedAt), sampling: 'unseeded', modelErrors: 'throw', usage, onReceipt, keepEpisodes: true });
  const protocol = new SeedProtocol({ campaign, suite, model, clock, workDir: opts.workDir, usage, onReceipt, progress });
  const config = seedConfig(campaign);
  progress(`evaluating ${campaign.stable.key} on ${campaign.cases.length} cases`);
  const result = await runOptimization({
    config, identity: runIdentity(config), suite, models: { agent: model, proposer: model },
    journal: Journal.open(null, { resume: false }), clock, outDir: null, protocol,
  });
  const failedAt = protocol.failedAt ?? clock.nowSeconds();
  const candidateAt = protocol.candidateAt ?? clock.nowSeconds();
  const initial = await evaluation(result, suite, campaign.stable);
  const { candidate } = protocol;
  const candidateEval = candidate ? await evaluation(result, suite, candidate) : null;
  const controls: PromptEvaluation[] = [];
  for (const c of campaign.controls) {
    progress(`evaluating ${c.key} on ${campaign.cases.length} cases`);
    controls.push(await evaluation(result, suite, c));
    progress(`${c.key}: ${tallyLine(controls[controls.length - 1].episodes.map((e) => e.result))}`);
  }
  const hashAfter = sha256Hex(fs.readFileSync(stableFile, 'utf8'));
  const gate = protocol.gate ?? protocol.verdict(initial.episodes.map((e) => e.result), candidateEval ? candidateEval.episodes.map((e) => e.result) : null);
  progress(`gate: ${gate.decision}`);
  return {
    campaign,
    startedAt,
    finishedAt: clock.nowSeconds(),
    failureToCandidateSeconds: roundSeconds(candidateAt - failedAt),
    initial,
    signal: protocol.signal,
    proposal: protocol.proposal,
    patch: protocol.patch,
    candidate,
    candidateEval,
    controls,
    gate,
    diff: candidate ? unifiedDiff(campaign.stable.text, candidate.text, 'system_prompt.txt (before)', 'system_prompt.txt (after)') : '',
    stableHash: { before: hashBefore, after: hashAfter },
    candidateFile: protocol.candidateFile,
    receipts,
    usage,
    optimization: result,
  };
}
