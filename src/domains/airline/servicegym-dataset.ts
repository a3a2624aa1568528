/**
 * servicegym's own airline dataset: the seeded generator plus the seed tasks' records, our
 * policy (`data/airline_policy.md`), the five seed tasks (`tasks/*.json`) and tau2's tools with
 * the servicegym additions. Ships with the project; needs nothing from outside.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedDomain } from '../../spec/domain.js';
import type { Task } from '../../spec/task.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { cachedJson, cacheKey, dbCacheDir, setDbContentKey, sourceFingerprint } from '../common/disk-cache.js';
import { lazyTableDb, type LazyTableDb } from '../common/lazy-db.js';
import { AIRLINE_SIZES, generateAirlineDb, SERVICEGYM_AIRLINE_NOW } from './data/generate.js';
import { seedFlights, seedReservations, seedUsers } from './data/seed-records.js';
import { createAirlineDomain } from './domain.js';
import type { AirlineDb } from './schema.js';
import type { AirlineState } from './state.js';
import { addTravelInsurance, changeFlightsSplitPayment, getFlightStatusDetailed } from './servicegym-tools.js';
import type { AirlineTool } from './tools-common.js';
import { airlineTau2Tools } from './tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const SERVICEGYM_AIRLINE_TASK_FILES = ['t01-basic-economy-date-change.json', 't02-upgrade-and-bags.json', 't03-delay-cancel-compensation.json', 't15-cancel-eligible-only.json', 't17-family-rework.json'];

/**
 * The dataset's DB as plain JSON (tau2 `db.json` shape): the seed records first, then the
 * generated filler (generated user and reservation ids never collide with the seed records').
 */
export function servicegymAirlineDbJson(seed = 2026): { flights: Record<string, any>; users: Record<string, any>; reservations: Record<string, any> } {
  const db = generateAirlineDb(seed, AIRLINE_SIZES, { flights: seedFlights(), users: seedUsers(), reservations: seedReservations() });
  return { flights: db.flights, users: db.users, reservations: db.reservations };
}

/**
 * The dataset's DB, ready to use. Seed records and generated filler are both built in the
 * schema's normalised form (model field order, nulls filled in), so the DB is not run through the
 * zod schema at start-up (that alone would cost more than generating it); a test checks that
 * `parseAirlineDb` leaves the whole DB unchanged. Generated once and then kept on disk
 * (`generated-db/` in the cache folder of `disk-cache.ts`), keyed by the seed, the sizes and the
 * code of {@link GENERATOR_MODULES}, so later processes read it back instead of generating it.
 */
export function servicegymAirlineDb(seed = 2026): AirlineDb {
  return cachedJson('generated-db', () => generatedDbKey(seed), () => servicegymAirlineDbJson(seed)) as AirlineDb;
}

/** The content key of the generated DB of `seed` (its cache entry's name). */
const generatedDbKey = (seed: number) => `airline-${cacheKey([sourceFingerprint(import.meta.url, GENERATOR_MODULES), seed, AIRLINE_SIZES])}`;

/**
 * {@link servicegymAirlineDb} read on first use (`../common/lazy-db.ts`): the base of every
 * episode's view, with the generated DB's content key when the disk cache is on (as the read DB
 * has), so that its hash stream is found on disk without reading the DB first.
 */
function lazyServicegymAirlineDb(seed = 2026): LazyTableDb<AirlineDb> {
  const lazy = lazyTableDb<AirlineDb>(['flights', 'users', 'reservations'], () => servicegymAirlineDb(seed));
  if (dbCacheDir()) setDbContentKey(lazy.db, generatedDbKey(seed));
  return lazy;
}

/** The modules the generated DB is a function of (relative to this one): its cache key covers their code. */
export const GENERATOR_MODULES = ['./servicegym-dataset', './data/generate', './data/network', './data/seed-records', '../../util/rng'];

/** servicegym's tool set: tau2's 14 (detailed flight status in place of the bare one) plus the additions. */
export function servicegymAirlineTools(): AirlineTool[] {
  const tools = airlineTau2Tools({ now: SERVICEGYM_AIRLINE_NOW, nextDay: 'calendar' }).map((t) => (t.name === 'get_flight_status' ? getFlightStatusDetailed : t));
  return [...tools, addTravelInsurance, changeFlightsSplitPayment];
}

let cached: { db: LazyTableDb<AirlineDb>; tasks: Task[]; policy: string } | undefined;

/**
 * Loads the dataset (built and validated once per process). The DB is read on first use or by
 * `prepare()` (see `LoadedDomain.prepare`): a run starts its episodes' first model calls without it.
 */
export function loadServicegymAirline(): LoadedDomain<AirlineState> {
  if (!cached) {
    const db = lazyServicegymAirlineDb();
    const policy = readTextFile(path.join(HERE, 'data', 'airline_policy.md'));
    const tasks = loadBuiltinTasks(path.join(HERE, 'tasks'), SERVICEGYM_AIRLINE_TASK_FILES);
    cached = { db, tasks, policy };
  }
  return {
    domain: createAirlineDomain({
      db: cached.db.db,
      policy: cached.policy,
      tools: servicegymAirlineTools(),
      description: "servicegym's airline dataset (Skyway Air, October 2026): tau2 airline semantics plus the seed tasks' tools.",
    }),
    mode: 'servicegym',
    policy: cached.policy,
    tasks: cached.tasks,
    source: 'builtin',
    now: SERVICEGYM_AIRLINE_NOW,
    prepare: cached.db.load,
  };
}
