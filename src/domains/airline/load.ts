/**
 * Loading the airline domain: the DB (parsed and validated once per process per file), the
 * tasks and the policy of a tau2 domain folder, and the {@link Domain} built from them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { CowDb } from '../../env/cow-db.js';
import type { Domain, LoadedDomain } from '../../spec/domain.js';
import { BadInputError, jsonPath } from '../../spec/errors.js';
import { TaskSchema, type Task } from '../../spec/task.js';
import { parseJsonText, readTextFile } from '../../util/json-file.js';
import { AirlineDbSchema, type AirlineDb } from './schema.js';
import { airlineStateOps, type AirlineState } from './state.js';
import { applyAirlineInitialState } from './initial-state.js';
import type { AirlineTool } from './tools-common.js';
import type { NextDayRule } from './tools-read.js';
import { airlineTau2Tools } from './tools.js';
import { loadServicegymAirline } from './servicegym-dataset.js';
import { AIRLINE_TAU2_NOW } from './tools-common.js';

/**
 * Validates `value`; throws {@link BadInputError} naming `file` and the JSON path of the first
 * problem. For an unknown key the path ends at that key (`tasks.json at $[3].foo`).
 */
export function validateAt<T>(schema: z.ZodType<T>, value: unknown, file: string): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const p: PropertyKey[] = [...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys.length) p.push(issue.keys[0]);
  throw new BadInputError(issue.message, { file, path: jsonPath(p) });
}

/** Parses an already-read `db.json` value; throws {@link BadInputError} naming `file` and the path. */
export function parseAirlineDb(value: unknown, file = 'db.json'): AirlineDb {
  return validateAt(AirlineDbSchema, value, file);
}

const dbCache = new Map<string, { mtimeMs: number; size: number; db: AirlineDb }>();

/**
 * The validated DB of `file`, read and validated once per process (cached by real path, size
 * and modification time; only successful loads are cached). The returned object is shared:
 * never mutate it — episodes write through {@link CowDb} views.
 */
export function loadAirlineDb(file: string): AirlineDb {
  let real: string;
  let stat: fs.Stats;
  try {
    real = fs.realpathSync(file);
    stat = fs.statSync(real);
  } catch {
    readTextFile(file); // throws the standard "file not found" / "cannot read" BadInputError
    throw new BadInputError('cannot read file', { file });
  }
  const hit = dbCache.get(real);
  if (hit && hit.mtimeMs === stat.mtimeMs && hit.size === stat.size) return hit.db;
  const db = parseAirlineDb(parseJsonText(readTextFile(file), file), file);
  dbCache.set(real, { mtimeMs: stat.mtimeMs, size: stat.size, db });
  return db;
}

/** Reads a tau2 `tasks.json` (an array of tasks); unknown fields are errors naming the path. */
export function loadTau2Tasks(file: string): Task[] {
  return validateAt(z.array(TaskSchema), parseJsonText(readTextFile(file), file), file);
}

/** What an airline domain is built from. */
export interface AirlineDomainParts {
  db: AirlineDb;
  policy: string;
  /** The tools to expose (default: tau2's 14); servicegym's dataset appends its own. */
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
    tools: parts.tools ?? airlineTau2Tools({ now: parts.now, nextDay: parts.nextDay }),
    initialState: () => new CowDb(parts.db),
    state: airlineStateOps,
    outputStyle: { ensureAscii: true },
    applyInitialState: applyAirlineInitialState,
  };
}

/**
 * Loads the airline domain. With `dataDir` (tau2 mode): `db.json`, `tasks.json` and `policy.md`
 * of a tau2 airline folder and exactly tau2's 14 tools. Without it: servicegym's own dataset
 * (`servicegym-dataset.ts`).
 */
export function loadAirline(opts: { dataDir?: string } = {}): LoadedDomain<AirlineState> {
  if (!opts.dataDir) return loadServicegymAirline();
  const dir = opts.dataDir;
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new BadInputError('data directory not found', { file: dir });
  const db = loadAirlineDb(path.join(dir, 'db.json'));
  const tasks = loadTau2Tasks(path.join(dir, 'tasks.json'));
  const policy = readTextFile(path.join(dir, 'policy.md'));
  return {
    domain: createAirlineDomain({ db, policy }),
    mode: 'tau2',
    policy,
    tasks,
    source: dir,
    now: AIRLINE_TAU2_NOW,
  };
}
