/**
 * The coding agent: given the learning signal and the current prompt, it proposes exact edits
 * through the `apply_edits` tool (forced with `tool_choice`), as in the seed experiment.
 */
import { z } from 'zod';
import type { ChatModel, ModelCallResult } from '../models/chat-model.js';
import type { WireTool } from '../spec/messages.js';
import { toWireTool } from '../env/wire-tools.js';
import { pyDumps } from '../util/pyjson.js';
import { fillTemplate } from '../util/template.js';
import type { LearningSignal } from './learning-signal.js';
import type { PromptEdit } from './apply-edits.js';
import { parseModelJson } from '../util/json-bounds.js';

export const APPLY_EDITS = 'apply_edits';

/** The arguments `apply_edits` takes. */
export const ApplyEditsArgsSchema = z.object({
  edits: z.array(z.object({ old_str: z.string(), new_str: z.string() })),
  rationale: z.string().optional(),
});

/** The `apply_edits` tool as sent to the model, with the campaign's description texts. */
export function applyEditsTool(description: string, rationaleDescription: string): WireTool {
  return toWireTool({
    name: APPLY_EDITS,
    description,
    parameters: z.object({
      edits: z.array(z.object({ old_str: z.string(), new_str: z.string() })),
      rationale: z.string().describe(rationaleDescription).optional(),
    }),
    kind: 'generic',
    requestor: 'assistant',
    invoke: () => '',
  });
}

export interface Proposal {
  /** The proposed edits; empty when the model did not call the tool properly. */
  edits: PromptEdit[];
  rationale: string;
  /** Why no usable proposal came back (absent when the call was well-formed). */
  error?: string;
  call: ModelCallResult;
}

/**
 * Asks the coding agent for edits. The user message is the campaign's template filled with
 * `{{learning_signal}}` (Python `json.dumps(..., ensure_ascii=False, indent=2)` of the signal) and
 * `{{prompt}}`. A reply without a well-formed `apply_edits` call yields `edits: []` and `error`.
 */
export async function proposeEdits(opts: {
  model: ChatModel;
  system: string;
  userTemplate: string;
  signal: LearningSignal;
  prompt: string;
  tool: WireTool;
  temperature: number;
}): Promise<Proposal> {
  const user = fillTemplate(
    opts.userTemplate,
    { learning_signal: pyDumps(opts.signal, { ensureAscii: false, indent: 2 }), prompt: opts.prompt },
    'coding agent template',
  );
  const call = await opts.model.complete(
    {
      messages: [
        { role: 'system', content: opts.system },
        { role: 'user', content: user },
      ],
      tools: [opts.tool],
      tool_choice: { type: 'function', function: { name: APPLY_EDITS } },
      temperature: opts.temperature,
    },
    'coding_agent',
  );
  const tc = call.response.choices[0].message.tool_calls?.find((t) => t.function.name === APPLY_EDITS);
  if (!tc) return { edits: [], rationale: '', error: 'the coding agent did not call apply_edits', call };
  let args: unknown;
  try {
    args = parseModelJson(tc.function.arguments);
  } catch (e) {
    return { edits: [], rationale: '', error: `apply_edits arguments are not valid JSON: ${(e as Error).message}`, call };
  }
  const parsed = ApplyEditsArgsSchema.safeParse(args);
  if (!parsed.success) {
    return { edits: [], rationale: '', error: `apply_edits arguments do not fit the schema: ${parsed.error.issues[0]?.message}`, call };
  }
  return { edits: parsed.data.edits, rationale: parsed.data.rationale ?? '', call };
}
