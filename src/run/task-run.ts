/**
 * A domain run as the CLI does it: load a domain, pick tasks, make an agent and a user per
 * episode (oracle + scripted confirmer for `validate`; LLM agent + LLM user simulator for `run`),
 * evaluate each episode, stream it to the store, and summarise.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import { BadInputError } from '../spec/errors.js';
import type { ChatModel } from '../models/chat-model.js';
import { UsageTracker } from '../models/usage.js';
import type { Agent } from '../agents/agent.js';
import { LLMAgent, agentWireTools } from '../agents/llm-agent.js';
import { OracleAgent } from '../agents/oracle-agent.js';
import type { User } from '../users/user.js';
import { ScriptedUser } from '../users/scripted-user.js';
import { LLMUserSimulator } from '../users/llm-user.js';
import { evaluateTask } from '../evaluation/compose.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import type { EpisodeSettings } from '../orchestrator/settings.js';
import type { RunStore } from '../store/store.js';
import { runTasks, type EpisodeRecord, type FinishedEpisode, type RunResult } from './run-tasks.js';

/** tau2's episode conventions for task runs (transfer is an ordinary tool; every tool error counts). */
export const TASK_RUN_SETTINGS: EpisodeSettings = { transferEnds: 'never', errorCounting: 'total' };

/** What the validate user says: an opening line, and "yes" to every confirmation request. */
export function confirmingUser(): User {
  return new ScriptedUser(['Hello, I need help with my reservation.'], {
    rules: [{ when: /\b(shall I proceed|do you confirm|confirm)\b[^?]*\?/i, say: 'Yes, please proceed.' }],
  });
}

/** Selects tasks by id (comma-separated list or array); throws BadInputError naming unknown ids. */
export function selectTasks(loaded: LoadedDomain<any>, ids?: string[]): Task[] {
  if (!ids || ids.length === 0) return loaded.tasks;
  const byId = new Map(loaded.tasks.map((t) => [t.id, t]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length) throw new BadInputError(`unknown task id(s): ${unknown.join(', ')} (the dataset has ${loaded.tasks.length} tasks: ${loaded.tasks.slice(0, 12).map((t) => t.id).join(', ')}${loaded.tasks.length > 12 ? ', …' : ''})`);
  return ids.map((id) => byId.get(id)!);
}

export interface DomainRunOptions {
  loaded: LoadedDomain<any>;
  tasks: Task[];
  trials: number;
  concurrency: number;
  /** `oracle`: gold actions and a confirming scripted user; `llm`: LLM agent and LLM user simulator. */
  mode: 'oracle' | 'llm';
  agentModel?: ChatModel;
  userModel?: ChatModel;
  judge?: ChatModel;
  temperature?: number;
  /** Extra instruction strings for the user simulator (persona modifiers). */
  userModifiers?: string[];
  store?: RunStore;
  runId: string;
  finished?: FinishedEpisode[];
  onProgress?: (done: number, total: number, record: EpisodeRecord<TaskEvaluation>) => void;
  settings?: EpisodeSettings;
}

/** Runs the tasks; every finished episode is written to the store as it arrives. */
export async function runDomainTasks(opts: DomainRunOptions): Promise<RunResult<TaskEvaluation> & { usageTracker: UsageTracker }> {
  const { loaded } = opts;
  const env = { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
  const writes = new Set(loaded.domain.tools.filter((t) => t.kind === 'write').map((t) => t.name));
  const tools = agentWireTools(loaded.domain);
  const usage = new UsageTracker();
  const total = opts.tasks.length * opts.trials - (opts.finished?.length ?? 0);
  let done = 0;
  let receiptSeq = opts.store ? opts.store.receipts(opts.runId).length : 0;
  const makeAgent = (task: Task): Agent => {
    if (opts.mode === 'oracle') return new OracleAgent(task, { confirmWrites: (n) => writes.has(n) });
    if (!opts.agentModel) throw new BadInputError('an agent model is needed (--agent-model)');
    return new LLMAgent({ model: opts.agentModel, tools, policy: loaded.policy, temperature: opts.temperature });
  };
  const makeUser = (task: Task): User => {
    if (opts.mode === 'oracle') return confirmingUser();
    if (!opts.userModel) throw new BadInputError('a user simulator model is needed (--user-model)');
    return new LLMUserSimulator({ model: opts.userModel, scenario: task.user_scenario, modifiers: opts.userModifiers, temperature: opts.temperature });
  };
  const result = await runTasks<TaskEvaluation>({
    loaded,
    tasks: opts.tasks,
    trials: opts.trials,
    concurrency: opts.concurrency,
    makeAgent,
    makeUser,
    env,
    usage,
    finished: opts.finished,
    episode: { ...TASK_RUN_SETTINGS, ...opts.settings },
    evaluate: (task, episode) => evaluateTask({ loaded, task, trace: episode, judge: opts.judge, env }),
    onReceipt: (r) => {
      opts.store?.appendReceipts([{ run_id: opts.runId, seq: receiptSeq++, kind: r.kind, provider: r.provider, endpoint: r.endpoint, request: r.request, response: r.response, elapsed_seconds: r.elapsed_seconds }]);
    },
    onEpisode: (rec) => {
      done++;
      for (const r of rec.evaluation?.receipts ?? []) {
        opts.store?.appendReceipts([{ run_id: opts.runId, seq: receiptSeq++, kind: r.kind, provider: r.provider, endpoint: r.endpoint, request: r.request, response: r.response, elapsed_seconds: r.elapsed_seconds }]);
      }
      opts.store?.appendEpisodes([
        {
          run_id: opts.runId,
          episode_id: `${rec.taskId}#${rec.trial}`,
          task_id: rec.taskId,
          trial: rec.trial,
          label: opts.mode,
          reward: rec.evaluation?.reward ?? null,
          partial: rec.evaluation?.partial ?? null,
          termination: rec.episode.termination,
          result: {
            messages: rec.episode.messages,
            tool_log: rec.episode.toolLog,
            evaluation: rec.evaluation,
            evaluation_error: rec.evaluationError ?? null,
            infra_error: rec.infraError ?? null,
            usage: rec.episode.usage,
          },
        },
      ]);
      opts.onProgress?.(done, total, rec);
    },
  });
  return { ...result, usageTracker: usage };
}
