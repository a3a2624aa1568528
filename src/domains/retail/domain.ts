/**
 * The retail {@link Domain} built from a parsed DB and a policy, and the DB parser, cached loader
 * and initial-state hook it is built from (shared by the tau2-folder loader and servicegym's own
 * dataset).
 */
import { CowDb } from '../../env/cow-db.js';
import type { Domain, InitializationData } from '../../spec/domain.js';
import type { BadInputError } from '../../spec/errors.js';
import { integerKeyOrders, pythonKeyOrder, rememberKeyOrder, rememberKeyOrders } from '../common/json-key-order.js';
import { tableInitialStateHook } from '../common/table-initial-state.js';
import { createCachedDbLoader, validateAt } from '../common/tau2-folder.js';
import { RETAIL_RECORD_SCHEMAS, RetailDbSchema, type Product, type RetailDb } from './schema.js';
import { retailStateOps, type RetailState } from './state.js';
import type { RetailTool } from './tools-common.js';
import { retailTau2SurfaceTools, retailTau2Tools } from './tools.js';

/**
 * Parses an already-read retail `db.json` value; throws {@link BadInputError} naming `file` and
 * the JSON path. With the file's `text`, the text order of dicts with integer-like keys (product
 * ids, variant item ids) is remembered, so tools print them in tau2's (text) order; without it
 * such dicts print in JavaScript's order (numeric keys first, ascending).
 */
export function parseRetailDb(value: unknown, file = 'db.json', text?: string): RetailDb {
  const db = validateAt(RetailDbSchema, value, file);
  return text === undefined ? db : rememberKeyOrders(db, integerKeyOrders(text));
}

/**
 * The validated retail DB of `file`, read and validated once per process (cached by real path,
 * size and modification time); later processes read the validated copy kept on disk, with the
 * text order of its integer-keyed dicts (`createCachedDbLoader`'s `schema` and `keyOrders`).
 * Shared: never mutate it — episodes write through {@link CowDb} views. Throws
 * {@link BadInputError} naming the file (and the JSON path of malformed content).
 */
export const loadRetailDb: (file: string) => RetailDb = createCachedDbLoader(parseRetailDb, { schema: RetailDbSchema, name: 'retail-db', keyOrders: true });

const applyPatch = tableInitialStateHook<RetailDb>('retail', RETAIL_RECORD_SCHEMAS);

/**
 * A task's `initial_state.initialization_data` applied to a retail state (tau2: `agent_data`
 * deep-merged into the DB dump, lists replaced; records re-validated). A patched product keeps
 * its variants' order, new variants after the old ones (Python's dict update). Throws
 * BadInputError with the JSON path under `initialization_data`; `user_data` is an error (no
 * user-side DB).
 */
export function applyRetailInitialState(state: RetailState, data: InitializationData): RetailState {
  const before = new Map<string, Product | undefined>();
  const patch = data.agent_data as { products?: Record<string, unknown> } | null | undefined;
  if (patch && typeof patch === 'object' && patch.products && typeof patch.products === 'object') {
    for (const id of Object.keys(patch.products)) before.set(id, state.get('products', id));
  }
  const out = applyPatch(state, data);
  for (const [id, old] of before) {
    const now = out.get('products', id);
    if (old && now) rememberKeyOrder(now.variants, pythonKeyOrder(old.variants));
  }
  return out;
}

/** What a retail domain is built from. */
export interface RetailDomainParts {
  db: RetailDb;
  policy: string;
  /** The tools to expose (default: tau2's 16, {@link retailTau2Tools}, on tau2's surface); servicegym's dataset gives its own. */
  tools?: RetailTool[];
  description?: string;
}

/** The retail {@link Domain} over a loaded DB: each `initialState()` is a fresh view of it. */
export function createRetailDomain(parts: RetailDomainParts): Domain<RetailState> {
  return {
    name: 'retail',
    description: parts.description ?? 'Online retail orders (tau2-bench retail semantics): products, users, orders.',
    policy: parts.policy,
    tools: parts.tools ?? retailTau2SurfaceTools(retailTau2Tools()),
    initialState: () => new CowDb(parts.db),
    state: retailStateOps,
    outputStyle: { ensureAscii: true },
    applyInitialState: applyRetailInitialState,
  };
}
