/**
 * The tau2 gold-replay reference format (`shared/peers/tau2/reference/<domain>.train.jsonl`):
 * one task per line with its gold actions, the exact output tau2 returned for each, the
 * per-field diff of the DB from the initial to the final state, and tau2's DB hashes.
 * Only the fields conformance uses are checked; others (splits, self_check, …) pass through.
 */
import { z } from 'zod';
import { readJsonLines } from '../util/json-file.js';

/** One changed field in tau2's reference format. */
export const ReferenceDiffSchema = z.object({
  path: z.string(),
  op: z.enum(['add', 'remove', 'replace']),
  before: z.unknown(),
  after: z.unknown(),
});

/** One gold action and what tau2 returned for it. */
export const ReferenceActionSchema = z.looseObject({
  action_id: z.string().optional(),
  requestor: z.enum(['assistant', 'user']).default('assistant'),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  /** The exact tool message content on tau2's live path. */
  output: z.string(),
  error: z.boolean(),
  /** Where tau2's evaluator replay (no sync) returned something else. */
  evaluator_replay_output: z.string().nullable().optional(),
  evaluator_replay_error: z.boolean().nullable().optional(),
});
/** One gold action of a reference line. */
export type ReferenceAction = z.infer<typeof ReferenceActionSchema>;

/** One reference line (one task). */
export const ReferenceLineSchema = z.looseObject({
  task_id: z.string(),
  actions: z.array(ReferenceActionSchema),
  diff: z.array(ReferenceDiffSchema),
  initial_db_hash: z.string().nullable().optional(),
  final_db_hash: z.string().nullable().optional(),
  /** tau2 telecom: the user-side DB's hashes and diff, and the live path's final hashes. */
  initial_user_db_hash: z.string().nullable().optional(),
  final_user_db_hash: z.string().nullable().optional(),
  user_db_diff: z.array(ReferenceDiffSchema).nullable().optional(),
  live_final_db_hash: z.string().nullable().optional(),
  live_final_user_db_hash: z.string().nullable().optional(),
});
/** One reference line (one task). */
export type ReferenceLine = z.infer<typeof ReferenceLineSchema>;

/**
 * Reads a reference JSONL file; throws BadInputError naming the file, the line and the path.
 * Values are returned as parsed (defaults such as `requestor` are applied by the caller).
 */
export function readReference(file: string): ReferenceLine[] {
  return readJsonLines(file, ReferenceLineSchema).map((line) => ReferenceLineSchema.parse(line));
}
