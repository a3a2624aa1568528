/**
 * One proposal, end to end: build the proposer request for a parent, serve the answer from the
 * journal when this exact request was answered before (resume), otherwise call the proposer
 * model and journal its receipt; then parse it and run the static edit checks.
 */
import type { ChatModel, ModelCallResult } from '../models/chat-model.js';
import { UsageTracker, type UsageByRole } from '../models/usage.js';
import { ProviderError, ReplayMissError } from '../spec/errors.js';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import { estimateTokens } from './clauses.js';
import { caseSpecificTokens, checkPatch, type PatchCheck } from './edit-checks.js';
import type { Journal } from './journal.js';
import { callProposer, parseProposal, proposerRequest, type ProposedEdit, type ProposerInput } from './proposer.js';
import type { Rollout, SuiteCase } from './suite.js';
import { usageWithoutLatency } from './suite.js';

/** A proposed candidate after the static checks. */
export interface ProposedCandidate {
  round: number;
  /** Proposal number within the run (0-based). */
  index: number;
  lineageParent: string;
  edits: ProposedEdit[];
  rationale: string;
  check: PatchCheck;
  /** The candidate text (the parent's when the check failed). */
  text: string;
  sha256: string;
  /** Estimated tokens added over the stable prompt (criterion 4; 0 when shorter). */
  addedTokens: number;
  usage: UsageByRole;
  /** False when the answer came from the journal (a resumed run). */
  fresh: boolean;
}

/** Inputs of {@link propose}. */
export interface ProposeArgs {
  model: ChatModel;
  journal: Journal;
  input: ProposerInput;
  parentSha: string;
  stableText: string;
  index: number;
  feedbackCases: readonly SuiteCase[];
  /** The parent's feedback rollouts. */
  trajectories: readonly Rollout[];
}

/** Returns the candidate, or `{ error, index }` for an infrastructure fault of the proposer call. */
export async function propose(a: ProposeArgs): Promise<ProposedCandidate | { error: string; index: number }> {
  const request = proposerRequest(a.input);
  const key = `proposal:${canonicalHash({ parent: a.parentSha, round: a.input.round, index: a.index, request })}`;
  const old = a.journal.get(key);
  let call: Pick<ModelCallResult, 'response' | 'receipt'>;
  const fresh = old?.type !== 'proposal';
  if (old?.type === 'proposal') {
    call = { response: old.receipt.response as ModelCallResult['response'], receipt: old.receipt };
  } else {
    try {
      call = await callProposer(a.model, request);
    } catch (e) {
      if (e instanceof ProviderError || e instanceof ReplayMissError) return { error: `${e.name}: ${e.message}`, index: a.index };
      throw e;
    }
    a.journal.append({ type: 'proposal', key, receipt: { ...call.receipt, elapsed_seconds: 0 } });
  }
  const tracker = new UsageTracker();
  tracker.add('coding_agent', call.response.usage, 0);
  const parsed = parseProposal(call);
  const parentText = a.input.prompt;
  const check: PatchCheck = parsed.error
    ? { ok: false, text: parentText, edits: [], reason: parsed.error }
    : checkPatch(parsed.edits, {
        parentPrompt: parentText,
        feedbackCaseIds: new Set(a.feedbackCases.map((c) => c.id)),
        trajectories: new Map(a.trajectories.map((r) => [`${r.case_id}#${r.trial}`, r])),
        caseTokens: caseSpecificTokens(a.feedbackCases),
        maxEdits: a.input.maxEdits,
        maxAddedChars: a.input.maxAddedChars,
      });
  return {
    round: a.input.round,
    index: a.index,
    lineageParent: a.parentSha,
    edits: parsed.edits,
    rationale: parsed.rationale,
    check,
    text: check.text,
    sha256: sha256Hex(check.text),
    addedTokens: Math.max(0, estimateTokens(check.text) - estimateTokens(a.stableText)),
    usage: usageWithoutLatency(tracker.byRole),
    fresh,
  };
}
