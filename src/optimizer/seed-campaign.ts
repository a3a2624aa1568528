/**
 * Running a campaign end to end, in the seed experiment's order: evaluate the stable prompt,
 * build the learning signal from its failures, ask the coding agent for edits, apply them to a
 * working copy (the stable prompt file is never written; its hash is checked before and after),
 * evaluate the candidate and the control prompts on the same cases, and decide with the gate.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Receipt } from '../spec/receipt.js';
import type { ChatModel } from '../models/chat-model.js';
import { UsageTracker } from '../models/usage.js';
import { sha256Hex } from '../util/canonical.js';
import { isoSeconds, roundSeconds, type Clock } from '../util/clock.js';
import { unifiedDiff } from '../util/unified-diff.js';
import { evaluatePrompt, type PromptEvaluation } from '../campaign/evaluate.js';
import type { LoadedCampaign, PromptVariant } from '../campaign/load.js';
import { buildLearningSignal, type LearningSignal } from './learning-signal.js';
import { applyEdits, type ApplyEditsResult } from './apply-edits.js';
import { applyEditsTool, proposeEdits, type Proposal } from './coding-agent.js';
import { seedGate, type SeedGateResult } from './seed-gate.js';

export const CANDIDATE_FILE = 'system_prompt_working.txt';

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
  const now = isoSeconds(startedAt);
  const evaluate = async (prompt: PromptVariant) => {
    progress(`evaluating ${prompt.key} on ${campaign.cases.length} cases`);
    const ev = await evaluatePrompt({ campaign, prompt, model, usage, now, onReceipt });
    progress(`${prompt.key}: holdout ${ev.holdout[0]}/${ev.holdout[1]}, boundary ${ev.boundary[0]}/${ev.boundary[1]}`);
    return ev;
  };

  const initial = await evaluate(campaign.stable);
  const failedAt = clock.nowSeconds();
  const signal = buildLearningSignal(initial.episodes.map((e) => e.result), campaign.spec);
  let proposal: Proposal | null = null;
  let patch: ApplyEditsResult | null = null;
  let candidate: PromptVariant | null = null;
  let candidateFile: string | null = null;
  if (signal) {
    progress(`learning signal: ${signal.source_case_ids.length} source cases; asking the coding agent`);
    const ca = campaign.spec.coding_agent;
    proposal = await proposeEdits({
      model,
      system: campaign.codingSystem,
      userTemplate: campaign.codingUserTemplate,
      signal,
      prompt: campaign.stable.text,
      tool: applyEditsTool(ca.tool_description, ca.rationale_description),
      temperature: campaign.spec.model.temperature,
    });
    usage.add('coding_agent', proposal.call.response.usage, proposal.call.elapsedSeconds);
    onReceipt(proposal.call.receipt);
    patch = proposal.error ? { ok: false, text: campaign.stable.text, edits: [], reason: proposal.error } : applyEdits(campaign.stable.text, proposal.edits);
    if (patch.ok) {
      fs.mkdirSync(opts.workDir, { recursive: true });
      candidateFile = path.join(opts.workDir, CANDIDATE_FILE);
      fs.writeFileSync(candidateFile, patch.text);
      candidate = { key: 'automatic_candidate', ...campaign.spec.prompts.candidate, text: patch.text, file: candidateFile };
    } else {
      progress(`patch rejected: ${patch.reason}`);
    }
  } else {
    progress('no failures: nothing to learn from, no candidate');
  }
  const candidateAt = clock.nowSeconds();
  const candidateEval = candidate ? await evaluate(candidate) : null;
  const controls: PromptEvaluation[] = [];
  for (const c of campaign.controls) controls.push(await evaluate(c));
  const hashAfter = sha256Hex(fs.readFileSync(stableFile, 'utf8'));
  const gate = seedGate({
    proposedEdits: (proposal?.edits ?? []).filter((e) => e.old_str !== e.new_str).length,
    patch,
    sourceCaseIds: signal?.source_case_ids ?? [],
    before: initial.episodes.map((e) => e.result),
    after: candidateEval ? candidateEval.episodes.map((e) => e.result) : null,
  });
  progress(`gate: ${gate.decision}`);
  return {
    campaign,
    startedAt,
    finishedAt: clock.nowSeconds(),
    failureToCandidateSeconds: roundSeconds(candidateAt - failedAt),
    initial,
    signal,
    proposal,
    patch,
    candidate,
    candidateEval,
    controls,
    gate,
    diff: candidate ? unifiedDiff(campaign.stable.text, candidate.text, 'system_prompt.txt (before)', 'system_prompt.txt (after)') : '',
    stableHash: { before: hashBefore, after: hashAfter },
    candidateFile,
    receipts,
    usage,
  };
}
