/**
 * The run log: one versioned record per episode, written by one writer for every command (`run`,
 * `validate`, `campaign`, `optimize`, `import tau2-results`) and read by one reader for every
 * consumer (viewer, `run --resume`, `rescore`, reports). Re-scoring a stored episode needs nothing
 * but this record and the task (architecture notes, "Formats: the run log").
 *
 * Shape (all keys snake_case, JSON):
 * - `schema`: {@link RUN_LOG_SCHEMA} (a record of another version is refused by the reader);
 * - `task`: id and `sha256` (canonical-JSON hash of the task as loaded; null for records migrated
 *   from a store that did not keep it); `domain`, `dataset` (`servicegym` | `tau2` | `campaign`
 *   plus where it came from) and `surface` (`api` for JSON tools);
 * - `agent`, `user`, `judge`: pins (kind, model name, provider label, system-prompt hash,
 *   temperature), null where the episode had no such party or it is not known;
 * - `seeds`: the episode's seed (optimiser rollouts) and the injected "now" and id seed;
 * - `messages` (OpenAI chat messages, content may be parts), `tool_calls` (the agent's and the
 *   customer's executed calls in order), `action_log` (what the back-end did);
 * - `initial_state`: a reference (the task's start state in this dataset) and its hash;
 *   `final_state`: the per-field diff from the initial state and the final hash (null when the
 *   episode never ran or the source did not keep it);
 * - `termination`, `evaluation` (a task evaluation, a campaign case verdict or an optimiser
 *   rollout's dimensions; null with `evaluation_error` when the evaluator threw), `usage` per
 *   role (and `evaluation_usage` of the judge's calls), `timings` (seconds).
 */
import { z } from 'zod';
import { ContentSchema } from './content.js';
import { ActionLogEntrySchema } from './action-log.js';

/** The record version this code writes and reads. */
export const RUN_LOG_SCHEMA = 'servicegym.run-log/1';

/** A message as stored: an OpenAI chat message whose content may be a list of parts. */
export const RunLogMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: ContentSchema.nullable().optional(),
  tool_calls: z
    .array(z.looseObject({ id: z.string(), type: z.literal('function').optional(), function: z.looseObject({ name: z.string(), arguments: z.string() }) }))
    .optional(),
  tool_call_id: z.string().optional(),
});
export type RunLogMessage = z.infer<typeof RunLogMessageSchema>;

/** One executed tool call of the agent (or of the customer, in dual control). */
export const ToolCallRecordSchema = z.strictObject({
  /** 0-based index of the call within the episode. */
  step: z.number().int().nonnegative(),
  requestor: z.enum(['assistant', 'user']),
  name: z.string(),
  /** Parsed arguments, or the raw string when they were not valid JSON. */
  arguments: z.unknown(),
  /** What the caller saw. */
  output: ContentSchema,
  error: z.boolean(),
  mutating: z.boolean(),
  /** Set when the tool's code threw (a harness error): `Name: message`. */
  harness_error: z.string().optional(),
});
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** Who or what played a party of the episode. */
export const PinSchema = z.strictObject({
  /** E.g. `llm`, `oracle`, `scripted`, `replay`, `tau2`. */
  kind: z.string(),
  model: z.string().nullable(),
  /** Provider label as written to receipts (never a URL with credentials). */
  provider: z.string().nullable(),
  /** sha256 of the system prompt (agent) or of the instructions (user), when known. */
  prompt_sha256: z.string().nullable(),
  temperature: z.number().nullable(),
});
export type Pin = z.infer<typeof PinSchema>;

/** One changed field (tau2 reference format). */
export const FieldDiffSchema = z.strictObject({
  path: z.string(),
  op: z.enum(['add', 'remove', 'replace']),
  before: z.unknown(),
  after: z.unknown(),
});

const VerdictSchema = z.enum(['pass', 'fail', 'not_judged']);

/**
 * A task evaluation (src/evaluation/types.ts `TaskEvaluation`, without the judge receipts, which
 * the store keeps per run). Known fields are typed; fields a newer evaluator adds are kept as they are.
 */
export const TaskEvaluationRecordSchema = z.looseObject({
  kind: z.literal('task'),
  task_id: z.string(),
  termination: z.string(),
  reward: z.number().nullable(),
  reward_breakdown: z.record(z.string(), z.number().nullable()),
  reward_basis: z.array(z.string()),
  partial: z.number(),
  not_judged: z.boolean(),
  checks: z.array(
    z.looseObject({
      id: z.string(),
      kind: z.string(),
      verdict: VerdictSchema,
      evidence: z.string(),
      diff: z.array(FieldDiffSchema).optional(),
      /** Transcript rules: the rule's patterns or the LLM judge's majority. */
      decided_by: z.enum(['pattern', 'judge']).optional(),
      agreement: z.strictObject({ votes: z.number(), majority: z.number(), pattern_agrees: z.boolean() }).optional(),
    }),
  ),
  rubric: z.array(
    z.strictObject({ id: z.string(), weight: z.number(), description: z.string(), verdict: VerdictSchema, checks: z.array(z.string()) }),
  ),
  db_diff: z.array(FieldDiffSchema),
  /** Evaluated in strict mode (`--strict`): ACTION in the basis, flagged episodes score 0. */
  strict: z.boolean().optional(),
  /** Strict mode: what the episode was flagged for. */
  flags: z.array(z.string()).optional(),
  /** Cross-side tool use (domains with user tools), when there was any. */
  cross_side: z
    .strictObject({ count: z.number(), events: z.array(z.strictObject({ kind: z.string(), tool: z.string(), at: z.number() })) })
    .optional(),
});
export type TaskEvaluationRecord = z.infer<typeof TaskEvaluationRecordSchema>;

/** A campaign case's verdict (src/campaign/evaluate.ts `CaseResult`). */
export const CaseEvaluationRecordSchema = z.strictObject({
  kind: z.literal('case'),
  result: z.looseObject({
    id: z.string(),
    group: z.string(),
    correct: z.boolean(),
    transferred: z.boolean(),
    should_transfer: z.boolean(),
    note: z.string(),
    transfer_reason: z.string().nullable(),
    tool_calls: z.array(z.string()),
    handled: z.boolean().nullable(),
    judge_reason: z.string().nullable(),
    rubric: z.string(),
  }),
});
export type CaseEvaluationRecord = z.infer<typeof CaseEvaluationRecordSchema>;

/** An optimiser rollout's learning-signal dimensions and critical violations. */
export const RolloutEvaluationRecordSchema = z.strictObject({
  kind: z.literal('rollout'),
  success: z.boolean(),
  valid: z.boolean(),
  critical: z.array(z.string()),
  dimensions: z.record(z.string(), z.looseObject({ verdict: z.string(), evidence: z.string().optional(), quote: z.string().nullable().optional() })),
});
export type RolloutEvaluationRecord = z.infer<typeof RolloutEvaluationRecordSchema>;

export const EvaluationRecordSchema = z.discriminatedUnion('kind', [TaskEvaluationRecordSchema, CaseEvaluationRecordSchema, RolloutEvaluationRecordSchema]);
export type EvaluationRecord = z.infer<typeof EvaluationRecordSchema>;

/** How the episode ended. */
export const TerminationRecordSchema = z.strictObject({
  /** A termination reason (src/evaluation/types.ts), `infra_error` for a rollout that never ran. */
  reason: z.string(),
  /** The customer's stop signal (`stop`, `transfer`, `out_of_scope`) for `user_stop`. */
  user_signal: z.string().nullable(),
  /** Why the agent or the user failed (`agent_error` / `user_error`). */
  failure: z
    .strictObject({
      by: z.enum(['agent', 'user', 'harness']),
      kind: z.string(),
      message: z.string(),
      /** Malformed model output: every malformed response body received, as the provider sent it. */
      raw: z.array(z.unknown()).optional(),
    })
    .nullable(),
  /** The first successful transfer call. */
  transfer: z.strictObject({ name: z.string(), arguments: z.unknown() }).nullable(),
  /** An infrastructure fault (provider failure after retries, replay miss, harness error): the episode is not scored. */
  infra_error: z.string().nullable(),
  /** A tool's code threw or the surface failed (termination `harness_error`): a harness bug, the episode is not scored. */
  harness_error: z.string().nullable().optional(),
});
export type TerminationRecord = z.infer<typeof TerminationRecordSchema>;

const RoleUsageSchema = z.looseObject({
  calls: z.number(),
  prompt_tokens: z.number(),
  completion_tokens: z.number(),
  total_tokens: z.number(),
  latency_seconds: z.number().optional(),
  provider_reported_cost_usd: z.number().nullable().optional(),
  provider_reported_cost_observations: z.number().optional(),
});

/** Where an episode's data came from. `campaign`: a campaign folder's cases over a registered environment. */
export const DatasetSchema = z.strictObject({ kind: z.enum(['servicegym', 'tau2', 'campaign']), source: z.string() });
export type DatasetRef = z.infer<typeof DatasetSchema>;

/** The injected inputs that make an episode reproducible. */
export const SeedsSchema = z.strictObject({
  /** The episode's sampling seed (optimiser rollouts), else null. */
  episode: z.number().int().nullable(),
  /** ISO-8601 "now" given to the tools; null when not known (migrated records). */
  now: z.string().nullable(),
  id_seed: z.string(),
});

/** The whole episode record. */
export const EpisodeRunLogSchema = z.strictObject({
  schema: z.literal(RUN_LOG_SCHEMA),
  /** Set on records converted from an older store (`store-v1`): fields the old store did not keep are null. */
  migrated_from: z.string().optional(),
  /** A migrated row whose old JSON fitted no known shape keeps it here. */
  legacy: z.unknown().optional(),
  episode_id: z.string(),
  /** Trial index from 0. */
  trial: z.number().int().nonnegative(),
  /** The row label: persona, prompt version, evaluation key or mode. */
  label: z.string(),
  persona: z.string().nullable(),
  task: z.strictObject({ id: z.string(), sha256: z.string().nullable() }),
  domain: z.string(),
  dataset: DatasetSchema,
  surface: z.string(),
  agent: PinSchema.nullable(),
  user: PinSchema.nullable(),
  judge: PinSchema.nullable(),
  seeds: SeedsSchema,
  messages: z.array(RunLogMessageSchema),
  tool_calls: z.array(ToolCallRecordSchema),
  action_log: z.array(ActionLogEntrySchema),
  initial_state: z.strictObject({
    /** `task`: the task's start state in `dataset` (domain initial state + initialization data + actions). */
    ref: z.strictObject({ kind: z.literal('task'), task_id: z.string() }),
    hash: z.string().nullable(),
  }),
  final_state: z.strictObject({ diff: z.array(FieldDiffSchema), hash: z.string() }).nullable(),
  termination: TerminationRecordSchema,
  evaluation: EvaluationRecordSchema.nullable(),
  evaluation_error: z.string().nullable(),
  usage: z.record(z.string(), RoleUsageSchema),
  /** Usage per role of the evaluation's own model calls (the judge), whose receipts the store keeps with the run. */
  evaluation_usage: z.record(z.string(), RoleUsageSchema).optional(),
  timings: z.strictObject({
    /** Sum of the model calls' latencies, in seconds (recorded seconds in replay). */
    model_seconds: z.number(),
    /** Wall seconds of the episode, when the caller measured them. */
    elapsed_seconds: z.number().nullable(),
    /** Each agent and simulated-customer message with its model call's latency in seconds (src/run/turn-timings.ts); absent in older records. */
    turns: z
      .array(z.strictObject({ message_index: z.number().int().nonnegative(), role: z.enum(['assistant', 'user']), latency_seconds: z.number().nonnegative() }))
      .optional(),
  }),
});
export type EpisodeRunLog = z.infer<typeof EpisodeRunLogSchema>;

/** The reward and partial score the store indexes for an episode (null when not scored). */
export function scoresOf(r: EpisodeRunLog): { reward: number | null; partial: number | null } {
  const ev = r.evaluation;
  if (!ev) return { reward: null, partial: null };
  if (ev.kind === 'task') return { reward: ev.reward, partial: ev.partial };
  if (ev.kind === 'case') return { reward: ev.result.correct ? 1 : 0, partial: null };
  return { reward: ev.valid ? (ev.success ? 1 : 0) : null, partial: null };
}

/**
 * The back-end action log of an API-surface episode, derived from its tool calls: each successful
 * call is one action (mutating for a write tool), caused by the assistant message that carried it
 * (the k-th assistant call is the k-th tool call of the assistant messages). Only for records
 * migrated from a store that kept no action log; episodes record their own (`EpisodeResult.actionLog`).
 */
export function actionLogFromToolCalls(toolCalls: readonly ToolCallRecord[], messages: readonly RunLogMessage[]): z.infer<typeof ActionLogEntrySchema>[] {
  const causes: { message_index: number; tool_call_id: string }[] = [];
  messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const tc of m.tool_calls ?? []) causes.push({ message_index: i, tool_call_id: tc.id });
  });
  let k = 0;
  const out: z.infer<typeof ActionLogEntrySchema>[] = [];
  for (const c of toolCalls) {
    const cause = c.requestor === 'assistant' ? causes[k++] : undefined;
    if (c.error) continue;
    out.push({
      seq: out.length,
      requestor: c.requestor,
      name: c.name,
      arguments: c.arguments,
      result: typeof c.output === 'string' ? c.output : JSON.stringify(c.output),
      error: false,
      mutating: c.mutating,
      ...(cause ? { cause } : {}),
    });
  }
  return out;
}
