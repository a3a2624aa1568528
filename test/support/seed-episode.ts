/**
 * Runs seed tasks of one of servicegym's own datasets (airline, retail, banking, ...) with scripted agents and
 * a scripted customer through the machinery `servicegym validate` uses — `runTasks` with
 * `TASK_RUN_SETTINGS`, the dataset's "now" and an empty id seed, and `evaluateTask` given the
 * same env — and summarises each evaluation for assertions.
 */
import { loadDomain } from '../../src/domains/index.js';
import type { LoadedDomain } from '../../src/spec/domain.js';
import type { Task } from '../../src/spec/task.js';
import { ScriptedAgent, say, type ScriptStep } from '../../src/agents/scripted-agent.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import type { User } from '../../src/users/user.js';
import { runTasks, type EpisodeRecord, type RunResult } from '../../src/run/run-tasks.js';
import { TASK_RUN_SETTINGS } from '../../src/run/task-run.js';
import { evaluateTask } from '../../src/evaluation/compose.js';
import type { TaskEvaluation } from '../../src/evaluation/types.js';


/** What the customer answers to a confirmation request. */
export const YES = 'Yes, please proceed.';
/** The confirmation request `confirmingUser()` (src/run/task-run.ts) answers. */
export const ASKS_TO_CONFIRM = /\b(shall I proceed|do you confirm|confirm)\b[^?]*\?/i;

/**
 * A customer who opens with `opening`, says {@link YES} to every confirmation request, answers
 * any other agent message with the next of `replies` (e.g. a change of mind) and then stops.
 */
export function customer(opening: string, ...replies: string[]): User {
  return new ScriptedUser([opening, ...replies], { rules: [{ when: ASKS_TO_CONFIRM, say: YES }] });
}

/** What the customer says: the opening, or the opening and later replies (see {@link customer}). */
export type CustomerLines = string | readonly [opening: string, ...replies: string[]];

/** A step of a scripted agent: the agent summarises what it will do and asks to confirm. */
export const askToConfirm = (summary: string): ScriptStep => say(`${summary} Shall I proceed?`);

function seedTaskOf(loaded: LoadedDomain<any>, id: string): Task {
  const task = loaded.tasks.find((t) => t.id === id);
  if (!task) throw new Error(`no task ${id} in the dataset (has ${loaded.tasks.map((t) => t.id).join(', ')})`);
  return task;
}

/** One scored episode. */
export interface SeedOutcome {
  record: EpisodeRecord<TaskEvaluation>;
  evaluation: TaskEvaluation;
  /** Ids of the task's servicegym checks that failed, in task order. */
  failed: string[];
  /** Ids of the rubric items earned, in task order. */
  earned: string[];
}

function outcome(loaded: LoadedDomain<any>, record: EpisodeRecord<TaskEvaluation>, scriptLength: number): SeedOutcome {
  const problem = record.infraError ?? record.evaluationError;
  if (problem) throw new Error(`episode of ${record.taskId} failed: ${problem}`);
  const evaluation = record.evaluation!;
  // Every scripted step was played: the episode did not end before the agent's script did.
  if (record.episode.agentTurns !== scriptLength) {
    throw new Error(`${record.taskId}: the agent played ${record.episode.agentTurns} of ${scriptLength} scripted steps (termination ${record.episode.termination})`);
  }
  const sgIds = new Set((seedTaskOf(loaded, record.taskId).servicegym?.checks ?? []).map((c) => c.id));
  return {
    record,
    evaluation,
    failed: evaluation.checks.filter((c) => sgIds.has(c.id) && c.verdict === 'fail').map((c) => c.id),
    earned: evaluation.rubric.filter((r) => r.verdict === 'pass').map((r) => r.id),
  };
}

/** One scripted run: the task, what the customer says, the agent's script. */
export interface SeedRun {
  taskId: string;
  opening: CustomerLines;
  script: ScriptStep[];
}

async function runSeedTasksOf(loaded: LoadedDomain<any>, env: { now: string; idSeed: string }, runs: SeedRun[]): Promise<{ result: RunResult<TaskEvaluation>; outcomes: SeedOutcome[] }> {
  const byId = new Map(runs.map((r) => [r.taskId, r]));
  const result = await runTasks<TaskEvaluation>({
    loaded,
    tasks: runs.map((r) => seedTaskOf(loaded, r.taskId)),
    trials: 1,
    concurrency: 1,
    makeAgent: (task) => new ScriptedAgent(byId.get(task.id)!.script, { systemPrompt: `Scripted agent for ${task.id}.` }),
    makeUser: (task) => {
      const lines = byId.get(task.id)!.opening;
      return typeof lines === 'string' ? customer(lines) : customer(...lines);
    },
    env,
    episode: TASK_RUN_SETTINGS,
    evaluate: (task, episode) => evaluateTask({ loaded, task, trace: episode, env }),
  });
  return { result, outcomes: result.records.map((rec) => outcome(loaded, rec, byId.get(rec.taskId)!.script.length)) };
}

/** The seed-task runner of one of servicegym's own datasets. */
export function seedTaskRunner(domain: string) {
  /** servicegym's own dataset (no data folder, so nothing from `../shared`). */
  const loaded: LoadedDomain<any> = loadDomain(domain);
  if (!loaded.now) throw new Error(`the servicegym ${domain} dataset has no "now"`);
  /** The episode env, as `runDomainTasks` builds it for the dataset. */
  const env = { now: loaded.now, idSeed: '' };
  const runSeedTasks = (runs: SeedRun[]) => runSeedTasksOf(loaded, env, runs);
  return {
    loaded,
    env,
    seedTask: (id: string) => seedTaskOf(loaded, id),
    /** Runs scripted agents on seed tasks (one episode each) as `validate` runs the oracle. */
    runSeedTasks,
    /** Runs one scripted agent on one seed task. */
    runSeedTask: async (taskId: string, opening: CustomerLines, script: ScriptStep[]): Promise<SeedOutcome> => (await runSeedTasks([{ taskId, opening, script }])).outcomes[0],
  };
}

/** The tool calls of an episode as `name` (failed ones `name!`), for asserting what an agent did. */
export function callNames(o: SeedOutcome): string[] {
  return o.record.episode.toolLog.map((e) => (e.error ? `${e.name}!` : e.name));
}
