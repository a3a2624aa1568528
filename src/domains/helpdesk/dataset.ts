/**
 * servicegym's helpdesk dataset (Juniper & Oak, November 2026): the shop and its helpdesk as one
 * back-end state — task records plus generated filler — with the customer-service policy
 * (`data/cs_policy.md`) and the tasks (`tasks/*.json`). Built and validated once per process;
 * each episode works on a copy-on-write view. The same state is what the Harbordesk helpdesk app
 * and the shop admin app show and change (`apps/`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CowDb } from '../../env/cow-db.js';
import type { LoadedDomain } from '../../spec/domain.js';
import type { WebDomain } from '../../surfaces/web-app.js';
import { helpdeskUiOracle } from './ui-oracle.js';
import { helpdeskWebApp } from './apps/index.js';
import { BadInputError } from '../../spec/errors.js';
import type { Task } from '../../spec/task.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { cowRecordHash } from '../common/record-hash.js';
import { cowDbStateOps } from '../common/table-hash.js';
import { tableInitialStateHook } from '../common/table-initial-state.js';
import { validateAt } from '../common/tau2-folder.js';
import { generateHelpdeskFiller } from './data/generate.js';
import { helpdeskSeedRecords, SERVICEGYM_HELPDESK_NOW } from './data/seed-records.js';
import { deskTools } from './desk-tools.js';
import { HELPDESK_RECORD_SCHEMAS, HelpdeskStateSchema, type HelpdeskTables } from './schema.js';
import { shopTools } from './shop-tools.js';
import type { HelpdeskDb, HelpdeskTool } from './tools-common.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const HELPDESK_TASK_FILES = [
  't18-late-delivery-sidebar.json',
  'h01-late-full-refund-refused.json',
  'h02-used-code-not-reactivated.json',
  'h03-order-status-macro.json',
  'h04-damaged-item-refund.json',
  'h05-on-time-no-refund.json',
  's01-partial-return-refund.json',
  's02-refund-outside-window.json',
  's03-recovery-code-for-customer.json',
  's04-disable-leaked-code.json',
  's05-shipping-already-refunded.json',
];

/** The back-end as plain JSON tables: task records, then filler (which must not collide). */
export function servicegymHelpdeskJson(seed = 2026): HelpdeskTables {
  const seeds = helpdeskSeedRecords();
  const gen = generateHelpdeskFiller(seed);
  const out = { ...seeds } as HelpdeskTables;
  for (const table of Object.keys(seeds) as (keyof HelpdeskTables)[]) {
    for (const id of Object.keys(gen[table])) if (Object.prototype.hasOwnProperty.call(seeds[table], id)) throw new Error(`generated ${table} id ${id} collides with a task record`);
    (out as Record<string, unknown>)[table] = { ...seeds[table], ...gen[table] };
  }
  return out;
}

/** The back-end operations an API agent calls (the apps call the same ones). */
export function helpdeskTools(): HelpdeskTool[] {
  return [...deskTools, ...shopTools];
}

let cached: { base: HelpdeskTables; tasks: Task[]; policy: string } | undefined;

/**
 * The helpdesk domain over a validated base state: the back-end operations as its tools (the API
 * surface), and the helpdesk and shop admin as its web app (the web surfaces).
 */
export function createHelpdeskDomain(base: HelpdeskTables, policy: string): WebDomain<HelpdeskDb> {
  const root = new CowDb<HelpdeskTables>(base);
  return {
    name: 'helpdesk',
    description: "servicegym's helpdesk connected to a shop (Juniper & Oak): tickets with threads, macros, tags and statuses; orders with line items and shipping lines, refunds and discount codes.",
    policy,
    tools: helpdeskTools(),
    initialState: () => root.fork(),
    state: cowDbStateOps<HelpdeskTables>(cowRecordHash),
    outputStyle: { ensureAscii: false },
    applyInitialState: tableInitialStateHook<HelpdeskTables>('helpdesk', HELPDESK_RECORD_SCHEMAS),
    webApp: helpdeskWebApp,
  };
}

/** Loads the dataset (built and validated once per process). Throws BadInputError for a `dataDir`: the helpdesk has no external dataset. */
export function loadServicegymHelpdesk(opts: { dataDir?: string } = {}): LoadedDomain<HelpdeskDb> {
  if (opts.dataDir) throw new BadInputError('the helpdesk domain has no external dataset: run it without --data-dir');
  if (!cached) {
    const base = validateAt(HelpdeskStateSchema, servicegymHelpdeskJson(), 'servicegym helpdesk dataset') as HelpdeskTables;
    const policy = readTextFile(path.join(HERE, 'data', 'cs_policy.md'));
    cached = { base, policy, tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), HELPDESK_TASK_FILES) };
  }
  return { domain: createHelpdeskDomain(cached.base, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_HELPDESK_NOW, uiOracle: helpdeskUiOracle };
}
