/**
 * Loading the retail domain: the DB (parsed and validated once per process per file), the tasks
 * and the policy of a tau2 retail folder, and the {@link Domain} built from them.
 */
import path from 'node:path';
import type { LoadedDomain } from '../../spec/domain.js';
import { readTextFile } from '../../util/json-file.js';
import { loadTau2Tasks, requireDataDir } from '../common/tau2-folder.js';
import type { RetailState } from './state.js';
import { createRetailDomain, loadRetailDb } from './domain.js';
import { loadServicegymRetail } from './servicegym-dataset.js';

/** The DB parser, the cached DB loader, the initial-state hook and the domain factory (`domain.ts`). */
export { parseRetailDb, loadRetailDb, applyRetailInitialState, createRetailDomain, type RetailDomainParts } from './domain.js';

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
  return { domain: createRetailDomain({ db, policy }), mode: 'tau2', policy, tasks, source: dir };
}
