/**
 * Saving a campaign outcome to the run store: one run row (summary + full record), one episode
 * row per evaluation × case (trajectory, tool log, verdict) and every receipt.
 */
import type { RunStore } from '../store/store.js';
import { sha256Hex } from '../util/canonical.js';
import type { CampaignOutcome } from './seed-campaign.js';

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
  store.appendEpisodes(
    evals.flatMap((ev) =>
      ev.episodes.map((e) => ({
        run_id: id,
        episode_id: `${ev.key}/${e.result.id}`,
        task_id: e.result.id,
        trial: 0,
        label: ev.key,
        reward: e.result.correct ? 1 : 0,
        partial: null,
        termination: e.termination,
        result: { result: e.result, messages: e.messages, tool_log: e.toolLog },
      })),
    ),
  );
  const existing = store.receipts(id).length;
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
