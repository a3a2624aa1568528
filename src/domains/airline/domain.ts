/**
 * The airline {@link Domain} built from a parsed DB and a policy, and the DB parser and cached
 * loader it is built from (shared by the tau2-folder loader and servicegym's own dataset).
 */
import { CowDb } from '../../env/cow-db.js';
import type { Domain } from '../../spec/domain.js';
import type { BadInputError } from '../../spec/errors.js';
import { createCachedDbLoader, validateAt } from '../common/tau2-folder.js';
import { AirlineDbSchema, type AirlineDb } from './schema.js';
import { airlineStateOps, type AirlineState } from './state.js';
import { applyAirlineInitialState } from './initial-state.js';
import type { AirlineTool } from './tools-common.js';
import type { NextDayRule } from './tools-read.js';
import { airlineTau2SurfaceTools, airlineTau2Tools } from './tools.js';

/** Parses an already-read `db.json` value; throws {@link BadInputError} naming `file` and the path. */
export function parseAirlineDb(value: unknown, file = 'db.json'): AirlineDb {
  return validateAt(AirlineDbSchema, value, file);
}

/**
 * The validated DB of `file`, read and validated once per process (cached by real path, size
 * and modification time; only successful loads are cached); later processes read the validated
 * copy kept on disk (`createCachedDbLoader`'s `schema`). The returned object is shared:
 * never mutate it — episodes write through {@link CowDb} views.
 */
export const loadAirlineDb: (file: string) => AirlineDb = createCachedDbLoader((value, file) => parseAirlineDb(value, file), { schema: AirlineDbSchema, name: 'airline-db' });

/** What an airline domain is built from. */
export interface AirlineDomainParts {
  db: AirlineDb;
  policy: string;
  /** The tools to expose (default: tau2's 14 on tau2's surface); servicegym's dataset gives its own. */
  tools?: AirlineTool[];
  /** Creation time of new reservations for the default tools (default: tau2's fixed now). */
  now?: string;
  /** One-stop connection dating for the default tools (default: tau2's `2024-05-<day+1>`). */
  nextDay?: NextDayRule;
  description?: string;
}

/** The airline {@link Domain} over a loaded DB: each `initialState()` is a fresh view of it. */
export function createAirlineDomain(parts: AirlineDomainParts): Domain<AirlineState> {
  return {
    name: 'airline',
    description: parts.description ?? 'Airline reservations (tau2-bench airline semantics): flights, users, reservations.',
    policy: parts.policy,
    tools: parts.tools ?? airlineTau2SurfaceTools(airlineTau2Tools({ now: parts.now, nextDay: parts.nextDay })),
    initialState: () => new CowDb(parts.db),
    state: airlineStateOps,
    outputStyle: { ensureAscii: true },
    applyInitialState: applyAirlineInitialState,
  };
}
