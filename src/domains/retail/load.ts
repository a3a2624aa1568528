/**
 * Loading the retail domain: the DB (parsed and validated once per process per file), the tasks
 * and the policy of a tau2 retail folder, and the {@link Domain} built from them.
 */
import path from 'node:path';
import type { LoadedDomain } from '../../spec/domain.js';
import { fileURLToPath } from 'node:url';
import { loadKnownBadTasks } from '../common/known-bad.js';
import { readTextFile } from '../../util/json-file.js';
import { loadTau2Tasks, requireDataDir } from '../common/tau2-folder.js';
import type { RetailState } from './state.js';
import { createRetailDomain, loadRetailDb } from './domain.js';
import { loadServicegymRetail } from './servicegym-dataset.js';

/** The DB parser, the cached DB loader, the initial-state hook and the domain factory (`domain.ts`). */
export { parseRetailDb, loadRetailDb, applyRetailInitialState, createRetailDomain, type RetailDomainParts } from './domain.js';
/** servicegym's audit of tau2's tasks: known-bad ones with reasons (see `../common/known-bad.ts`). */
export const TAU2_KNOWN_BAD_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'data', 'tau2-known-bad-tasks.json');

/**
 * Loads the retail domain. With `dataDir` (tau2 mode): `db.json`, `tasks.json` and `policy.md`
 * of a tau2 retail folder and exactly tau2's 16 tools; no `now` (tau2's retail tools never read
 * the clock). Without it: servicegym's own retail dataset (`servicegym-dataset.ts`). Malformed files throw BadInputError naming the file and the JSON path.
 */
export function loadRetail(opts: { dataDir?: string } = {}): LoadedDomain<RetailState> {
  if (!opts.dataDir) return loadServicegymRetail();
  const dir = opts.dataDir;
  requireDataDir(dir);
  const db = loadRetailDb(path.join(dir, 'db.json'));
  const tasks = loadTau2Tasks(path.join(dir, 'tasks.json'));
  const policy = readTextFile(path.join(dir, 'policy.md'));
  const { knownBad } = loadKnownBadTasks(TAU2_KNOWN_BAD_FILE, tasks);
  return { domain: createRetailDomain({ db, policy }), mode: 'tau2', policy, tasks, source: dir, knownBadTasks: knownBad };
}
