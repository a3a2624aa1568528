/**
 * servicegym's service console dataset (Halden Home Appliances, 2026-11-20): the generated filler
 * plus the task records, the warranty policy (`data/warranty_policy.md`) and the tasks. Its
 * tasks run through the web surface: the agent works the Lumen Service Console in a browser and
 * has no API tool; the console's pages call the back-end operations of `tools.ts`.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CowDb } from '../../env/cow-db.js';
import type { LoadedDomain } from '../../spec/domain.js';
import { BadInputError } from '../../spec/errors.js';
import type { Task } from '../../spec/task.js';
import type { WebDomain } from '../../surfaces/web-app.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { validateAt } from '../common/tau2-folder.js';
import { consoleWebApp } from './app/index.js';
import { generateConsole, SERVICEGYM_CONSOLE_NOW } from './data/generate.js';
import { consoleSeeds } from './data/seed-records.js';
import { consoleUiOracle } from './oracle.js';
import { ConsoleTablesSchema, type ConsoleTables } from './schema.js';
import { consoleStateOps, type ConsoleState } from './state.js';
import { consoleTools } from './tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order. */
export const CONSOLE_TASK_FILES = [
  't11-warranty-rma.json', 'c01-out-of-warranty-paid-repair.json', 'c02-extended-protection.json', 'c03-duplicate-case.json',
  'c04-accidental-damage.json', 'c05-existing-return-order.json', 'c06-dead-on-arrival.json',
];

/** The store and the case descriptions: generated filler, then the task records (which must not collide). */
export function servicegymConsole(seed = 2026): { tables: ConsoleTables; notes: Record<string, string> } {
  const tables = generateConsole(seed);
  const notes: Record<string, string> = {};
  const put = <K extends keyof ConsoleTables>(table: K, id: string, rec: ConsoleTables[K][string]) => {
    if (tables[table][id]) throw new Error(`generated ${String(table)} ${id} collides with a task record`);
    tables[table][id] = rec;
  };
  for (const s of consoleSeeds()) {
    put('accounts', s.account.id, s.account);
    put('contacts', s.contact.id, s.contact);
    for (const a of s.assets) put('assets', a.id, a);
    for (const e of s.entitlements) put('entitlements', e.id, e);
    for (const c of s.cases) put('cases', c.number, c);
    for (const r of s.returnOrders ?? []) put('return_orders', r.id, r);
    for (const [n, text] of Object.entries(s.description)) notes[`${n}.description`] = text;
  }
  return { tables, notes };
}

/** The console domain over a validated store: back-end operations as tools, the console as its web app. */
export function createConsoleDomain(tables: ConsoleTables, notes: Record<string, string>, policy: string): WebDomain<ConsoleState> {
  const root = new CowDb<ConsoleTables>(tables);
  return {
    name: 'console',
    description: "servicegym's service console (Lumen Service Console, Halden Home Appliances): cases, assets, entitlements, return orders and call logs, worked through a browser.",
    policy,
    tools: consoleTools,
    initialState: () => ({ db: root.fork(), feed: [], notes: { ...notes } }),
    state: consoleStateOps,
    outputStyle: { ensureAscii: false },
    webApp: consoleWebApp,
  };
}

let cached: { tables: ConsoleTables; notes: Record<string, string>; policy: string; tasks: Task[] } | undefined;

/** Loads the dataset (built and validated once per process). Throws BadInputError for a `dataDir`: the console has no external dataset. */
export function loadServicegymConsole(opts: { dataDir?: string } = {}): LoadedDomain<ConsoleState> {
  if (opts.dataDir) throw new BadInputError('the console domain has no external dataset: run it without --data-dir');
  if (!cached) {
    const built = servicegymConsole();
    const tables = validateAt(ConsoleTablesSchema, built.tables, 'servicegym console dataset') as ConsoleTables;
    cached = { tables, notes: built.notes, policy: readTextFile(path.join(HERE, 'data', 'warranty_policy.md')), tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), CONSOLE_TASK_FILES) };
  }
  return {
    domain: createConsoleDomain(cached.tables, cached.notes, cached.policy),
    mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_CONSOLE_NOW,
    surface: 'web', uiOracle: consoleUiOracle,
    customerOpening: 'Hi, I am calling about my appliance.',
  };
}
