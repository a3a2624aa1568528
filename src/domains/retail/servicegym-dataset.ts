/**
 * servicegym's own retail dataset: the seeded generator plus the seed tasks' records, our policy
 * (`data/retail_policy.md`), the five seed tasks (`tasks/*.json`) and tau2's tools with the
 * servicegym additions. Ships with the project; needs nothing from outside.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LoadedDomain } from '../../spec/domain.js';
import type { Task } from '../../spec/task.js';
import { readTextFile } from '../../util/json-file.js';
import { loadBuiltinTasks } from '../common/builtin-dataset.js';
import { generateRetailDb, RETAIL_SIZES, SERVICEGYM_RETAIL_NOW } from './data/generate.js';
import { seedOrders, seedProducts, seedUsers } from './data/seed-records.js';
import { createRetailDomain } from './domain.js';
import type { RetailDb } from './schema.js';
import type { RetailState } from './state.js';
import { addPaymentMethod, cancelPendingOrderItem, exchangeAndReturnDeliveredOrderItems, returnDeliveredOrderItemsAnyMethod } from './servicegym-tools.js';
import type { RetailTool } from './tools-common.js';
import { retailTau2Tools } from './tools.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The task files, in order (an explicit list, never a folder scan). */
export const SERVICEGYM_RETAIL_TASK_FILES = ['t04-exchange-two-items.json', 't05-return-allowed-method.json', 't06-pending-change-of-mind.json', 't13-refuse-new-card.json', 't16-exchange-across-personas.json'];

/**
 * The dataset's DB as plain JSON (tau2 retail `db.json` shape): the seed records first, then
 * the generated filler (generated user and order ids never collide with the seed records').
 */
export function servicegymRetailDbJson(seed = 2027): { products: Record<string, any>; users: Record<string, any>; orders: Record<string, any> } {
  const seededOrders = seedOrders();
  const seededUsers = seedUsers();
  const db = generateRetailDb(seed, RETAIL_SIZES, [...Object.keys(seededOrders), ...Object.keys(seededUsers)]);
  return {
    products: { ...seedProducts(), ...db.products },
    users: { ...seededUsers, ...db.users },
    orders: { ...seededOrders, ...db.orders },
  };
}

/**
 * The dataset's DB, ready to use. Seed records and generated filler are both built in the
 * schema's normalised form, so the DB is not run through the zod schema at start-up; a test
 * checks that `parseRetailDb` leaves the whole DB unchanged.
 */
export function servicegymRetailDb(seed = 2027): RetailDb {
  return servicegymRetailDbJson(seed) as RetailDb;
}

/** servicegym's retail tools: tau2's 16 (the return tool replaced) plus the additions. */
export function servicegymRetailTools(): RetailTool[] {
  const tools = retailTau2Tools().map((t) => (t.name === 'return_delivered_order_items' ? returnDeliveredOrderItemsAnyMethod : t));
  return [...tools, addPaymentMethod, cancelPendingOrderItem, exchangeAndReturnDeliveredOrderItems];
}

let cached: { db: RetailDb; tasks: Task[]; policy: string } | undefined;

/** Loads the dataset (built and validated once per process). */
export function loadServicegymRetail(): LoadedDomain<RetailState> {
  if (!cached) {
    const db = servicegymRetailDb();
    const policy = readTextFile(path.join(HERE, 'data', 'retail_policy.md'));
    cached = { db, policy, tasks: loadBuiltinTasks(path.join(HERE, 'tasks'), SERVICEGYM_RETAIL_TASK_FILES) };
  }
  return {
    domain: createRetailDomain({
      db: cached.db,
      policy: cached.policy,
      tools: servicegymRetailTools(),
      description: "servicegym's retail dataset (Northwind Goods, October 2026): tau2 retail semantics plus the seed tasks' tools.",
    }),
    mode: 'servicegym',
    policy: cached.policy,
    tasks: cached.tasks,
    source: 'builtin',
    now: SERVICEGYM_RETAIL_NOW,
  };
}
