/**
 * `servicegym merge-shards`' merge: the stores of a sharded run (`run --shard i/N --run-id ID`,
 * one per machine; the split is src/queue/shard.ts) joined into one store, each run with every
 * shard's episodes and receipts and its summary recomputed. In steps: the shard stores read and
 * their runs grouped by id ({@link shardGroups}), each group's shards checked — count, none
 * missing or repeated ({@link checkedShards}), the same settings ({@link shardDifferences}) —
 * before the output store is opened, then each run copied ({@link copyShards}) and its summary
 * recomputed ({@link mergedSummary}).
 */
import { BadInputError } from '../spec/errors.js';
import { RunStore, type RunRow } from '../store/store.js';
import { mergeUsage } from '../run/run-tasks.js';
import type { UsageByRole } from '../models/usage.js';
import { storedRunReport } from './run-result.js';
import { configDifferences } from '../evaluation/run-comparison.js';
import type { Shard } from './shard.js';

/** What {@link mergeShardStores} did, per run. */
export interface MergedRun {
  runId: string;
  /** The shard indexes given (1-based, sorted); [1] for a run that was not sharded. */
  shards: number[];
  /** The run's shard count N (1: not sharded). */
  count: number;
  /** Episodes and receipts copied into the output store. */
  episodes: number;
  receipts: number;
}

/**
 * Merges the runs of the shard stores `inputs` into the store at `output` (created if missing):
 * every run with shard metadata becomes one run with all its shards' episodes and receipts
 * (receipts renumbered), its summary recomputed from the episodes. Non-shard runs are copied as
 * they are. Every shard set is checked before the output store is opened (a refused merge
 * creates no file), and the output's runs before anything is copied. The stores are closed on
 * return and on error.
 * @throws BadInputError when an input is no store, shards of a run are missing or repeated,
 *   disagree on their count or on what they ran (models, tasks, trials, personas, dataset,
 *   surface ...: shardDifferences), or the output already holds a run of that id.
 */
export function mergeShardStores(output: string, inputs: readonly string[]): MergedRun[] {
  const sources = inputs.map((file) => ({ file, store: RunStore.open(file, { readonly: true }) }));
  let out: RunStore | undefined;
  try {
    // Every shard set is checked before the output store is opened: a refused merge creates no file.
    const plan = [...shardGroups(sources)].map(([runId, parts]) => ({ runId, parts, ...checkedShards(runId, parts) }));
    out = RunStore.open(output);
    for (const { runId } of plan) if (out.getRun(runId)) throw new BadInputError(`the output store already has a run '${runId}'`, { file: output });
    const merged: MergedRun[] = [];
    for (const { runId, parts, shards, count, indexes } of plan) {
      const { episodes, receipts } = copyShards(out, runId, parts);
      out.saveRun({ ...parts[0].row, summary: mergedSummary(out, runId, parts, shards, count) });
      merged.push({ runId, shards: indexes, count, episodes, receipts });
    }
    return merged;
  } finally {
    out?.close();
    for (const s of sources) s.store.close();
  }
}

/** One shard of a run: the run's row in a shard store, that store and its file. */
type ShardPart = { row: RunRow; store: RunStore; file: string };

/** The runs of `sources` by id, each with the stores (shards) that hold it, in the order given. */
function shardGroups(sources: readonly { file: string; store: RunStore }[]): Map<string, ShardPart[]> {
  const groups = new Map<string, ShardPart[]>();
  for (const s of sources) {
    for (const r of s.store.listRuns()) {
      const row = s.store.getRun(r.id)!;
      (groups.get(r.id) ?? groups.set(r.id, []).get(r.id)!).push({ row, store: s.store, file: s.file });
    }
  }
  return groups;
}

/**
 * The shards of run `runId` (one per part), their count and sorted indexes.
 * @throws BadInputError when the parts disagree on the count, a shard is missing or given twice,
 *   or a shard was run with other settings than the first.
 */
function checkedShards(runId: string, parts: readonly ShardPart[]): { shards: (Shard | undefined)[]; count: number; indexes: number[] } {
  const shards = parts.map((p) => (p.row.summary as { shard?: Shard } | null)?.shard);
  const count = shards[0]?.count ?? 1;
  if (shards.some((s) => (s?.count ?? 1) !== count)) throw new BadInputError(`run '${runId}': its stores disagree on the shard count (${shards.map((s) => (s ? `${s.index}/${s.count}` : 'unsharded')).join(', ')})`);
  const indexes = shards.map((s) => s?.index ?? 1).sort((a, b) => a - b);
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !indexes.includes(i));
  const twice = [...new Set(indexes.filter((x, i) => indexes.indexOf(x) !== i))];
  if (missing.length || twice.length) {
    const problems = [...twice.map((i) => `shard ${i} given twice`), ...(missing.length ? [`missing ${missing.join(', ')}`] : [])];
    throw new BadInputError(`run '${runId}': shards ${indexes.join(', ')} of ${count} given; ${problems.join('; ')}`);
  }
  const label = (i: number) => `shard ${shards[i] ? `${shards[i]!.index}/${shards[i]!.count}` : '1/1'} (${parts[i].file})`;
  for (let i = 1; i < parts.length; i++) {
    const diffs = shardDifferences(parts[0].row, parts[i].row);
    if (diffs.length) throw new BadInputError(`run '${runId}': ${label(i)} was run with other settings than ${label(0)} (${diffs.join('; ')}); its episodes would not be shards of one run: give every shard the same flags but --shard`);
  }
  return { shards, count, indexes };
}

/**
 * Settings the shards of one run may differ in: where each ran and how it was capped or labelled
 * (the provider host, its --max-cost, the prompt file's path), not what it ran.
 */
const PER_SHARD_SETTINGS = new Set(['provider', 'max_cost_usd', 'name', 'tags', 'prompt_file']);

/**
 * The settings in which a shard's run differs from another's (`key: a vs b`): models, tasks,
 * trials, personas, dataset, surface, strictness, step limit, prompt ... — everything
 * `compare` lists but {@link PER_SHARD_SETTINGS} and the shard itself, plus the task list.
 */
function shardDifferences(a: RunRow, b: RunRow): string[] {
  const settings = (r: RunRow) => {
    const { shard: _shard, ...config } = (r.summary ?? {}) as Record<string, unknown>;
    return { id: r.id, kind: r.kind, domain: r.domain, config, prompt: null, episodes: [] };
  };
  const taskIds = (r: RunRow) => (r.summary as { task_ids?: unknown } | null)?.task_ids ?? null;
  const diffs = configDifferences(settings(a), settings(b)).filter((d) => !PER_SHARD_SETTINGS.has(d.key.split('.')[0]));
  const lines = diffs.map((d) => `${d.key}: ${JSON.stringify(d.a)} vs ${JSON.stringify(d.b)}`);
  if (JSON.stringify(taskIds(a)) !== JSON.stringify(taskIds(b))) lines.unshift(`task_ids: ${JSON.stringify(taskIds(a))} vs ${JSON.stringify(taskIds(b))}`);
  return lines;
}

/**
 * Copies the receipts (renumbered from 0, shard after shard) and episodes of run `runId` from
 * each of `parts`, in order, into `out`; returns how many of each it copied.
 */
function copyShards(out: RunStore, runId: string, parts: readonly ShardPart[]): { episodes: number; receipts: number } {
  let seq = 0;
  let receipts = 0;
  let episodes = 0;
  for (const p of parts) {
    const rs = p.store.receipts(runId).map((r) => ({ ...r, seq: seq++ }));
    if (rs.length) out.appendReceipts(rs);
    receipts += rs.length;
    const es = p.store.episodes(runId);
    out.appendEpisodes(es);
    episodes += es.length;
  }
  return { episodes, receipts };
}

/**
 * The merged run's summary: the first shard's settings (without `shard`), the run summary
 * recomputed from the episodes copied into `out` (in the run's task order), the usage with every
 * shard's unattached calls added, `merged_shards: count`, and `halted` when any shard stopped
 * before all its episodes started ({@link mergedHalted}; the first shard's alone would say a run
 * is complete when a later shard stopped). A run that was not sharded keeps its own summary.
 */
function mergedSummary(out: RunStore, runId: string, parts: readonly ShardPart[], shards: readonly (Shard | undefined)[], count: number): RunRow['summary'] {
  const first = parts[0].row;
  const { shard: _s, halted: _h, ...meta } = (first.summary ?? {}) as Record<string, unknown>;
  const taskOrder = typeof meta.task_ids === 'string' ? meta.task_ids.split(',') : [];
  const report = storedRunReport(out, runId, taskOrder);
  const unattached = mergeUsage(parts.flatMap((p) => ((p.row.summary as { unattached_usage?: UsageByRole } | null)?.unattached_usage ? [(p.row.summary as { unattached_usage: UsageByRole }).unattached_usage] : [])));
  const usage = Object.keys(unattached).length ? mergeUsage([report.usage, unattached]) : report.usage;
  const halted = mergedHalted(parts);
  return count > 1 || shards[0] ? { ...meta, ...report.summary, tasks: meta.tasks ?? report.summary.tasks, usage, merged_shards: count, ...(halted ? { halted } : {}) } : first.summary;
}

/**
 * The shards' stored `halted` ({reason, not_started}: a shard stopped by Ctrl-C, SIGTERM or
 * `--max-cost`) as one: their distinct reasons joined by `; ` in the order given, and the sum of
 * their not-started episodes; undefined when no shard stopped so.
 */
function mergedHalted(parts: readonly ShardPart[]): { reason: string; not_started: number } | undefined {
  const stopped = parts.flatMap((p) => {
    const h = (p.row.summary as { halted?: { reason?: unknown; not_started?: unknown } } | null)?.halted;
    return h && typeof h.reason === 'string' && Number.isInteger(h.not_started) ? [{ reason: h.reason, not_started: h.not_started as number }] : [];
  });
  if (!stopped.length) return undefined;
  return { reason: [...new Set(stopped.map((h) => h.reason))].join('; '), not_started: stopped.reduce((n, h) => n + h.not_started, 0) };
}
