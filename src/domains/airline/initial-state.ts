/**
 * A task's `initial_state.initialization_data` applied to the airline DB, as tau2 does it:
 * `agent_data` is deep-merged into the DB dump (objects merged key by key, lists and scalars
 * replaced), and the result must still be a valid DB. Only the records named in the patch are
 * touched, through the episode's copy-on-write view.
 */
import { BadInputError, jsonPath } from '../../spec/errors.js';
import type { InitializationData } from '../../spec/domain.js';
import { AIRLINE_RECORD_SCHEMAS, type AirlineDb } from './schema.js';
import type { AirlineState } from './state.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** tau2's merge: objects key by key (recursively); anything else, lists included, replaces. */
function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isObject(target) || !isObject(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) out[k] = k in target ? deepMerge(target[k], v) : structuredClone(v);
  return out;
}

const WHERE = 'initial_state.initialization_data';

/**
 * Applies `data` to `state` (a private fork; mutated and returned). Throws {@link BadInputError}
 * with the JSON path under `initialization_data` when the patch names an unknown table, is not
 * an object where a table or record belongs, or leaves a record invalid; `user_data` is an error
 * (the airline domain has no user-side DB).
 */
export function applyAirlineInitialState(state: AirlineState, data: InitializationData): AirlineState {
  if (data.user_data != null) throw new BadInputError('the airline domain has no user-side DB to apply user_data to', { file: WHERE, path: '$.user_data' });
  const agent = data.agent_data;
  if (agent == null) return state;
  if (!isObject(agent)) throw new BadInputError('agent_data must be an object of tables', { file: WHERE, path: '$.agent_data' });
  for (const [table, patch] of Object.entries(agent)) {
    if (!(table in AIRLINE_RECORD_SCHEMAS)) throw new BadInputError(`unknown table '${table}'`, { file: WHERE, path: jsonPath(['agent_data', table]) });
    if (!isObject(patch)) throw new BadInputError('expected an object of records by id', { file: WHERE, path: jsonPath(['agent_data', table]) });
    const t = table as keyof AirlineDb;
    for (const [id, recPatch] of Object.entries(patch)) {
      const r = AIRLINE_RECORD_SCHEMAS[t].safeParse(deepMerge(state.get(t, id), recPatch));
      if (!r.success) {
        const issue = r.error.issues[0];
        throw new BadInputError(issue.message, { file: WHERE, path: jsonPath(['agent_data', table, id, ...issue.path]) });
      }
      state.put(t, id, r.data as never);
    }
  }
  return state;
}
