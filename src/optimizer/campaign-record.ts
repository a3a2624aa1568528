/**
 * The experiment record: a campaign's outcome as JSON with the seed record's fields
 * (`seeds/000_30951e7824566f07.txt`), so a replayed or live record can be compared with it
 * field by field.
 */
import type { CampaignOutcome } from './seed-campaign.js';
import type { PromptEvaluation } from '../campaign/evaluate.js';
import { codePoints } from '../util/template.js';
import { isoSeconds, roundSeconds } from '../util/clock.js';
import { DIMENSIONS } from './learning-signal.js';

function evaluationBlock(ev: PromptEvaluation) {
  return { label: ev.label, holdout: ev.holdout, boundary: ev.boundary, results: ev.episodes.map((e) => e.result) };
}

/** The prompts' lengths and the candidate's effect: `prompt_metrics` (code points; seconds). */
function promptMetrics(o: CampaignOutcome): Record<string, unknown> {
  const before = o.initial.episodes.map((e) => e.result);
  const after = o.candidateEval?.episodes.map((e) => e.result) ?? [];
  const afterById = new Map(after.map((r) => [r.id, r]));
  const regressions = o.candidateEval ? before.filter((r) => r.correct && !afterById.get(r.id)?.correct).map((r) => r.id) : [];
  const fixed = before.filter((r) => r.group === 'boundary' && !r.correct && afterById.get(r.id)?.correct).map((r) => r.id);
  const initialChars = codePoints(o.campaign.stable.text);
  const candidateChars = o.candidate ? codePoints(o.candidate.text) : initialChars;
  const metrics: Record<string, unknown> = {
    initial_characters: initialChars,
    candidate_characters: candidateChars,
    growth_characters: candidateChars - initialChars,
  };
  for (const c of o.campaign.controls) metrics[`${c.key}_characters`] = codePoints(c.text);
  return Object.assign(metrics, {
    introduced_regressions: regressions.length,
    regression_case_ids: regressions,
    boundary_failures_fixed: fixed.length,
    boundary_fixed_case_ids: fixed,
    failure_to_candidate_seconds: o.failureToCandidateSeconds,
    campaign_elapsed_seconds: roundSeconds(o.finishedAt - o.startedAt),
  });
}

/** `candidate_manifest`: the patch as an auditable artifact. */
function candidateManifest(o: CampaignOutcome): Record<string, unknown> {
  const spec = o.campaign.spec;
  return {
    artifact_type: 'system_prompt_patch',
    source_case_ids: o.signal?.source_case_ids ?? [],
    scope: spec.coding_agent.scope,
    rationale: o.proposal?.rationale ?? '',
    diff: o.diff,
    edits: o.proposal?.edits ?? [],
    target_rule: spec.coding_agent.target_rule,
    status: o.patch?.ok ? 'candidate' : 'rejected',
    ...(o.patch && !o.patch.ok ? { rejection: { reason: o.patch.reason, edits: o.patch.edits } } : {}),
  };
}

/** `acceptance.gates`: the seed record's execution checks, each with its evidence. */
function acceptanceGates(o: CampaignOutcome, evals: PromptEvaluation[], model: string) {
  const { spec, cases } = o.campaign;
  const calls = (k: keyof typeof o.usage.byRole) => o.usage.byRole[k]?.calls ?? 0;
  const signalOk = !!o.signal && DIMENSIONS.every((d) => d in o.signal!.dimensions) && o.signal.source_case_ids.length > 0;
  const g = o.gate.checks;
  return [
    { name: 'full_holdout_and_boundary_sets_run', passed: o.initial.episodes.length === cases.length, evidence: { selected: o.initial.episodes.length, canonical: cases.length } },
    {
      name: 'same_model_and_same_cases_for_three_controls',
      passed: evals.every((e) => e.episodes.length === cases.length) && o.receipts.every((r) => r.request.model === model),
      evidence: model,
    },
    { name: 'real_task_agent_calls', passed: calls('task_agent') > 0, evidence: calls('task_agent') },
    { name: 'real_llm_judge_calls', passed: calls('llm_judge') > 0, evidence: calls('llm_judge') },
    { name: 'real_coding_agent_call', passed: calls('coding_agent') > 0, evidence: calls('coding_agent') },
    { name: 'learning_signal_has_three_dimensions_and_source_ids', passed: signalOk, evidence: o.signal?.source_case_ids ?? [] },
    { name: 'minimal_old_to_new_patch_is_auditable', passed: g.patch_is_auditable_old_to_new_edit, evidence: o.proposal?.edits ?? [] },
    { name: 'release_gate_evaluated_all_four_manuscript_conditions', passed: true, evidence: g },
    {
      name: 'stable_prompt_not_overwritten',
      passed: o.stableHash.before === o.stableHash.after,
      evidence: { stable: spec.prompts.stable.file, candidate: o.candidateFile ? 'system_prompt_working.txt' : null, stable_sha256_before: o.stableHash.before, stable_sha256_after: o.stableHash.after },
    },
    { name: 'raw_credential_free_api_receipts_saved', passed: o.receipts.length > 0, evidence: o.receipts.length },
  ];
}

/** `acceptance`: the execution checks and the result claims. */
function acceptance(o: CampaignOutcome, evals: PromptEvaluation[], model: string): Record<string, unknown> {
  const gates = acceptanceGates(o, evals, model);
  const g = o.gate.checks;
  const claims = {
    boundary_improved: g.boundary_improved,
    holdout_not_degraded: g.holdout_did_not_regress,
    automatic_candidate_released_only_to_canary: o.gate.decision === 'release_to_canary' && o.stableHash.before === o.stableHash.after,
    automatic_candidate_compared_with_manual: o.controls.length > 0,
  };
  return { gates, execution_accepted: gates.every((x) => x.passed), result_claims: claims, all_manuscript_result_claims_observed: Object.values(claims).every(Boolean) };
}

/** `usage`: token totals, the cost qualification, and usage per role. */
function usageBlock(o: CampaignOutcome): Record<string, unknown> {
  const totals = o.usage.totals();
  return {
    prompt_tokens: totals.prompt_tokens,
    completion_tokens: totals.completion_tokens,
    total_tokens: totals.total_tokens,
    provider_reported_cost_usd: totals.provider_reported_cost_usd,
    provider_reported_cost_observations: totals.provider_reported_cost_observations,
    cost_qualification: totals.cost_qualification,
    by_role: o.usage.byRole,
  };
}

/** Builds the record object (key order as in the seed record). Pure: same outcome, same JSON. */
export function buildRecord(o: CampaignOutcome): Record<string, unknown> {
  const { spec, cases } = o.campaign;
  const evals: PromptEvaluation[] = [o.initial, ...(o.candidateEval ? [o.candidateEval] : []), ...o.controls];
  const evaluations: Record<string, unknown> = {};
  for (const ev of evals) evaluations[ev.key] = evaluationBlock(ev);
  const model = o.receipts[0]?.request.model ?? spec.model.model;
  const provider = o.receipts[0]?.provider ?? spec.model.provider;
  const endpoint = o.receipts[0]?.endpoint ?? spec.model.endpoint ?? '';
  return {
    schema_version: 2,
    experiment_id: spec.experiment?.id ?? spec.name,
    canonical_source: spec.experiment?.canonical_source ?? null,
    evidence_mode: spec.experiment?.evidence_mode ?? null,
    created_at: isoSeconds(o.startedAt),
    provider,
    model,
    backend: {
      configured_provider: provider,
      routed_provider: provider,
      model,
      endpoint,
      credential_source_env: spec.model.credential_source_env ?? 'SERVICEGYM_API_KEY',
      credential_value_recorded: false,
    },
    credential_value_recorded: false,
    rounds: evals.length,
    num_cases: cases.length,
    case_ids: cases.map((c) => c.id),
    learning_signal: o.signal,
    candidate_manifest: candidateManifest(o),
    release_gate: o.gate,
    rationale: o.proposal?.rationale ?? '',
    diff: o.diff,
    prompt_metrics: promptMetrics(o),
    evaluations,
    rows: evals.map((e) => ({ label: e.row_label, holdout: e.holdout, boundary: e.boundary })),
    usage: usageBlock(o),
    api_turns: o.receipts,
    acceptance: acceptance(o, evals, model),
  };
}
