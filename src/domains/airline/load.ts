/**
 * Loading the airline domain: the DB (parsed and validated once per process per file), the
 * tasks and the policy of a tau2 domain folder, and the {@link Domain} built from them.
 */
import path from 'node:path';
import type { LoadedDomain } from '../../spec/domain.js';
import { fileURLToPath } from 'node:url';
import { loadKnownBadTasks } from '../common/known-bad.js';
import { readTextFile } from '../../util/json-file.js';
import { loadTau2Tasks, requireDataDir } from '../common/tau2-folder.js';
import type { AirlineState } from './state.js';
import { createAirlineDomain, loadAirlineDb } from './domain.js';
import { loadServicegymAirline } from './servicegym-dataset.js';
import { AIRLINE_TAU2_NOW } from './tools-common.js';

/** servicegym's audit of tau2's tasks: known-bad ones with reasons (see `../common/known-bad.ts`). */
export const TAU2_KNOWN_BAD_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'tau2-known-bad-tasks.json');

/** Reading a tau2 folder's files (shared with the other tau2 domains; see `../common/tau2-folder.ts`). */
export { validateAt, loadTau2Tasks } from '../common/tau2-folder.js';
/** The DB parser, the cached DB loader and the domain factory (`domain.ts`). */
export { parseAirlineDb, loadAirlineDb, createAirlineDomain, type AirlineDomainParts } from './domain.js';

/**
 * Loads the airline domain. With `dataDir` (tau2 mode): `db.json`, `tasks.json` and `policy.md`
 * of a tau2 airline folder and exactly tau2's 14 tools. Without it: servicegym's own dataset
 * (`servicegym-dataset.ts`).
 */
export function loadAirline(opts: { dataDir?: string } = {}): LoadedDomain<AirlineState> {
  if (!opts.dataDir) return loadServicegymAirline();
  const dir = opts.dataDir;
  requireDataDir(dir);
  const db = loadAirlineDb(path.join(dir, 'db.json'));
  const tasks = loadTau2Tasks(path.join(dir, 'tasks.json'));
  const policy = readTextFile(path.join(dir, 'policy.md'));
  const { knownBad } = loadKnownBadTasks(TAU2_KNOWN_BAD_FILE, tasks);
  return {
    domain: createAirlineDomain({ db, policy }),
    mode: 'tau2',
    policy,
    tasks,
    source: dir,
    now: AIRLINE_TAU2_NOW,
    knownBadTasks: knownBad,
  };
}
