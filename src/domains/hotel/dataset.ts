/**
 * servicegym's hotel dataset (Larkspur Hotels, October 2026): generated properties, plans, rates,
 * guests and reservations plus the task records, the policy (`data/hotel_policy.md`) and the tasks
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
import { generateHotel, hotelProperties, hotelRatePlans, SERVICEGYM_HOTEL_NOW } from './data/generate.js';
import { hotelSeedRecords, SEED_RATES } from './data/seed-records.js';
import { GuestSchema, HotelStateSchema, NightlyRateSchema, PropertySchema, RatePlanSchema, ReservationSchema } from './schema.js';
import type { HotelDb, HotelTables, HotelTool } from './tools-common.js';
import { hotelTools } from './tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const HOTEL_TASK_FILES = [
  't09-shorten-stay-penalty.json',
  'h01-free-cancellation.json',
  'h02-advance-purchase-no-refund.json',
  'h03-semi-flex-half-night.json',
  'h04-extend-stay.json',
  'h05-member-flex-edge.json',
  'h06-wrong-last-name.json',
  'h07-refund-to-original-card.json',
  'h08-cancel-then-shorten.json',
  'h09-group-block-transfer.json',
  'h10-pay-at-hotel-penalty.json',
  'h11-no-price-match.json',
  'h12-late-cancellation.json',
];

/** The hotel as plain JSON tables: generated data, then the task records (ids must not collide). */
export function servicegymHotelJson(seed = 2026): HotelTables {
  const gen = generateHotel(seed);
  const seeds = hotelSeedRecords();
  for (const table of ['guests', 'reservations'] as const) {
    for (const id of Object.keys(seeds[table])) if (Object.prototype.hasOwnProperty.call(gen[table], id)) throw new Error(`generated ${table} id ${id} collides with a task record`);
  }
  const rates = { ...gen.rates };
  for (const r of SEED_RATES) rates[`${r.property_id}|${r.room_type}|${r.rate_plan_id}|${r.date}`] = r;
  return { guests: { ...seeds.guests, ...gen.guests }, properties: hotelProperties(), rate_plans: hotelRatePlans(), rates, reservations: { ...seeds.reservations, ...gen.reservations } };
}

/** The tools the agent sees: the reservation system's, then transfer and calculator. */
export function allHotelTools(): HotelTool[] {
  return [
    ...hotelTools,
    makeTransferToHumanAgentsTool<HotelDb>('Transfer the guest to a specialist with a short summary. Only for what policy 5.2 lists: group bookings of more than 9 rooms, events, accessibility guarantees, complaints about a stay in progress, or an exception the guest insists on.'),
    makeCalculateTool<HotelDb>(),
  ];
}

const RECORD_SCHEMAS = { guests: GuestSchema, properties: PropertySchema, rate_plans: RatePlanSchema, rates: NightlyRateSchema, reservations: ReservationSchema };

/** The hotel domain over a validated base DB. */
export function createHotelDomain(base: HotelTables, policy: string): Domain<HotelDb> {
  const root = new CowDb<HotelTables>(base);
  return {
    name: 'hotel',
    description: "servicegym's hotel back-end (Larkspur Hotels): reservations, rate plans with change rules, nightly taxes, folio charges, refunds.",
    policy,
    tools: allHotelTools(),
    initialState: () => root.fork(),
    state: cowDbStateOps<HotelTables>(cowRecordHash),
    outputStyle: { ensureAscii: false },
    applyInitialState: tableInitialStateHook<HotelTables>('hotel', RECORD_SCHEMAS),
  };
}

let cached: { base: HotelTables; tasks: Task[]; policy: string } | undefined;

/** Loads the dataset once per process. Throws BadInputError for a `dataDir`: hotel has no external dataset. */
export function loadServicegymHotel(opts: { dataDir?: string } = {}): LoadedDomain<HotelDb> {
  if (opts.dataDir) throw new BadInputError('the hotel domain has no external dataset: run it without --data-dir');
  if (!cached) {
    const base = validateAt(HotelStateSchema, servicegymHotelJson(), 'servicegym hotel dataset') as HotelTables;
    cached = { base, policy: readTextFile(path.join(HERE, 'data', 'hotel_policy.md')), tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), HOTEL_TASK_FILES) };
  }
  return { domain: createHotelDomain(cached.base, cached.policy), mode: 'servicegym', policy: cached.policy, tasks: cached.tasks, source: 'builtin', now: SERVICEGYM_HOTEL_NOW };
}
