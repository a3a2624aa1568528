/**
 * Runs scripted agents on a domain's tasks through the `validate` machinery (runTasks with
 * TASK_RUN_SETTINGS, the dataset's "now", evaluateTask) and stores the run exactly as
 * src/run/task-run.ts does: one run row with the summary, one run-log record per (task, trial).
 */
import type { LoadedDomain } from '../../src/spec/domain.js';
import type { Task } from '../../src/spec/task.js';
import type { RunStore } from '../../src/store/store.js';
import { ScriptedAgent, type ScriptStep } from '../../src/agents/scripted-agent.js';
import { runTasks } from '../../src/run/run-tasks.js';
import { TASK_RUN_SETTINGS } from '../../src/run/task-run.js';
import { ScriptedUser } from '../../src/users/scripted-user.js';
import { evaluateTask } from '../../src/evaluation/compose.js';
import type { TaskEvaluation } from '../../src/evaluation/types.js';
import type { RunSummary } from '../../src/run/summary.js';
import { writeEpisodeLogs } from '../../src/store/run-log.js';
import { kindPin, taskEpisodeLog } from '../../src/run/episode-log.js';

/** The confirmation request the customer answers "Yes, please proceed." to (as `confirmingUser()`). */
const ASKS_TO_CONFIRM = /\b(shall I proceed|do you confirm|confirm)\b[^?]*\?/i;

/** What one (task, trial) episode plays: the customer's opening line and the agent's script. */
export interface ScriptedEpisode {
  opening: string;
  script: ScriptStep[];
}

export interface ScriptedRunOptions {
  store: RunStore;
  runId: string;
  name: string;
  loaded: LoadedDomain<any>;
  tasks: Task[];
  trials: number;
  /** The episode of `task` at `trial`. */
  play(task: Task, trial: number): ScriptedEpisode;
  /** ISO-8601 creation time of the run. */
  createdAt: string;
  agentModel?: string;
}

/** Runs and stores the scripted run; returns its summary. */
export async function storeScriptedRun(opts: ScriptedRunOptions): Promise<RunSummary> {
  const { loaded, store, runId } = opts;
  const env = { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
  const result = await runTasks<TaskEvaluation>({
    loaded,
    tasks: opts.tasks,
    trials: opts.trials,
    concurrency: 1,
    makeAgent: (task, trial) => new ScriptedAgent(opts.play(task, trial).script, { systemPrompt: `Scripted agent for ${task.id}.` }),
    makeUser: (task, trial) => new ScriptedUser([opts.play(task, trial).opening], { rules: [{ when: ASKS_TO_CONFIRM, say: 'Yes, please proceed.' }] }),
    env,
    episode: TASK_RUN_SETTINGS,
    evaluate: (task, episode) => evaluateTask({ loaded, task, trace: episode, env }),
    onEpisode: async (rec) => {
      const task = opts.tasks.find((t) => t.id === rec.taskId)!;
      writeEpisodeLogs(store, runId, [
        await taskEpisodeLog({
          loaded, task, episodeId: `${rec.taskId}#${rec.trial}`, trial: rec.trial, label: 'llm', episode: rec.episode, evaluation: rec.evaluation,
          evaluationError: rec.evaluationError ?? null, infraError: rec.infraError ?? null, harnessError: rec.harnessError ?? null, env, agent: kindPin('scripted'), user: kindPin('scripted'),
        }),
      ]);
    },
  });
  store.saveRun({
    id: runId,
    kind: 'run',
    name: opts.name,
    domain: loaded.domain.name,
    created_at: opts.createdAt,
    summary: { agent_model: opts.agentModel ?? 'scripted', user_model: 'scripted', trials: opts.trials, data: loaded.source, mode: loaded.mode, ...result.summary, tasks: opts.tasks.length, usage: result.usage },
    record: null,
  });
  return result.summary;
}
