/**
 * The viewer's read model: what each API route answers, computed from an open {@link RunStore}.
 * Scores are recomputed from the stored episodes (a run still in progress shows what it has),
 * with the summary's rules: infrastructure and evaluation errors are left out, a null reward
 * counts as 0 and as a failure of pass^k.
 */
import { createHash } from 'node:crypto';
import type { EpisodeOutline, RunRow, RunStore } from '../store/store.js';
import { passHatKIntervals } from '../evaluation/pass-k-ci.js';
import { compareRuns } from './compare.js';
import { episodeDetail, extractOutline, OUTLINE_PATHS, outlineView } from './episode-view.js';
import { readEpisodeLog, readEpisodeLogs, RECORD_PATHS, type StoredEpisode } from '../store/run-log.js';
import { RunLogMessageSchema } from '../spec/run-log.js';
import { isPass, matrixOrder } from './matrix.js';
import { optimizerView } from './optimizer-view.js';
import { labelBreakdown } from './breakdown.js';
import { runHalted, runStatus, runTags } from './run-status.js';
import { usageRows } from './usage.js';
import { buildSearchIndex, searchIndex, type SearchIndexCache } from './search-index.js';
import type { CompareView, EpisodeDetail, EpisodeOutlineView, RunDetail, RunListItem, SearchResult } from './types.js';

type Loose = Record<string, any>;

const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** Cost and tokens of a stored `usage`: campaign totals, or per-role usage of a task run. */
function usageTotals(usage: unknown): { cost: number | null; tokens: number | null } {
  if (!usage || typeof usage !== 'object') return { cost: null, tokens: null };
  const u = usage as Loose;
  if (typeof u.total_tokens === 'number') return { cost: u.provider_reported_cost_usd ?? null, tokens: u.total_tokens };
  let cost: number | null = null;
  let tokens = 0;
  for (const role of Object.values(u) as Loose[]) {
    if (!role || typeof role !== 'object') continue;
    tokens += Number(role.total_tokens) || 0;
    if (typeof role.provider_reported_cost_usd === 'number') cost = (cost ?? 0) + role.provider_reported_cost_usd;
  }
  return { cost, tokens: tokens || null };
}

/** Retries summed over the roles of a per-role `usage`, or undefined when no call needed one. */
function usageRetries(usage: unknown): RunListItem['retries'] {
  if (!usage || typeof usage !== 'object') return undefined;
  const out = { retried_calls: 0, extra_attempts: 0, waited_seconds: 0, faults: {} as Record<string, number> };
  for (const role of Object.values(usage as Loose) as Loose[]) {
    if (!role || typeof role !== 'object' || !(Number(role.retried_calls) > 0)) continue;
    out.retried_calls += Number(role.retried_calls);
    out.extra_attempts += Number(role.extra_attempts) || 0;
    out.waited_seconds += Number(role.retry_wait_seconds) || 0;
    for (const [k, n] of Object.entries((role.faults ?? {}) as Record<string, unknown>)) out.faults[k] = (out.faults[k] ?? 0) + (Number(n) || 0);
  }
  return out.retried_calls ? out : undefined;
}

/** The agent's system prompt of the run's first episode. */
function firstPrompt(store: RunStore, runId: string): string | null {
  const [first] = store.episodeOutlines(runId, { message: RECORD_PATHS.first_message }, 1);
  const m = RunLogMessageSchema.safeParse(first?.extracted.message);
  return m.success && m.data.role === 'system' && typeof m.data.content === 'string' ? m.data.content : null;
}

const hash12 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** What the caller knows beyond the store: whether a live process is writing a run (its lock); default never. */
export interface ReadOptions {
  isWriting?: (runId: string) => boolean;
}

/** One runs-list row from a run and its outlines (picked with at least the error paths). */
function listItem(run: Omit<RunRow, 'record'>, outlines: EpisodeOutline[], prompt: string | null, opts: ReadOptions = {}): RunListItem {
  const summary = (run.summary ?? {}) as Loose;
  // Labels are prompt versions in campaign and optimise runs; in a task run they are personas, and
  // pass^k is across personas (as `servicegym run` reports it), so tasks are not split by label.
  const multiLabel = run.kind !== 'run' && new Set(outlines.map((o) => o.label)).size > 1;
  const key = (o: EpisodeOutline) => (multiLabel ? `${o.label}/${o.task_id}` : o.task_id);
  const scored = outlines.filter((o) => !o.extracted.infra_error && !o.extracted.harness_error && !o.extracted.evaluation_error);
  const perTask = new Map<string, (number | null)[]>();
  for (const o of scored) perTask.set(key(o), [...(perTask.get(key(o)) ?? []), o.reward]);
  const trialCounts = new Map<string, number>();
  for (const o of outlines) trialCounts.set(key(o), (trialCounts.get(key(o)) ?? 0) + 1);
  const { cost, tokens } = usageTotals(summary.usage);
  const personas = run.kind === 'run' ? personaSize(outlines) : undefined;
  const halted = run.kind === 'run' ? runHalted(summary) : undefined;
  return {
    id: run.id,
    kind: run.kind,
    command: str(summary.command) ?? (run.kind === 'run' && run.id.startsWith('validate-') ? 'validate' : run.kind),
    name: str(summary.name) ?? run.name,
    domain: run.domain,
    created_at: run.created_at,
    agent_model: str(summary.agent_model) ?? str(summary.model),
    user_model: str(summary.user_model),
    prompt_hash: str(summary.prompt_hash)?.slice(0, 12) ?? (prompt === null ? null : hash12(prompt)),
    tasks: new Set(outlines.map((o) => o.task_id)).size,
    trials: Math.max(0, ...trialCounts.values()),
    ...(personas ? { personas } : {}),
    labels: [...new Set(outlines.map((o) => o.label))],
    episodes: outlines.length,
    reward_mean: mean(scored.map((o) => o.reward ?? 0)),
    partial_mean: mean(scored.flatMap((o) => (o.partial === null ? [] : [o.partial]))),
    pass_hat_k: perTask.size ? passHatKIntervals(perTask) : [],
    failed: scored.filter((o) => o.reward !== null && !isPass(o.reward)).length,
    unjudged: scored.filter((o) => o.reward === null).length,
    errors: outlines.length - scored.length,
    cost_usd: cost,
    total_tokens: tokens,
    ...(usageRetries(summary.usage) ? { retries: usageRetries(summary.usage) } : {}),
    has_optimizer: run.kind !== 'run',
    tags: runTags(summary),
    // The same labels for `run` and `validate` runs: both record the surface and strict mode from their start.
    ...(str(summary.surface) ? { surface: str(summary.surface)! } : {}),
    ...(summary.strict === true ? { strict: true as const } : {}),
    status: runStatus(run.kind, summary, opts.isWriting?.(run.id) ?? false),
    ...(halted ? { halted } : {}),
  };
}

/**
 * The persona size of a task run's episodes (labels are personas there): the most distinct labels
 * of one task and the most episodes of one task with one label; undefined when no task has more
 * than one label (no personas, or one).
 */
function personaSize(outlines: readonly EpisodeOutline[]): { count: number; trials: number } | undefined {
  const labels = new Map<string, Map<string, number>>();
  for (const o of outlines) {
    const byLabel = labels.get(o.task_id) ?? new Map<string, number>();
    byLabel.set(o.label, (byLabel.get(o.label) ?? 0) + 1);
    labels.set(o.task_id, byLabel);
  }
  const count = Math.max(0, ...[...labels.values()].map((m) => m.size));
  return count > 1 ? { count, trials: Math.max(...[...labels.values()].flatMap((m) => [...m.values()])) } : undefined;
}

const ERROR_PATHS = { infra_error: OUTLINE_PATHS.infra_error, harness_error: OUTLINE_PATHS.harness_error, evaluation_error: OUTLINE_PATHS.evaluation_error };

/** `GET /api/runs`: every run, newest first. */
export function listRunItems(store: RunStore, opts: ReadOptions = {}): RunListItem[] {
  return store.listRuns().map((run) => listItem(run, store.episodeOutlines(run.id, ERROR_PATHS), firstPrompt(store, run.id), opts));
}

/** `GET /api/runs/:id`, or undefined for an unknown run. */
export function runDetail(store: RunStore, id: string, opts: ReadOptions = {}): RunDetail | undefined {
  const run = store.getRun(id);
  if (!run) return undefined;
  const outlines = store.episodeOutlines(id, OUTLINE_PATHS);
  const prompt = firstPrompt(store, id);
  const episodes = matrixOrder(outlines.map(outlineView));
  let stored: Set<string> | undefined;
  return {
    run: listItem(run, outlines, prompt, opts),
    summary: run.summary,
    prompt,
    episodes,
    usage_by_role: usageRows((run.summary as Loose | null)?.usage),
    by_label: labelBreakdown(episodes),
    optimizer: optimizerView(
      id,
      run.record,
      run.created_at,
      (label, taskId, trial) => outlines.find((o) => o.label === label && o.task_id === taskId && (trial === null || o.trial === trial))?.episode_id ?? null,
      (episodeId) => (stored ??= new Set(outlines.map((o) => o.episode_id))).has(episodeId),
    ),
  };
}

function position(order: readonly EpisodeOutlineView[], episodeId: string): EpisodeDetail['position'] {
  const index = order.findIndex((e) => e.episode_id === episodeId);
  return {
    index,
    total: order.length,
    prev: index > 0 ? order[index - 1].episode_id : null,
    next: index >= 0 && index < order.length - 1 ? order[index + 1].episode_id : null,
  };
}

const runRef = (run: Pick<RunRow, 'id' | 'name' | 'kind' | 'domain'>): EpisodeDetail['run'] => ({ id: run.id, name: run.name, kind: run.kind, domain: run.domain });

/** The matrix cell of a stored episode. */
function outlineOf(runId: string, e: StoredEpisode): EpisodeOutlineView {
  const r = e.record;
  return outlineView({ run_id: runId, episode_id: e.episodeId, task_id: r.task.id, trial: r.trial, label: r.label, reward: e.reward, partial: e.partial, termination: r.termination.reason, extracted: extractOutline(r) });
}

/** `GET /api/runs/:id/episodes/:eid`, or undefined when the run or the episode is unknown. */
export function episodePayload(store: RunStore, runId: string, episodeId: string): EpisodeDetail | undefined {
  const episode = readEpisodeLog(store, runId, episodeId);
  const run = episode && store.listRuns().find((r) => r.id === runId);
  if (!episode || !run) return undefined;
  const order = matrixOrder(store.episodeOutlines(runId).map((o) => outlineView(o)));
  return episodeDetail(episode, runRef(run), outlineOf(runId, episode), position(order, episodeId));
}

/** Every episode page of a run whose detail is `detail` (for the static export). */
export function allEpisodePayloads(store: RunStore, detail: RunDetail): Record<string, EpisodeDetail> {
  const out: Record<string, EpisodeDetail> = {};
  const byId = new Map(detail.episodes.map((e) => [e.episode_id, e]));
  for (const episode of readEpisodeLogs(store, detail.run.id)) {
    const outline = byId.get(episode.episodeId) ?? outlineOf(detail.run.id, episode);
    out[episode.episodeId] = episodeDetail(episode, runRef(detail.run), outline, position(detail.episodes, episode.episodeId));
  }
  return out;
}

/** `GET /api/compare?a=&b=`: the comparison, or the id that is unknown. */
export function comparePayload(store: RunStore, a: string, b: string, opts: ReadOptions = {}): CompareView | { missing: string } {
  const da = runDetail(store, a, opts);
  if (!da) return { missing: a };
  const db = runDetail(store, b, opts);
  if (!db) return { missing: b };
  return compareRuns(da, db);
}

/**
 * `GET /api/runs/:id/search?q=`: the run's episodes matching `q` in matrix order, or undefined for
 * an unknown run. With `cache` (a viewer server's), a run's index is built once and kept while its
 * episodes are unchanged; without, it is built for this search.
 */
export function searchRun(store: RunStore, id: string, q: string, cache?: SearchIndexCache): SearchResult | undefined {
  if (!store.listRuns().some((r) => r.id === id)) return undefined;
  const index = cache ? cache.index(store, id) : buildSearchIndex(store, id);
  return { q, hits: searchIndex(index, q) };
}
