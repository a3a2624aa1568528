/**
 * Tasks: tau2-bench's task format, loaded unchanged (unknown fields are errors), plus servicegym's
 * `servicegym` block for what tau2 cannot express — ordering constraints, forbidden writes,
 * transcript rules, confirmation before writes, counted tool calls, stated totals, and a weighted
 * partial-credit rubric (the seed tasks' "suggested verification" and "partial credit" rules,
 * `seeds/001_14d444b6cd11c72e.txt`).
 */
import { z } from 'zod';

export const RewardBasisSchema = z.enum(['DB', 'ENV_ASSERTION', 'COMMUNICATE', 'NL_ASSERTION', 'ACTION']);
export type RewardBasis = z.infer<typeof RewardBasisSchema>;

/** A gold action: a tool call the task expects (tau2 `Action`). */
export const GoldActionSchema = z.strictObject({
  action_id: z.string(),
  requestor: z.enum(['assistant', 'user']).default('assistant'),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  info: z.string().nullable().optional(),
  /** Argument names compared when matching (null: all of the call's arguments; []: name only). */
  compare_args: z.array(z.string()).nullable().optional(),
});
export type GoldAction = z.infer<typeof GoldActionSchema>;

export const EnvAssertionSchema = z.strictObject({
  env_type: z.enum(['assistant', 'user']),
  func_name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  assert_value: z.boolean().default(true),
  message: z.string().nullable().optional(),
});

const StructuredInstructionsSchema = z.strictObject({
  domain: z.string(),
  reason_for_call: z.string(),
  known_info: z.string().nullable().optional(),
  unknown_info: z.string().nullable().optional(),
  task_instructions: z.string(),
});

export const UserScenarioSchema = z.strictObject({
  persona: z.string().nullable().optional(),
  instructions: z.union([z.string(), StructuredInstructionsSchema]),
});
export type UserScenario = z.infer<typeof UserScenarioSchema>;

// ---- servicegym checks ---------------------------------------------------------------------

/** Matches tool calls by name and (a subset of) arguments. */
export const CallMatchSchema = z.strictObject({
  name: z.string(),
  /** Every listed argument must equal the call's (deep equality); others are ignored. */
  arguments: z.record(z.string(), z.unknown()).optional(),
  /** Only calls of this side (dual control: `user` for the customer's own device tools); absent: either side. */
  requestor: z.enum(['assistant', 'user']).optional(),
});
export type CallMatch = z.infer<typeof CallMatchSchema>;

const base = {
  id: z.string().regex(/^[a-z0-9_]+$/),
  description: z.string().optional(),
  /**
   * Only in episodes of these user personas (e.g. `["off-policy"]`: the refusal of the off-policy
   * request, seed T16); in other episodes the check is not applicable and passes.
   */
  personas: z.array(z.string().min(1)).min(1).optional(),
};

export const CheckSchema = z.discriminatedUnion('kind', [
  /** Final DB equals the gold replay's, over the whole DB or only under `paths` (JSON pointers). */
  z.strictObject({ ...base, kind: z.literal('db_gold'), paths: z.array(z.string()).optional() }),
  /** The final value at a JSON pointer is one of `values` (e.g. any allowed refund method). */
  z.strictObject({ ...base, kind: z.literal('field_in'), path: z.string(), values: z.array(z.unknown()).min(1) }),
  /**
   * The number of entries (object values or array items) under the JSON pointer `path` of the final
   * state whose fields equal every `where` value and differ from every `where_not` value lies
   * within [min, max] — e.g. "exactly two WCHR requests for passenger 1.1, none on the cancelled
   * flight", whatever the flights. `where_match` adds text rules: the field is a string in which
   * the regular expression (JavaScript syntax) finds a match — e.g. "a public reply on ticket 5521
   * contains the discount code" (seed T18). Read through the domain's state view.
   */
  z.strictObject({
    ...base,
    kind: z.literal('state_count'),
    path: z.string(),
    where: z.record(z.string(), z.unknown()).default({}),
    where_not: z.record(z.string(), z.unknown()).default({}),
    where_match: z.record(z.string(), z.string()).default({}),
    min: z.number().int().min(0).default(0),
    max: z.number().int().min(0).optional(),
  }),
  /** Nothing under these JSON pointers may change (forbidden writes). */
  z.strictObject({ ...base, kind: z.literal('unchanged'), paths: z.array(z.string()).min(1) }),
  /**
   * The array at `path` changed from the start state as expected (multisets of elements, JSON
   * equality): it gained every element of `added` and lost every element of `removed` — by
   * default the gold replay's own gains and losses there. Other changes are allowed unless
   * `exact`. For one rubric item that must not depend on another's changes to the same array
   * (T06: the Mug Set line removed whatever happened to the grinder line; T17: the flight-change
   * payments whatever insurance was charged).
   */
  z.strictObject({
    ...base,
    kind: z.literal('db_delta'),
    path: z.string(),
    added: z.array(z.unknown()).optional(),
    removed: z.array(z.unknown()).optional(),
    exact: z.boolean().default(false),
  }),
  /**
   * No write of the agent beyond the gold actions: each successful agent write is matched to a
   * distinct gold write action of the same tool whose `keys` arguments (those present in both)
   * are equal; a write left unmatched is extra (T03 "no extra actions": a second cancellation is
   * extra, a certificate of the wrong amount is not).
   */
  z.strictObject({ ...base, kind: z.literal('no_extra_writes'), keys: z.array(z.string()).default([]) }),
  /** The number of matching calls lies within [min, max] (max 0: a forbidden call, e.g. a decoy). */
  z.strictObject({ ...base, kind: z.literal('tool_calls'), match: CallMatchSchema, min: z.number().int().min(0).default(0), max: z.number().int().min(0).optional() }),
  /** Every call matching `then` is preceded by a call matching `first`; with `require`, `then` must occur. */
  z.strictObject({ ...base, kind: z.literal('order'), first: CallMatchSchema, then: CallMatchSchema, require: z.boolean().default(false) }),
  /**
   * Before each write (or call of `tools`) the agent's request named the action and its details
   * (`details`, default true) and the customer's reply was an explicit yes (the confirmation
   * classifier, or the `confirm` regex when given).
   */
  z.strictObject({
    ...base,
    kind: z.literal('confirmation_before_write'),
    tools: z.array(z.string()).optional(),
    confirm: z.string().optional(),
    details: z.boolean().default(true),
  }),
  /** Regex rules over messages of one role: some must match, none may match `must_not_match`. */
  z.strictObject({
    ...base,
    kind: z.literal('transcript'),
    role: z.enum(['assistant', 'user']).default('assistant'),
    must_match: z.string().optional(),
    must_not_match: z.string().optional(),
    flags: z.string().default('i'),
    /** A statement true exactly when the rule is kept: with a judge model, the LLM judge decides by it (src/evaluation/transcript-judge.ts). */
    assertion: z.string().min(1).optional(),
  }),
  /**
   * Some agent message states a number equal to `equals` (± tolerance), captured by `pattern`'s
   * first group that matched (default: `$1,785`, `$ 1785.00`, `USD 1,785`, `1,785 dollars`, `1785 USD`).
   */
  z.strictObject({
    ...base,
    kind: z.literal('stated_amount'),
    pattern: z.string().default('\\$\\s?([0-9][0-9,]*(?:\\.[0-9]{1,2})?)|\\bUSD\\s?([0-9][0-9,]*(?:\\.[0-9]{1,2})?)|\\b([0-9][0-9,]*(?:\\.[0-9]{1,2})?)\\s?(?:dollars?|USD)\\b'),
    equals: z.number(),
    tolerance: z.number().min(0).default(0.005),
  }),
  /** tau2's communicate rule for these strings. */
  z.strictObject({ ...base, kind: z.literal('communicate'), info: z.array(z.string()).min(1) }),
  /** A natural-language assertion for the judge; without a judge model it is "not judged". */
  z.strictObject({ ...base, kind: z.literal('nl'), assertion: z.string() }),
]);
export type Check = z.infer<typeof CheckSchema>;

export const RubricItemSchema = z.strictObject({
  id: z.string(),
  /** Weight in percent; a task's weights sum to 100. */
  weight: z.number().positive(),
  description: z.string(),
  /** The item scores its weight when every listed check passes. */
  checks: z.array(z.string()).min(1),
});

/**
 * The scripted customer of persona runs (`src/users/personas.ts`; offline `validate --personas`
 * and tests). Without it the scripted customer is derived from `user_scenario` (a heuristic).
 */
export const ScriptedUserSpecSchema = z.strictObject({
  /** The opening request, in the customer's words, without the identifying details (they go in `details`). */
  opening: z.string().min(1),
  /** The identifying details (order id, item names, …): said with the opening, or only when asked by a vague persona. */
  details: z.string().min(1).optional(),
  /** The wish a contradictory persona states first, before correcting it to `opening` (the task's goal). */
  wrong_wish: z.string().min(1).optional(),
});
export type ScriptedUserSpec = z.infer<typeof ScriptedUserSpecSchema>;

export const ServicegymCriteriaSchema = z
  .strictObject({
    checks: z.array(CheckSchema).min(1),
    partial_credit: z.array(RubricItemSchema).min(1),
    /** A failure of any of these checks makes the partial score 0 (e.g. "any write scores 0"). */
    zero_if_failed: z.array(z.string()).default([]),
    /** Where each rule of the seed task maps to a check (documentation, shown in reports). */
    source: z.string().optional(),
    /**
     * What a policy-perfect agent tells the customer in its closing message (e.g. the rule that
     * blocks a request, or a total). The oracle agent says it, so `validate` can score 100%.
     */
    gold_messages: z.array(z.string()).optional(),
    /**
     * Persona runs: the request the `off-policy` persona adds after the main one — something the
     * policy forbids, which the agent must refuse (conceding it should also fail a check, e.g.
     * the DB no longer equals gold). Default: a generic unjustified-credit request.
     */
    off_policy_request: z.string().min(1).optional(),
    /** Persona runs: the scripted customer, see {@link ScriptedUserSpecSchema}. */
    scripted_user: ScriptedUserSpecSchema.optional(),
    /**
     * The task's episode set (seed T16): every trial runs once per persona (ids of
     * `src/users/personas.ts`), without a run-wide `--personas`; the task's score is the mean of
     * its episodes' partial scores, i.e. the fraction that earned the whole rubric.
     */
    personas: z.array(z.string().min(1)).min(1).optional(),
  })
  .superRefine((v, ctx) => {
    const ids = new Set(v.checks.map((c) => c.id));
    v.partial_credit.forEach((item, i) =>
      item.checks.forEach((c, j) => {
        if (!ids.has(c)) ctx.addIssue({ code: 'custom', path: ['partial_credit', i, 'checks', j], message: `unknown check id '${c}'` });
      }),
    );
    v.zero_if_failed.forEach((c, i) => {
      if (!ids.has(c)) ctx.addIssue({ code: 'custom', path: ['zero_if_failed', i], message: `unknown check id '${c}'` });
    });
    const total = v.partial_credit.reduce((s, x) => s + x.weight, 0);
    if (Math.abs(total - 100) > 1e-9) ctx.addIssue({ code: 'custom', path: ['partial_credit'], message: `weights sum to ${total}, expected 100` });
  });
export type ServicegymCriteria = z.infer<typeof ServicegymCriteriaSchema>;

export const EvaluationCriteriaSchema = z.strictObject({
  actions: z.array(GoldActionSchema).nullable().optional(),
  env_assertions: z.array(EnvAssertionSchema).nullable().optional(),
  communicate_info: z.array(z.string()).nullable().optional(),
  nl_assertions: z.array(z.string()).nullable().optional(),
  reward_basis: z.array(RewardBasisSchema).default(['DB', 'COMMUNICATE']),
});
export type EvaluationCriteria = z.infer<typeof EvaluationCriteriaSchema>;

export const TaskSchema = z.strictObject({
  id: z.string(),
  description: z
    .strictObject({
      purpose: z.string().nullable().optional(),
      relevant_policies: z.string().nullable().optional(),
      notes: z.string().nullable().optional(),
      info: z.unknown().optional(),
    })
    .nullable()
    .optional(),
  user_scenario: UserScenarioSchema,
  ticket: z.string().nullable().optional(),
  initial_state: z
    .strictObject({
      initialization_data: z.strictObject({ agent_data: z.unknown().optional(), user_data: z.unknown().optional() }).nullable().optional(),
      initialization_actions: z.array(z.record(z.string(), z.unknown())).nullable().optional(),
      message_history: z.array(z.unknown()).nullable().optional(),
    })
    .nullable()
    .optional(),
  evaluation_criteria: EvaluationCriteriaSchema.nullable().optional(),
  annotations: z.unknown().optional(),
  issues: z.unknown().optional(),
  required_documents: z.unknown().optional(),
  user_tools: z.unknown().optional(),
  /** servicegym's extension (absent in tau2 files). */
  servicegym: ServicegymCriteriaSchema.optional(),
});
export type Task = z.infer<typeof TaskSchema>;
