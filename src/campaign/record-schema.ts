/**
 * The parts of an experiment record (seed `000_30951e7824566f07.txt` shape) that the importer
 * reads. Other fields are allowed and ignored.
 */
import { z } from 'zod';
import { ReceiptSchema } from '../spec/receipt.js';

export const RecordResultSchema = z.looseObject({
  id: z.string(),
  group: z.enum(['holdout', 'boundary']),
  correct: z.boolean(),
  transferred: z.boolean(),
  should_transfer: z.boolean(),
  note: z.string(),
  final_text: z.string(),
  transfer_reason: z.string().nullable(),
  tool_calls: z.array(z.string()),
  handled: z.boolean().nullable(),
  judge_reason: z.string().nullable(),
  rubric: z.string(),
  user: z.string(),
});

const EvaluationSchema = z.looseObject({
  label: z.string(),
  holdout: z.tuple([z.number(), z.number()]),
  boundary: z.tuple([z.number(), z.number()]),
  results: z.array(RecordResultSchema).min(1),
});

const VerdictSchema = z.looseObject({ verdict: z.enum(['pass', 'fail']), evidence: z.string() });

export const ExperimentRecordSchema = z.looseObject({
  schema_version: z.number().optional(),
  experiment_id: z.string(),
  canonical_source: z.string().optional(),
  evidence_mode: z.string().optional(),
  created_at: z.string().optional(),
  provider: z.string(),
  model: z.string(),
  backend: z.looseObject({ endpoint: z.string().optional(), credential_source_env: z.string().optional() }).optional(),
  learning_signal: z
    .looseObject({
      scope: z.string(),
      diagnosis: z.string(),
      case_reports: z.array(
        z.looseObject({
          case_id: z.string(),
          dimensions: z.looseObject({ rule_compliance: VerdictSchema, task_resolution: VerdictSchema, compliant_flexibility: VerdictSchema }),
        }),
      ),
    })
    .nullable(),
  candidate_manifest: z.looseObject({ scope: z.string(), target_rule: z.string() }),
  evaluations: z.record(z.string(), EvaluationSchema).refine((e) => 'initial' in e, 'expected an "initial" evaluation'),
  rows: z.array(z.looseObject({ label: z.string() })),
  api_turns: z.array(ReceiptSchema).min(1),
});
export type ExperimentRecord = z.infer<typeof ExperimentRecordSchema>;
