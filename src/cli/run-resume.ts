/**
 * The run id of `servicegym run` and whether it starts a new run or continues a stored one
 * (`--resume RUN_ID`): a new run never takes over a stored id; a resumed run must have been
 * started by `run` with the same settings and personas, keeps its finished episodes, the date it
 * was started and its attempts, and (in one process) serves the episodes it runs again the calls
 * they stored (src/run/episode-replay.ts).
 */
import type { RunRow, RunStore } from '../store/store.js';
import type { FinishedEpisode } from '../run/run-tasks.js';
import type { EpisodeReportRow } from '../run/report-rows.js';
import type { PaidCalls, RunAttempt } from '../run/receipt-accounting.js';
import type { EpisodeReplays } from '../run/episode-replay.js';
import type { UsageByRole } from '../models/usage.js';
import type { Shard } from '../queue/shard.js';
import { BadInputError } from '../spec/errors.js';
import { shellArg } from '../util/shell-arg.js';
import { canonicalEqual } from '../util/canonical.js';
import { runExtrasMeta } from './run-options.js';
import { otherSettingsError, resumableRun } from './run-stored-settings.js';
import { surfaceOptionsConfig } from './surface-flags.js';
import { datasetVariantConfig } from './dataset-variant.js';
import type { RunPlan } from './run-plan.js';

/**
 * The run's id: `--resume`'s, else `--run-id`'s, else `run-<domain>-<time>` (the current time,
 * ISO 8601 with `:` and `.` as `-`).
 * @throws BadInputError for an empty `--run-id` or `--resume`, and for `--shard` (`shard` given) without `--run-id` or `--resume`.
 */
export function runIdOf(flags: Record<string, any>, shard: Shard | undefined): string {
  // An empty id would be stored as a run no command, URL or --resume can name.
  if (flags.runId !== undefined && flags.runId.trim() === '') throw new BadInputError(`--run-id names no run (got '${flags.runId}'); give an id, or leave the flag out for run-<domain>-<time>`);
  // An empty --resume began a new run under the empty id (it read as no --resume).
  if (flags.resume !== undefined && flags.resume.trim() === '') throw new BadInputError(`--resume names no run (got '${flags.resume}'); give the id of the run to continue (servicegym view lists the stored runs)`);
  if (shard && !flags.runId && !flags.resume) throw new BadInputError('--shard needs --run-id NAME (the same on every shard), so that the shard stores merge into one run');
  return flags.resume ?? flags.runId ?? `run-${flags.domain}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
}

/** What a run starts from: nothing for a new run; a resumed run's stored state. */
export interface RunStart {
  /** The stored episodes that are not run again (those without an infrastructure error). */
  finished: FinishedEpisode[];
  /** Their report rows, in stored order. */
  kept: EpisodeReportRow[];
  /** ISO-8601 time the run was started (a resumed run keeps its own). */
  createdAt: string;
  /** Usage of paid calls no kept episode accounts for (a resumed run's episodes killed in flight). */
  unattached: UsageByRole;
  /** The run's earlier attempts (`summary.attempts`), oldest first; this attempt is not in it yet. */
  attempts: RunAttempt[];
  /** A resumed run's paid calls. */
  paid?: PaidCalls;
  /** A resumed one-process run: the stored calls of the episodes it runs again. */
  replays?: EpisodeReplays;
}

/**
 * The start of run `runId` in `store` (at `flags.db`): a new run's (nothing kept, started now),
 * or with `--resume` the stored run's ({@link resumedRun}).
 * @throws BadInputError (naming `flags.db`) when a new run's id is already stored, or a resumed run cannot be continued.
 */
export async function runStart(store: RunStore, runId: string, flags: Record<string, any>, plan: RunPlan, shard?: Shard): Promise<RunStart> {
  // A resumed run keeps the date it was started.
  const createdAt = new Date().toISOString();
  // A new run never takes over a stored one: its episodes, receipts and summary would mix with
  // (or replace) those of the run already stored under that id.
  const existing = flags.resume ? undefined : store.getRun(runId);
  if (existing) {
    throw new BadInputError(`run '${runId}' is already in the store (started ${existing.created_at}); continue it with --resume ${shellArg(runId)}, or give another --run-id`, { file: flags.db });
  }
  if (flags.resume) return resumedRun(store, runId, flags, plan, shard);
  return { finished: [], kept: [], createdAt, unattached: {}, attempts: [] };
}

/**
 * A resumed run's start: its stored episodes without an infrastructure error are kept, its paid
 * calls that no kept episode accounts for count as unattached, and (one process: no `--queue`,
 * one thread) the episodes it runs again are served their stored calls. Logs what it keeps.
 * @throws BadInputError (naming `flags.db`) when no run `runId` is stored, it was not started by
 *   `run` (a validate, campaign … run), or it was started with other settings or personas.
 */
async function resumedRun(store: RunStore, runId: string, flags: Record<string, any>, plan: RunPlan, shard: Shard | undefined): Promise<RunStart> {
  const stored = resumableRun(store, runId, flags.db);
  const createdAt = stored.created_at;
  const started = (stored.summary ?? {}) as Record<string, unknown>;
  checkSameSettings(runId, stored, flags, plan, shard);
  const [{ readEpisodeLogs }, { PaidCalls }, { reportRowOfStored }, { EpisodeReplays, storedCalls }] = await Promise.all([import('../store/run-log.js'), import('../run/receipt-accounting.js'), import('../run/report-rows.js'), import('../run/episode-replay.js')]);
  const storedRows = readEpisodeLogs(store, runId);
  const keptRows = storedRows.filter((e) => !e.record.termination.infra_error);
  // Calls of episodes killed before they were stored were paid for: they count as unattached
  // (until served again to their episode, below).
  const receipts = store.receipts(runId);
  const paid = new PaidCalls(receipts, keptRows.map((e) => e.record));
  const unattached = paid.unattached();
  const attempts = Array.isArray(started.attempts) ? (started.attempts as RunAttempt[]) : [];
  const kept = keptRows.map(reportRowOfStored);
  const finished: FinishedEpisode[] = storedRows.map((e) => {
    const r = e.record;
    return { taskId: r.task.id, trial: r.trial, termination: r.termination.reason as never, reward: e.reward, partial: e.partial, infraError: !!r.termination.infra_error, evaluationError: !!r.evaluation_error, usage: r.usage as UsageByRole };
  })
    .filter((e) => !e.infraError);
  let replays: EpisodeReplays | undefined;
  // In one process, an episode that runs again is served the calls it stored (src/run/episode-replay.ts).
  if (!flags.queue && plan.threads === 1) {
    const kept = new Set(finished.map((f) => `${f.taskId}\u0000${f.trial}`));
    replays = new EpisodeReplays(storedCalls(receipts, (taskId, trial) => !kept.has(`${taskId}\u0000${trial}`)));
  }
  const before = (store.getRun(runId)?.summary as { personas?: string[] } | null)?.personas ?? null;
  if (JSON.stringify(before) !== JSON.stringify(plan.personas ?? null)) {
    throw new BadInputError(`run '${runId}' was started with personas ${before ? before.join(',') : '(none)'}; resume it with the same --personas`, { file: flags.db });
  }
  const taken = plan.stored.text ? `settings from the stored run: ${plan.stored.text}; ` : '';
  plan.log(`resuming ${runId}: ${taken}${finished.length} finished episodes kept${replays?.size ? `; ${replays.size} episode(s) in flight continue from their stored calls` : ''}`);
  return { finished, kept, createdAt, unattached, attempts, paid, replays };
}

/**
 * Refuses to resume run `runId` with other settings than it was started with: domain, models,
 * trials, dataset, mode, temperature, task ids, strictness, step limit, prompt, surface, surface
 * options, dataset variant, `--shard` (`shard`; none for a run stored without one), the judge's
 * votes (with a judge) and the image delivery (`screenshots`, on a surface with images), each
 * compared when the stored summary has it. A prompt file taken from the stored run (src/cli/run-stored-settings.ts) that no longer has the stored text is
 * refused on its own, naming the file.
 * @throws BadInputError (naming `flags.db`) listing each differing setting as `key: stored vs now`.
 */
function checkSameSettings(runId: string, stored: Pick<RunRow, 'domain' | 'summary'>, flags: Record<string, any>, plan: RunPlan, shard: Shard | undefined): void {
  // A run stored without a shard is no shard run.
  const was = { shard: null, ...(stored.summary ?? {}) } as Record<string, unknown>;
  const now: Record<string, unknown> = { domain: flags.domain, agent_model: plan.agentModel.model, user_model: plan.userModel.model, judge_model: plan.judge?.model ?? null, trials: plan.trials, data: plan.loaded.source, mode: plan.loaded.mode, temperature: plan.temperature, task_ids: plan.tasks.map((t) => t.id).join(','), strict: plan.strict, max_steps: plan.extras.maxSteps, prompt_sha256: runExtrasMeta(plan.extras).prompt_sha256, surface: plan.surface.name, ...surfaceOptionsConfig(flags), ...datasetVariantConfig(flags) };
  if (plan.stored.flags.has('promptFile') && 'prompt_sha256' in was && was.prompt_sha256 !== now.prompt_sha256) {
    throw new BadInputError(`run '${runId}' was started with the prompt file ${shellArg(String(plan.extras.promptFile))}, which has changed since (sha256 ${String(was.prompt_sha256).slice(0, 12)}… then, ${String(now.prompt_sha256).slice(0, 12)}… now); restore its text, or give --prompt-file with the run's prompt`, { file: flags.db });
  }
  // A data folder taken from the store is the run's own, named by its absolute path now (the stored `data` may be relative).
  if (plan.stored.flags.has('dataDir')) delete now.data;
  // A shard's store holds that shard's episodes only: another shard, or none, is refused.
  now.shard = shard ? { index: shard.index, count: shard.count } : null;
  // The judge's votes decide its verdicts (without a judge there are none to compare); the image
  // delivery is what the agent sees, on a surface with images (a run stored before 2 Dec 2026 records
  // it on every surface).
  if (plan.judge) now.judge_votes = plan.judgeVotes;
  if (plan.surface.images) now.screenshots = flags.screenshots;
  const differs = Object.keys(now).filter((k) => k in was && !canonicalEqual(was[k], now[k]) && !(k === 'domain' && stored.domain === now.domain));
  if (stored.domain !== flags.domain) differs.unshift('domain');
  if (differs.length) throw otherSettingsError(runId, differs.map((k) => [k, k === 'domain' ? stored.domain : was[k], now[k]] as const), flags.db);
}
