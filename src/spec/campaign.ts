/**
 * A prompt-optimisation campaign in the shape of the seed experiment (record 9-3): cases with a
 * transfer expectation and a rubric, a stable prompt and control prompts, the judge and coding
 * agent prompts, and the texts of verdict notes and learning-signal evidence.
 *
 * On disk a campaign is a folder: `campaign.json` (this schema) plus the text files it names.
 */
import { z } from 'zod';

export const CampaignCaseSchema = z.strictObject({
  id: z.string().min(1),
  /** `holdout`: ordinary requests that must keep working; `boundary`: policy disputes the prompt should handle. */
  group: z.enum(['holdout', 'boundary']),
  /** The customer's single message. */
  user: z.string(),
  should_transfer: z.boolean(),
  /** What the judge counts as handled. */
  rubric: z.string(),
});
export type CampaignCase = z.infer<typeof CampaignCaseSchema>;

const PromptRefSchema = z.strictObject({
  /** Path of the prompt text, relative to the campaign folder. */
  file: z.string(),
  /** Label in `evaluations.*.label`. */
  label: z.string(),
  /** Label in the summary `rows`. */
  row_label: z.string(),
});

export const CampaignSpecSchema = z.strictObject({
  schema_version: z.literal(1),
  name: z.string(),
  /** Metadata copied into the record (`experiment_id`, `canonical_source`, `evidence_mode`). */
  experiment: z
    .strictObject({
      id: z.string(),
      canonical_source: z.string().optional(),
      evidence_mode: z.string().optional(),
      /** ISO-8601 start time used by replay's virtual clock. */
      created_at: z.string().optional(),
    })
    .optional(),
  /** Registered domain whose tools the task agent gets (e.g. `yunshu`). */
  domain: z.string(),
  /** The recorded model: replay sends requests with this name; live runs override it. */
  model: z.strictObject({
    provider: z.string(),
    model: z.string(),
    endpoint: z.string().optional(),
    credential_source_env: z.string().optional(),
    temperature: z.number().min(0).max(2),
  }),
  agent: z.strictObject({
    /** Most model calls of the task agent per case. */
    max_steps: z.number().int().positive(),
    /** Tool whose call means "transferred to a human"; its `reason` argument is the transfer reason. */
    transfer_tool: z.string(),
    transfer_reason_arg: z.string(),
  }),
  /** Path of the cases file (JSON array of {@link CampaignCase}). */
  cases_file: z.string(),
  prompts: z.strictObject({
    stable: PromptRefSchema,
    candidate: z.strictObject({ label: z.string(), row_label: z.string() }),
    controls: z.array(PromptRefSchema.extend({ id: z.string().regex(/^[a-z][a-z0-9_]*$/) })),
  }),
  judge: z.strictObject({
    /** Template with `{{user}}`, `{{rubric}}` and `{{reply}}`. */
    template_file: z.string(),
  }),
  coding_agent: z.strictObject({
    system_file: z.string(),
    /** Template with `{{learning_signal}}` (the signal as indented JSON) and `{{prompt}}`. */
    user_template_file: z.string(),
    tool_description: z.string(),
    rationale_description: z.string(),
    /** What part of the prompt the patch may touch, e.g. `system_prompt.transfer_policy`. */
    scope: z.string(),
    /** The rule the patch is meant to establish, in one line. */
    target_rule: z.string(),
  }),
  /** Texts of the per-case verdict note (`note` field of each result). */
  verdict_notes: z.strictObject({
    transferred_as_required: z.string(),
    missed_transfer: z.string(),
    over_transfer: z.string(),
    handled: z.string(),
    mishandled: z.string(),
  }),
  /** Evidence and diagnosis texts of the learning signal. */
  learning_signal: z.strictObject({
    rule_pass: z.string(),
    rule_fail: z.string(),
    flex_not_required: z.string(),
    flex_pass: z.string(),
    flex_fail: z.string(),
    diagnoses: z.strictObject({ over_transfer: z.string(), missed_transfer: z.string(), mishandled: z.string() }),
  }),
  /** Recorded receipts (JSON Lines), relative path; replay needs it. */
  receipts_file: z.string().optional(),
});
export type CampaignSpec = z.infer<typeof CampaignSpecSchema>;
