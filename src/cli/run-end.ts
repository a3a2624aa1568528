/**
 * What `run`, `validate` and `evaluate` print and write at the end, beyond the report: the
 * results file (`-o`), the `--fail-under` verdict, why pass^k stops before k = trials, and the
 * hint to open the run in the viewer or resume it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { byTaskOrder, type EpisodeReportRow } from '../run/report-rows.js';
import { summarizeRun, type RunSummary } from '../run/summary.js';
import { resultLineOf, resultsFileText, type EpisodeResultLine, type JunitOptions } from '../run/results-export.js';
import type { UsageByRole } from '../models/usage.js';
import { shellArg } from '../util/shell-arg.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';

/** The planned episodes of a stopped run that never started, as `not_started` result lines, and the run's task order. */
export interface NotStartedResults {
  /** One `not_started` line per episode (src/run/results-export.ts `notStartedLine`). */
  lines: readonly EpisodeResultLine[];
  /** The run's task ids in order: the lines take their places among the rows by it, then by trial. */
  taskOrder: readonly string[];
}

/**
 * Writes the per-episode results to `file` (format by extension; parent folders created).
 * `seconds`: model latency per episode key `task#trial`, when known. `notStarted` (a stopped
 * run's planned episodes that never started) adds their lines in their places among the rows,
 * which come in task order, then trial; without it (or empty) the file holds the rows alone.
 * Returns the line to log.
 */
export function writeResults(file: string, rows: readonly EpisodeReportRow[], junit: JunitOptions, seconds?: ReadonlyMap<string, number>, notStarted?: NotStartedResults): string {
  const ran = rows.map((r) => resultLineOf(r, seconds?.get(`${r.taskId}#${r.trial}`) ?? null));
  const lines = notStarted?.lines.length ? [...ran, ...notStarted.lines].sort(byTaskOrder(notStarted.taskOrder, (l) => l.task_id)) : ran;
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  fs.writeFileSync(file, resultsFileText(file, lines, junit));
  const skipped = lines.length - ran.length;
  return `results of ${lines.length} episode${lines.length === 1 ? '' : 's'}${skipped ? ` (${skipped} not started)` : ''} written to ${file}`;
}


/** Model latency per episode (`task#trial` → seconds, summed over roles). */
export function latencyOf(records: readonly { taskId: string; trial: number; episode: { usage?: UsageByRole } }[]): Map<string, number> {
  return new Map(records.map((r) => [`${r.taskId}#${r.trial}`, Object.values(r.episode.usage ?? {}).reduce((s, u) => s + (u?.latency_seconds ?? 0), 0)]));
}

/**
 * The `--fail-under` verdict: a message when the run's reward mean (over scored episodes,
 * not-judged ones counting 0 — a lower bound) is below `threshold` or there is no scored
 * episode; null when it passes or no threshold was given.
 */
export function failUnderMessage(summary: RunSummary, threshold: number | null): string | null {
  if (threshold === null) return null;
  if (summary.rewardMean === null) return `--fail-under ${threshold}: no episode was scored`;
  if (summary.rewardMean >= threshold) return null;
  return `--fail-under ${threshold}: reward mean ${summary.rewardMean.toFixed(3)} is below it${summary.unjudged ? ` (${summary.unjudged} not-judged episode(s) count 0: a lower bound)` : ''}`;
}

/**
 * Why pass^k stops before k = the episodes each task was meant to get: the task with the fewest
 * scored episodes, and the errors that were left out. Null when pass^k reaches `perTask`.
 */
export function passHatKStopNote(summary: RunSummary, rows: readonly EpisodeReportRow[], perTask: number): string | null {
  const reached = summary.passHatK.length;
  if (perTask <= 1 || reached >= perTask) return null;
  const scored = new Map<string, number>();
  const errors = { infra: 0, harness: 0, evaluation: 0 };
  for (const r of rows) {
    if (!scored.has(r.taskId)) scored.set(r.taskId, 0);
    if (r.harnessError) errors.harness++;
    else if (r.infraError) errors.infra++;
    else if (r.evaluationError || !r.evaluation) errors.evaluation++;
    else scored.set(r.taskId, scored.get(r.taskId)! + 1);
  }
  const [task, n] = [...scored.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))[0] ?? ['-', 0];
  const parts = [errors.infra && `${errors.infra} infrastructure error(s)`, errors.harness && `${errors.harness} harness error(s)`, errors.evaluation && `${errors.evaluation} evaluation error(s)`].filter(Boolean);
  return `pass^k stops at k=${reached} of ${perTask}: task ${task} has ${n} scored episode(s); ${parts.length ? `${parts.join(', ')} are left out of pass^k (they say nothing about the agent)` : 'some episodes did not run'}`;
}

/**
 * The end hint: how to open the run in the viewer, and how to resume it when it is incomplete;
 * the store path (none for the default store, relative to the working folder) and run id quoted
 * for a POSIX shell, the viewer route URI-encoded.
 */
export function endHint(runId: string, db: string, incomplete: boolean): string {
  // The default store however spelled (a --config file makes its paths absolute) needs no --db.
  const dbFlag = path.resolve(db) === path.resolve(DEFAULT_STORE_PATH) ? '' : ` --db ${shellArg(db)}`;
  // The viewer's routes take the id URI-encoded (viewer/src/route.ts), as its own links do.
  const lines = [`open it: servicegym view${dbFlag}   (then #/runs/${encodeURIComponent(runId)})`];
  if (incomplete) lines.push(`continue it: servicegym run --resume ${shellArg(runId)}${dbFlag} (the run's stored settings; finished episodes are kept, those with an infrastructure error run again)`);
  return lines.join('\n');
}

/**
 * The summary of report rows alone (e.g. `evaluate`'s replayed trajectories): errors left out,
 * not-judged rewards counting 0, as in a run's summary.
 */
export function summaryOfRows(rows: readonly EpisodeReportRow[]): RunSummary {
  return summarizeRun(
    rows.map((r) => ({
      taskId: r.taskId,
      trial: r.trial,
      termination: r.termination as never,
      reward: r.evaluation?.reward ?? null,
      partial: r.evaluation?.partial ?? null,
      infraError: !!r.infraError,
      harnessError: !!r.harnessError,
      evaluationError: !!r.evaluationError || (!r.evaluation && !r.infraError && !r.harnessError),
    })),
  );
}

/** Report rows numbered per task in order (`trial` = the how-manieth row of that task, from 0). */
export function numberedRows<T extends { taskId: string }>(items: readonly T[]): (T & { trial: number })[] {
  const seen = new Map<string, number>();
  return items.map((x) => {
    const n = seen.get(x.taskId) ?? 0;
    seen.set(x.taskId, n + 1);
    return { ...x, trial: n };
  });
}

/** Pieces of the report are passed to `write` in batches of about this many bytes (well under V8's large-object size). */
const WRITE_BATCH_BYTES = 64 * 1024;

/**
 * Writes the `run --json` report, `JSON.stringify({ ...head, episodes }, null, 2)` and a line
 * break, byte for byte as UTF-8, serializing one episode at a time and passing the bytes to `write`
 * in pieces of about 64 KiB: a large run's report (10 MB for 1,000 episodes) is never one string,
 * whose building cost more in garbage collection than the serializing itself. `head` holds the
 * report's other fields, in their order. `text` (default {@link episodeJsonText}) gives an element
 * of `episodes` as serialized there, as text or as its UTF-8 bytes: a run serializes and encodes
 * each episode as it ends (while it waits on the model) and passes the bytes it kept, so that the
 * report at the run's end is a copy of bytes (no joining or encoding of text then), and a report
 * built from the run's rows never holds all of them at once as objects.
 */
export function writeRunJson<T>(write: (bytes: Buffer) => void, head: Record<string, unknown>, episodes: readonly T[], text: (e: T) => string | Buffer = episodeJsonText): void {
  let batch: Buffer[] = [];
  let size = 0;
  const flush = () => {
    if (batch.length) write(batch.length === 1 ? batch[0] : Buffer.concat(batch, size));
    batch = [];
    size = 0;
  };
  const put = (piece: string | Buffer) => {
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    batch.push(bytes);
    if ((size += bytes.byteLength) >= WRITE_BATCH_BYTES) flush();
  };
  const top = JSON.stringify(head, null, 2);
  put(top === '{}' ? '{\n  "episodes": [' : `${top.slice(0, -2)},\n  "episodes": [`);
  episodes.forEach((e, i) => {
    put(i ? ',\n    ' : '\n    ');
    put(text(e));
  });
  put(episodes.length ? '\n  ]\n}\n' : ']\n}\n');
  flush();
}

/**
 * `value` as `JSON.stringify(report, null, 2)` writes it as an element of the report's `episodes`
 * array (see {@link writeRunJson}), without the indentation before its first line.
 */
export function episodeJsonText(value: unknown): string {
  // An element of `episodes` stands two levels deep: serialized inside two arrays it gets that
  // indentation, and the arrays' own 10 leading and 6 trailing characters are cut.
  return JSON.stringify([[value]], null, 2).slice(10, -6);
}
