/**
 * A task's starting state (tau2 `set_state` without the trajectory replay): the domain's initial
 * state, then `initial_state.initialization_data`, then `initial_state.initialization_actions`.
 * The gold replay starts here, and so must the episode.
 */
import type { Domain, InitializationData } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { ToolRequestor } from '../spec/tool.js';
import { BadInputError, HarnessError } from '../spec/errors.js';
import { Environment } from '../env/environment.js';
import { plainStateOps } from '../env/plain-state.js';
import { isRecord } from './trace-index.js';

/** The environment options of a replay: the fixed "now" and the id seed the episode used. */
export interface ReplayEnvOptions {
  /** ISO-8601 "now" given to tools. */
  now: string;
  /** Id seed (see `EnvironmentOptions.idSeed`). */
  idSeed?: string;
}

/** Used when the caller gives none; pass the episode's own options when tools read the clock or make ids. */
export const DEFAULT_REPLAY_ENV: ReplayEnvOptions = { now: '1970-01-01T00:00:00Z', idSeed: '' };

/**
 * tau2's merge of `initialization_data` into a DB dump: objects are merged key by key
 * (recursively), anything else — lists included — replaces the target. Returns a new value;
 * neither input is mutated (untouched subtrees of `target` are shared).
 */
export function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isRecord(target) || !isRecord(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    const value = Object.prototype.hasOwnProperty.call(target, k) ? deepMerge(target[k], v) : structuredClone(v);
    // defineProperty: a `__proto__` key in task data stays a plain key
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return isRecord(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

/**
 * Applies `initialization_data` to `state` (a private copy): through the domain's
 * `applyInitialState` hook when it has one; otherwise `agent_data` is deep-merged into a
 * plain-object state. Throws {@link BadInputError} (naming the task) when the domain cannot take
 * the data: a non-plain state without the hook, or `user_data` without the hook.
 */
export function applyInitializationData<S>(domain: Domain<S>, taskId: string, state: S, data: InitializationData): S {
  if (domain.applyInitialState) return domain.applyInitialState(state, data);
  const where = { path: `tasks[id=${taskId}].initial_state.initialization_data` };
  if (data.user_data !== undefined && data.user_data !== null) {
    throw new BadInputError(`domain '${domain.name}' has no user-side state to apply user_data to`, where);
  }
  if (data.agent_data === undefined || data.agent_data === null) return state;
  if (!isPlainObject(state)) {
    throw new BadInputError(
      `domain '${domain.name}' cannot apply agent_data: its state is not a plain object and it has no applyInitialState hook`,
      where,
    );
  }
  return deepMerge(state, data.agent_data) as S;
}

/**
 * The state a task starts from: a fork of `domain.initialState()`, with the task's
 * `initialization_data` applied, then each `initialization_actions` entry
 * (`{env_type, func_name, arguments}`) executed as a tool call by name (`env_type` picks the
 * assistant or user tool set). Returns a state private to the caller.
 * Throws {@link BadInputError} naming the task and the action when an entry is malformed or its
 * call fails (unknown tool, invalid arguments, tool error): a wrong start state would make every
 * score meaningless; HarnessError when a tool's code throws. Non-tool helper functions (tau2 telecom) are not supported.
 */
export async function taskInitialState<S>(domain: Domain<S>, task: Task, env: ReplayEnvOptions = DEFAULT_REPLAY_ENV): Promise<S> {
  const ops = domain.state ?? (plainStateOps as NonNullable<Domain<S>['state']>);
  let state = ops.fork(domain.initialState());
  const init = task.initial_state;
  if (init?.initialization_data) state = applyInitializationData(domain, task.id, state, init.initialization_data);
  const actions = init?.initialization_actions ?? [];
  if (actions.length === 0) return state;
  const e = new Environment<S>(domain, { now: env.now, idSeed: env.idSeed, state });
  for (const [i, a] of actions.entries()) {
    const path = `tasks[id=${task.id}].initial_state.initialization_actions[${i}]`;
    const envType = a.env_type ?? 'assistant';
    if (typeof a.func_name !== 'string' || (envType !== 'assistant' && envType !== 'user') || (a.arguments !== undefined && !isRecord(a.arguments))) {
      throw new BadInputError('expected {env_type: "assistant"|"user", func_name: string, arguments: object}', { path });
    }
    const fn = domain.initFunctions?.[envType as ToolRequestor]?.[a.func_name];
    if (fn) {
      try {
        fn(e.state, (a.arguments ?? {}) as Record<string, unknown>);
        domain.sync?.(e.state);
      } catch (err) {
        throw new BadInputError(`initialization action ${a.func_name} failed: ${(err as Error)?.message ?? String(err)}`, { path });
      }
      continue;
    }
    const call = { id: `init_${i}`, type: 'function' as const, function: { name: a.func_name, arguments: JSON.stringify(a.arguments ?? {}) } };
    const entry = await e.execute(call, envType as ToolRequestor);
    if (entry.harnessError !== undefined) throw new HarnessError(`initialization action ${a.func_name} of task ${task.id}: ${entry.harnessError}`, { tool: a.func_name });
    if (entry.error) throw new BadInputError(`initialization action ${a.func_name} failed: ${entry.output}`, { path });
  }
  return e.state;
}
