/**
 * `servicegym export-trajectories <run-id> [--task IDS] [--trial N] [-o FILE] [--db PATH]` (`--task`:
 * ids or globs, as `run --tasks` takes them: {@link selectTaskIds} over the run's task ids): the
 * stored episodes of a run as `evaluate`'s input, so a trajectory can be scored again, shared or
 * scored elsewhere: JSON Lines, one episode per line in the canonical episode order (task id in
 * code-unit order, then trial: {@link compareEpisodeKeys}, as the run's summary and tables take
 * them, whatever order the episodes finished or were stored in),
 * `{"task_id", "trial", "persona"?, "surface", "surface_options"?, "dataset_variant"?, "episode_id", "messages"}` —
 * `messages` the OpenAI chat messages the run-log record keeps (system message first), `persona`
 * when the customer played one (checks limited to personas then apply), `surface` the surface the
 * episode ran on and `surface_options` the run's `--surface-option`s (when it had any),
 * `dataset_variant` the run's `--policy-variant` and `--solo` (when it had any: they change the
 * agent's tools and policy), so `evaluate` replays the recorded calls on the same tools. `evaluate`
 * reads `task_id`, `persona`, `surface`, `surface_options`, `dataset_variant` and `messages` and
 * ignores the rest.
 *
 * Only task episodes have task criteria to score: campaign cases and optimiser rollouts (judged
 * by a model) are left out and counted on stderr. So are episodes that ended in an infrastructure
 * or harness error (a provider failure after retries, a tool's code that threw): their
 * conversations were cut off where the call failed, and `evaluate` would score the stub as a
 * finished conversation (a customer who never spoke, a fault the agent never made); stderr names
 * them and says to resume the run. Exit 0; 2 for an unknown run or store, a `--task` id the run
 * has no episode of or a glob matching none, a selection that matches no episode or only cut-off
 * ones, or a run with no task episode.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import type { EpisodeRunLog } from '../spec/run-log.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { compareEpisodeKeys } from '../run/summary.js';
import { selectTaskIds } from '../run/select-tasks.js';
import { runDatasetVariant, type DatasetVariant } from './dataset-variant.js';
import { shellArg } from '../util/shell-arg.js';
import { refuseOverwrite, storeFiles } from '../util/same-file.js';

/** One line of the export: what `evaluate` reads (`task_id`, `persona`, `surface`, `surface_options`, `messages`) plus where it came from. */
export interface ExportedTrajectory {
  task_id: string;
  trial: number;
  persona?: string;
  /** The surface's registry name (`api`, `terminal`, `web`, ...). */
  surface: string;
  /** The run's surface options (key to string value), absent when it had none. */
  surface_options?: Record<string, string>;
  /** The run's dataset variant (`{policy?, solo?}`), absent for the default dataset. */
  dataset_variant?: DatasetVariant;
  episode_id: string;
  messages: EpisodeRunLog['messages'];
}

/**
 * The surface options a run recorded in its config (`surface_options`, written by `run` and
 * `validate` when given `--surface-option`), or `{}` when it recorded none or not as an object of strings.
 */
export function runSurfaceOptions(config: unknown): Record<string, string> {
  const o = (config as { surface_options?: unknown } | null)?.surface_options;
  if (!o || typeof o !== 'object' || Array.isArray(o)) return {};
  return Object.fromEntries(Object.entries(o).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * The export line of a stored task episode. `surfaceOptions`: the run's options of the surface it
 * ran on (see {@link runSurfaceOptions}); `variant`: the run's dataset variant (see
 * {@link runDatasetVariant}); each written only when not empty.
 */
export function exportedTrajectory(r: EpisodeRunLog, surfaceOptions: Record<string, string> = {}, variant: DatasetVariant = {}): ExportedTrajectory {
  return {
    task_id: r.task.id,
    trial: r.trial,
    ...(r.persona ? { persona: r.persona } : {}),
    surface: r.surface,
    ...(Object.keys(surfaceOptions).length ? { surface_options: surfaceOptions } : {}),
    ...(Object.keys(variant).length ? { dataset_variant: variant } : {}),
    episode_id: r.episode_id,
    messages: r.messages,
  };
}

/**
 * `records` in the export's order: task id (code-unit order), then trial ({@link compareEpisodeKeys}),
 * then episode id (a run stores one episode per task and trial; the id only makes the order total).
 * A new array; the store's insertion order (the order episodes finished in) never shows.
 */
export function inExportOrder(records: readonly EpisodeRunLog[]): EpisodeRunLog[] {
  const key = (r: EpisodeRunLog) => ({ taskId: r.task.id, trial: r.trial });
  return [...records].sort((a, b) => compareEpisodeKeys(key(a), key(b)) || (a.episode_id < b.episode_id ? -1 : a.episode_id > b.episode_id ? 1 : 0));
}

/**
 * Why `r`'s conversation was cut off (`user_error: ProviderError: ...`), or null when it ended as
 * the episode's own course ended it: an infrastructure or harness error stops an episode where the
 * failing call was, which says nothing about the agent (run leaves it out of its scores).
 */
export function cutOffReason(r: EpisodeRunLog): string | null {
  const why = r.termination.infra_error ?? r.termination.harness_error ?? null;
  return why === null ? null : `${r.termination.reason}: ${why}`;
}

/** The `evaluate` command that scores an export of `records` written to `file`. */
export function evaluateCommand(file: string, r: EpisodeRunLog): string {
  const strict = r.evaluation?.kind === 'task' && r.evaluation.strict === true;
  const dataDir = r.dataset.kind === 'tau2' ? ` --data-dir ${shellArg(r.dataset.source)}` : '';
  return `servicegym evaluate ${shellArg(file)} --domain ${r.domain}${dataDir}${strict ? ' --strict' : ''}`;
}

/** Registers `export-trajectories`. */
export function registerExportTrajectories(program: Command, setExit: (code: number) => void): void {
  program
    .command('export-trajectories')
    .description("write a stored run's episodes as evaluate's input (JSON Lines of {task_id, trial, persona, surface, surface_options, dataset_variant, episode_id, messages}) to score them again or elsewhere")
    .argument('<run-id>', "the run to export: an id the runs list shows ('servicegym view', or the run_id 'run --json' prints)")
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--task <ids>', "only these tasks: comma-separated task ids or globs (*, ?, [...]), as run's --tasks takes them, e.g. 'T1*' (default: all)")
    .option('--trial <n>', 'only this trial (from 0)')
    .option('-o, --output <file>', 'write the JSON Lines to this file instead of stdout')
    .action(async (runId: string, flags) => {
      const { RunStore } = await import('../store/store.js');
      const { readEpisodeLogs } = await import('../store/run-log.js');
      if (!fs.existsSync(flags.db)) throw new BadInputError('no run store here (run something first, or give --db)', { file: flags.db });
      const trial = flags.trial === undefined ? undefined : Number(flags.trial);
      if (trial !== undefined && !(Number.isInteger(trial) && trial >= 0)) throw new BadInputError(`--trial must be a whole number >= 0, got '${flags.trial}'`);
      if (flags.output !== undefined) refuseOverwrite(String(flags.output), '-o/--output', storeFiles(flags.db));
      const store = RunStore.open(flags.db, { readonly: true });
      let records: EpisodeRunLog[];
      let surfaceOptions: Record<string, string>;
      let variant: DatasetVariant;
      try {
        const run = store.getRun(runId);
        if (!run) throw new BadInputError(`no run '${runId}' in the store (servicegym view lists the runs)`, { file: flags.db });
        surfaceOptions = runSurfaceOptions(run.summary);
        variant = runDatasetVariant(run.summary);
        records = readEpisodeLogs(store, runId).map((e) => e.record);
      } finally {
        store.close();
      }
      const taskEpisodes = records.filter((r) => r.evaluation === null || r.evaluation.kind === 'task');
      const skipped = records.length - taskEpisodes.length;
      if (taskEpisodes.length === 0) throw new BadInputError(`run '${runId}' has no task episode to export${skipped ? ` (its ${skipped} episode(s) are campaign cases or optimiser rollouts, judged by a model, not by task criteria)` : ''}`);
      const ordered = inExportOrder(taskEpisodes);
      const picked = selectTaskIds([...new Set(ordered.map((r) => r.task.id))], flags.task === undefined ? undefined : String(flags.task), { flag: '--task', owner: `run '${runId}'`, unset: 'export every task' });
      const tasks = picked && new Set(picked);
      const selected = ordered.filter((r) => (!tasks || tasks.has(r.task.id)) && (trial === undefined || r.trial === trial));
      if (selected.length === 0) throw new BadInputError(`no episode of run '${runId}' matches${tasks ? ` --task ${flags.task}` : ''}${trial !== undefined ? ` --trial ${trial}` : ''} (its tasks: ${[...new Set(taskEpisodes.map((r) => r.task.id))].sort().join(', ')})`);
      const chosen = selected.filter((r) => cutOffReason(r) === null);
      const cutOff = selected.filter((r) => cutOffReason(r) !== null).map((r) => `${r.episode_id} (${cutOffReason(r)})`);
      const resume = `servicegym run --resume ${shellArg(runId)} with the run's flags plays them again`;
      if (chosen.length === 0) throw new BadInputError(`every selected episode of run '${runId}' ended in an infrastructure or harness error, so its conversation was cut off and has nothing to score: ${cutOff.join('; ')}; ${resume}`, { file: flags.db });
      const text = chosen.map((r) => JSON.stringify(exportedTrajectory(r, surfaceOptions, variant))).join('\n') + '\n';
      if (flags.output) fs.writeFileSync(flags.output, text);
      else process.stdout.write(text);
      if (skipped) process.stderr.write(`${skipped} episode(s) left out: campaign cases or optimiser rollouts are judged by a model, not by task criteria\n`);
      if (cutOff.length) process.stderr.write(`${cutOff.length} episode(s) left out: they ended in an infrastructure or harness error, so their conversations were cut off and say nothing about the agent (${resume}): ${cutOff.join('; ')}\n`);
      process.stderr.write(`${chosen.length} ${chosen.length === 1 ? 'trajectory' : 'trajectories'} exported; score them with: ${evaluateCommand(flags.output ?? 'FILE.jsonl', chosen[0])}\n`);
      setExit(0);
    });
}
