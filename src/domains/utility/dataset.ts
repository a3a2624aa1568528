/**
 * servicegym's utility dataset (Cascade Utilities, October 2026): generated customers, premises and
 * accounts plus the task records, the policy (`data/utility_policy.md`) and the tasks
 * (`tasks/*.json`). Built and validated once per process; episodes work on copy-on-write views.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CowDb } from '../../env/cow-db.js';
import type { Domain, LoadedDomain } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import type { Task } from '../../spec/task.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { makeCalculateTool, makeTransferToHumanAgentsTool } from '../common/generic-tools.js';
import { cowRecordHash } from '../common/record-hash.js';
import { cowDbStateOps } from '../common/table-hash.js';
import { tableInitialStateHook } from '../common/table-initial-state.js';
import { validateAt } from '../common/tau2-folder.js';
import { generateUtility, SERVICEGYM_UTILITY_NOW } from './data/generate.js';
import { utilitySeedRecords } from './data/seed-records.js';
import { AccountSchema, CustomerSchema, PremiseSchema, ServiceOrderSchema, UtilityStateSchema } from './schema.js';
import { utilityTools, type UtilityDb, type UtilityTables, type UtilityTool } from './tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const UTILITY_TASK_FILES = [
  't19-move-service.json', 'u01-move-with-deposit.json', 'u02-stop-leaving-area.json', 'u03-no-backdated-stop.json', 'u04-occupied-premise.json', 'u05-wrong-pin.json',
  'u06-holiday-final-bill.json', 'u07-late-payment-edge.json', 'u08-corrected-move-date.json', 'u09-life-support-transfer.json', 'u10-contact-namesake.json', 'u11-deposit-refund-request.json', 'u12-prorated-basic-charge.json',
];

/** The utility's tables as plain JSON: generated data, then the task records (ids must not collide). */
export function servicegymUtilityJson(seed = 2026): UtilityTables {
  const gen = generateUtility(seed);
  const seeds = utilitySeedRecords();
  for (const table of ['customers', 'premises', 'accounts'] as const) {
    for (const id of Object.keys(seeds[table])) if (Object.prototype.hasOwnProperty.call(gen[table], id)) throw new Error(`generated ${table} id ${id} collides with a task record`);
  }
  return { customers: { ...seeds.customers, ...gen.customers }, premises: { ...seeds.premises, ...gen.premises }, accounts: { ...seeds.accounts, ...gen.accounts }, orders: {} };
}

/** The tools the agent sees. */
export function allUtilityTools(): UtilityTool[] {
  return [
    ...utilityTools,
    makeTransferToHumanAgentsTool<UtilityDb>('Transfer the customer to a specialist team with a short summary. Only for what policy 7.1 lists: medical or life-support certifications, payment arrangements and disconnection notices, billing disputes, new construction or meter work, business accounts.'),
    makeCalculateTool<UtilityDb>(),
  ];
}

/** The utility domain over a validated base DB. */
export function createUtilityDomain(base: UtilityTables, policy: string): Domain<UtilityDb> {
  const root = new CowDb<UtilityTables>(base);
  return {
    name: 'utility',
    description: "servicegym's utility back-end (Cascade Utilities): moves, stops and starts of service, final meter reads, deposits and final bills.",
    policy,
    tools: allUtilityTools(),
    initialState: () => root.fork(),
    state: cowDbStateOps<UtilityTables>(cowRecordHash),
    outputStyle: { ensureAscii: false },
    applyInitialState: tableInitialStateHook<UtilityTables>('utility', { customers: CustomerSchema, premises: PremiseSchema, accounts: AccountSchema, orders: ServiceOrderSchema }),
  };
}

let cached: { base: UtilityTables; tasks: Task[]; policy: string } | undefined;

/** Loads the dataset once per process. Throws BadInputError for a `dataDir`: utility has no external dataset. */
export function loadServicegymUtility(opts: { dataDir?: string } = {}): LoadedDomain<UtilityDb> {
  if (opts.dataDir) throw new BadInputError('the utility domain has no external dataset: run it without --data-dir');
  if (!cached) {
    const base = validateAt(UtilityStateSchema, servicegymUtilityJson(), 'servicegym utility dataset') as UtilityTables;
    cached = { base, policy: readTextFile(path.join(HERE, 'data', 'utility_policy.md')), tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), UTILITY_TASK_FILES) };
  }
  return { domain: createUtilityDomain(cached.base, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_UTILITY_NOW };
}
