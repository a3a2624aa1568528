/**
 * A task's `initial_state.initialization_data` applied to a table DB, as tau2 does it:
 * `agent_data` is deep-merged into the DB dump (objects merged key by key, lists and scalars
 * replaced), and the result must still be a valid DB. Only the records named in the patch are
 * touched, through the episode's copy-on-write view.
 */
import type { z } from 'zod';
import type { CowDb, Tables } from '../../env/cow-db.js';
import type { InitializationData } from '../../spec/domain.js';
import { BadInputError, jsonPath } from '../../spec/errors.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** tau2's merge: objects key by key (recursively); anything else, lists included, replaces. */
function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isObject(target) || !isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    const value = Object.prototype.hasOwnProperty.call(target, k) ? deepMerge(target[k], v) : structuredClone(v);
    Object.defineProperty(out, k, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const WHERE = 'initial_state.initialization_data';

/**
 * The `applyInitialState` hook of a table-DB domain named `domainName` whose records per table
 * validate (and normalise, pydantic-style) with `recordSchemas`. The hook applies `data` to a
 * private fork `state` (mutated and returned) and throws {@link BadInputError} with the JSON path
 * under `initialization_data` when the patch names an unknown table, is not an object where a
 * table or record belongs, or leaves a record invalid; `user_data` is an error (these domains
 * have no user-side DB).
 */
export function tableInitialStateHook<T extends Tables>(
  domainName: string,
  recordSchemas: { [K in keyof T]: z.ZodType<T[K][string]> },
): (state: CowDb<T>, data: InitializationData) => CowDb<T> {
  return (state, data) => {
    if (data.user_data != null) throw new BadInputError(`the ${domainName} domain has no user-side DB to apply user_data to`, { file: WHERE, path: '$.user_data' });
    const agent = data.agent_data;
    if (agent == null) return state;
    if (!isObject(agent)) throw new BadInputError('agent_data must be an object of tables', { file: WHERE, path: '$.agent_data' });
    for (const [table, patch] of Object.entries(agent)) {
      if (!Object.prototype.hasOwnProperty.call(recordSchemas, table)) throw new BadInputError(`unknown table '${table}'`, { file: WHERE, path: jsonPath(['agent_data', table]) });
      if (!isObject(patch)) throw new BadInputError('expected an object of records by id', { file: WHERE, path: jsonPath(['agent_data', table]) });
      const t = table as keyof T;
      for (const [id, recPatch] of Object.entries(patch)) {
        const r = recordSchemas[t].safeParse(deepMerge(state.get(t, id), recPatch));
        if (!r.success) {
          const issue = r.error.issues[0];
          throw new BadInputError(issue.message, { file: WHERE, path: jsonPath(['agent_data', table, id, ...issue.path]) });
        }
        state.put(t, id, r.data);
      }
    }
    return state;
  };
}
