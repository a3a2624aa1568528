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
  /** Present only when some call needed retries: calls that needed more than one attempt. */
  retried_calls?: number;
  /** Attempts beyond the first, over all calls. */
  extra_attempts?: number;
  /** Seconds waited between attempts (backoff, retry-after). */
  retry_wait_seconds?: number;
  /** Failed attempts by kind (`rate_limited`, `server_error`, `timeout`, `body_stalled`, …). */
  faults?: Record<string, number>;
}

/** A call's retries as recorded in its receipt. */
export interface RetriesLike {
  attempts: number;
  waited_seconds: number;
  faults: readonly string[];
}

/** Adds one call's retries to `r` (creating the retry fields on first use). */
export function addRetries(r: RoleUsage, retries: RetriesLike | undefined): void {
  if (!retries || retries.attempts <= 1) return;
  r.retried_calls = (r.retried_calls ?? 0) + 1;
  r.extra_attempts = (r.extra_attempts ?? 0) + retries.attempts - 1;
  r.retry_wait_seconds = round6((r.retry_wait_seconds ?? 0) + retries.waited_seconds);
  r.faults ??= {};
  for (const f of retries.faults) r.faults[f] = (r.faults[f] ?? 0) + 1;
}

/** Adds `u`'s retry fields (if any) to `r`. */
export function mergeRetries(r: RoleUsage, u: RoleUsage): void {
  if (!u.retried_calls) return;
  r.retried_calls = (r.retried_calls ?? 0) + u.retried_calls;
  r.extra_attempts = (r.extra_attempts ?? 0) + (u.extra_attempts ?? 0);
  r.retry_wait_seconds = round6((r.retry_wait_seconds ?? 0) + (u.retry_wait_seconds ?? 0));
  r.faults ??= {};
  for (const [k, n] of Object.entries(u.faults ?? {})) r.faults[k] = (r.faults[k] ?? 0) + n;
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

  /** Adds one call. `usage` may be missing (some providers omit it); tokens then count 0. `retries`: the receipt's, if any. */
  add(role: ModelRole, usage: Usage | undefined, elapsedSeconds: number, retries?: RetriesLike): void {
    const r = (this.byRole[role] ??= emptyRole());
    r.calls += 1;
    addRetries(r, retries);
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
