/**
 * The one writer and the one reader of run-log records (src/spec/run-log.ts) in the run store.
 * Every command stores its episodes through {@link writeEpisodeLogs}; the viewer, `run --resume`,
 * `rescore` and reports read them through {@link readEpisodeLogs} / {@link readEpisodeLog}, typed
 * by the zod schema, never by guessing at shapes.
 */
import { BadInputError, jsonPath } from '../spec/errors.js';
import { EpisodeRunLogSchema, scoresOf, type EpisodeRunLog } from '../spec/run-log.js';
import type { EpisodeRow, RunStore } from './store.js';

/**
 * The record as stored, checked against the schema. `opts.jitless`: without zod's compiled fast
 * path (the same result and errors), for a check made once per run, where compiling it costs more
 * than it saves.
 * @throws BadInputError naming the run, the episode and the first JSON path that does not fit.
 */
export function parseEpisodeLog(value: unknown, where: { runId: string; episodeId: string }, opts: { jitless?: boolean } = {}): EpisodeRunLog {
  const parsed = EpisodeRunLogSchema.safeParse(value, opts.jitless ? { jitless: true } : undefined);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new BadInputError(`episode ${where.episodeId} of run ${where.runId} is not a run-log record: ${issue.message}`, { path: jsonPath(issue.path) });
}

/** The store row of a record: indexed columns (task id, trial, label, reward, partial, termination) plus the record. */
export function episodeRowOf(runId: string, record: EpisodeRunLog): EpisodeRow {
  const { reward, partial } = scoresOf(record);
  return {
    run_id: runId,
    episode_id: record.episode_id,
    task_id: record.task.id,
    trial: record.trial,
    label: record.label,
    reward,
    partial,
    termination: record.termination.reason,
    result: record,
  };
}

/**
 * Appends the records of run `runId` in one transaction (a record with an episode id already
 * stored replaces it). Each is checked against the schema first, so nothing malformed is written.
 * @throws BadInputError for a record that does not fit the schema (nothing is written) or a locked store.
 */
export function writeEpisodeLogs(store: RunStore, runId: string, records: readonly EpisodeRunLog[]): void {
  const rows = records.map((r) => episodeRowOf(runId, parseEpisodeLog(r, { runId, episodeId: r.episode_id })));
  store.appendEpisodes(rows);
}

/**
 * Whether every record {@link queueEpisodeLogs} is given is checked against the schema: set
 * `SERVICEGYM_CHECK_RECORDS=1` (the test suite does); otherwise the first record of each run in
 * each store is.
 */
const CHECK_EVERY_RECORD = process.env.SERVICEGYM_CHECK_RECORDS === '1';
const checkedRuns = new WeakMap<object, Set<string>>();

/**
 * A sink whose records are checked as another run's: the per-episode captures of a queue worker or
 * a `run --threads` thread (each episode its own capture and run id) check their run's first record only.
 */
export interface RecordCheckScope {
  checkScope?: { key: object; runId: string };
}

/** Whether `runId`'s next record in `store` is to be checked (see {@link CHECK_EVERY_RECORD}). */
function toCheck(sink: object, id: string): boolean {
  if (CHECK_EVERY_RECORD) return true;
  const scope = (sink as RecordCheckScope).checkScope;
  const store = scope?.key ?? sink;
  const runId = scope?.runId ?? id;
  let runs = checkedRuns.get(store);
  if (!runs) checkedRuns.set(store, (runs = new Set()));
  if (runs.has(runId)) return false;
  runs.add(runId);
  return true;
}

/**
 * {@link writeEpisodeLogs} for records servicegym built itself (`taskEpisodeLog` in src/run/episode-log.ts, typed by
 * the schema), batched: the records are serialized now and queued in the store
 * ({@link RunStore.queueEpisodes}), written within 20 ms together with other queued episodes and
 * receipts, and before any read of the store's episodes. For a run's stream of finished episodes.
 * Stored as built (no copy): the schema check — of their stored JSON form — is made on the first
 * record of each run, or on every record with `SERVICEGYM_CHECK_RECORDS=1` (tests, debugging); a
 * record read from a file or a user goes through {@link writeEpisodeLogs}, which checks every one.
 * @throws BadInputError for a checked record that does not fit the schema (nothing is queued) or a locked store.
 */
export function queueEpisodeLogs(store: Pick<RunStore, 'queueEpisodes'>, runId: string, records: readonly EpisodeRunLog[]): void {
  for (const r of records) if (toCheck(store, runId)) parseEpisodeLog(JSON.parse(JSON.stringify(r)), { runId, episodeId: r.episode_id }, { jitless: !CHECK_EVERY_RECORD });
  store.queueEpisodes(records.map((r) => episodeRowOf(runId, r)));
}

/** A stored episode: the row's indexed columns and its record. */
export interface StoredEpisode {
  runId: string;
  episodeId: string;
  reward: number | null;
  partial: number | null;
  record: EpisodeRunLog;
}

function stored(row: EpisodeRow): StoredEpisode {
  return {
    runId: row.run_id,
    episodeId: row.episode_id,
    reward: row.reward,
    partial: row.partial,
    record: parseEpisodeLog(row.result, { runId: row.run_id, episodeId: row.episode_id }),
  };
}

/**
 * Every episode of run `runId` in insertion order, typed; `[]` for an unknown run.
 * @throws BadInputError when a stored episode is not a run-log record.
 */
export function readEpisodeLogs(store: RunStore, runId: string): StoredEpisode[] {
  return store.episodes(runId).map(stored);
}

/**
 * One episode, typed, or undefined when the run has no such episode.
 * @throws BadInputError when it is not a run-log record.
 */
export function readEpisodeLog(store: RunStore, runId: string, episodeId: string): StoredEpisode | undefined {
  const row = store.getEpisode(runId, episodeId);
  return row && stored(row);
}

/**
 * JSON paths (SQLite syntax) into a stored record, for {@link RunStore.episodeOutlines}: cheap
 * outlines of large runs that parse only the picked values.
 */
export const RECORD_PATHS = {
  checks: '$.evaluation.checks',
  reward_basis: '$.evaluation.reward_basis',
  rubric: '$.evaluation.rubric',
  infra_error: '$.termination.infra_error',
  harness_error: '$.termination.harness_error',
  evaluation_error: '$.evaluation_error',
  case_result: '$.evaluation.result',
  dimensions: '$.evaluation.dimensions',
  critical: '$.evaluation.critical',
  persona: '$.persona',
  usage: '$.usage',
  first_message: '$.messages[0]',
} as const;
