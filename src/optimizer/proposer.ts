/**
 * The proposer: the coding agent asked for one patch through `apply_edits` (forced tool call, as
 * in the seed), now with auditable edits — each names the clause it changes, its intent, its
 * source cases and evidence quotes from those cases' trajectories. The request carries the
 * learning signal, the failing trajectories, the must-keep list, the per-case ledger of earlier
 * candidates and the journal of rejected intents, which must not be proposed again.
 */
import { z } from 'zod';
import type { ChatModel, ModelCallResult } from '../models/chat-model.js';
import type { ChatRequestInput } from '../models/chat-model.js';
import type { WireTool } from '../spec/messages.js';
import { toWireTool } from '../env/wire-tools.js';
import { APPLY_EDITS } from './coding-agent.js';
import { clauseMap, parseClauses } from './clauses.js';
import type { OptimizerSignal } from './signal.js';
import { renderTrajectory, type Rollout } from './suite.js';
import { parseModelJson } from '../util/json-bounds.js';

/** The intents an edit may declare. */
export const INTENTS = [
  'clarify-rule',
  'add-exception-procedure',
  'add-check-before-write',
  'reorder-priority',
  'add-worked-counterexample',
  'delete-contradiction',
] as const;

const EvidenceSchema = z.object({
  case_id: z.string().describe('a feedback case id'),
  trial: z.number().int().describe('the trial of that case whose trajectory holds the quote'),
  quote: z.string().describe('text copied verbatim from that trajectory'),
});

/** One proposed edit; fields are checked (with reasons) by the edit checks, not here. */
export const ProposedEditSchema = z.object({
  old_str: z.string().describe('text that occurs exactly once in the prompt'),
  new_str: z.string().describe('its replacement'),
  clause: z.string().describe('id of the prompt clause the edit changes, e.g. S2.4'),
  intent: z.string().describe(`one of: ${INTENTS.join(', ')}`),
  source_cases: z.array(z.string()).describe('feedback case ids this edit answers'),
  evidence: z.array(EvidenceSchema).describe('quotes from the cited trajectories'),
});
export type ProposedEdit = z.infer<typeof ProposedEditSchema>;

const ArgsSchema = z.object({ edits: z.array(ProposedEditSchema), rationale: z.string().optional() });

/** The extended `apply_edits` tool. */
export function proposerTool(): WireTool {
  return toWireTool({
    name: APPLY_EDITS,
    description: 'Apply exact search/replace edits to the system prompt. Every old_str must occur exactly once; every edit names its clause, intent, source cases and verbatim evidence quotes.',
    parameters: ArgsSchema.extend({ rationale: z.string().describe('how the patch answers the evidence').optional() }),
    kind: 'generic',
    requestor: 'assistant',
    invoke: () => '',
  });
}

/** One earlier candidate's effect on gate cases (scores only), for the proposer's ledger. */
export interface LedgerEntry {
  candidate: string;
  decision: string;
  fixed: string[];
  broke: string[];
}

/** A rejected intent, never to be proposed again. */
export interface RejectedIntent {
  clause: string;
  intent: string;
  reason: string;
}

/** What the proposer request is built from. */
export interface ProposerInput {
  system: string;
  prompt: string;
  signal: OptimizerSignal;
  /** The parent's failing feedback rollouts (their trajectories are shown, at most `maxTrajectories`). */
  failures: readonly Rollout[];
  ledger: readonly LedgerEntry[];
  rejected: readonly RejectedIntent[];
  round: number;
  index: number;
  of: number;
  maxEdits: number;
  maxAddedChars: number;
  temperature: number;
  maxTrajectories?: number;
}

/** The user message (deterministic text; see the module doc). */
export function proposerMessage(p: ProposerInput): string {
  const shown = p.failures.slice(0, p.maxTrajectories ?? 12);
  const lines = [
    `# Task`,
    `Propose one minimal patch to the agent's system prompt (round ${p.round}, proposal ${p.index + 1} of ${p.of} from this prompt; make it differ from the others).`,
    `Call ${APPLY_EDITS} once with at most ${p.maxEdits} edit(s) and at most ${p.maxAddedChars} added characters. Every edit must:`,
    `- replace an old_str that occurs exactly once in the prompt;`,
    `- name the clause it changes (ids below; read-only clauses may not change);`,
    `- state its intent, one of: ${INTENTS.join(', ')};`,
    `- cite its source cases (feedback case ids) and evidence quotes copied verbatim from the cited case and trial;`,
    `- state a general rule: never copy customer-specific names, ids or amounts from the cases.`,
    '',
    '# Learning signal (feedback cases)',
    '```json',
    JSON.stringify(p.signal, null, 2),
    '```',
    '',
    '# Failing trajectories',
    ...shown.flatMap((r) => [`## ${r.case_id} trial ${r.trial}`, renderTrajectory(r.messages), '']),
    '# Earlier candidates (gate cases fixed / broken; scores only)',
    ...(p.ledger.length ? p.ledger.map((l) => `- ${l.candidate} ${l.decision}: fixed ${l.fixed.join(', ') || 'none'}; broke ${l.broke.join(', ') || 'none'}`) : ['- none']),
    '',
    '# Rejected intents (do not propose these again)',
    ...(p.rejected.length ? p.rejected.map((r) => `- clause ${r.clause}, intent ${r.intent}: ${r.reason}`) : ['- none']),
    '',
    '# Prompt clauses',
    clauseMap(parseClauses(p.prompt)),
    '',
    '# Current prompt',
    '---',
    p.prompt,
    '---',
  ];
  return lines.join('\n');
}

/** The request sent to the proposer model. */
export function proposerRequest(p: ProposerInput): ChatRequestInput {
  return {
    messages: [
      { role: 'system', content: p.system },
      { role: 'user', content: proposerMessage(p) },
    ],
    tools: [proposerTool()],
    tool_choice: { type: 'function', function: { name: APPLY_EDITS } },
    temperature: p.temperature,
  };
}

/** A parsed proposal: edits (possibly empty) and why it is unusable, if it is. */
export interface ParsedProposal {
  edits: ProposedEdit[];
  rationale: string;
  error?: string;
}

/** Reads the forced tool call of a proposer reply. Never throws. */
export function parseProposal(call: Pick<ModelCallResult, 'response'>): ParsedProposal {
  const tc = call.response.choices[0]?.message.tool_calls?.find((t) => t.function.name === APPLY_EDITS);
  if (!tc) return { edits: [], rationale: '', error: `the proposer did not call ${APPLY_EDITS}` };
  let args: unknown;
  try {
    args = parseModelJson(tc.function.arguments);
  } catch (e) {
    return { edits: [], rationale: '', error: `${APPLY_EDITS} arguments are not valid JSON: ${(e as Error).message}` };
  }
  const parsed = ArgsSchema.safeParse(args);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    return { edits: [], rationale: '', error: `${APPLY_EDITS} arguments do not fit the schema at ${i?.path.join('.') || '$'}: ${i?.message}` };
  }
  return { edits: parsed.data.edits, rationale: parsed.data.rationale ?? '' };
}

/** Calls the proposer model once (errors propagate: ProviderError is an infrastructure fault). */
export async function callProposer(model: ChatModel, request: ChatRequestInput): Promise<ModelCallResult> {
  return model.complete(request, 'coding_agent');
}
