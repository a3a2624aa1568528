/**
 * A domain: back-end state, the tools over it, and the written policy.
 */
import type { ToolDef } from './tool.js';
import type { StateOps } from './state.js';
import type { Task } from './task.js';
import type { UiStep } from './ui-step.js';

/** How a domain serialises non-string tool results (Python `json.dumps` flavour). */
export interface OutputStyle {
  /** Python `ensure_ascii`: tau2 uses true; the seed experiment's mock used false. */
  ensureAscii: boolean;
}

export interface Domain<S = unknown> {
  /** Registry name, e.g. `yunshu`. */
  name: string;
  /** One line on what the domain is and where its data comes from. */
  description: string;
  /** The policy text given to the agent (markdown), if the domain has one. */
  policy?: string;
  tools: ToolDef<S>[];
  /** The initial state. Environments fork it (see {@link StateOps.fork}) and never mutate it. */
  initialState: () => S;
  /** How the state is forked, compared, diffed and hashed; plain JSON defaults when absent. */
  state?: StateOps<S>;
  outputStyle: OutputStyle;
  /**
   * Applies a task's `initial_state.initialization_data` (tau2: deep-merged into the DB dump,
   * lists replaced) to `state`, a private fork of the initial state; returns the state to start
   * from (it may mutate and return `state`). When absent, the evaluator deep-merges `agent_data`
   * into a plain-object state and rejects other state shapes and `user_data`.
   */
  applyInitialState?: (state: S, data: InitializationData) => S;
  /**
   * tau2 env-assertion functions by `func_name` (e.g. telecom's `assert_*`): whether the assertion
   * holds on `state` for `args`. `envType` is the assertion's `env_type`. Absent: not supported.
   */
  assertions?: Record<string, (state: S, args: Record<string, unknown>, envType: 'assistant' | 'user') => boolean>;
  /**
   * tau2's `sync_tools()`: brings derived state up to date after a call (telecom: the line's
   * status, roaming and data usage onto the customer's phone surroundings, payment requests).
   * The environment runs it after every successful tool call unless told not to (tau2's gold
   * replay skips it); a throw turns the call into an `Error: …` result.
   */
  sync?: (state: S) => void;
  /**
   * tau2's solo mode: the agent may call the user-side tools too (there is no customer), and a
   * run gives it the task's `ticket` instead of a user simulator.
   */
  soloMode?: boolean;
  /**
   * Tools whose successful call by the agent ends the episode as `agent_stop` once that message's
   * tool calls have run (tau2 solo mode's `done`: the agent says it has finished the ticket).
   */
  endTools?: readonly string[];
  /** Run `sync` during the gold replay too (the corrected mode); default false, as tau2's evaluator. */
  goldReplaySync?: boolean;
  /**
   * Functions that tasks' `initialization_actions` may call besides the tools (tau2 telecom's
   * `set_user_info`, `break_apn_settings`, …), by `env_type` and name; they mutate `state`.
   * A throw makes the task's start state invalid.
   */
  initFunctions?: Partial<Record<'assistant' | 'user', Record<string, (state: S, args: Record<string, unknown>) => unknown>>>;
}

/** A task's `initial_state.initialization_data` (tau2): agent-side and user-side DB patches. */
export interface InitializationData {
  agent_data?: unknown;
  user_data?: unknown;
}

/** Which dataset a loaded domain came from. */
export type DatasetMode = 'tau2' | 'servicegym';

/**
 * A task of a dataset whose gold contradicts its own user scenario or policy, so no agent can be
 * scored fairly on it; strict runs exclude it and report it apart with `reason`.
 */
export interface KnownBadTask {
  id: string;
  reason: string;
  /**
   * Set when the entry no longer applies: the dataset has no such task (`missing`) or its task
   * differs from the audited one (`changed`, e.g. fixed upstream). Stale entries exclude nothing.
   */
  stale?: 'missing' | 'changed';
}

/** A domain with its dataset: the environment definition, the policy text and the tasks. */
export interface LoadedDomain<S = unknown> {
  domain: Domain<S>;
  mode: DatasetMode;
  /** The policy text given to the agent. */
  policy: string;
  tasks: Task[];
  /** Where the data came from (a folder, or `builtin`), for reports. */
  source: string;
  /** The dataset's fixed "now" (ISO-8601) given to environments and the gold replay. */
  now?: string;
  /** Tasks of this dataset known to be unfair to score (see {@link KnownBadTask}); absent: none known. */
  knownBadTasks?: KnownBadTask[];
  /**
   * The surface (registry name, e.g. `web`) this dataset's tasks run through unless a command
   * names one; absent: `api`. A web console's tasks set `web`: its agent has no API tool.
   */
  surface?: string;
  /**
   * The oracle's steps for a task on that surface, when its gold actions are back-end operations
   * the agent cannot call (web: browser steps by role and accessible name); null or absent: the
   * oracle calls the gold actions as tools.
   */
  uiOracle?: (task: Task) => UiStep[] | null;
  /** The domain's wording of a scripted customer's opening line (validate's confirming customer); absent: a generic one. */
  customerOpening?: string;
  /** Dataset-specific data lints, run by `lint` and the validate report beside the generic ones. */
  lints?: (tasks: readonly Task[]) => DatasetLintFinding[];
  /** The domain's wording for customer personas (src/users/personas.ts); absent: generic wording. */
  personaText?: PersonaText;
  /**
   * Reads what the dataset defers until first use (servicegym's airline DB), so that a runner can
   * do it while it waits on its first model calls rather than before them; idempotent, and never
   * needed for correctness (whatever uses the data reads it). Absent: nothing is deferred.
   */
  prepare?: () => void;
}

/**
 * How a domain's customers name their records, for the personas (seed task T16): the vague
 * customer withholds these specifics, recognises the agent asking for them, and says "my order"
 * instead of "order O1".
 */
export interface PersonaText {
  /** Nouns naming the customer's records and their ids, singular and lower case (`order`, `reservation`, `flight` …). */
  recordNouns: readonly string[];
  /** What a vague customer leaves out, as a list phrase after "no": e.g. `order or user ids, no item or product names`. */
  withheld: string;
}

/** One dataset-specific lint finding (same shape as the evaluator's generic lint findings). */
export interface DatasetLintFinding {
  rule: string;
  /** `info` describes the data; `warn` means some reward can mislead. */
  level: 'info' | 'warn';
  summary: string;
  task_ids: string[];
  details?: Record<string, string>;
}

/**
 * A registered domain family. `load()` without `dataDir` gives servicegym's own dataset (shipped
 * in the project); with `dataDir` it reads a tau2-bench domain folder (`db.json`, `tasks.json`,
 * `policy.md`) and exposes exactly tau2's tool set. Throws BadInputError naming the file and
 * JSON path of malformed data.
 */
export interface DomainPackage {
  name: string;
  description: string;
  /** False when the family has no dataset of servicegym's own yet (`load()` needs a `dataDir`). */
  ownDataset?: boolean;
  /** Variants the family offers (tau2 telecom: the `workflow` policy and solo mode); absent: none. */
  variants?: { policies?: readonly string[]; solo?: boolean };
  load(opts?: DomainLoadOptions): LoadedDomain<any>;
}

/**
 * How to load a domain family: the data folder, and a variant — `policy` names a policy variant
 * (e.g. telecom `workflow`), `solo` is tau2's solo mode (no customer; the agent gets the task's
 * ticket and both tool sets).
 */
export interface DomainLoadOptions {
  dataDir?: string;
  policy?: string;
  solo?: boolean;
}
