/**
 * Loading the telecom domain from a tau2 telecom folder: the two DBs (`db.toml`,
 * `user_db.toml`), the tasks, and the policy composed exactly as tau2 composes it; and the
 * {@link Domain} built from them (agent tools, user tools, sync, initialization helpers and
 * env assertions).
 */
import fs from 'node:fs';
import { z } from 'zod';
import path from 'node:path';
import type { DatasetLintFinding, Domain, LoadedDomain } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import type { Task } from '../../spec/task.js';
import { readTextFile } from '../../util/json-file.js';
import { clonePlain } from '../../util/clone.js';
import { loadTau2Tasks, requireDataDir } from '../common/tau2-folder.js';
import { parseTomlSubset } from '../common/toml-subset.js';
import { coerceModel } from './model.js';
import { TELECOM_DB, TELECOM_USER_DB, type TelecomDb, type TelecomUserDb } from './schema.js';
import { syncTelecom, telecomStateOps, type TelecomState } from './state.js';
import { telecomAgentAssertions, telecomAgentInitFunctions, telecomAgentTools } from './tools-agent.js';
import { telecomUserAssertions, telecomUserInitFunctions, telecomUserTools } from './tools-user.js';
import type { TelecomTool } from './tool-def.js';

/** tau2 telecom's fixed "today" and "now" (2025-02-25 12:08 EST). */
export const TELECOM_TAU2_TODAY = '2025-02-25';
export const TELECOM_TAU2_NOW = '2025-02-25T12:08:00';

/** Which tech-support policy the agent gets: tau2's manual (default) or its workflow graph. */
export type TelecomPolicyKind = 'manual' | 'workflow';

/**
 * How the domain treats tau2's known faults (tau2-notes §7.1, §7.6):
 * - `tau2` (default): the gold replay runs without the sync, as tau2's evaluator does; after
 *   `break_vpn` a later `connect_vpn` in the same episode gets the broken profile, as tau2's
 *   shared default does (never across episodes here).
 * - `corrected`: the gold replay syncs after every call like the live path; no shared profile.
 */
export type TelecomFaultMode = 'tau2' | 'corrected';

/**
 * tau2's policy text: `<main_policy>` + the main policy + `</main_policy>` then
 * `<tech_support_policy>` + the tech-support policy + `</tech_support_policy>`. Files: main
 * `main_policy.md` (solo: `main_policy_solo.md`); tech support `tech_support_manual.md` (also in
 * solo) or `tech_support_workflow.md` (solo: `tech_support_workflow_solo.md`).
 */
export function composeTelecomPolicy(dir: string, kind: TelecomPolicyKind = 'manual', solo = false): string {
  const main = readTextFile(path.join(dir, solo ? 'main_policy_solo.md' : 'main_policy.md'));
  const techFile = kind === 'manual' ? 'tech_support_manual.md' : solo ? 'tech_support_workflow_solo.md' : 'tech_support_workflow.md';
  const tech = readTextFile(path.join(dir, techFile));
  return `<main_policy>\n${main}\n</main_policy>\n<tech_support_policy>\n${tech}\n</tech_support_policy>`;
}

/** Parses `db.toml` text into the agent DB (tau2's defaults filled); BadInputError names file and path. */
export function parseTelecomDb(text: string, file = 'db.toml'): TelecomDb {
  return withFile(file, () => coerceModel(TELECOM_DB, parseTomlSubset(text, file), '$') as unknown as TelecomDb);
}

/** Parses `user_db.toml` text into the user DB (tau2's defaults filled). */
export function parseTelecomUserDb(text: string, file = 'user_db.toml'): TelecomUserDb {
  return withFile(file, () => coerceModel(TELECOM_USER_DB, parseTomlSubset(text, file), '$') as unknown as TelecomUserDb);
}

function withFile<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof BadInputError && !e.file) throw new BadInputError(e.message.replace(/^at \S+: /, ''), { file, path: e.path });
    throw e;
  }
}

/** What a telecom domain is built from. */
export interface TelecomDomainParts {
  db: TelecomDb;
  userDb: TelecomUserDb;
  policy: string;
  /** The dataset's "today" (`YYYY-MM-DD`); tau2: 2025-02-25. */
  today: string;
  faults?: TelecomFaultMode;
  /** Extra agent tools (servicegym's dataset). */
  extraAgentTools?: TelecomTool[];
  /** tau2's solo mode: the agent also gets the user tools and a `done` tool; no customer. */
  solo?: boolean;
  description?: string;
}

/** Solo mode's `done`: the agent calls it when it has finished the ticket (tau2 solo); changes nothing. */
const soloDoneTool: TelecomTool<Record<string, never>> = {
  name: 'done',
  description: 'Call this function when you are done with the task.',
  parameters: z.object({}),
  kind: 'generic',
  requestor: 'assistant',
  invoke: () => 'The task is marked as done.',
};

/** The telecom {@link Domain}: agent tools then user tools; each `initialState()` is a fresh copy of both DBs. */
export function createTelecomDomain(parts: TelecomDomainParts): Domain<TelecomState> {
  const compat = (parts.faults ?? 'tau2') === 'tau2';
  const assertions = { ...telecomAgentAssertions, ...telecomUserAssertions };
  return {
    name: 'telecom',
    description: parts.description ?? 'Telecom technical support with dual control: account tools for the agent, device tools for the customer (tau2-bench telecom semantics).',
    policy: parts.policy,
    tools: [...telecomAgentTools(parts.today), ...(parts.extraAgentTools ?? []), ...(parts.solo ? [soloDoneTool] : []), ...telecomUserTools()],
    soloMode: parts.solo === true,
    // tau2 solo: the agent finishes by calling `done`, which ends the episode.
    ...(parts.solo ? { endTools: ['done'] } : {}),
    initialState: () => clonePlain({ db: parts.db, user: parts.userDb }),
    state: telecomStateOps,
    outputStyle: { ensureAscii: true },
    assertions: Object.fromEntries(Object.entries(assertions).map(([k, fn]) => [k, (s: TelecomState, a: Record<string, unknown>) => fn(s, a)])),
    sync: syncTelecom,
    goldReplaySync: !compat,
    initFunctions: { assistant: telecomAgentInitFunctions(parts.today), user: telecomUserInitFunctions(compat) },
  };
}

/**
 * Data lint (solo mode): tasks whose env assertions need a data refuel of some amount
 * (`assert_data_refueling_amount`) while their ticket — all a solo agent is told — never states
 * that amount, so a solo agent cannot know it. A warning in solo mode, information otherwise.
 */
export function refuelAmountLint(tasks: readonly Task[], solo: boolean): DatasetLintFinding[] {
  const ids: string[] = [];
  const details: Record<string, string> = {};
  for (const t of tasks) {
    const a = (t.evaluation_criteria?.env_assertions ?? []).find((x) => x.func_name === 'assert_data_refueling_amount');
    const amount = a?.arguments.expected_amount;
    if (typeof amount !== 'number') continue;
    const ticket = t.ticket ?? '';
    if ([String(amount), amount.toFixed(1)].some((f) => ticket.includes(`${f} GB`))) continue;
    ids.push(t.id);
    details[t.id] = `needs a refuel of ${amount} GB; the ticket does not say so`;
  }
  if (ids.length === 0) return [];
  return [{ rule: 'solo_refuel_amount_unstated', level: solo ? 'warn' : 'info', summary: `${ids.length} task${ids.length === 1 ? '' : 's'} assert a refuel amount their ticket never states (solo mode cannot know it)`, task_ids: ids, details }];
}

/** Options of the telecom loader (see {@link loadTelecom}). */
export interface TelecomLoadOptions {
  dataDir?: string;
  policy?: TelecomPolicyKind;
  solo?: boolean;
  faults?: TelecomFaultMode;
}

const cache = new Map<string, { db: TelecomDb; userDb: TelecomUserDb; tasks: Task[] }>();

/**
 * Loads tau2's telecom folder (`db.toml`, `user_db.toml`, `tasks.json`, the policy files); the
 * files are read once per process. Malformed files throw BadInputError naming the file and path.
 */
export function loadTau2Telecom(opts: TelecomLoadOptions & { dataDir: string }): LoadedDomain<TelecomState> {
  const dir = opts.dataDir;
  requireDataDir(dir);
  const key = fs.realpathSync(dir);
  let hit = cache.get(key);
  if (!hit) {
    const dbFile = path.join(dir, 'db.toml');
    const userFile = path.join(dir, 'user_db.toml');
    hit = {
      db: parseTelecomDb(readTextFile(dbFile), dbFile),
      userDb: parseTelecomUserDb(readTextFile(userFile), userFile),
      tasks: loadTau2Tasks(path.join(dir, 'tasks.json')),
    };
    cache.set(key, hit);
  }
  const policy = composeTelecomPolicy(dir, opts.policy ?? 'manual', opts.solo ?? false);
  const domain = createTelecomDomain({ db: hit.db, userDb: hit.userDb, policy, today: TELECOM_TAU2_TODAY, faults: opts.faults, solo: opts.solo });
  return { domain, mode: 'tau2', policy, tasks: hit.tasks, source: dir, now: TELECOM_TAU2_NOW, lints: (tasks) => refuelAmountLint(tasks, opts.solo === true) };
}
