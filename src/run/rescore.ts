/**
 * Re-scoring a stored episode from its run-log record alone (tau2 re-evaluates from its logs the
 * same way): the task comes from the dataset by id and is checked against the recorded content
 * hash; the start state is rebuilt from its reference (the task's start state with the recorded
 * "now" and id seed) and checked against the recorded hash; the back-end action log is replayed on
 * it, each result compared with the recorded one, and the final state checked against the
 * recorded hash and diff; then the evaluator scores the stored messages and tool calls on that
 * final state (in strict mode when the stored evaluation was strict), and the evaluation is
 * compared with the stored one field by field.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { StateOps } from '../spec/state.js';
import type { ChatMessage, ToolCall } from '../spec/messages.js';
import type { ActionLogEntry } from '../spec/action-log.js';
import type { EpisodeRunLog } from '../spec/run-log.js';
import { contentText } from '../spec/content.js';
import { Environment, type ToolLogEntry } from '../env/environment.js';
import { diffState } from '../env/diff.js';
import { plainStateOps } from '../env/plain-state.js';
import type { ChatModel } from '../models/chat-model.js';
import { evaluateTask } from '../evaluation/compose.js';
import { taskInitialState, type ReplayEnvOptions } from '../evaluation/initial-state.js';
import type { TerminationReason } from '../evaluation/types.js';
import { canonicalJson } from '../util/canonical.js';
import { taskEvaluationRecord, taskHash } from './episode-log.js';
import { datasetEnv } from './replay-trajectory.js';

/** The outcome of re-scoring one episode. */
export interface RescoreOutcome {
  episode_id: string;
  task_id: string;
  /** `same`: the evaluation was reproduced; `different`: see `differences`; `skipped`: see `reason`. */
  status: 'same' | 'different' | 'skipped';
  /** Each difference in one line: what, where, stored → re-scored. */
  differences: string[];
  /** Why an episode was skipped (not a task episode). */
  reason?: string;
  /** Notes that do not make a difference (e.g. a migrated record has no hashes to check). */
  notes: string[];
}

const show = (v: unknown): string => {
  const s = v === undefined ? 'absent' : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
};

/** A call of a self-recording tool (a terminal), as the messages hold it. */
interface SelfCall {
  call: ToolCall;
  requestor: 'assistant' | 'user';
  message_index: number;
}

/**
 * The executed calls of the domain's self-recording tools (`records: 'self'`, e.g. the GDS
 * terminal), in message order. Their actions are not operations of their own (`sell_segment` is
 * what a command did), so they are replayed by running the calls again: every one of them, since a
 * command that records nothing still moves the terminal session.
 */
function selfCalls(loaded: LoadedDomain<any>, record: EpisodeRunLog): SelfCall[] {
  const self = new Set(loaded.domain.tools.filter((t) => t.records === 'self').map((t) => t.name));
  if (!self.size) return [];
  const executed = record.tool_calls.filter((t) => self.has(t.name)).length;
  const out: SelfCall[] = [];
  record.messages.forEach((m, i) => {
    if (m.role !== 'assistant' && m.role !== 'user') return;
    const requestor = m.role === 'assistant' ? 'assistant' : 'user';
    for (const tc of m.tool_calls ?? []) if (self.has(tc.function.name)) out.push({ call: { id: tc.id, type: 'function', function: { name: tc.function.name, arguments: tc.function.arguments } }, requestor, message_index: i });
  });
  return out.slice(0, executed);
}

const actionShape = (a: { name: string; arguments: unknown; result: string; error: boolean; mutating: boolean }) => canonicalJson({ name: a.name, arguments: a.arguments, result: a.result, error: a.error, mutating: a.mutating });

/**
 * Replays the action log on the start state: an operation of the back-end (an API tool, also when
 * a surface performed it) runs again directly; an action a self-recording tool recorded is
 * reproduced by running that tool's calls again in order ({@link selfCalls}). Returns the
 * environment and every result or action that differs from the record.
 */
async function replayActions<S>(loaded: LoadedDomain<S>, record: EpisodeRunLog, start: S, env: ReplayEnvOptions): Promise<{ e: Environment<S>; differences: string[] }> {
  const e = new Environment<S>(loaded.domain, { now: env.now, idSeed: env.idSeed, state: start });
  const differences: string[] = [];
  const calls = selfCalls(loaded, record);
  const callIds = new Map(calls.map((c, i) => [c.call.id, i]));
  let next = 0;
  const produced: ActionLogEntry[] = [];
  const runCalls = async (through: number) => {
    for (; next <= through && next < calls.length; next++) {
      const c = calls[next];
      const before = e.actionLog.length;
      await e.execute(c.call, c.requestor, { message_index: c.message_index });
      produced.push(...e.actionLog.slice(before));
    }
  };
  for (const a of record.action_log) {
    if (a.requestor === 'system') continue;
    const self = a.cause?.tool_call_id !== undefined ? callIds.get(a.cause.tool_call_id) : undefined;
    if (self !== undefined) {
      await runCalls(self);
      const got = produced.shift();
      if (!got || actionShape(got) !== actionShape(a)) differences.push(`action #${a.seq} ${a.name}: recorded ${show({ arguments: a.arguments, result: a.result })} but the replay gave ${got ? show({ name: got.name, arguments: got.arguments, result: got.result }) : 'no action'}`);
      continue;
    }
    const call = { id: `rescore_${a.seq}`, type: 'function' as const, function: { name: a.name, arguments: typeof a.arguments === 'string' ? a.arguments : JSON.stringify(a.arguments) } };
    const entry = await e.execute(call, a.requestor);
    if (entry.output !== a.result) differences.push(`action #${a.seq} ${a.name}: recorded result ${show(a.result)} but the replay gave ${show(entry.output)}`);
  }
  await runCalls(calls.length - 1);
  for (const a of produced) differences.push(`the replay recorded an action the record lacks: ${a.name} ${show(a.arguments)}`);
  return { e, differences };
}

/** The trace the evaluator reads, from the record (tool outputs as text). */
function toolLogOf(record: EpisodeRunLog): ToolLogEntry[] {
  return record.tool_calls.map((t) => ({
    step: t.step, requestor: t.requestor, name: t.name, arguments: t.arguments, output: contentText(t.output),
    ...(Array.isArray(t.output) ? { parts: t.output } : {}), error: t.error, mutating: t.mutating, ...(t.harness_error ? { harnessError: t.harness_error } : {}),
  }));
}

/** Why an episode cannot be re-scored from task criteria (campaign cases, optimiser rollouts), or null. */
export function notRescorable(record: EpisodeRunLog): string | null {
  const kind = record.evaluation?.kind;
  if (kind === 'case' || kind === 'rollout') {
    return `a ${kind === 'case' ? 'campaign case' : 'optimiser rollout'} is judged by a model, not by task criteria; replay the campaign or the optimisation to reproduce it`;
  }
  return null;
}

/** A skipped outcome for {@link notRescorable} episodes. */
export function skippedOutcome(record: EpisodeRunLog, reason: string): RescoreOutcome {
  return { episode_id: record.episode_id, task_id: record.task.id, status: 'skipped', differences: [], reason, notes: [] };
}

/**
 * Re-scores one stored task episode of `loaded`'s dataset. Episodes of other kinds (campaign
 * cases, optimiser rollouts: their verdicts come from a judge model) are `skipped`.
 * `judge`: the NL judge (e.g. a replay of the run's recorded judge calls); without one NL checks
 * are not judged, which is a difference when the stored evaluation judged them.
 */
export async function rescoreEpisode<S>(loaded: LoadedDomain<S>, record: EpisodeRunLog, judge?: ChatModel): Promise<RescoreOutcome> {
  const out: RescoreOutcome = { episode_id: record.episode_id, task_id: record.task.id, status: 'same', differences: [], notes: [] };
  const done = (): RescoreOutcome => ({ ...out, status: out.differences.length ? 'different' : 'same' });
  const reason = notRescorable(record);
  if (reason) return { ...out, status: 'skipped', reason };
  const task = loaded.tasks.find((t) => t.id === record.task.id);
  if (!task) return { ...out, status: 'different', differences: [`task ${record.task.id} is not in the dataset (${loaded.source})`] };
  if (record.task.sha256 === null) out.notes.push('no task hash recorded (migrated record)');
  else if (taskHash(task) !== record.task.sha256) out.differences.push(`task ${task.id} changed since the episode: content hash ${record.task.sha256.slice(0, 12)} → ${taskHash(task).slice(0, 12)}`);
  const env: ReplayEnvOptions = record.seeds.now === null ? datasetEnv(loaded) : { now: record.seeds.now, idSeed: record.seeds.id_seed };
  const ops: StateOps<S> = loaded.domain.state ?? (plainStateOps as StateOps<S>);
  const start = await taskInitialState(loaded.domain, task, env);
  if (record.initial_state.hash !== null && ops.hash(start) !== record.initial_state.hash) {
    out.differences.push(`initial state: recorded hash ${record.initial_state.hash.slice(0, 12)}, rebuilt ${ops.hash(start).slice(0, 12)}`);
  }
  const { e, differences } = await replayActions(loaded, record, start, env);
  out.differences.push(...differences);
  let finalState: S | null = e.state;
  if (record.final_state) {
    if (ops.hash(e.state) !== record.final_state.hash) out.differences.push(`final state: recorded hash ${record.final_state.hash.slice(0, 12)}, replayed ${ops.hash(e.state).slice(0, 12)}`);
    else if (canonicalJson(JSON.parse(JSON.stringify(ops.diff(start, e.state)))) !== canonicalJson(record.final_state.diff)) out.differences.push('final state: the recorded diff from the initial state differs from the replayed one');
  } else if (record.migrated_from) {
    out.notes.push('no final state recorded (migrated record): scored on the replayed action log');
  } else {
    finalState = null; // the episode never ran (setup failure); it was scored on no state
  }
  const trace = { messages: record.messages as ChatMessage[], toolLog: toolLogOf(record), actionLog: record.action_log, termination: record.termination.reason as TerminationReason, finalState: finalState as S };
  let fresh: ReturnType<typeof taskEvaluationRecord> | null = null;
  let error: string | null = null;
  try {
    const strict = record.evaluation?.kind === 'task' && record.evaluation.strict === true;
    fresh = taskEvaluationRecord(await evaluateTask({ loaded, task, trace, judge, env, strict, persona: record.persona ?? undefined }));
  } catch (err) {
    error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
  if (error !== record.evaluation_error) out.differences.push(`evaluation error: ${show(record.evaluation_error)} → ${show(error)}`);
  for (const d of diffState(record.evaluation, fresh)) out.differences.push(`evaluation ${d.path || '/'}: ${show(d.before)} → ${show(d.after)}`);
  return done();
}
