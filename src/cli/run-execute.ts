/**
 * The run itself, for `servicegym run` (src/cli/run-command.ts): the run row stored with its
 * settings before the first episode, the episodes run in this process (src/run/task-run.ts) or
 * on worker threads or queue workers (src/cli/run-queue.ts) under a progress bar, and the run
 * row stored again with the summary, the usage and what the attempt served from stored calls.
 */
import type { RunStore } from '../store/store.js';
import { episodesPerTrial, runDomainTasks, type DomainEpisodeRecord } from '../run/task-run.js';
import { mergeUsage } from '../run/run-tasks.js';
import { reportRowOf, type EpisodeReportRow } from '../run/report-rows.js';
import type { RunAttempt } from '../run/receipt-accounting.js';
import type { RunSummary } from '../run/summary.js';
import type { UsageByRole } from '../models/usage.js';
import type { RunEpisode, Shard } from '../queue/shard.js';
import { shellArg } from '../util/shell-arg.js';
import { surfaceOptionsConfig, surfaceOptionsOf } from './surface-flags.js';
import { datasetVariantConfig } from './dataset-variant.js';
import { runExtrasMeta } from './run-options.js';
import { resumeSettingsMeta } from './run-stored-settings.js';
import { secretValues } from '../models/config.js';
import { RunProgress, RunTally, reportedCost } from './run-progress.js';
import { episodeJsonText, latencyOf } from './run-end.js';
import { episodeKey, runEpisodeJson } from './run-json.js';
import type { RunPlan } from './run-plan.js';
import type { RunStart } from './run-resume.js';
import { watchInterrupt } from './run-interrupt.js';

/** What the episodes of a run came to, wherever they ran. */
export interface RunResult {
  summary: RunSummary;
  usage: UsageByRole;
  /** Why the provider stopped the run (a refused credential), when it did. */
  stopped?: string;
  /** The `--max-cost` stop or a Ctrl-C (src/cli/run-interrupt.ts), when one came: why, and how many episodes did not start. */
  halted?: { reason: string; notStarted: number; interrupted?: boolean };
  /** The stop signal (Ctrl-C's SIGINT, SIGTERM) that came while the episodes ran in this process, whether or not every episode had started. */
  signal?: NodeJS.Signals;
  /** Report rows of this attempt's episodes, when read back from the store (threads, queue). */
  rows?: EpisodeReportRow[];
  records: DomainEpisodeRecord[];
}

/** A run after its episodes, its store closed: what the end report needs. */
export interface RunOutcome {
  res: RunResult;
  /** `--name`, else `run <domain>`. */
  runName: string;
  /** Report rows of the episodes this process ran (in-process runs; empty otherwise). */
  fresh: EpisodeReportRow[];
  /** Model latency in seconds per episode `task#trial` of the in-process run. */
  latency: Map<string, number>;
  /** With `--json`: each in-process episode's serialized entry, by {@link episodeKey}. */
  jsonTexts: Map<string, Buffer>;
  /** The provider-reported cost of the run in USD as counted (kept episodes included), null when no call reported one. */
  costUsd: number | null;
  /** Usage of paid calls no episode accounts for, after this attempt's replayed calls. */
  unattached: UsageByRole;
}

/** Where and how a run's episodes run: the run's identity besides its plan and start. */
export interface RunPlace {
  flags: Record<string, any>;
  plan: RunPlan;
  runId: string;
  store: RunStore;
  start: RunStart;
  /** `--shard i/N` parsed, and the shard module (loaded only with the flag). */
  shard?: Shard;
  sharding?: typeof import('../queue/shard.js');
}

/**
 * Runs the episodes of run `runId` not yet finished (`start.finished`; with `--shard` only the
 * shard's) and stores the run row before and after, then closes `store` (its last checkpoint
 * runs while the report is printed). The run row's `summary` holds the settings (models, tasks,
 * trials, personas, dataset, surface, the attempts …), then also the run summary and usage.
 * Errors of the model calls end in the episodes (infrastructure errors), not here.
 */
export async function executeRun(place: RunPlace): Promise<RunOutcome> {
  const { flags, plan, runId, store, start, shard } = place;
  const attempts: RunAttempt[] = [...start.attempts, { attempt: start.attempts.length + 1, pid: process.pid, started_at: new Date().toISOString(), first_receipt_seq: store.receiptCount(runId) }];
  const meta = runMeta(flags, plan, shard, attempts);
  plan.log(`run ${runId} (resume a killed run with --resume ${shellArg(runId)})`);
  const runName = plan.extras.name ?? `run ${flags.domain}`;
  store.saveRun({ id: runId, kind: 'run', name: runName, domain: flags.domain, created_at: start.createdAt, summary: meta, record: null });
  const bar = new RunProgress(new RunTally(reportedCost(mergeUsage([...start.finished.flatMap((f) => (f.usage ? [f.usage] : [])), start.unattached]))), flags.quiet === true);
  // A resumed run's pass rate covers its kept episodes too, as its episode count does.
  for (const row of start.kept) bar.tally.addScore(row);
  const only = shard ? place.sharding!.shardEpisodes(plan.tasks, plan.trials, plan.personas, shard) : undefined;
  bar.start(only ? only.length : plan.tasks.reduce((n, t) => n + plan.trials * episodesPerTrial(t, plan.personas), 0), start.finished.length);
  const maxCost = plan.extras.maxCostUsd;
  const costHalt = () => (maxCost !== null && (bar.tally.costUsd ?? 0) >= maxCost ? `--max-cost $${maxCost} reached (provider-reported cost $${bar.tally.costUsd!.toFixed(4)})` : undefined);
  // Episodes leave memory once stored: the report keeps one row (and the model latency) per episode.
  const fresh: EpisodeReportRow[] = [];
  const latency = new Map<string, number>();
  // --json: an episode's entry in the report, serialized as the episode ends (while the run
  // waits on the model) rather than all at the end, keyed by task and trial.
  const jsonTexts = new Map<string, Buffer>();
  const res: RunResult = flags.queue || plan.threads > 1
    ? await (await import('./run-queue.js')).runQueued({ // BullMQ and Redis are loaded only for --queue
        flags, loaded: plan.loaded, tasks: plan.tasks, trials: plan.trials, personas: plan.personas, strict: plan.strict, temperature: plan.temperature, judgeVotes: plan.judgeVotes, maxSteps: plan.extras.maxSteps ?? null, runId, store, finished: start.finished, only,
        surface: plan.surface, surfaceOptions: surfaceOptionsOf(flags), imageDelivery: flags.screenshots, systemPrompt: plan.extras.systemPrompt, threads: plan.threads,
        halt: maxCost !== null ? costHalt : undefined,
        onStored: (n, label, cost, row) => (bar.tally.addCost(cost), bar.tally.addScore(row), bar.count(n, label)),
      })
    : await runInProcess(place, costHalt, (halt) => runDomainTasks({
        loaded: plan.loaded, tasks: plan.tasks, trials: plan.trials, concurrency: Number(flags.concurrency), agent: 'llm', user: 'llm', agentModel: plan.agentModel, userModel: plan.userModel, judge: plan.judge, judgeVotes: plan.judgeVotes,
        temperature: plan.temperature, store, runId, finished: start.finished, personas: plan.personas, strict: plan.strict, only, surface: plan.surface, imageDelivery: flags.screenshots, settings: plan.extras.maxSteps ? { maxSteps: plan.extras.maxSteps } : undefined,
        ...(plan.extras.systemPrompt !== null ? { systemPrompt: plan.extras.systemPrompt } : {}),
        halt,
        keepRecords: false,
        attempt: attempts[attempts.length - 1].attempt,
        replays: start.replays,
        onProgress: (done, _total, rec) => {
          const row = reportRowOf(rec);
          fresh.push(row);
          if (flags.json) jsonTexts.set(episodeKey(row), Buffer.from(episodeJsonText(runEpisodeJson(row, plan.personas, !!flags.resume))));
          for (const [k, v] of latencyOf([rec])) latency.set(k, v);
          bar.episode(done, rec);
        },
      }));
  bar.stop();
  const unattached = storeRunEnd(place, { meta, attempts, runName, res });
  return { res, runName, fresh, latency, jsonTexts, costUsd: bar.tally.costUsd, unattached };
}

/**
 * Runs the in-process episodes (`episodes(halt)`) under a watch for Ctrl-C and SIGTERM
 * (src/cli/run-interrupt.ts): `halt` gives the first signal's reason, else `costHalt`'s; the
 * result's `halted.interrupted` says whether the signal was what stopped it, and `signal` which
 * signal came (also when every episode had started before it).
 */
async function runInProcess(place: RunPlace, costHalt: () => string | undefined, episodes: (halt: () => string | undefined) => Promise<RunResult>): Promise<RunResult> {
  // A live progress bar (a terminal, no -q) holds the last line: the message starts below it. In a pipe or file, or with -q, every line is whole already.
  const below = process.stderr.isTTY && !place.flags.quiet ? '\n' : '';
  const watch = watchInterrupt((line) => process.stderr.write(`${below}${line}\n`), `--resume ${shellArg(place.runId)}`);
  try {
    const res = await episodes(() => watch.reason() ?? costHalt());
    const signal = watch.signal();
    const signalled = signal ? { ...res, signal } : res;
    return res.halted && watch.gave(res.halted.reason) ? { ...signalled, halted: { ...res.halted, interrupted: true } } : signalled;
  } finally {
    watch.dispose();
  }
}

/**
 * The settings the run row's `summary` holds from the start (the shard, models, provider, tasks,
 * trials, temperature, personas, dataset, mode, strictness, surface and its options, dataset
 * variant, screenshots, left-out known-bad tasks, `attempts`, runExtrasMeta, and what a later
 * `--resume` takes besides: resumeSettingsMeta, src/cli/run-stored-settings.ts), keys in that
 * order. `attempts` is held by reference: a replayed-calls count set later is stored at the end.
 */
function runMeta(flags: Record<string, any>, plan: RunPlan, shard: Shard | undefined, attempts: RunAttempt[]): Record<string, unknown> {
  const { agentModel, userModel, judge, tasks, trials, temperature, personas, loaded, strict, surface, excluded, extras } = plan;
  return { ...(shard ? { shard } : {}), agent_model: agentModel.model, user_model: userModel.model, judge_model: judge?.model ?? null, provider: agentModel.provider, tasks: tasks.length, task_ids: tasks.map((t) => t.id).join(','), trials, temperature, personas: personas ?? null, data: loaded.source, mode: loaded.mode, strict, surface: surface.name, ...surfaceOptionsConfig(flags), ...datasetVariantConfig(flags), screenshots: surface.images ? flags.screenshots : null, excluded_known_bad: excluded.map((k) => k.id), attempts, ...runExtrasMeta(extras), ...resumeSettingsMeta(flags, plan, secretValues()) };
}

/**
 * Stores the run row at the end of an attempt: the settings `meta`, the summary, the usage (the
 * unattached calls added to `res.usage`, in place), and what no episode accounts for or was
 * served from stored receipts; then closes the store. Returns the unattached usage after the
 * calls this attempt replayed (which are in their episodes' usage, counted once).
 */
function storeRunEnd(place: RunPlace, end: { meta: Record<string, unknown>; attempts: RunAttempt[]; runName: string; res: RunResult }): UsageByRole {
  const { flags, plan, runId, store, start } = place;
  const { meta, attempts, runName, res } = end;
  const { paid, replays } = start;
  let unattached = start.unattached;
  // Stored calls served to this attempt's episodes are in their usage: no longer unattached, and counted once.
  const replayedUsage = replays?.servedUsage() ?? {};
  if (paid && replays?.servedSeqs.size) {
    unattached = paid.unattached(replays.servedSeqs);
    attempts[attempts.length - 1].replayed_calls = replays.servedSeqs.size;
    plan.log(`${replays.servedSeqs.size} call(s) of ${replays.episodes} episode(s) in flight served from their stored receipts, not sent again`);
  }
  if (Object.keys(unattached).length) res.usage = mergeUsage([res.usage, unattached]);
  store.saveRun({ id: runId, kind: 'run', name: runName, domain: flags.domain, created_at: start.createdAt, summary: { ...meta, ...res.summary, tasks: plan.tasks.length, usage: res.usage, ...(Object.keys(unattached).length ? { unattached_usage: unattached } : {}), ...(Object.keys(replayedUsage).length ? { replayed_usage: replayedUsage } : {}), ...(res.halted ? { halted: { reason: res.halted.reason, not_started: res.halted.notStarted } } : {}) }, record: null });
  // Stored: closed now, so that the store's last checkpoint (on its worker thread) runs while the report is printed.
  store.close();
  return unattached;
}
