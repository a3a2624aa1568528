/**
 * Scoring a recorded trajectory (tau2's evaluate-trajs): the recorded assistant and user messages
 * are played again by the `replay` agent and the `replay` user of the registries (built by the one
 * episode builder, src/orchestrator/build.ts) through the same episode loop, settings and evaluator
 * as a live task episode, in a fresh environment at the task's start state. The tool calls therefore run again;
 * every recorded tool output that differs from the fresh one is reported.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { Surface } from '../spec/surface.js';
import type { ChatMessage } from '../spec/messages.js';
import { contentText } from '../spec/content.js';
import type { ChatModel } from '../models/chat-model.js';
import { splitGreeting } from '../agents/replay-agent.js';
import { recordedUserTurns } from '../users/replay-user.js';
import { buildEpisode } from '../orchestrator/build.js';
import { runEpisode, type EpisodeResult } from '../orchestrator/episode.js';
import type { EpisodeSettings } from '../orchestrator/settings.js';
import { evaluateTask } from '../evaluation/compose.js';
import type { ReplayEnvOptions } from '../evaluation/initial-state.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import { TASK_RUN_SETTINGS } from './task-run.js';

/** A recorded tool output that the fresh environment answered differently. */
export interface ToolOutputDifference {
  /** Position among the trajectory's tool messages (0-based). */
  index: number;
  tool_call_id: string;
  recorded: string;
  /** Null when the replayed episode ended before this call ran. */
  replayed: string | null;
}

/** The outcome of {@link replayTrajectory}. */
export interface TrajectoryReplay<S = unknown> {
  episode: EpisodeResult<S>;
  /** Null when the evaluator threw (see `evaluationError`). */
  evaluation: TaskEvaluation | null;
  evaluationError: string | null;
  toolOutputDifferences: ToolOutputDifference[];
  /** Recorded messages the replayed episode never reached (it ended earlier). */
  unreplayed: { assistant: number; user: number };
}

/** Options of {@link replayTrajectory}. */
export interface ReplayTrajectoryOptions<S> {
  loaded: LoadedDomain<S>;
  task: Task;
  /** The trajectory: OpenAI chat messages, system message first if it was recorded. */
  messages: readonly ChatMessage[];
  /** Default: the dataset's "now" and an empty id seed, as `run` and `validate` use. */
  env?: ReplayEnvOptions;
  judge?: ChatModel;
  /** Trial index given to the builder (default 0). */
  trial?: number;
  /** The persona the customer played (checks limited to personas apply to it). */
  persona?: string;
  /** Strict evaluation (`src/evaluation/strict.ts`): ACTION in every reward basis, a required transfer must be a real call. */
  strict?: boolean;
  /**
   * The surface the trajectory was played on (its tools are the ones the recorded calls name);
   * default the dataset's own surface (`LoadedDomain.surface`), else the API surface.
   */
  surface?: Surface;
  /** Over {@link TASK_RUN_SETTINGS}; the greeting is always the recorded one (or none). */
  settings?: EpisodeSettings;
}

/** The "now" and id seed of a dataset's episodes, as `run` and `validate` give them. */
export function datasetEnv(loaded: LoadedDomain<any>): ReplayEnvOptions {
  return { now: loaded.now ?? '1970-01-01T00:00:00Z', idSeed: '' };
}

function toolOutputDifferences(recorded: readonly ChatMessage[], replayed: readonly ChatMessage[]): ToolOutputDifference[] {
  const tools = (ms: readonly ChatMessage[]) => ms.filter((m) => m.role === 'tool');
  const fresh = tools(replayed);
  return tools(recorded).flatMap((m, index) => {
    const r = fresh[index];
    const was = contentText(m.content);
    const now = r ? contentText(r.content) : null;
    return now === was ? [] : [{ index, tool_call_id: m.role === 'tool' ? m.tool_call_id : '', recorded: was, replayed: now }];
  });
}

/** Recorded assistant and user turns the replayed episode never reached (it ended earlier). */
function unreplayed(recorded: readonly ChatMessage[], replayed: readonly ChatMessage[]): { assistant: number; user: number } {
  const { greeting, rest } = splitGreeting(recorded);
  const assistantTurns = (ms: readonly ChatMessage[]) => ms.filter((m) => m.role === 'assistant').length;
  const recordedAssistant = assistantTurns(recorded.slice(rest));
  const replayedAssistant = assistantTurns(replayed) - (greeting !== null ? 1 : 0);
  const replayedUser = replayed.filter((m) => m.role === 'user').length;
  return { assistant: Math.max(0, recordedAssistant - replayedAssistant), user: Math.max(0, recordedUserTurns(recorded).length - replayedUser) };
}

/**
 * Replays `messages` as an episode of `task` and evaluates it.
 * Throws BadInputError for a malformed task start state; evaluator exceptions are returned as
 * `evaluationError`, judge failures included.
 */
export async function replayTrajectory<S>(opts: ReplayTrajectoryOptions<S>): Promise<TrajectoryReplay<S>> {
  const { loaded, task } = opts;
  const env = opts.env ?? datasetEnv(loaded);
  const greeting = splitGreeting(opts.messages);
  const trajectory = opts.messages;
  const built = await buildEpisode({ loaded, task, trial: opts.trial ?? 0, agent: { kind: 'replay', trajectory }, user: { kind: 'replay', trajectory }, env, surface: opts.surface });
  const episode = await runEpisode<S>({
    ...TASK_RUN_SETTINGS,
    ...opts.settings,
    greeting: greeting.greeting,
    ...built,
    modelErrors: 'end',
  });
  let evaluation: TaskEvaluation | null = null;
  let evaluationError: string | null = null;
  try {
    evaluation = await evaluateTask({ loaded, task, trace: episode, judge: opts.judge, env, persona: opts.persona, strict: opts.strict === true });
  } catch (e) {
    evaluationError = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  }
  return {
    episode,
    evaluation,
    evaluationError,
    toolOutputDifferences: toolOutputDifferences(opts.messages, episode.messages),
    unreplayed: unreplayed(opts.messages, episode.messages),
  };
}
