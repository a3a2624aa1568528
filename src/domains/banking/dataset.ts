/**
 * servicegym's banking dataset (Meridian Savings Bank, October 2026): the generated bank plus
 * the task records, the policy (`data/bank_policy.md`) and the tasks (`tasks/*.json`). Built
 * and validated once per process; each episode works on a copy-on-write view.
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
import { generateBank, SERVICEGYM_BANK_NOW } from './data/generate.js';
import { bankSeedRecords } from './data/seed-records.js';
import { AccountSchema, BankStateSchema, CallRecordSchema, CardOrderSchema, CardSchema, CustomerSchema, DisputeSchema, SecurityNoteSchema, TransactionSchema } from './schema.js';
import type { BankDb, BankTables, BankTool } from './tools-common.js';
import { bankReadTools } from './tools-read.js';
import { bankWriteTools } from './tools-write.js';
import type { PixelAppHost } from '../../surfaces/pixel-app.js';
import { tellerLinkApp } from './crm/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const BANK_TASK_FILES = [
  't08-dispute-and-reissue.json',
  't14-unverified-address-change.json',
  'b01-lost-card.json',
  'b02-premier-expedited-waived.json',
  'b03-standard-expedited-fee.json',
  'b04-dispute-window-closed.json',
  'b05-failed-verification.json',
  'b06-address-change-namesake.json',
  'b07-fraud-provisional-credit.json',
  'b08-changes-delivery-choice.json',
  'b09-wire-recall-transfer.json',
  'b10-already-disputed.json',
  'b11-window-edge-young-account.json',
  'b12-premier-foreign-fee-refund.json',
  't20-crm-call-script.json',
  'c01-crm-premier-fee-waived.json',
  'c02-crm-failed-verification.json',
  'c03-crm-address-rejected.json',
  'c04-crm-card-already-ordered.json',
];

/** The bank as plain JSON tables: generated filler, then the task records (which must not collide). */
export function servicegymBankJson(seed = 2026): BankTables {
  const gen = generateBank(seed);
  const seeds = bankSeedRecords();
  for (const table of ['customers', 'accounts', 'cards', 'transactions', 'disputes'] as const) {
    for (const id of Object.keys(seeds[table])) if (Object.prototype.hasOwnProperty.call(gen[table], id)) throw new Error(`generated ${table} id ${id} collides with a task record`);
  }
  return {
    customers: { ...seeds.customers, ...gen.customers },
    accounts: { ...seeds.accounts, ...gen.accounts },
    cards: { ...seeds.cards, ...gen.cards },
    transactions: { ...seeds.transactions, ...gen.transactions },
    disputes: { ...seeds.disputes, ...gen.disputes },
    card_orders: gen.card_orders,
    security_notes: gen.security_notes,
    call_log: {},
  };
}

/** The tools the agent sees: reads, writes, then the generic transfer and calculator. */
export function bankTools(): BankTool[] {
  return [
    ...bankReadTools,
    ...bankWriteTools,
    makeTransferToHumanAgentsTool<BankDb>('Transfer the customer to a specialist team with a short summary of the issue. Only for the requests policy section 7 lists (wire recalls, account closures, powers of attorney, bereavement, loans, disputes above $10,000.00, a supervisor request).'),
    makeCalculateTool<BankDb>(),
  ];
}

/** The record schemas by table, for validating task patches. */
const RECORD_SCHEMAS = {
  customers: CustomerSchema, accounts: AccountSchema, cards: CardSchema, transactions: TransactionSchema, disputes: DisputeSchema,
  card_orders: CardOrderSchema, security_notes: SecurityNoteSchema, call_log: CallRecordSchema,
};

let cached: { base: BankTables; tasks: Task[]; policy: string } | undefined;

/** The banking domain over a validated base DB. */
export function createBankDomain(base: BankTables, policy: string): Domain<BankDb> & PixelAppHost {
  const root = new CowDb<BankTables>(base);
  return {
    name: 'banking',
    description: "servicegym's banking back-end (Meridian Savings Bank): identity verification, card disputes, blocks and replacements, addresses, fees, security notes and call records.",
    policy,
    tools: bankTools(),
    initialState: () => root.fork(),
    state: cowDbStateOps<BankTables>(cowRecordHash),
    outputStyle: { ensureAscii: false },
    applyInitialState: tableInitialStateHook<BankTables>('banking', RECORD_SCHEMAS),
    // The legacy desktop CRM over the same state (seed task T20), for the pixel surface.
    pixelApp: tellerLinkApp,
  };
}

/** Loads the dataset (built and validated once per process). Throws BadInputError for a `dataDir`: banking has no external dataset. */
export function loadServicegymBank(opts: { dataDir?: string } = {}): LoadedDomain<BankDb> {
  if (opts.dataDir) throw new BadInputError('the banking domain has no external dataset: run it without --data-dir');
  if (!cached) {
    const base = validateAt(BankStateSchema, servicegymBankJson(), 'servicegym banking dataset') as BankTables;
    const policy = readTextFile(path.join(HERE, 'data', 'bank_policy.md'));
    const tasks = loadBuiltinTasks(path.join(HERE, 'tasks'), BANK_TASK_FILES);
    cached = { base, tasks, policy };
  }
  return { domain: createBankDomain(cached.base, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_BANK_NOW };
}
