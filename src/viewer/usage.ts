/**
 * Usage by role as the viewer shows it, from a stored `usage` (per role: `{calls, prompt_tokens,
 * completion_tokens, total_tokens, latency_seconds?, provider_reported_cost_usd?}`, as
 * src/models/usage.ts records it for runs and episodes). Pure, shared by the server and the UI.
 */
import type { RoleUsageView } from './types.js';

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const opt = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * One row per role of a per-role usage object (roles in stored order); `[]` for anything else,
 * including a campaign's single total (`{total_tokens, ...}` without roles).
 */
export function usageRows(usage: unknown): RoleUsageView[] {
  if (!usage || typeof usage !== 'object' || Array.isArray(usage)) return [];
  const out: RoleUsageView[] = [];
  for (const [role, u] of Object.entries(usage as Record<string, unknown>)) {
    if (!u || typeof u !== 'object' || Array.isArray(u)) continue;
    const r = u as Record<string, unknown>;
    if (typeof r.calls !== 'number' && typeof r.total_tokens !== 'number') continue;
    out.push({
      role,
      calls: num(r.calls),
      prompt_tokens: num(r.prompt_tokens),
      completion_tokens: num(r.completion_tokens),
      total_tokens: num(r.total_tokens),
      latency_seconds: opt(r.latency_seconds),
      cost_usd: opt(r.provider_reported_cost_usd),
    });
  }
  return out;
}

/** The sum of `rows` as one row named `total` (latency and cost null when no row has them). */
export function usageTotal(rows: readonly RoleUsageView[]): RoleUsageView {
  const sumOpt = (pick: (r: RoleUsageView) => number | null) =>
    rows.some((r) => pick(r) !== null) ? rows.reduce((s, r) => s + (pick(r) ?? 0), 0) : null;
  return {
    role: 'total',
    calls: rows.reduce((s, r) => s + r.calls, 0),
    prompt_tokens: rows.reduce((s, r) => s + r.prompt_tokens, 0),
    completion_tokens: rows.reduce((s, r) => s + r.completion_tokens, 0),
    total_tokens: rows.reduce((s, r) => s + r.total_tokens, 0),
    latency_seconds: sumOpt((r) => r.latency_seconds),
    cost_usd: sumOpt((r) => r.cost_usd),
  };
}
