/**
 * Usage accounting per role: calls, tokens, latency, and provider-reported cost only.
 * A cost is never estimated from a price list: when the provider reports none, cost is null.
 */
import type { ModelRole, Usage } from '../spec/messages.js';

export interface RoleUsage {
  calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Sum of call latencies in seconds. */
  latency_seconds: number;
  /** Sum of provider-reported costs in USD, or null when no call reported one. */
  provider_reported_cost_usd: number | null;
  provider_reported_cost_observations: number;
}

export type UsageByRole = Partial<Record<ModelRole, RoleUsage>>;

function emptyRole(): RoleUsage {
  return {
    calls: 0,
    prompt_tokens: 0,
    completion_tokens: 0,
    total_tokens: 0,
    latency_seconds: 0,
    provider_reported_cost_usd: null,
    provider_reported_cost_observations: 0,
  };
}

/** Accumulates usage per role in call order. */
export class UsageTracker {
  readonly byRole: UsageByRole = {};

  /** Adds one call. `usage` may be missing (some providers omit it); tokens then count 0. */
  add(role: ModelRole, usage: Usage | undefined, elapsedSeconds: number): void {
    const r = (this.byRole[role] ??= emptyRole());
    r.calls += 1;
    const p = usage?.prompt_tokens ?? 0;
    const c = usage?.completion_tokens ?? 0;
    r.prompt_tokens += p;
    r.completion_tokens += c;
    r.total_tokens += usage?.total_tokens ?? p + c;
    r.latency_seconds = round6(r.latency_seconds + elapsedSeconds);
    if (typeof usage?.cost === 'number') {
      r.provider_reported_cost_usd = (r.provider_reported_cost_usd ?? 0) + usage.cost;
      r.provider_reported_cost_observations += 1;
    }
  }

  /** Totals over all roles, with the seed record's `usage` fields. */
  totals(): {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    provider_reported_cost_usd: number | null;
    provider_reported_cost_observations: number;
    cost_qualification: string;
  } {
    let p = 0, c = 0, t = 0, cost: number | null = null, obs = 0;
    for (const r of Object.values(this.byRole)) {
      p += r.prompt_tokens;
      c += r.completion_tokens;
      t += r.total_tokens;
      obs += r.provider_reported_cost_observations;
      if (r.provider_reported_cost_usd !== null) cost = (cost ?? 0) + r.provider_reported_cost_usd;
    }
    return {
      prompt_tokens: p,
      completion_tokens: c,
      total_tokens: t,
      provider_reported_cost_usd: cost,
      provider_reported_cost_observations: obs,
      cost_qualification:
        obs === 0
          ? 'provider did not expose monetary cost; no price was guessed'
          : `provider-reported cost from ${obs} call(s); calls without a reported cost add nothing`,
    };
  }
}

function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
