/**
 * Runs without a broker: `--shard i/N` runs a deterministic 1/N of a run's episodes on each
 * machine (same tasks, trials and personas give the same split anywhere), each into its own store;
 * {@link mergeShardStores} joins the shard stores into one run.
 *
 * The split: the run's episodes in run order (trial-major: every task's trial 0, then trial 1, …,
 * as `runTasks` schedules them) are dealt round-robin, episode n to shard (n mod N) + 1.
 */
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';
import { parsePersonas } from '../users/personas.js';
import { episodesPerTrial, personaOfTrial } from '../run/task-run.js';
import type { EpisodeKey } from '../run/run-tasks.js';
import { RunStore, type RunRow } from '../store/store.js';
import { mergeUsage } from '../run/run-tasks.js';
import type { UsageByRole } from '../models/usage.js';
import { storedRunReport } from './run-result.js';
import { configDifferences } from '../evaluation/run-comparison.js';

/** Shard `index` (1-based) of `count`. */
export interface Shard {
  index: number;
  count: number;
}

/** Parses `i/N` (1 ≤ i ≤ N); throws BadInputError otherwise. */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(String(text).trim());
  const index = m ? Number(m[1]) : NaN;
  const count = m ? Number(m[2]) : NaN;
  if (!(count >= 1 && index >= 1 && index <= count)) throw new BadInputError(`--shard must be i/N with 1 <= i <= N, e.g. 2/4, got '${text}'`);
  return { index, count };
}

/** One episode of a run in run order, with the persona it plays (null without personas). */
export interface RunEpisode extends EpisodeKey {
  task: Task;
  persona: string | null;
}

/** Every episode of a run in run order (trial-major), as `runDomainTasks` schedules them. */
export function runEpisodes(tasks: readonly Task[], trials: number, personas?: readonly string[]): RunEpisode[] {
  const sets = tasks.map((t) => personas ?? (t.servicegym?.personas ? parsePersonas(t.servicegym.personas) : undefined));
  const trialsOf = tasks.map((t) => episodesPerTrial(t, personas) * trials);
  const out: RunEpisode[] = [];
  for (let trial = 0; trial < Math.max(0, ...trialsOf); trial++) {
    tasks.forEach((task, i) => {
      if (trial >= trialsOf[i]) return;
      const set = sets[i];
      out.push({ task, taskId: task.id, trial, persona: set ? personaOfTrial(set, trial) : null });
    });
  }
  return out;
}

/** The episodes of shard `shard` (round-robin over the run order). */
export function shardEpisodes(tasks: readonly Task[], trials: number, personas: readonly string[] | undefined, shard: Shard): RunEpisode[] {
  return runEpisodes(tasks, trials, personas).filter((_, n) => n % shard.count === shard.index - 1);
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

/** What {@link mergeShardStores} did, per run. */
export interface MergedRun {
  runId: string;
  shards: number[];
  count: number;
  episodes: number;
  receipts: number;
}

/**
 * Merges the runs of the shard stores `inputs` into the store at `output` (created if missing):
 * every run with shard metadata becomes one run with all its shards' episodes and receipts
 * (receipts renumbered), its summary recomputed from the episodes. Non-shard runs are copied as
 * they are.
 * @throws BadInputError when shards of a run are missing or repeated, disagree on their count or
 *   on what they ran (models, tasks, trials, personas, dataset, surface ...: shardDifferences), or
 *   the output already holds a run of that id.
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
      const first = parts[0].row;
      const { shard: _s, ...meta } = (first.summary ?? {}) as Record<string, unknown>;
      const taskOrder = typeof meta.task_ids === 'string' ? meta.task_ids.split(',') : [];
      const report = storedRunReport(out, runId, taskOrder);
      const unattached = mergeUsage(parts.flatMap((p) => ((p.row.summary as { unattached_usage?: UsageByRole } | null)?.unattached_usage ? [(p.row.summary as { unattached_usage: UsageByRole }).unattached_usage] : [])));
      const usage = Object.keys(unattached).length ? mergeUsage([report.usage, unattached]) : report.usage;
      const summary = count > 1 || shards[0] ? { ...meta, ...report.summary, tasks: meta.tasks ?? report.summary.tasks, usage, merged_shards: count } : first.summary;
      out.saveRun({ ...first, summary });
      merged.push({ runId, shards: indexes, count, episodes, receipts });
    }
    return merged;
  } finally {
    out?.close();
    for (const s of sources) s.store.close();
  }
}

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
