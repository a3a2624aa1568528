/**
 * The run-log record (src/spec/run-log.ts) of a task episode, as `run`, `validate`, persona runs,
 * `evaluate` and `import tau2-results` store it: the trajectory, tool calls, action log, the
 * start state's reference and hash, the final state as a diff from it, the termination and the
 * evaluation (without judge receipts: the store keeps those per run).
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { StateOps } from '../spec/state.js';
import { RUN_LOG_SCHEMA, type EpisodeRunLog, type EvaluationRecord, type Pin, type RunLogMessage, type ToolCallRecord } from '../spec/run-log.js';
import { plainStateOps } from '../env/plain-state.js';
import type { ToolLogEntry } from '../env/environment.js';
import { replayGold } from '../evaluation/gold.js';
import type { ReplayEnvOptions } from '../evaluation/initial-state.js';
import type { TaskEvaluation } from '../evaluation/types.js';
import type { EpisodeResult } from '../orchestrator/episode.js';
import { canonicalHash, sha256Hex } from '../util/canonical.js';
import { UsageTracker } from '../models/usage.js';
import { turnTimings } from './turn-timings.js';

/** A tool call as the record keeps it: the output as text, or as content parts when the tool answered with parts. A JSON copy. */
export function toolCallRecord(t: ToolLogEntry): ToolCallRecord {
  return JSON.parse(JSON.stringify(toolCallRecordOf(t))) as ToolCallRecord;
}

/** {@link toolCallRecord} without the copy (arguments and output shared with `t`). */
function toolCallRecordOf(t: ToolLogEntry): ToolCallRecord {
  return { step: t.step, requestor: t.requestor, name: t.name, arguments: t.arguments, output: (t.parts ?? t.output) as ToolCallRecord['output'], error: t.error, mutating: t.mutating, ...(t.harnessError ? { harness_error: t.harnessError } : {}) };
}

/** The last system prompt hashed and its sha256: a run's episodes mostly share one prompt. */
let lastPrompt: { text: string; sha256: string } | undefined;
function promptSha256(text: string): string {
  if (lastPrompt?.text !== text) lastPrompt = { text, sha256: sha256Hex(text) };
  return lastPrompt.sha256;
}

/** A pin with only a kind (oracle, scripted, replay …). */
export function kindPin(kind: string): Pin {
  return { kind, model: null, provider: null, prompt_sha256: null, temperature: null };
}

/** A model-backed pin. */
export function modelPin(kind: string, model: { model: string; provider: string }, temperature?: number): Pin {
  return { kind, model: model.model, provider: model.provider, prompt_sha256: null, temperature: temperature ?? null };
}

/** The evaluation as the record keeps it (judge receipts dropped: they are stored with the run); a JSON copy. */
export function taskEvaluationRecord(ev: TaskEvaluation): EvaluationRecord {
  return JSON.parse(JSON.stringify(evaluationRecordOf(ev))) as EvaluationRecord;
}

/** {@link taskEvaluationRecord} without the copy (its values shared with `ev`). */
function evaluationRecordOf(ev: TaskEvaluation): EvaluationRecord {
  const { receipts: _r, ...rest } = ev;
  return { kind: 'task', ...rest } as EvaluationRecord;
}

/** Usage per role of an evaluation's judge calls (from its receipts); undefined when it made none. */
export function evaluationUsage(ev: TaskEvaluation | null): EpisodeRunLog['evaluation_usage'] {
  if (!ev?.receipts?.length) return undefined;
  const t = new UsageTracker();
  for (const r of ev.receipts) t.add(r.kind, (r.response as { usage?: import('../spec/messages.js').Usage } | null)?.usage, r.elapsed_seconds);
  return JSON.parse(JSON.stringify(t.byRole)) as EpisodeRunLog['evaluation_usage'];
}

/** The task's content hash, as records pin it (sha256 of its canonical JSON). */
export function taskHash(task: Task): string {
  return canonicalHash(task);
}

/** What {@link taskEpisodeLog} needs besides the episode. */
export interface TaskEpisodeLogInput<S> {
  loaded: LoadedDomain<S>;
  task: Task;
  /** The task's {@link taskHash} when the caller already has it (a run hashes each task once); computed otherwise. */
  taskSha256?: string;
  episodeId: string;
  trial: number;
  label: string;
  persona?: string | null;
  episode: EpisodeResult<S>;
  evaluation: TaskEvaluation | null;
  evaluationError?: string | null;
  infraError?: string | null;
  /** A tool's code threw or the surface failed (termination `harness_error`). */
  harnessError?: string | null;
  /** The environment's "now" and id seed (the gold replay's too). */
  env: ReplayEnvOptions;
  agent: Pin | null;
  user: Pin | null;
  judge?: Pin | null;
  surface?: string;
  elapsedSeconds?: number | null;
}

/** The start and final state of an episode: the start state's hash, the diff to the final one and its hash. */
async function states<S>(input: TaskEpisodeLogInput<S>): Promise<Pick<EpisodeRunLog, 'initial_state' | 'final_state'>> {
  const ops: StateOps<S> = input.loaded.domain.state ?? (plainStateOps as StateOps<S>);
  const ref = { kind: 'task' as const, task_id: input.task.id };
  let initial: S;
  try {
    initial = (await replayGold(input.loaded.domain, input.task, input.env)).initialState;
  } catch {
    return { initial_state: { ref, hash: null }, final_state: null };
  }
  const final = input.episode.finalState;
  const finalState = final === null || final === undefined ? null : { diff: JSON.parse(JSON.stringify(ops.diff(initial, final))), hash: ops.hash(final) };
  return { initial_state: { ref, hash: ops.hash(initial) }, final_state: finalState };
}

/** `{turns}` when some message was produced by a recorded model call, else nothing (scripted and oracle episodes). */
function turnsOf(messages: readonly RunLogMessage[], receipts: EpisodeResult<unknown>['receipts'] | undefined): { turns?: ReturnType<typeof turnTimings> } {
  const turns = turnTimings(messages, receipts ?? []);
  return turns.length ? { turns } : {};
}

/**
 * The run-log record of one task episode. It shares the episode's messages, tool calls' arguments
 * and outputs, action log and evaluation (no copy: they are not changed once the episode is over), so it is a JSON value only
 * as serialized: store it (the run store writes its JSON text) or copy it before changing it.
 */
export async function taskEpisodeLog<S>(input: TaskEpisodeLogInput<S>): Promise<EpisodeRunLog> {
  const ep = input.episode;
  const messages = ep.messages as RunLogMessage[];
  const toolCalls: ToolCallRecord[] = ep.toolLog.map(toolCallRecordOf);
  const system = messages[0]?.role === 'system' && typeof messages[0].content === 'string' ? promptSha256(messages[0].content) : null;
  const usage = JSON.parse(JSON.stringify(ep.usage)) as EpisodeRunLog['usage'];
  const modelSeconds = Object.values(usage).reduce((s, u) => s + (u.latency_seconds ?? 0), 0);
  return {
    schema: RUN_LOG_SCHEMA,
    episode_id: input.episodeId,
    trial: input.trial,
    label: input.label,
    persona: input.persona ?? null,
    task: { id: input.task.id, sha256: input.taskSha256 ?? taskHash(input.task) },
    domain: input.loaded.domain.name,
    dataset: { kind: input.loaded.mode, source: input.loaded.source },
    surface: input.surface ?? 'api',
    agent: input.agent ? { ...input.agent, prompt_sha256: input.agent.prompt_sha256 ?? system } : null,
    user: input.user,
    judge: input.judge ?? null,
    seeds: { episode: null, now: input.env.now, id_seed: input.env.idSeed ?? '' },
    messages,
    tool_calls: toolCalls,
    action_log: ep.actionLog as EpisodeRunLog['action_log'],
    ...(await states(input)),
    termination: {
      reason: ep.termination,
      user_signal: ep.userSignal ?? null,
      failure: ep.failure ? JSON.parse(JSON.stringify({ by: ep.failure.by, kind: ep.failure.kind, message: ep.failure.message, ...(ep.failure.raw ? { raw: ep.failure.raw } : {}) })) : null,
      transfer: ep.transfer ? JSON.parse(JSON.stringify({ name: ep.transfer.name, arguments: ep.transfer.arguments ?? null })) : null,
      infra_error: input.infraError ?? null,
      harness_error: input.harnessError ?? null,
    },
    evaluation: input.evaluation ? evaluationRecordOf(input.evaluation) : null,
    evaluation_error: input.evaluationError ?? null,
    usage,
    ...(evaluationUsage(input.evaluation) ? { evaluation_usage: evaluationUsage(input.evaluation) } : {}),
    timings: { model_seconds: Math.round(modelSeconds * 1e6) / 1e6, elapsed_seconds: input.elapsedSeconds ?? null, ...turnsOf(messages, ep.receipts) },
  };
}
