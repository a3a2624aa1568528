/**
 * `servicegym validate [--domain airline] [--data-dir DIR]`: runs the oracle agent (the gold
 * actions, with a confirmation before each write) on every task and reports any task that does
 * not score reward 1 and partial 100%. Tasks whose reward needs a judge are listed as "NL not
 * judged" unless `--judge-model` is given — never counted as passed.
 *
 * The exit rule (`validate-verdict.ts`): 0 when every episode scores reward 1 and partial 100%;
 * 1 when any does not — a not-judged episode is not at reward 1, so it fails too unless
 * `--allow-not-judged` accepts episodes whose every judged component scores 1; 1 as well when the
 * reward mean is below `--fail-under`. The last line says how many were not judged.
 * `-o FILE` writes the per-episode results (.jsonl, .csv, .xml JUnit; `src/run/results-export.ts`).
 *
 * Before the summary it prints the dataset's lint report (`src/evaluation/lint.ts`). `--strict`
 * evaluates strictly and leaves the dataset's known-bad tasks out, listing them with reasons.
 *
 * `--personas impatient,vague,…`: every task runs once per persona with the scripted persona
 * customer (`src/users/personas.ts`) in place of the plain confirming one; every episode must
 * still score reward 1 and partial 100%.
 */
import type { Command } from 'commander';
import { addSurfaceFlags, surfaceFromFlags, surfaceOptionsConfig, tasksOnSurface } from './surface-flags.js';
import { datasetVariantConfig } from './dataset-variant.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import { parsePersonas, PERSONAS } from '../users/personas.js';
import { personaTable } from './run-report.js';
import { classifyValidateEpisode, notJudgedClause, notJudgedTasks } from './validate-verdict.js';
import { episodeTable, summaryText } from './run-report.js';
import { reportRowOf } from '../run/report-rows.js';
import { countedNotPassed } from '../evaluation/counted.js';
import { counted, progressLogger, rateText, snakeKeys } from './output.js';
import { parseResultsFlags } from './results-flags.js';
import { failUnderMessage, latencyOf, writeResults } from './run-end.js';
import { painter } from './colour.js';
import { applyConfigFileChecked, withConfigBlame } from './config-file.js';
import { checkConcurrency, FLAG_CHECKS } from './flag-checks.js';
import { sha256Hex } from '../util/canonical.js';
import path from 'node:path';
import { BadInputError } from '../spec/errors.js';
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { ChatModel } from '../models/chat-model.js';
import type { Surface } from '../spec/surface.js';
import type { KnownBadTask } from '../evaluation/strict.js';
import type { LintReport } from '../evaluation/lint.js';
import type { DomainEpisodeRecord, DomainRunResult } from '../run/task-run.js';
import type { EpisodeReportRow } from '../run/report-rows.js';
import { cleanFloats } from '../util/round.js';
import { withDefaultDomainHint } from './domain-hint.js';
import { refuseOverwrite, storeFiles } from '../util/same-file.js';

/**
 * What validate's agent and customer are, stored with the run so `compare` and the viewer say so:
 * the oracle plays each task's gold actions (its one-line prompt names the task, so there is no
 * one prompt to diff), and the customer is scripted (plain, or the scripted personas).
 */
const VALIDATE_ROLES = { agent_role: 'gold-action oracle (plays the gold actions)', user_role: 'scripted customer (plain or scripted personas)', agent_prompt: 'per_task' } as const;

/** Registers `servicegym validate`; exit 0 when every task is perfect (or perfect but NL not judged), else 1. */
export function registerValidate(program: Command, setExit: (code: number) => void): void {
  addSurfaceFlags(program.command('validate'))
    .description("run the oracle agent on every task and report any task that does not score 1 (checks the tasks, the domain and the evaluator)")
    .option('--domain <name>', 'domain', 'airline')
    .option('--data-dir <dir>', 'a tau2-bench domain folder (db.json, tasks.json, policy.md); default: servicegym\'s own dataset')
    .option('--policy-variant <name>', "a policy variant of the domain (telecom: workflow); default: the domain's main policy")
    .option('--solo', "tau2's solo mode (telecom): no customer; the agent gets the task's ticket and both tool sets")
    .option('--tasks <ids>', "comma-separated task ids or globs, as run takes them, e.g. 'T1*,C0[1-3]' (default: all)")
    .option('--personas <ids>', `run every task once per scripted persona, e.g. impatient,vague,contradictory,off-policy (known: ${Object.keys(PERSONAS).join(', ')})`)
    .option('--judge-model <name>', 'judge NL assertions with this model (live, at SERVICEGYM_BASE_URL or OPENAI_BASE_URL, else the default base URL; the key from SERVICEGYM_API_KEY or OPENAI_API_KEY, none for a loopback base URL such as http://127.0.0.1:8000/v1)')
    .option('--strict', "strict evaluation: ACTION in every reward basis, a transfer must be a real call; the dataset's known-bad tasks are left out and listed")
    .option('-j, --concurrency <n>', "episodes at once; the oracle calls no model, so this only overlaps the episodes' waits (store writes, a browser surface's pages): a higher default than run's 4, which bounds requests to a model provider", '8')
    .option('--json', 'print the results as JSON')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--no-store', 'do not save the run')
    .option('-q, --quiet', 'no progress on stderr')
    .option('--allow-not-judged', 'exit 0 when the only tasks not at reward 1 are not judged (NL assertions without --judge-model) with every judged component at 1')
    .option('-o, --output <file>', 'also write the per-episode results: .jsonl, .csv or .xml (JUnit)')
    .option('--fail-under <reward>', 'exit 1 when the reward mean is below this (0..1)')
    .option('--config <file>', 'read flags from a JSON file, as run --config: keys are the long flag names ("domain", "tasks", "personas", "strict", ...); flags given here win')
    .action(withConfigBlame((flags, cmd: Command) => validateCommand(flags, cmd, setExit)));
}

/** A validate run's checked flags, tasks and lint report: what {@link prepareValidate} returns. */
interface ValidatePlan {
  log: (line: string) => void;
  output: string | null;
  failUnder: number | null;
  loaded: LoadedDomain<any>;
  strict: boolean;
  surface: Surface;
  tasks: Task[];
  excluded: KnownBadTask[];
  lint: LintReport;
  judge: ChatModel | undefined;
  personas: string[] | undefined;
  /** `validate-<domain>-<mode>-<8 hex>`: the same selection, personas, strictness and surface give the same id. */
  runId: string;
}

/** A validate run's episodes sorted by verdict, with their report rows. */
interface ValidateVerdicts {
  res: DomainRunResult;
  /** Wall time of the episodes in seconds. */
  seconds: number;
  taskById: Map<string, Task>;
  /** Episodes at reward 1 and partial 100%. */
  perfect: DomainEpisodeRecord[];
  /** Episodes with an NL assertion not judged. */
  notJudged: DomainEpisodeRecord[];
  /** Episodes not at reward 1 only because of what was not judged. */
  pending: DomainEpisodeRecord[];
  rowOf: Map<DomainEpisodeRecord, EpisodeReportRow>;
}

/**
 * Runs `servicegym validate` with its parsed `flags` (commander's camelCase option values) and
 * sets the exit code through `setExit` (the rule in the module comment). Stores the run (unless
 * `--no-store`) before and after its episodes, under the same id each time it is run alike.
 * @throws BadInputError for a bad flag, `--config` file, domain, task selection or gold action.
 */
async function validateCommand(flags: Record<string, any>, cmd: Command, setExit: (code: number) => void): Promise<void> {
  const plan = await prepareValidate(flags, cmd);
  const { runDomainTasks } = await import('../run/task-run.js');
  const { loaded, strict, surface, tasks, excluded, judge, personas, runId } = plan;
  const store = flags.store !== false ? (await import('../store/store.js')).RunStore.open(flags.db) : undefined; // --no-store loads no SQLite
  try {
    // The settings `run` records too (dataset identity, tasks, surface, strict), so `compare` and the viewer treat both alike.
    const config = { agent_model: 'oracle', user_model: 'scripted', ...VALIDATE_ROLES, judge_model: judge?.model ?? null, tasks: tasks.length, task_ids: tasks.map((t) => t.id).join(','), trials: 1, personas: personas ?? null, data: loaded.source, mode: loaded.mode, strict, surface: surface.name, ...surfaceOptionsConfig(flags), ...datasetVariantConfig(flags), excluded_known_bad: excluded.map((k) => k.id) };
    plan.log(`validating ${counted(tasks.length, `${flags.domain} task`)} (${loaded.mode} dataset, ${loaded.source})`);
    store?.saveRun({ id: runId, kind: 'run', name: `validate ${flags.domain}`, domain: flags.domain, created_at: new Date().toISOString(), summary: { command: 'validate', agent: 'oracle', user: 'personas', ...config }, record: null });
    const started = performance.now();
    const res = await runDomainTasks({ loaded, tasks, trials: 1, concurrency: Number(flags.concurrency), agent: 'oracle', user: 'personas', judge, store, runId, personas, strict, surface });
    const v = verdictsOf(res, (performance.now() - started) / 1000, tasks);
    store?.saveRun({ id: runId, kind: 'run', name: `validate ${flags.domain}`, domain: flags.domain, created_at: new Date().toISOString(), summary: { command: 'validate', agent: 'oracle', user: 'personas', ...config, ...res.summary, tasks: tasks.length }, record: null });
    if (flags.json) process.stdout.write(validateJson(plan, v));
    else await writeValidateText(plan, v);
    if (store) plan.log(`saved as run ${runId} in ${flags.db} (the same validate again replaces it)`);
    setExit(validateEnd(flags, plan, v));
  } finally {
    store?.close();
  }
}

/**
 * Applies the `--config` file, checks `-j`, `--personas`, `-o` and `--fail-under`, loads the
 * domain and the tasks (on the surface, without the known-bad ones with `--strict`), checks their
 * gold actions, lints them, makes the `--judge-model` and names the run. Touches no store.
 * @throws BadInputError naming the flag, file, task or gold action at fault.
 */
async function prepareValidate(flags: Record<string, any>, cmd: Command): Promise<ValidatePlan> {
  await applyConfigFileChecked(cmd, flags, FLAG_CHECKS);
  // Checked before the dataset loads and the store gets the run (as run checks it).
  checkConcurrency(flags.concurrency);
  const personas = flags.personas !== undefined ? parsePersonas(flags.personas) : undefined;
  // The command's heavy modules load when it runs: `--help` and the other commands need none of them.
  const { loadDomainAsync } = await import('../domains/catalog.js');
  const { strictTaskSelection } = await import('../run/task-run.js');
  const { selectTasksFlag } = await import('../run/select-tasks.js');
  const { lintDataset } = await import('../evaluation/lint.js');
  const log = progressLogger(flags.quiet);
  const { output, failUnder } = parseResultsFlags(flags);
  if (output !== null && flags.store !== false) refuseOverwrite(output, '-o/--output', storeFiles(flags.db));
  const loaded = await withDefaultDomainHint(cmd, flags as { domain: string }, () => loadDomainAsync(flags.domain, { dataDir: flags.dataDir, policy: flags.policyVariant, solo: flags.solo === true }));
  const strict = flags.strict === true;
  const surface = await surfaceFromFlags(flags, loaded);
  const { tasks: selected, excluded } = strictTaskSelection(loaded, selectTasksFlag(loaded, flags.tasks), strict);
  const tasks = tasksOnSurface(loaded, selected, surface, flags.tasks !== undefined);
  checkGoldTools(loaded, tasks, flags.dataDir);
  const lint = await lintDataset(loaded, { tasks, strict });
  const judge = flags.judgeModel ? await judgeModel(flags.judgeModel) : undefined;
  const runId = `validate-${flags.domain}-${loaded.mode}-${sha256Hex(tasks.map((t) => t.id).join(',') + (personas ? `|${personas.join(',')}` : '') + (strict ? '|strict' : '') + (surface.name !== 'api' ? `|${surface.name}` : '')).slice(0, 8)}`;
  return { log, output, failUnder, loaded, strict, surface, tasks, excluded, lint, judge, personas, runId };
}

/** The episodes of `res` (run in `seconds`) sorted by verdict (validate-verdict.ts), with their report rows. */
function verdictsOf(res: DomainRunResult, seconds: number, tasks: readonly Task[]): ValidateVerdicts {
  const perfect = res.records.filter((r) => r.evaluation && r.evaluation.reward === 1 && r.evaluation.partial === 1);
  const notJudged = res.records.filter((r) => r.evaluation?.not_judged);
  const taskById = new Map(tasks.map((t) => [t.id, t]));
  const pending = res.records.filter((r) => classifyValidateEpisode(r.evaluation, taskById.get(r.taskId)) === 'not_judged');
  const rowOf = new Map(res.records.map((r) => [r, { ...reportRowOf(r), task: taskById.get(r.taskId) }]));
  return { res, seconds, taskById, perfect, notJudged, pending, rowOf };
}

/**
 * The `--json` report: `{run_id, strict, summary, excluded_known_bad, lint, tasks}`, each task's
 * episode with its reward, partial, not-judged part and failing checks; floats cleaned, two-space
 * indented, with a final line break.
 */
function validateJson(plan: ValidatePlan, v: ValidateVerdicts): string {
  const { runId, strict, excluded, lint, personas } = plan;
  const { res, taskById } = v;
  return JSON.stringify(cleanFloats({ run_id: runId, strict, summary: snakeKeys(res.summary), excluded_known_bad: excluded, lint: lint.findings, tasks: res.records.map((r) => ({ task_id: r.taskId, ...(personas ? { persona: r.persona } : {}), reward: r.evaluation?.reward ?? null, partial: r.evaluation?.partial ?? null, not_judged: r.evaluation?.not_judged ?? null, failing: r.evaluation ? countedNotPassed(r.evaluation, taskById.get(r.taskId)).map((c) => ({ id: c.id, verdict: c.verdict, evidence: c.evidence })) : [] })) }), null, 2) + '\n';
}

/**
 * Writes the text report on stdout: the episodes not at reward 1 (not-judged ones aside), the
 * per-persona table, the lint report, the left-out known-bad tasks, the summary, the not-judged
 * tasks, the verdict line (`validate: 4/6 episodes … score reward 1 and partial 100%`, and the
 * rate) and, with `--strict`, what strict meant.
 */
async function writeValidateText(plan: ValidatePlan, v: ValidateVerdicts): Promise<void> {
  const { excludedLines } = await import('../run/task-run.js');
  const { formatLintReport } = await import('../evaluation/lint.js');
  const { strict, tasks, excluded, lint, personas } = plan;
  const { res, perfect, pending, notJudged, rowOf, seconds } = v;
  const bad = res.records.filter((r) => !perfect.includes(r) && !pending.includes(r));
  if (bad.length) process.stdout.write(episodeTable(bad.map((r) => rowOf.get(r)!), painter()) + '\n\n');
  if (personas) process.stdout.write(personaTable([...rowOf.values()], personas) + '\n\n');
  process.stdout.write(formatLintReport(lint) + '\n\n' + excludedLines(excluded));
  process.stdout.write(summaryText(res.summary) + '\n');
  if (notJudged.length) process.stdout.write(`NL not judged (no --judge-model): ${notJudgedTasks(notJudged, res.records)}\n`);
  // `validate: 4/6 episodes (…) score …` / `1/1 task scores …`, and how fast they ran.
  const scored = (n: number, noun: string, detail: string) => {
    const rate = rateText(n, seconds, noun);
    return `validate: ${perfect.length}/${counted(n, noun)}${detail} ${n === 1 ? 'scores' : 'score'} reward 1 and partial 100%${notJudgedClause(pending.length)}${rate ? ` (${rate})` : ''}\n`;
  };
  if (personas) process.stdout.write(scored(res.records.length, 'episode', ` (${counted(tasks.length, 'task')} × ${counted(personas.length, 'persona')})`));
  else if (res.records.length === tasks.length) process.stdout.write(scored(res.records.length, 'task', ''));
  else process.stdout.write(scored(res.records.length, 'episode', ` (${counted(tasks.length, 'task')}; a task with its own personas runs once per persona)`));
  if (strict) process.stdout.write('strict: ACTION counts in every reward (gold actions must be performed), known-bad tasks are left out\n');
}

/**
 * The end of a validate run: writes the `-o` results file, says on stderr why not-judged
 * episodes fail it and the `--fail-under` verdict, and returns the exit code: 0 when every
 * episode is accepted (perfect, or pending with `--allow-not-judged`) and the reward mean is not
 * under `--fail-under`, else 1.
 */
function validateEnd(flags: Record<string, any>, plan: ValidatePlan, v: ValidateVerdicts): number {
  const { runId, output, failUnder, log } = plan;
  const { res, perfect, pending, rowOf } = v;
  const createdAt = new Date().toISOString();
  if (output) log(writeResults(output, [...rowOf.values()], { suite: runId, classname: `servicegym.${flags.domain}`, timestamp: createdAt }, latencyOf(res.records)));
  const accepted = perfect.length + (flags.allowNotJudged ? pending.length : 0);
  if (pending.length && !flags.allowNotJudged) process.stderr.write(`servicegym: ${pending.length} episode(s) not judged are not at reward 1, so validate fails; give --judge-model to judge them, or --allow-not-judged to accept tasks whose every judged component scores 1\n`);
  const under = failUnderMessage(res.summary, failUnder);
  if (under) process.stderr.write(`servicegym: ${under}\n`);
  return accepted === res.records.length && !under ? 0 : 1;
}

/** The live judge model `name` (SERVICEGYM_API_KEY etc.); the model clients load only when a judge is asked for. */
async function judgeModel(name: string): Promise<ChatModel> {
  const { resolveLiveModelConfig } = await import('../models/config.js');
  const { createModel } = await import('../models/providers.js');
  return createModel('openai-compatible', { config: resolveLiveModelConfig({ model: name }) });
}

/**
 * A gold action must call a tool of the domain (for its requestor): otherwise the oracle and the
 * gold replay would both get the same "tool not found" error and the task would pass unchecked.
 * @throws BadInputError naming the tasks file (tau2 folder) or the task, and the action's JSON path.
 */
function checkGoldTools(loaded: LoadedDomain<any>, tasks: readonly Task[], dataDir?: string): void {
  const tools = new Set(loaded.domain.tools.map((t) => `${t.requestor}:${t.name}`));
  for (const task of tasks) {
    (task.evaluation_criteria?.actions ?? []).forEach((a, j) => {
      if (tools.has(`${a.requestor ?? 'assistant'}:${a.name}`)) return;
      const i = loaded.tasks.indexOf(task);
      const file = dataDir ? path.join(dataDir, 'tasks.json') : `task ${task.id} (${loaded.source})`;
      const at = dataDir ? `$[${i}].evaluation_criteria.actions[${j}].name` : `$.evaluation_criteria.actions[${j}].name`;
      throw new BadInputError(`task ${task.id}: gold action ${j + 1} calls tool '${a.name}', which domain ${loaded.domain.name} has not for the ${a.requestor ?? 'assistant'}`, { file, path: at });
    });
  }
}
