/**
 * Gold replay (tau2 `EnvironmentEvaluator`'s gold environment): a fresh environment at the task's
 * initial state runs every gold action in order; failures are swallowed as tau2 does (only
 * logged) and kept here for diagnostics. The result is a pure function of the domain instance,
 * the task and the replay options, so it is cached per domain instance and task.
 */
import type { Domain } from '../spec/domain.js';
import type { Task } from '../spec/task.js';
import type { ToolRequestor } from '../spec/tool.js';
import { HarnessError } from '../spec/errors.js';
import { Environment, type ToolLogEntry } from '../env/environment.js';
import { canonicalJson } from '../util/canonical.js';
import { DEFAULT_REPLAY_ENV, taskInitialState, type ReplayEnvOptions } from './initial-state.js';

/** A gold action that ended in an error (tau2 swallows these; see tau2-notes §7.2). */
export interface GoldActionError {
  action_id: string;
  name: string;
  requestor: ToolRequestor;
  /** The tool message the call produced (`Error: …`). */
  output: string;
}

/** The outcome of replaying a task's gold actions. Treat every field as read-only: it is cached. */
export interface GoldReplay<S> {
  task_id: string;
  /** The task's start state (before any gold action); also the episode's start state. */
  initialState: S;
  /** The state after every gold action. */
  finalState: S;
  /** The gold calls as executed, one entry per gold action. */
  log: ToolLogEntry[];
  errors: GoldActionError[];
}

let cache = new WeakMap<Domain<any>, Map<string, Promise<GoldReplay<any>>>>();

/**
 * Replays `task`'s gold actions (`evaluation_criteria.actions`, each run with its `requestor`'s
 * tool set; arguments serialised as JSON) on a fresh environment for `domain` started at
 * {@link taskInitialState}. No actions ⇒ the final state equals the initial one.
 * Cached per (domain instance, task id, replay options, gold-relevant task content).
 * Rejects with what {@link taskInitialState} throws (a malformed initial state), or HarnessError
 * when a tool's code throws.
 */
export function replayGold<S>(domain: Domain<S>, task: Task, env: ReplayEnvOptions = DEFAULT_REPLAY_ENV): Promise<GoldReplay<S>> {
  const key = replayKey(task, env);
  let perDomain = cache.get(domain);
  if (!perDomain) cache.set(domain, (perDomain = new Map()));
  const hit = perDomain.get(key);
  if (hit) return hit as Promise<GoldReplay<S>>;
  const result = replay(domain, task, env);
  perDomain.set(key, result);
  // A failed replay (bad initial state, harness error) is not cached: the next call reports it again.
  result.catch(() => perDomain.delete(key));
  return result;
}

/** Per task object: the replay options and cache key of its last look-up (a run asks for the same ones at every episode). */
const lastKey = new WeakMap<Task, { now: string; idSeed: string | undefined; key: string }>();

/** The cache key of a replay: task id, replay options and gold-relevant content, made once per task object and options. */
function replayKey(task: Task, env: ReplayEnvOptions): string {
  const last = lastKey.get(task);
  if (last && last.now === env.now && last.idSeed === env.idSeed) return last.key;
  const key = canonicalJson([task.id, env.now, env.idSeed ?? '']) + goldContentKey(task);
  lastKey.set(task, { now: env.now, idSeed: env.idSeed, key });
  return key;
}

const goldContent = new WeakMap<Task, string>();

/** The gold-relevant content of a task (initial state and gold actions) as canonical JSON, once per task object (tasks are read-only values). */
function goldContentKey(task: Task): string {
  let key = goldContent.get(task);
  if (key === undefined) goldContent.set(task, (key = canonicalJson([task.initial_state ?? null, task.evaluation_criteria?.actions ?? []])));
  return key;
}

async function replay<S>(domain: Domain<S>, task: Task, env: ReplayEnvOptions): Promise<GoldReplay<S>> {
  const initialState = await taskInitialState(domain, task, env);
  const e = new Environment<S>(domain, { now: env.now, idSeed: env.idSeed, state: initialState, sync: domain.goldReplaySync === true });
  const errors: GoldActionError[] = [];
  for (const a of task.evaluation_criteria?.actions ?? []) {
    const call = { id: `gold_${a.action_id}`, type: 'function' as const, function: { name: a.name, arguments: JSON.stringify(a.arguments) } };
    const entry = await e.execute(call, a.requestor);
    if (entry.harnessError !== undefined) throw new HarnessError(`gold action ${a.action_id} (${a.name}) of task ${task.id}: ${entry.harnessError}`, { tool: a.name });
    if (entry.error) errors.push({ action_id: a.action_id, name: a.name, requestor: a.requestor, output: entry.output });
  }
  return { task_id: task.id, initialState, finalState: e.state, log: e.log, errors };
}

/** Forgets cached gold replays: of one domain instance, or of all. */
export function clearGoldCache(domain?: Domain<any>): void {
  if (domain) cache.delete(domain);
  else cache = new WeakMap();
}
