/**
 * Text reports of a domain run: per task reward, partial score and failing checks, then the
 * summary with pass^1..k.
 */
import { isScored, type EpisodeReportRow } from '../run/report-rows.js';
import type { RunSummary } from '../run/summary.js';
import { counted, table } from './output.js';
import { isSuccess } from '../evaluation/pass-k.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import { countedNotPassed } from '../evaluation/counted.js';
import type { UsageByRole } from '../models/usage.js';
import type { Painter } from './colour.js';

const pct = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null | undefined) => (x === null || x === undefined ? 'n/a' : x.toFixed(3));

/**
 * One row per episode: task, trial, termination, reward, partial, failing checks (those that count
 * towards the reward or partial score: `countedNotPassed`); episodes kept
 * from an earlier attempt of a resumed run have their trial marked `(kept)`. An episode left out
 * of the scores (infrastructure, harness or evaluation error: `isScored`) shows reward
 * `not scored`, partial `-` and the error instead of failing checks.
 */
export function episodeTable(records: readonly EpisodeReportRow[], paint?: Painter): string {
  const rows: string[][] = [['task', 'trial', 'end', 'reward', 'partial', 'failing checks']];
  for (const r of records) {
    const ev = isScored(r) ? r.evaluation : null;
    const failing = ev ? countedNotPassed(ev, r.task).map((c) => (c.verdict === 'not_judged' ? `${c.id} (not judged)` : c.id)) : [];
    const reward = ev ? (ev.reward === null ? 'not judged' : num(ev.reward)) : 'not scored';
    const tone = !paint ? (x: string) => x : !ev ? paint.yellow : ev.reward === null ? paint.dim : ev.reward === 1 ? (x: string) => x : paint.red;
    rows.push([
      r.taskId,
      r.kept ? `${r.trial} (kept)` : String(r.trial),
      r.termination,
      tone(reward),
      ev ? pct(ev.partial) : '-',
      r.harnessError ? `harness error: ${r.harnessError.slice(0, 80)}` : r.infraError ? `infrastructure: ${withoutEndpoint(r.infraError).slice(0, 120)}` : r.evaluationError ? `evaluation: ${r.evaluationError.slice(0, 80)}` : failing.join(', ') || '-',
    ]);
  }
  return table(rows);
}

/** A provider error without its endpoint URL, so the provider's reason fits the table. */
function withoutEndpoint(message: string): string {
  return message.replace(/ call to \S+ failed: /, ' call failed: ');
}

/**
 * Model calls and their retries from per-role usage, e.g.
 * `model calls: 42 (7 retried: 9 extra attempts, 3.5 s waited; rate_limited 4, server_error 3, timeout 2)`.
 * Usage counts answered calls; `failedEpisodes` (episodes that ended in an infrastructure error:
 * a call that failed after all its attempts) adds that those are not among them, e.g.
 * `model calls: 0 answered (no retries); 2 episode(s) ended on a call that failed after its retries`,
 * so the line does not read as if nothing was tried.
 */
export function callsText(usage: UsageByRole, failedEpisodes = 0): string {
  const text = answeredCallsText(usage);
  if (failedEpisodes <= 0) return text;
  return `${text.replace(/^model calls: \d+/, (m) => `${m} answered`)}; ${failedEpisodes} episode(s) ended on a call that failed after its retries (see the infrastructure errors)`;
}

/** {@link callsText} of the answered calls alone. */
function answeredCallsText(usage: UsageByRole): string {
  let calls = 0, retried = 0, extra = 0, waited = 0;
  const faults: Record<string, number> = {};
  for (const u of Object.values(usage)) {
    if (!u) continue;
    calls += u.calls;
    retried += u.retried_calls ?? 0;
    extra += u.extra_attempts ?? 0;
    waited += u.retry_wait_seconds ?? 0;
    for (const [k, n] of Object.entries(u.faults ?? {})) faults[k] = (faults[k] ?? 0) + n;
  }
  if (retried === 0) return `model calls: ${calls} (no retries)`;
  const kinds = Object.entries(faults).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([k, n]) => `${k} ${n}`).join(', ');
  return `model calls: ${calls} (${retried} retried: ${extra} extra attempts, ${waited.toFixed(1)} s waited; ${kinds})`;
}

const tokens = (n: number) => String(n);

/**
 * Usage per role (`task_agent`, `user_simulator`, `llm_judge`, …) and in total: calls, prompt,
 * completion and total tokens, latency (seconds summed over calls, and per call), and the
 * provider-reported cost in US dollars ("not reported" when no call reported one — never a
 * guessed price; "partial" when only some calls did).
 */
export function usageTable(usage: UsageByRole): string {
  const rows: string[][] = [['role', 'calls', 'prompt tokens', 'completion tokens', 'total tokens', 'latency s', 's/call', 'cost (provider)']];
  const total = { calls: 0, p: 0, c: 0, t: 0, s: 0, cost: null as number | null, obs: 0 };
  const cost = (usd: number | null, obs: number, calls: number) => (usd === null ? 'not reported' : `$${usd.toFixed(4)}${obs < calls ? ` (partial: ${obs}/${calls} calls)` : ''}`);
  for (const [role, u] of Object.entries(usage)) {
    if (!u) continue;
    rows.push([role, String(u.calls), tokens(u.prompt_tokens), tokens(u.completion_tokens), tokens(u.total_tokens), u.latency_seconds.toFixed(1), u.calls ? (u.latency_seconds / u.calls).toFixed(2) : '-', cost(u.provider_reported_cost_usd, u.provider_reported_cost_observations, u.calls)]);
    total.calls += u.calls; total.p += u.prompt_tokens; total.c += u.completion_tokens; total.t += u.total_tokens; total.s += u.latency_seconds; total.obs += u.provider_reported_cost_observations;
    if (u.provider_reported_cost_usd !== null) total.cost = (total.cost ?? 0) + u.provider_reported_cost_usd;
  }
  rows.push(['total', String(total.calls), tokens(total.p), tokens(total.c), tokens(total.t), total.s.toFixed(1), total.calls ? (total.s / total.calls).toFixed(2) : '-', cost(total.cost, total.obs, total.calls)]);
  return table(rows);
}

/** The run summary: counts, means, pass^k with its bootstrap interval over tasks, terminations. */
export function summaryText(s: RunSummary): string {
  const lines = [
    `episodes: ${s.episodes} (${s.scored} scored, ${counted(s.infraErrors, 'infrastructure error')}, ${s.harnessErrors ? `${counted(s.harnessErrors, 'harness error')}, ` : ''}${counted(s.evaluationErrors, 'evaluation error')}, ${s.unjudged} not judged)`,
    `reward mean: ${num(s.rewardMean)}   partial mean: ${pct(s.partialMean)}` + (s.unjudged > 0 ? `  (reward mean a lower bound: ${s.unjudged} episode(s) not judged count 0; judge them with --judge-model)` : ''),
    `pass^k: ${s.passHatK.map((p) => `pass^${p.k} ${p.value.toFixed(3)}`).join('  ') || 'n/a'}` +
      (s.unjudged > 0 ? `  (lower bounds: ${s.unjudged} not-judged episode(s) count as failures)` : ''),
    ...(s.passHatKInterval?.length
      ? [`pass^k 95% CI (bootstrap over tasks): ${s.passHatKInterval.map((p) => `pass^${p.k} [${p.low.toFixed(3)}, ${p.high.toFixed(3)}]`).join('  ')}`]
      : []),
    `terminations: ${Object.entries(s.terminations).map(([k, v]) => `${k} ${v}`).join(', ')}`,
  ];
  if (s.crossSide) lines.push(`cross-side tool use: ${s.crossSide.episodes}/${s.crossSide.measured} episodes (${s.crossSide.uses} uses: an agent calling device tools, a customer calling agent tools, or an agent telling the customer to use an agent tool)`);
  return lines.join('\n');
}

/** Per persona: episodes, successes (reward 1), reward mean and partial mean (infrastructure errors left out, as in the summary). */
export function personaTable(records: readonly EpisodeReportRow[], personas: readonly string[]): string {
  const rows: string[][] = [['persona', 'episodes', 'reward 1', 'reward mean', 'partial mean']];
  for (const p of personas) {
    const mine = records.filter((r) => r.persona === p);
    const scored = mine.filter((r) => !r.infraError && !r.harnessError && r.evaluation) as (EpisodeReportRow & { evaluation: TaskEvaluation })[];
    const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    const reward = mean(scored.map((r) => r.evaluation.reward ?? 0));
    const partial = mean(scored.map((r) => r.evaluation.partial));
    rows.push([p, String(mine.length), `${scored.filter((r) => isSuccess(r.evaluation.reward)).length}/${scored.length}`, reward === null ? 'n/a' : reward.toFixed(3), partial === null ? 'n/a' : `${(partial * 100).toFixed(1)}%`]);
  }
  return table(rows);
}
