/**
 * The part of a tau2-bench results file (`Results`: `info`, `tasks`, `simulations`) that
 * servicegym reads to import a run: each simulation's task id, trial, termination reason, messages
 * and recorded `reward_info`. Everything else tau2 writes (timestamps, costs, reviews, audio
 * fields) passes through unread. Messages are tau2's: tool calls carry parsed `arguments` and an
 * `id`; a tool message answers the call with the same `id`.
 */
import { z } from 'zod';

export const Tau2ToolCallSchema = z.looseObject({
  id: z.string().default(''),
  name: z.string(),
  arguments: z.record(z.string(), z.unknown()),
  requestor: z.enum(['assistant', 'user']).default('assistant'),
});

export const Tau2MessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullable().optional(),
  tool_calls: z.array(Tau2ToolCallSchema).nullable().optional(),
  /** Tool messages: the id of the call answered. */
  id: z.string().optional(),
  requestor: z.enum(['assistant', 'user']).optional(),
  error: z.boolean().optional(),
});
export type Tau2Message = z.infer<typeof Tau2MessageSchema>;

/** tau2's reward components, as `reward_breakdown` keys. */
export const TAU2_COMPONENTS = ['DB', 'ENV_ASSERTION', 'COMMUNICATE', 'ACTION', 'NL_ASSERTION'] as const;

export const Tau2RewardInfoSchema = z.looseObject({
  reward: z.number(),
  reward_basis: z.array(z.string()).nullable().optional(),
  reward_breakdown: z.record(z.string(), z.number()).nullable().optional(),
});
export type Tau2RewardInfo = z.infer<typeof Tau2RewardInfoSchema>;

export const Tau2SimulationSchema = z.looseObject({
  id: z.string(),
  task_id: z.string(),
  trial: z.number().int().nullable().optional(),
  termination_reason: z.string(),
  reward_info: Tau2RewardInfoSchema.nullable().optional(),
  messages: z.array(Tau2MessageSchema).nullable().optional(),
});
export type Tau2Simulation = z.infer<typeof Tau2SimulationSchema>;

const Tau2PartyInfoSchema = z.looseObject({
  implementation: z.string(),
  llm: z.string().nullable().optional(),
  llm_args: z.record(z.string(), z.unknown()).nullable().optional(),
});

export const Tau2ResultsSchema = z.looseObject({
  info: z.looseObject({
    num_trials: z.number().int().optional(),
    max_steps: z.number().int().positive().optional(),
    max_errors: z.number().int().positive().optional(),
    user_info: Tau2PartyInfoSchema.optional(),
    agent_info: Tau2PartyInfoSchema.optional(),
    environment_info: z.looseObject({ domain_name: z.string() }),
    seed: z.number().int().nullable().optional(),
  }),
  tasks: z.array(z.looseObject({ id: z.string() })),
  simulations: z.array(Tau2SimulationSchema),
});
export type Tau2Results = z.infer<typeof Tau2ResultsSchema>;
