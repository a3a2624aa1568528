/**
 * A task's `initial_state.initialization_data` applied to the airline DB, as tau2 does it (the
 * generic table-DB rule of `../common/table-initial-state.ts`): `agent_data` is deep-merged into
 * the DB dump (objects merged key by key, lists and scalars replaced), and the result must still
 * be a valid DB. Only the records named in the patch are touched, through the episode's
 * copy-on-write view.
 */
import { tableInitialStateHook } from '../common/table-initial-state.js';
import { AIRLINE_RECORD_SCHEMAS, type AirlineDb } from './schema.js';

/**
 * Applies `data` to `state` (a private fork; mutated and returned). Throws BadInputError with
 * the JSON path under `initialization_data` when the patch names an unknown table, is not an
 * object where a table or record belongs, or leaves a record invalid; `user_data` is an error
 * (the airline domain has no user-side DB).
 */
export const applyAirlineInitialState = tableInitialStateHook<AirlineDb>('airline', AIRLINE_RECORD_SCHEMAS);
