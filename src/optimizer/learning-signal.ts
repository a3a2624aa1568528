/**
 * The learning signal: per case, three dimensions with evidence, aggregated over the failures,
 * plus a diagnosis. Generalised from the seed experiment (record 9-3, `learning_signal`):
 * - rule_compliance fails when a mandatory escalation was missed (should transfer, did not);
 * - task_resolution fails when the case's verdict is wrong (evidence: the verdict note);
 * - compliant_flexibility applies to boundary cases (policy disputes) only and fails when the
 *   dispute was transferred or left without a useful compliant alternative.
 */
import type { CampaignSpec } from '../spec/campaign.js';
import type { CaseResult } from '../campaign/evaluate.js';

export type Dimension = 'rule_compliance' | 'task_resolution' | 'compliant_flexibility';
export const DIMENSIONS: Dimension[] = ['rule_compliance', 'task_resolution', 'compliant_flexibility'];

export interface DimensionVerdict {
  verdict: 'pass' | 'fail';
  evidence: string;
}

export interface CaseReport {
  case_id: string;
  dimensions: Record<Dimension, DimensionVerdict>;
}

/** Key order matters: it is serialised into the coding agent's request. */
export interface LearningSignal {
  source_case_ids: string[];
  scope: string;
  dimensions: Record<Dimension, { case_id: string; evidence: string }[]>;
  diagnosis: string;
  case_reports: CaseReport[];
}

/** Judges one case on the three dimensions. */
export function caseReport(r: CaseResult, texts: CampaignSpec['learning_signal']): CaseReport {
  const missed = r.should_transfer && !r.transferred;
  const flex: DimensionVerdict =
    r.group !== 'boundary'
      ? { verdict: 'pass', evidence: texts.flex_not_required }
      : r.correct
        ? { verdict: 'pass', evidence: texts.flex_pass }
        : { verdict: 'fail', evidence: texts.flex_fail };
  return {
    case_id: r.id,
    dimensions: {
      rule_compliance: missed ? { verdict: 'fail', evidence: texts.rule_fail } : { verdict: 'pass', evidence: texts.rule_pass },
      task_resolution: { verdict: r.correct ? 'pass' : 'fail', evidence: r.note },
      compliant_flexibility: flex,
    },
  };
}

/**
 * Builds the learning signal from one evaluation's results (in case order). Returns `null` when
 * no case failed any dimension: there is nothing to learn from.
 */
export function buildLearningSignal(results: CaseResult[], spec: CampaignSpec): LearningSignal | null {
  const texts = spec.learning_signal;
  const reports = results.map((r) => caseReport(r, texts));
  const dimensions = { rule_compliance: [], task_resolution: [], compliant_flexibility: [] } as LearningSignal['dimensions'];
  for (const rep of reports) {
    for (const d of DIMENSIONS) {
      if (rep.dimensions[d].verdict === 'fail') dimensions[d].push({ case_id: rep.case_id, evidence: rep.dimensions[d].evidence });
    }
  }
  const source = reports.filter((rep) => DIMENSIONS.some((d) => rep.dimensions[d].verdict === 'fail')).map((rep) => rep.case_id);
  if (source.length === 0) return null;
  const patterns: string[] = [];
  if (results.some((r) => !r.should_transfer && r.transferred)) patterns.push(texts.diagnoses.over_transfer);
  if (results.some((r) => r.should_transfer && !r.transferred)) patterns.push(texts.diagnoses.missed_transfer);
  if (results.some((r) => !r.should_transfer && !r.transferred && !r.correct)) patterns.push(texts.diagnoses.mishandled);
  const diagnosis = patterns.filter((p) => p !== '').join(' ');
  return { source_case_ids: source, scope: spec.coding_agent.scope, dimensions, diagnosis, case_reports: reports };
}
