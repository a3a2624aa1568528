/**
 * The trajectory files `servicegym evaluate` scores: a JSON message list, or JSON Lines of lists or
 * `{"task_id"?, "persona"?, "surface"?, "surface_options"?, "dataset_variant"?, "messages"}` (loaded by the command
 * when it runs, with the message schemas). `surface` names the surface the trajectory was played
 * on (a registry name, `src/surfaces/catalog.ts`) and `surface_options` its per-run options
 * (`--surface-option key=value` as an object of strings), as `export-trajectories` writes them;
 * `dataset_variant` the dataset variant (`{"policy"?, "solo"?}`: src/cli/dataset-variant.ts).
 */
import { z } from 'zod';
import { ChatMessageSchema, type ChatMessage } from '../spec/messages.js';
import { BadInputError } from '../spec/errors.js';
import { parseJsonText, readTextFile, validate } from '../util/json-file.js';
import { parseDatasetVariant, type DatasetVariant } from './dataset-variant.js';

/** The line's `dataset_variant`, read; throws BadInputError naming `where` and the field. */
function lineVariant(value: unknown, where: string): DatasetVariant {
  const parsed = parseDatasetVariant(value);
  if ('error' in parsed) throw new BadInputError(parsed.error, { file: where });
  return parsed.variant;
}

const TrajectorySchema = z.array(ChatMessageSchema);
const LineSchema = z.looseObject({
  task_id: z.string().optional(),
  persona: z.string().optional(),
  surface: z.string().min(1).optional(),
  surface_options: z.record(z.string(), z.string()).optional(),
  dataset_variant: z.unknown().optional(),
  messages: TrajectorySchema,
});

/** One trajectory to score. */
export interface TrajectoryInput {
  /** Where it came from, for messages: `file` or `file:line`. */
  where: string;
  taskId: string | undefined;
  /** The persona the customer played (persona-scoped checks apply to it), when the line names one. */
  persona?: string;
  /** The surface the line says the trajectory was played on (a registry name), when it names one. */
  surface?: string;
  /** That surface's per-run options (key to string value), when the line gives any. */
  surfaceOptions?: Record<string, string>;
  /** The dataset variant the line says the trajectory was played on (policy variant, solo mode), when it names one. */
  variant?: DatasetVariant;
  messages: ChatMessage[];
}

/**
 * Reads a trajectory file: a JSON message list, or JSON Lines of lists or
 * `{task_id?, persona?, surface?, surface_options?, messages}`.
 * @throws BadInputError naming the file, the line and the JSON path of the first malformed message;
 *   or naming the file when it holds no trajectory (empty, or only blank lines): scoring nothing is
 *   not a pass.
 */
export function readTrajectories(file: string): TrajectoryInput[] {
  const text = readTextFile(file);
  if (!/\.jsonl$/i.test(file) && text.trimStart().startsWith('[')) {
    return [{ where: file, taskId: undefined, messages: validate(TrajectorySchema, parseJsonText(text, file), file) }];
  }
  const found = text.split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    const where = `${file}:${i + 1}`;
    const value = parseJsonText(line, where);
    if (Array.isArray(value)) return [{ where, taskId: undefined, messages: validate(TrajectorySchema, value, where) }];
    const v = validate(LineSchema, value, where);
    return [{
      where,
      taskId: v.task_id,
      ...(v.persona !== undefined ? { persona: v.persona } : {}),
      ...(v.surface !== undefined ? { surface: v.surface } : {}),
      ...(v.surface_options !== undefined ? { surfaceOptions: v.surface_options } : {}),
      ...(v.dataset_variant !== undefined ? { variant: lineVariant(v.dataset_variant, where) } : {}),
      messages: v.messages,
    }];
  });
  if (found.length === 0) throw new BadInputError('no trajectory: the file is empty or holds only blank lines (expected a JSON message list, or JSON Lines of lists or {"task_id", "messages"})', { file });
  return found;
}
