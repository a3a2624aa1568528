/**
 * Accounting of paid model calls across the attempts of a run (issue 11, item 9). Every receipt
 * is stored as its call returns, but an episode row only when the episode ends; after a kill -9
 * the calls of the episodes in flight are in the store without an episode. They were paid for:
 * they stay in the store, are attached to the attempt (process invocation) that made them, and
 * count in the run's usage as `unattached` — unless the resumed attempt served them to their
 * episode (src/run/episode-replay.ts), whose usage then accounts for them ({@link PaidCalls}).
 */
import type { ReceiptRow } from '../store/store.js';
import type { EpisodeRunLog } from '../spec/run-log.js';
import { UsageTracker, type RoleUsage, type UsageByRole } from '../models/usage.js';
import type { ModelRole, Usage } from '../spec/messages.js';

/**
 * One invocation of `run` on a run id: its receipts have seq >= `first_receipt_seq` (until the next
 * attempt's), and (since store schema v4, one process) carry this `attempt` in their episode key.
 * `replayed_calls`: calls of episodes in flight that this attempt served from the stored receipts
 * of earlier attempts instead of sending them again (absent when none).
 */
export interface RunAttempt {
  attempt: number;
  pid: number;
  started_at: string;
  first_receipt_seq: number;
  replayed_calls?: number;
}

/** The attempt each receipt seq belongs to, by the attempts' `first_receipt_seq` (attempt 0 for receipts before any attempt was recorded). */
export function attemptOfSeq(attempts: readonly RunAttempt[], seq: number): number {
  let at = 0;
  for (const a of attempts) if (seq >= a.first_receipt_seq) at = a.attempt;
  return at;
}

/**
 * Usage of the stored receipts that no kept episode accounts for: per role, the stored receipts
 * minus the calls the kept episodes' run-log records hold (their `usage` and the `evaluation_usage`
 * of their judge calls; clamped at 0). `kept`: the records whose usage the run reports (not the
 * infrastructure failures that a resume runs again).
 */
export function unattachedUsage(receipts: readonly Pick<ReceiptRow, 'kind' | 'response' | 'elapsed_seconds'>[], kept: readonly Pick<EpisodeRunLog, 'usage' | 'evaluation_usage'>[]): UsageByRole {
  const all = new UsageTracker();
  for (const r of receipts) {
    const usage = (r.response as { usage?: Usage } | null)?.usage;
    all.add(r.kind as ModelRole, usage, r.elapsed_seconds);
  }
  const accounted = new UsageTracker();
  for (const e of kept) {
    for (const part of [e.usage, e.evaluation_usage ?? {}]) {
      for (const [role, u] of Object.entries(part as UsageByRole) as [ModelRole, RoleUsage][]) {
        const r = (accounted.byRole[role] ??= { ...u, calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, latency_seconds: 0, provider_reported_cost_usd: null, provider_reported_cost_observations: 0 });
        r.calls += u.calls;
        r.prompt_tokens += u.prompt_tokens;
        r.completion_tokens += u.completion_tokens;
        r.total_tokens += u.total_tokens;
        r.latency_seconds += u.latency_seconds ?? 0;
        r.provider_reported_cost_observations += u.provider_reported_cost_observations ?? 0;
        if (u.provider_reported_cost_usd !== null && u.provider_reported_cost_usd !== undefined) r.provider_reported_cost_usd = (r.provider_reported_cost_usd ?? 0) + u.provider_reported_cost_usd;
      }
    }
  }
  const out: UsageByRole = {};
  for (const [role, u] of Object.entries(all.byRole) as [ModelRole, RoleUsage][]) {
    const a = accounted.byRole[role];
    const calls = u.calls - (a?.calls ?? 0);
    if (calls <= 0) continue;
    out[role] = {
      calls,
      prompt_tokens: Math.max(0, u.prompt_tokens - (a?.prompt_tokens ?? 0)),
      completion_tokens: Math.max(0, u.completion_tokens - (a?.completion_tokens ?? 0)),
      total_tokens: Math.max(0, u.total_tokens - (a?.total_tokens ?? 0)),
      latency_seconds: Math.max(0, Math.round((u.latency_seconds - (a?.latency_seconds ?? 0)) * 1e6) / 1e6),
      provider_reported_cost_usd: u.provider_reported_cost_usd === null ? null : Math.max(0, u.provider_reported_cost_usd - (a?.provider_reported_cost_usd ?? 0)),
      provider_reported_cost_observations: Math.max(0, u.provider_reported_cost_observations - (a?.provider_reported_cost_observations ?? 0)),
    };
  }
  return out;
}

/**
 * The paid calls of a resumed run, kept light (usage only): the stored receipts and the usage of
 * the kept episodes' records, so that what no episode accounts for can be told once the attempt
 * has served some stored receipts to the episodes it ran again (src/run/episode-replay.ts).
 */
export class PaidCalls {
  private readonly receipts: { seq: number; kind: string; response: { usage?: Usage }; elapsed_seconds: number }[];
  private readonly kept: Pick<EpisodeRunLog, 'usage' | 'evaluation_usage'>[];

  constructor(receipts: readonly ReceiptRow[], kept: readonly EpisodeRunLog[]) {
    this.receipts = receipts.map((r) => ({ seq: r.seq, kind: r.kind, response: { usage: (r.response as { usage?: Usage } | null)?.usage }, elapsed_seconds: r.elapsed_seconds }));
    this.kept = kept.map((e) => ({ usage: e.usage, evaluation_usage: e.evaluation_usage }));
  }

  /**
   * {@link unattachedUsage} of the stored receipts, leaving out those whose `seq` is in `served`:
   * they were served to an episode of this attempt, whose usage accounts for them.
   */
  unattached(served: ReadonlySet<number> = new Set()): UsageByRole {
    return unattachedUsage(served.size ? this.receipts.filter((r) => !served.has(r.seq)) : this.receipts, this.kept);
  }
}
