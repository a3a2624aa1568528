/**
 * servicegym's own telecom dataset (Kestrel Mobile, November 2026): the generated carrier plus the
 * task records, the customer's phone, the policy (`data/kestrel_policy.md`) and the tasks
 * (`tasks/*.json`; seed task T07 and K01-K13). Dual control as in tau2's telecom: the agent works
 * the account, the customer acts on the phone with its own tools, and the two sides are synced
 * after every call. Built and validated once per process; each episode works on a copy-on-write
 * view of the tables and its own copy of the phone.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CowDb } from '../../../env/cow-db.js';
import { diffState } from '../../../env/diff.js';
import type { Domain, InitializationData, LoadedDomain } from '../../../spec/domain.js';
import { BadInputError, jsonPath } from '../../../spec/errors.js';
import type { StateOps } from '../../../spec/state.js';
import type { Task } from '../../../spec/task.js';
import { canonicalJson } from '../../../util/canonical.js';
import { readTextFile } from '../../../util/json-file.js';
import { loadBuiltinTasks } from '../../common/builtin-dataset.js';
import { cowRecordHash } from '../../common/record-hash.js';
import { tableInitialStateHook } from '../../common/table-initial-state.js';
import { validateAt } from '../../common/tau2-folder.js';
import { KESTREL_NOW } from './data/accounts.js';
import { generateKestrel } from './data/generate.js';
import { kestrelSeedRecords } from './data/seed-records.js';
import { syncKestrel, type KestrelState } from './phone.js';
import { BillSchema, CustomerSchema, defaultPhone, DeviceSchema, KestrelTablesSchema, LinePassSchema, LineSchema, PhoneSchema, PlanSchema, RoamingPassSchema, type KestrelTables, type Phone } from './schema.js';
import { kestrelAgentTools } from './tools-agent.js';
import { kestrelPhoneTools } from './tools-phone.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

export { KESTREL_NOW };

/** The task files, in order (an explicit list, never a folder scan). */
export const KESTREL_TASK_FILES = [
  't07-roaming-data-and-pass.json',
  'k01-pass-plan-ineligible.json',
  'k02-pass-overdue-bill.json',
  'k03-pay-overdue-bill.json',
  'k04-suspended-line-pay-resume.json',
  'k05-suspended-line-no-payment.json',
  'k06-sim-puk-transfer.json',
  'k07-plan-upgrade.json',
  'k08-plan-change-too-soon.json',
  'k09-downgrade-under-contract.json',
  'k10-data-topup.json',
  'k11-line-roaming-off.json',
  'k12-airplane-and-data-off.json',
  'k13-pass-right-line.json',
];

/** The carrier as plain JSON tables: generated filler, then the task records (which must not collide). */
export function kestrelTablesJson(seed = 2026): KestrelTables {
  const gen = generateKestrel(seed);
  const seeds = kestrelSeedRecords();
  for (const table of ['customers', 'lines', 'bills', 'devices'] as const) {
    for (const id of Object.keys(seeds[table])) if (Object.prototype.hasOwnProperty.call(gen[table], id)) throw new Error(`generated ${table} id ${id} collides with a task record`);
  }
  const phones = new Set(Object.values(gen.lines).map((l) => l.phone_number));
  for (const l of Object.values(seeds.lines)) if (phones.has(l.phone_number)) throw new Error(`generated phone number ${l.phone_number} collides with a task line`);
  return {
    ...gen,
    customers: { ...seeds.customers, ...gen.customers },
    lines: { ...seeds.lines, ...gen.lines },
    bills: { ...seeds.bills, ...gen.bills },
    devices: { ...seeds.devices, ...gen.devices },
  };
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/**
 * State operations: tables through their copy-on-write view, the phone as plain JSON. Diff paths
 * are the tables' (`/lines/L-77301/roaming_enabled`) and `/phone/...`, as in {@link StateOps.view}.
 */
export const kestrelStateOps: StateOps<KestrelState> = {
  fork: (s) => ({ db: s.db.branch(), phone: structuredClone(s.phone) }),
  equal: (a, b) => CowDb.equal(a.db, b.db) && canonicalJson(a.phone) === canonicalJson(b.phone),
  diff: (a, b) => [...CowDb.diff(a.db, b.db), ...diffState(a.phone, b.phone, ['phone'])],
  hash: (s) => sha256(`${cowRecordHash(s.db)}\n${canonicalJson(s.phone)}`),
  view: (s) => kestrelView(s),
};

/**
 * The plain-JSON view checks read (`field_in`, `state_count`): each table is a read-only proxy
 * over the copy-on-write view, so a check reads the records it needs without copying the carrier.
 */
function kestrelView(s: KestrelState): Record<string, unknown> {
  const table = (t: keyof KestrelTables) =>
    new Proxy({} as Record<string, unknown>, {
      get: (_o, id) => (typeof id === 'string' ? s.db.get(t, id) : undefined),
      has: (_o, id) => typeof id === 'string' && s.db.has(t, id),
      ownKeys: () => s.db.ids(t),
      getOwnPropertyDescriptor: (_o, id) => (typeof id === 'string' && s.db.has(t, id) ? { value: s.db.get(t, id), enumerable: true, configurable: true, writable: false } : undefined),
    });
  const out: Record<string, unknown> = { phone: s.phone };
  for (const t of Object.keys(s.db.base) as (keyof KestrelTables)[]) out[t] = table(t);
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** tau2's merge of a patch: objects key by key, anything else replaces. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(target) || !isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) Object.defineProperty(out, k, { value: k in target ? mergePatch(target[k], v) : structuredClone(v), enumerable: true, writable: true, configurable: true });
  return out;
}

const RECORD_SCHEMAS = { plans: PlanSchema, roaming_passes: RoamingPassSchema, customers: CustomerSchema, lines: LineSchema, line_passes: LinePassSchema, bills: BillSchema, devices: DeviceSchema };
const applyTables = tableInitialStateHook<KestrelTables>('telecom', RECORD_SCHEMAS);

/**
 * A task's `initialization_data`: `agent_data` patches records of the tables; `user_data` patches
 * the phone (deep-merged onto the default phone: which line it holds, where it is, its settings).
 * Then both sides are synced. Throws BadInputError naming the JSON path of a bad patch.
 */
export function applyKestrelInitialState(state: KestrelState, data: InitializationData): KestrelState {
  const db = applyTables(state.db, { agent_data: data.agent_data });
  let phone: Phone = state.phone;
  if (data.user_data != null) {
    const r = PhoneSchema.safeParse(mergePatch(state.phone, data.user_data));
    if (!r.success) {
      const issue = r.error.issues[0];
      throw new BadInputError(issue.message, { file: 'initial_state.initialization_data', path: jsonPath(['user_data', ...issue.path]) });
    }
    phone = r.data;
    if (phone.line_id !== null && !db.has('lines', phone.line_id)) throw new BadInputError(`the phone holds unknown line ${phone.line_id}`, { file: 'initial_state.initialization_data', path: '$.user_data.line_id' });
  }
  const out = { db, phone };
  syncKestrel(out);
  return out;
}

/** The telecom domain over servicegym's dataset: account tools, the transfer, the calculator, then the phone tools. */
export function createKestrelDomain(base: KestrelTables, policy: string): Domain<KestrelState> {
  const root = new CowDb<KestrelTables>(base);
  return {
    name: 'telecom',
    description: "servicegym's telecom back-end (Kestrel Mobile) with dual control: plans, roaming passes, lines, bills and devices for the agent; the customer's phone for the customer.",
    policy,
    tools: [...kestrelAgentTools(), ...kestrelPhoneTools()],
    initialState: () => ({ db: root.fork(), phone: defaultPhone() }),
    state: kestrelStateOps,
    outputStyle: { ensureAscii: false },
    applyInitialState: applyKestrelInitialState,
    sync: syncKestrel,
    goldReplaySync: true,
  };
}

let cached: { base: KestrelTables; tasks: Task[]; policy: string } | undefined;

/** Loads the dataset (built and validated once per process). */
export function loadKestrelTelecom(): LoadedDomain<KestrelState> {
  if (!cached) {
    const base = validateAt(KestrelTablesSchema, kestrelTablesJson(), 'servicegym telecom dataset') as KestrelTables;
    const policy = readTextFile(path.join(HERE, 'data', 'kestrel_policy.md'));
    const tasks = loadBuiltinTasks(path.join(HERE, 'tasks'), KESTREL_TASK_FILES);
    cached = { base, tasks, policy };
  }
  return { domain: createKestrelDomain(cached.base, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: KESTREL_NOW, customerOpening: 'Hello, I have a problem with my phone service.' };
}
