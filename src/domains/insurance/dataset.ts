/**
 * servicegym's auto-insurance dataset (Cobalt Mutual, October 2026): generated holders and
 * policies plus the task records, the servicing rules (`data/auto_policy_rules.md`) and the tasks
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
import { generateInsurance, SERVICEGYM_INSURANCE_NOW } from './data/generate.js';
import { insuranceSeedRecords } from './data/seed-records.js';
import { HolderSchema, InsuranceStateSchema, PolicySchema } from './schema.js';
import { insuranceTools, type InsuranceDb, type InsuranceTables, type InsuranceTool } from './tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const INSURANCE_TASK_FILES = [
  't10-add-teen-driver.json', 'i01-add-spouse.json', 'i02-add-permit-holder.json', 'i03-under-16.json', 'i04-suspended-licence.json', 'i05-remove-driver.json',
  'i06-failed-verification.json', 'i07-no-backdating.json', 'i08-nephew-rounding.json', 'i09-accident-transfer.json', 'i10-decides-to-wait.json', 'i11-contact-namesake.json', 'i12-coverage-change-transfer.json',
];

/** Holders and policies as plain JSON: generated data, then the task records (ids must not collide). */
export function servicegymInsuranceJson(seed = 2026): InsuranceTables {
  const gen = generateInsurance(seed);
  const seeds = insuranceSeedRecords();
  for (const table of ['holders', 'policies'] as const) {
    for (const id of Object.keys(seeds[table])) if (Object.prototype.hasOwnProperty.call(gen[table], id)) throw new Error(`generated ${table} id ${id} collides with a task record`);
  }
  return { holders: { ...seeds.holders, ...gen.holders }, policies: { ...seeds.policies, ...gen.policies } };
}

/** The tools the agent sees. */
export function allInsuranceTools(): InsuranceTool[] {
  return [
    ...insuranceTools,
    makeTransferToHumanAgentsTool<InsuranceDb>('Transfer the caller to a specialist team with a short summary. Only for what rule 7.1 lists: claims and accidents, coverage or deductible changes, vehicle changes, drivers needing underwriting review, cancellations, claim complaints.'),
    makeCalculateTool<InsuranceDb>(),
  ];
}

/** The insurance domain over a validated base DB. */
export function createInsuranceDomain(base: InsuranceTables, policy: string): Domain<InsuranceDb> {
  const root = new CowDb<InsuranceTables>(base);
  return {
    name: 'insurance',
    description: "servicegym's personal auto insurance back-end (Cobalt Mutual): policies, drivers, mid-term endorsements with pro-rata premium.",
    policy,
    tools: allInsuranceTools(),
    initialState: () => root.fork(),
    state: cowDbStateOps<InsuranceTables>(cowRecordHash),
    outputStyle: { ensureAscii: false },
    applyInitialState: tableInitialStateHook<InsuranceTables>('insurance', { holders: HolderSchema, policies: PolicySchema }),
  };
}

let cached: { base: InsuranceTables; tasks: Task[]; policy: string } | undefined;

/** Loads the dataset once per process. Throws BadInputError for a `dataDir`: insurance has no external dataset. */
export function loadServicegymInsurance(opts: { dataDir?: string } = {}): LoadedDomain<InsuranceDb> {
  if (opts.dataDir) throw new BadInputError('the insurance domain has no external dataset: run it without --data-dir');
  if (!cached) {
    const base = validateAt(InsuranceStateSchema, servicegymInsuranceJson(), 'servicegym insurance dataset') as InsuranceTables;
    cached = { base, policy: readTextFile(path.join(HERE, 'data', 'auto_policy_rules.md')), tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), INSURANCE_TASK_FILES) };
  }
  return { domain: createInsuranceDomain(cached.base, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_INSURANCE_NOW };
}
