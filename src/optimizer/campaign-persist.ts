/**
 * Saving a campaign outcome to the run store: one run row (summary + full record), one run-log
 * record per evaluation × case (trajectory, tool calls, verdict; src/spec/run-log.ts) and every receipt.
 */
import type { RunStore } from '../store/store.js';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import { writeEpisodeLogs } from '../store/run-log.js';
import { RUN_LOG_SCHEMA, type EpisodeRunLog, type RunLogMessage } from '../spec/run-log.js';
import { toolCallRecord } from '../run/episode-log.js';
import type { CampaignOutcome } from './seed-campaign.js';
import { caseSurfaceName, type CaseEpisode } from '../campaign/evaluate.js';
import { getDomain } from '../domains/index.js';

/**
 * The run-log record of one campaign case episode (evaluation kind `case`: the seed's verdict).
 * Campaign episodes keep no state snapshot, so `final_state` is null; the case id is the task id.
 */
export function caseEpisodeLog(outcome: CampaignOutcome, record: Record<string, unknown>, key: string, e: CaseEpisode): EpisodeRunLog {
  const messages = JSON.parse(JSON.stringify(e.messages)) as RunLogMessage[];
  const toolCalls = e.toolLog.map(toolCallRecord);
  const system = messages[0]?.role === 'system' && typeof messages[0].content === 'string' ? sha256Hex(messages[0].content) : null;
  const spec = outcome.campaign.spec;
  return {
    schema: RUN_LOG_SCHEMA,
    episode_id: `${key}/${e.result.id}`,
    trial: 0,
    label: key,
    persona: null,
    task: { id: e.result.id, sha256: canonicalHash(outcome.campaign.cases.find((c) => c.id === e.result.id) ?? null) },
    domain: spec.domain,
    dataset: { kind: 'campaign', source: spec.name },
    surface: caseSurfaceName(getDomain(spec.domain)),
    agent: { kind: 'llm', model: typeof record.model === 'string' ? record.model : null, provider: e.receipts[0]?.provider ?? null, prompt_sha256: system, temperature: null },
    user: { kind: 'scripted', model: null, provider: null, prompt_sha256: null, temperature: null },
    judge: null,
    seeds: { episode: null, now: null, id_seed: '' },
    messages,
    tool_calls: toolCalls,
    action_log: JSON.parse(JSON.stringify(e.actionLog)),
    initial_state: { ref: { kind: 'task', task_id: e.result.id }, hash: null },
    final_state: null,
    termination: { reason: e.termination, user_signal: null, failure: null, transfer: null, infra_error: null },
    evaluation: { kind: 'case', result: JSON.parse(JSON.stringify(e.result)) },
    evaluation_error: null,
    usage: {},
    timings: { model_seconds: Math.round(e.receipts.reduce((sum, r) => sum + r.elapsed_seconds, 0) * 1e6) / 1e6, elapsed_seconds: null },
  };
}

/** Deterministic run id: the campaign name and a hash of the record (same replay, same id). */
export function campaignRunId(outcome: CampaignOutcome, recordJson: string): string {
  return `${outcome.campaign.spec.name}-${sha256Hex(recordJson).slice(0, 12)}`;
}

/** Writes the outcome; replaces an earlier save with the same id. Returns the run id. */
export function saveCampaign(store: RunStore, outcome: CampaignOutcome, record: Record<string, unknown>): string {
  const json = JSON.stringify(record);
  const id = campaignRunId(outcome, json);
  const evals = [outcome.initial, ...(outcome.candidateEval ? [outcome.candidateEval] : []), ...outcome.controls];
  store.saveRun({
    id,
    kind: 'campaign',
    name: outcome.campaign.spec.name,
    domain: outcome.campaign.spec.domain,
    created_at: String(record.created_at),
    summary: {
      model: record.model,
      rows: record.rows,
      decision: outcome.gate.decision,
      checks: outcome.gate.checks,
      usage: record.usage,
      receipts: outcome.receipts.length,
    },
    record,
  });
  writeEpisodeLogs(store, id, evals.flatMap((ev) => ev.episodes.map((e) => caseEpisodeLog(outcome, record, ev.key, e))));
  const existing = store.receiptCount(id);
  if (existing === 0) {
    store.appendReceipts(
      outcome.receipts.map((r, seq) => ({
        run_id: id,
        seq,
        kind: r.kind,
        provider: r.provider,
        endpoint: r.endpoint,
        request: r.request,
        response: r.response,
        elapsed_seconds: r.elapsed_seconds,
      })),
    );
  }
  return id;
}
