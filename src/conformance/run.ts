/**
 * Conformance: replays tau2's gold actions through servicegym's environment and checks that
 * every tool output, the per-field DB diff and the DB hashes are identical to tau2's reference.
 * Generic over domains: the domain brings its tools, its {@link StateOps} and (for tasks with an
 * `initial_state`) its `applyInitialState`; callers may replace the start-state step with their
 * own {@link InitialStateHook}.
 */
import type { LoadedDomain } from '../spec/domain.js';
import type { FieldDiff, StateOps } from '../spec/state.js';
import type { Task } from '../spec/task.js';
import { Environment } from '../env/environment.js';
import { plainStateOps } from '../env/plain-state.js';
import { compareDiffs, firstDifferingChar, type DiffComparison } from './compare.js';
import type { ReferenceAction, ReferenceLine } from './reference.js';

/** tau2 domains fix their own time inside the tools; this only fills the environment's slot. */
const DEFAULT_NOW = '1970-01-01T00:00:00';

/**
 * Builds a task's initial state from the domain's pristine state (tau2's `initial_state`:
 * initialization data and actions). Throw to report the task as not reproducible.
 */
export type InitialStateHook<S> = (task: Task, pristine: S, loaded: LoadedDomain<S>) => S | Promise<S>;

/**
 * The default start state, tau2's `set_state` without a trajectory: the task's
 * `initialization_data` through the domain's `applyInitialState` hook, then each
 * `initialization_actions` entry run as a tool call by name (`env_type` picks the tool set).
 * Throws when the domain has no hook for the data, an action fails, or the task carries a
 * message history (not supported).
 */
export const tau2InitialState: InitialStateHook<unknown> = async (task, pristine, loaded) => {
  const init = task.initial_state;
  if (!init) return pristine;
  const { domain } = loaded;
  let state = pristine;
  if (init.initialization_data) {
    if (!domain.applyInitialState) throw new Error(`task ${task.id} has initialization_data, and domain '${domain.name}' has no applyInitialState hook`);
    state = domain.applyInitialState((domain.state ?? plainStateOps).fork(state), init.initialization_data);
  }
  const actions = init.initialization_actions ?? [];
  if (actions.length > 0) {
    const env = new Environment(domain, { now: DEFAULT_NOW, state });
    for (const [i, a] of actions.entries()) {
      const requestor = a.env_type === 'user' ? 'user' : 'assistant';
      const fn = domain.initFunctions?.[requestor]?.[String(a.func_name)];
      if (fn) {
        try {
          fn(env.state, (a.arguments ?? {}) as Record<string, unknown>);
          domain.sync?.(env.state);
        } catch (e) {
          throw new Error(`task ${task.id}: initialization action ${i} (${String(a.func_name)}) failed: ${(e as Error)?.message ?? String(e)}`);
        }
        continue;
      }
      const r = await env.execute({ id: `init_${i}`, type: 'function', function: { name: String(a.func_name), arguments: JSON.stringify(a.arguments ?? {}) } }, requestor);
      if (r.error) throw new Error(`task ${task.id}: initialization action ${i} (${String(a.func_name)}) failed: ${r.harnessError ?? r.output}`);
    }
    state = env.state;
  }
  if ((init.message_history?.length ?? 0) > 0) throw new Error(`task ${task.id} has an initial message_history, which conformance does not replay`);
  return state;
};

/** One replayed action. */
export interface ActionConformance {
  index: number;
  action_id?: string;
  name: string;
  ok: boolean;
  /** Which reference output matched (`evaluator_replay_output` only where the live one did not). */
  matched?: 'output' | 'evaluator_replay_output';
  expected: { output: string; error: boolean };
  got: { output: string; error: boolean };
  /** First differing character of the output, -1 when the outputs are equal. */
  firstDiff: number;
}

/** The verdict for one task. */
export interface TaskConformance {
  task_id: string;
  /** Everything identical. */
  ok: boolean;
  /** Why the task could not be replayed at all (unknown task, unsupported initial state). */
  setupError?: string;
  initialHash?: { expected: string; got: string; ok: boolean };
  actions: ActionConformance[];
  diff?: DiffComparison;
  finalHash?: { expected: string; got: string; ok: boolean };
  /** The user-side DB (tau2 telecom): hashes before and after, and its diff. */
  initialUserHash?: { expected: string; got: string; ok: boolean };
  userDiff?: DiffComparison;
  finalUserHash?: { expected: string; got: string; ok: boolean };
}

/** The whole run. */
export interface ConformanceReport {
  domain: string;
  identical: number;
  total: number;
  tasks: TaskConformance[];
}

/** What to check: a loaded domain, the reference lines, and optionally the start-state step and clock. */
export interface ConformanceOptions<S> {
  loaded: LoadedDomain<S>;
  reference: ReferenceLine[];
  /** Default {@link tau2InitialState}. */
  initialState?: InitialStateHook<S>;
  /** The environment's "now" (domains replicating tau2 use their own fixed time). */
  now?: string;
  /**
   * Replay on tau2's live path (the domain's sync after every call) instead of its evaluator's
   * gold replay: outputs must equal the live `output`, final hashes the `live_final_*` ones, and
   * the evaluator-only diffs are not compared. Default false.
   */
  synced?: boolean;
}

function compareAction(index: number, a: ReferenceAction, got: { output: string; error: boolean }, liveOnly = false): ActionConformance {
  const expected = { output: a.output, error: a.error };
  const base = { index, action_id: a.action_id, name: a.name, expected, got };
  if (got.output === a.output && got.error === a.error) return { ...base, ok: true, matched: 'output', firstDiff: -1 };
  if (!liveOnly && a.evaluator_replay_output != null && got.output === a.evaluator_replay_output && got.error === (a.evaluator_replay_error ?? a.error)) {
    return { ...base, ok: true, matched: 'evaluator_replay_output', firstDiff: -1 };
  }
  return { ...base, ok: false, firstDiff: firstDifferingChar(a.output, got.output) };
}

/** Replays one reference task. */
export async function checkTask<S>(opts: ConformanceOptions<S>, line: ReferenceLine, tasks: Map<string, Task>): Promise<TaskConformance> {
  const { loaded } = opts;
  const result: TaskConformance = { task_id: line.task_id, ok: false, actions: [] };
  const task = tasks.get(line.task_id);
  if (!task) {
    result.setupError = `task ${line.task_id} is not in the domain's tasks`;
    return result;
  }
  let start: S;
  try {
    start = await (opts.initialState ?? (tau2InitialState as InitialStateHook<S>))(task, loaded.domain.initialState(), loaded);
  } catch (e) {
    result.setupError = (e as Error).message;
    return result;
  }
  const synced = opts.synced === true;
  // tau2's evaluator replays gold actions without the sync; the synced mode is its live path.
  const env = new Environment<S>(loaded.domain, { now: opts.now ?? loaded.now ?? DEFAULT_NOW, state: start, sync: synced });
  const hashCheck = (expected: string | null | undefined, got: string) => (expected ? { expected, got, ok: got === expected } : undefined);
  result.initialHash = hashCheck(line.initial_db_hash, env.stateHash());
  const userOps = (loaded.domain.state ?? plainStateOps).userDb as StateOps<S>['userDb'];
  if (userOps) result.initialUserHash = hashCheck(line.initial_user_db_hash, userOps.hash(env.state));
  for (const [i, a] of line.actions.entries()) {
    const entry = await env.execute({ id: `conformance_${i}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } }, a.requestor);
    result.actions.push(compareAction(i, a, { output: entry.harnessError ? `${entry.output} (${entry.harnessError})` : entry.output, error: entry.error }, synced));
  }
  if (synced) {
    result.finalHash = hashCheck(line.live_final_db_hash ?? line.final_db_hash, env.stateHash());
    if (userOps) result.finalUserHash = hashCheck(line.live_final_user_db_hash ?? line.final_user_db_hash, userOps.hash(env.state));
  } else {
    result.diff = compareDiffs(line.diff as FieldDiff[], env.diff());
    result.finalHash = hashCheck(line.final_db_hash, env.stateHash());
    if (userOps) {
      if (line.user_db_diff) result.userDiff = compareDiffs(line.user_db_diff as FieldDiff[], userOps.diff(start, env.state));
      result.finalUserHash = hashCheck(line.final_user_db_hash, userOps.hash(env.state));
    }
  }
  result.ok =
    [result.initialHash, result.initialUserHash, result.finalHash, result.finalUserHash].every((h) => h?.ok ?? true) &&
    result.actions.every((a) => a.ok) &&
    (result.diff?.ok ?? true) &&
    (result.userDiff?.ok ?? true);
  return result;
}

/** Replays every reference task on a fresh environment and compares it with the reference. */
export async function runConformance<S>(opts: ConformanceOptions<S>): Promise<ConformanceReport> {
  const tasks = new Map(opts.loaded.tasks.map((t) => [t.id, t]));
  const results: TaskConformance[] = [];
  for (const line of opts.reference) results.push(await checkTask(opts, line, tasks));
  return { domain: opts.loaded.domain.name, identical: results.filter((r) => r.ok).length, total: results.length, tasks: results };
}
