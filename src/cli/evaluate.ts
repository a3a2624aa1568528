/**
 * `servicegym evaluate --domain D [--data-dir DIR] --task ID <trajectory.json|.jsonl> [--json]`:
 * scores trajectories recorded elsewhere (tau2's evaluate-trajs). A trajectory is a list of OpenAI
 * chat messages (what `run` stores); a `.jsonl` file holds one per line, each a message list or
 * `{"task_id": "...", "persona"?: "...", "messages": [...]}` (`--task` and `--persona` are the defaults). Each is replayed in a
 * fresh environment by a replay agent and a replay user and scored exactly as a live episode
 * (src/run/replay-trajectory.ts). `-o FILE` also writes one result per trajectory (`.jsonl`, `.csv`
 * or JUnit `.xml`, as on `run`; the trajectories of one task are its trials 0, 1, ...) and
 * `--fail-under R` fails the run when the reward mean is below R (src/cli/results-flags.ts).
 * Each trajectory is replayed on the surface it was played on (`--surface`, else the line's
 * `surface`, else the dataset's own, else `api`; src/cli/evaluate-surface.ts), so its recorded
 * tool calls (terminal entries, browser actions, pixel actions) reach the same tools; and in the
 * dataset variant it was played in (`--policy-variant` / `--solo`, else the line's
 * `dataset_variant`, else the default: src/cli/dataset-variant.ts), so solo mode's phone-side
 * tools and a variant's policy are there again.
 * Exit 0 when every trajectory replayed as recorded and the reward mean is not below
 * `--fail-under`; 1 when some recorded tool output differs from the fresh one, recorded messages
 * were never reached, or the mean is below the threshold; 2 for bad input (flags, task ids,
 * personas and surfaces checked before any trajectory is scored).
 */
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { selectTasks } from '../run/select-tasks.js';
import { parsePersonas } from '../users/personas.js';
import type { TrajectoryReplay } from '../run/replay-trajectory.js';
import type { TrajectoryInput } from './trajectory-file.js';
import { evaluateSummaryLine, parseResultsFlags, writeEvaluateResults, type EvaluatedTrajectory } from './results-flags.js';
import { progressLogger } from './output.js';
import { countedNotPassed } from '../evaluation/counted.js';
import { cleanFloats } from '../util/round.js';
import { SURFACE_NAMES } from '../surfaces/names.js';
import { refuseOverwrite } from '../util/same-file.js';

/** What one scored trajectory reports (the `--json` shape). */
function report(t: TrajectoryInput, taskId: string, r: TrajectoryReplay) {
  return {
    source: t.where,
    task_id: taskId,
    termination: r.episode.termination,
    // Why the replay ended in agent_error, user_error or harness_error (e.g. the recording ran out of assistant turns).
    failure: r.episode.failure ? { by: r.episode.failure.by, kind: r.episode.failure.kind, message: r.episode.failure.message } : null,
    evaluation: r.evaluation ? { ...r.evaluation, receipts: undefined } : null,
    evaluation_error: r.evaluationError,
    tool_output_differences: r.toolOutputDifferences,
    unreplayed: r.unreplayed,
  };
}

/**
 * `check()` for a value of trajectory `t`: its BadInputError is reported at the line's JSON path
 * (`FILE:LINE at $.task_id`) when `where` is one, else as the flag's (`--task: ...`).
 */
function atLine<T>(t: TrajectoryInput, where: string, check: () => T): T {
  try {
    return check();
  } catch (e) {
    if (!(e instanceof BadInputError)) throw e;
    throw where.startsWith('$') ? new BadInputError(e.message, { file: t.where, path: where }) : new BadInputError(`${where}: ${e.message}`);
  }
}

/** The task a trajectory names; an unknown id is reported where it was given (see {@link atLine}). */
function taskOfLine(loaded: Parameters<typeof selectTasks>[0], t: TrajectoryInput, taskId: string) {
  return atLine(t, t.taskId !== undefined ? '$.task_id' : '--task', () => selectTasks(loaded, [taskId])[0]);
}

const replayedAsRecorded = (r: TrajectoryReplay) => r.toolOutputDifferences.length === 0 && r.unreplayed.assistant === 0 && r.unreplayed.user === 0;

/** Registers `evaluate`. */
export function registerEvaluate(program: Command, setExit: (code: number) => void): void {
  program
    .command('evaluate')
    .description('score recorded trajectories (chat-completions messages, as run stores them; JSON or JSON Lines) by replaying their tool calls in a fresh environment')
    .argument('<trajectory>', 'a JSON file holding one list of chat messages, or JSON Lines: one list or {"task_id", "persona"?, "messages"} per line')
    .requiredOption('--domain <name>', 'domain')
    .option('--data-dir <dir>', "a tau2-bench domain folder (default: servicegym's own dataset)")
    .option('--task <id>', 'the task of the trajectory (required for a JSON file; JSON Lines: the task of the lines without a task_id)')
    .option('--persona <id>', 'the persona the customer played, for checks limited to personas (JSON Lines: of the lines without persona)')
    .option('--judge-model <name>', 'judge NL assertions with this model (live, at SERVICEGYM_BASE_URL or OPENAI_BASE_URL, else the default base URL; the key from SERVICEGYM_API_KEY or OPENAI_API_KEY, none for a loopback base URL such as http://127.0.0.1:8000/v1)')
    .option('--strict', 'strict evaluation: ACTION in every reward basis, a transfer the gold requires must be a real call')
    .option('--json', 'print the evaluations as JSON')
    .option('-o, --output <file>', 'also write the per-trajectory results: .jsonl, .csv or .xml (JUnit)')
    .option('--fail-under <reward>', 'exit 1 when the reward mean is below this (0..1)')
    .option('--surface <name>', `replay every trajectory on this surface (${SURFACE_NAMES.join(', ')}; default: the surface each JSON Lines entry names, as export-trajectories writes it, else the dataset's own surface, else api)`)
    .option('--surface-option <key=value>', "a surface option, repeatable, as on run (default: the entry's surface_options)", (v: string, acc: string[] = []) => [...acc, v])
    .option('--policy-variant <name>', "replay every trajectory with this policy variant of the domain (telecom: workflow; default: the dataset_variant each JSON Lines entry names, as export-trajectories writes it, else the main policy)")
    .option('--solo', "replay every trajectory in solo mode (telecom; default: the entry's dataset_variant). With --policy-variant or --solo, the flags replace every entry's dataset_variant")
    .option('-q, --quiet', 'no progress on stderr')
    .action((file: string, flags) => evaluateCommand(file, flags, setExit));
}

/** A trajectory to score, with the task, persona and dataset it is scored in. */
interface EvaluateInput {
  t: TrajectoryInput;
  taskId: string;
  task: ReturnType<typeof taskOfLine>;
  persona: string | undefined;
  loaded: Parameters<typeof selectTasks>[0];
}

/**
 * Runs `servicegym evaluate <file>` with its parsed `flags` (commander's camelCase option values)
 * and sets the exit code through `setExit` (the rule in the module comment): every trajectory
 * checked first ({@link evaluateInputs}), then each replayed and scored in turn, the report
 * printed ({@link writeEvaluateText}, or JSON) and the `-o` results written.
 * @throws BadInputError for a bad flag, trajectory file, task id, persona, surface or dataset
 *   variant, before any trajectory is scored.
 */
async function evaluateCommand(file: string, flags: Record<string, any>, setExit: (code: number) => void): Promise<void> {
  // The command's heavy modules load when it runs: `--help` and the other commands need none of them.
  const { replayTrajectory } = await import('../run/replay-trajectory.js');
  const { resolveLiveModelConfig } = await import('../models/config.js');
  const { createModel } = await import('../models/providers.js');
  const { trajectorySurfaces } = await import('./evaluate-surface.js');
  const resultsFlags = parseResultsFlags(flags);
  if (resultsFlags.output !== null) refuseOverwrite(resultsFlags.output, '-o/--output', [{ file, what: 'the trajectory file being scored' }]);
  const inputs = await evaluateInputs(file, flags);
  const surfaces = await trajectorySurfaces(inputs, flags);
  const judge = flags.judgeModel ? createModel('openai-compatible', { config: resolveLiveModelConfig({ model: flags.judgeModel }) }) : undefined;
  const results = [];
  const scored: EvaluatedTrajectory[] = [];
  let asRecorded = 0;
  for (const [i, { t, taskId, task, persona, loaded }] of inputs.entries()) {
    const r = await replayTrajectory({ loaded, task, messages: t.messages, judge, persona, strict: flags.strict === true, surface: surfaces[i] });
    if (replayedAsRecorded(r)) asRecorded += 1;
    results.push({ ...report(t, taskId, r), task });
    scored.push({ task_id: taskId, termination: r.episode.termination, evaluation: r.evaluation, evaluation_error: r.evaluationError, task });
  }
  if (flags.json) process.stdout.write(JSON.stringify(cleanFloats(results.map(({ task: _t, ...rest }) => rest)), null, 2) + '\n');
  else writeEvaluateText(results, scored, asRecorded);
  const under = writeEvaluateResults(file, scored, resultsFlags, progressLogger(flags.quiet));
  setExit(asRecorded === inputs.length && under === null ? 0 : 1);
}

/**
 * The trajectories of `file`, each with its task (the line's `task_id`, else `--task`), persona
 * (the line's, else `--persona`) and dataset (its variant: src/cli/dataset-variant.ts), in file order.
 * @throws BadInputError for an unreadable file, a trajectory without a task id, or an unknown task
 *   or persona, reported at the line's JSON path or as the flag's ({@link atLine}).
 */
async function evaluateInputs(file: string, flags: Record<string, any>): Promise<EvaluateInput[]> {
  const { trajectoryDatasets } = await import('./dataset-variant.js');
  const { readTrajectories } = await import('./trajectory-file.js');
  const trajectories = readTrajectories(file);
  const datasets = await trajectoryDatasets(flags.domain, flags.dataDir, trajectories, flags);
  return trajectories.map((t, i) => {
    const taskId = t.taskId ?? flags.task;
    if (!taskId) throw new BadInputError('no task id: give --task ID (or a "task_id" on each JSON Lines entry)', { file: t.where });
    const persona = t.persona ?? flags.persona;
    if (persona !== undefined) atLine(t, t.persona !== undefined ? '$.persona' : '--persona', () => parsePersonas([persona]));
    const loaded = datasets[i];
    return { t, taskId, task: taskOfLine(loaded, t, taskId), persona, loaded };
  });
}

/**
 * Writes the text report on stdout: a line per trajectory (source, task, termination and why,
 * reward, partial, the checks not passed, an evaluation error), each tool output that differs
 * from the recording and the recorded messages never reached, then the summary line.
 */
function writeEvaluateText(results: readonly (ReturnType<typeof report> & { task: EvaluateInput['task'] })[], scored: readonly EvaluatedTrajectory[], asRecorded: number): void {
  for (const r of results) {
    const ev = r.evaluation;
    const failing = ev ? countedNotPassed(ev, r.task).map((c) => `${c.id}=${c.verdict}`) : [];
    const why = r.failure ? ` (${r.failure.by}: ${r.failure.message})` : '';
    process.stdout.write(`${r.source} ${r.task_id}: ${r.termination}${why}, reward ${ev?.reward ?? 'n/a'}, partial ${ev ? `${Math.round(ev.partial * 1000) / 10}%` : 'n/a'}${failing.length ? ` (not passed: ${failing.join(', ')})` : ''}${r.evaluation_error ? ` evaluation error: ${r.evaluation_error}` : ''}\n`);
    for (const d of r.tool_output_differences) process.stdout.write(`  tool output #${d.index} (${d.tool_call_id}) differs: recorded ${JSON.stringify(d.recorded)}, replayed ${d.replayed === null ? 'never ran' : JSON.stringify(d.replayed)}\n`);
    if (r.unreplayed.assistant || r.unreplayed.user) process.stdout.write(`  the episode ended before ${r.unreplayed.assistant} assistant and ${r.unreplayed.user} user message(s) of the recording\n`);
  }
  process.stdout.write(evaluateSummaryLine(scored, asRecorded) + '\n');
}
