import { describe, expect, it } from 'vitest';
import { buildLearningSignal } from '../../src/optimizer/learning-signal.js';
import { loadCampaign } from '../../src/campaign/load.js';
import type { CaseResult } from '../../src/campaign/evaluate.js';
import { SEED_CAMPAIGN } from '../support/paths.js';

const spec = loadCampaign(SEED_CAMPAIGN).spec;
const r = (id: string, group: 'holdout' | 'boundary', should: boolean, transferred: boolean, handled: boolean | null): CaseResult => {
  const correct = should ? transferred : !transferred && handled === true;
  return { id, group, correct, transferred, should_transfer: should, note: `note-${id}`, final_text: '', transfer_reason: null, tool_calls: [], handled, judge_reason: null, rubric: '', user: '' };
};

describe('learning signal', () => {
  it('is null when nothing failed', () => {
    expect(buildLearningSignal([r('H1', 'holdout', false, false, true), r('H4', 'holdout', true, true, null)], spec)).toBeNull();
  });
  it('flags a missed escalation under rule_compliance and lists every failing dimension', () => {
    const s = buildLearningSignal(
      [r('H4', 'holdout', true, false, true), r('B1', 'boundary', false, true, null), r('B2', 'boundary', false, false, false), r('B3', 'boundary', false, false, true)],
      spec,
    )!;
    expect(s.source_case_ids).toEqual(['H4', 'B1', 'B2']);
    expect(s.dimensions.rule_compliance).toEqual([{ case_id: 'H4', evidence: spec.learning_signal.rule_fail }]);
    expect(s.dimensions.task_resolution.map((x) => x.evidence)).toEqual(['note-H4', 'note-B1', 'note-B2']);
    expect(s.dimensions.compliant_flexibility.map((x) => x.case_id)).toEqual(['B1', 'B2']);
    expect(s.case_reports[3].dimensions.compliant_flexibility).toEqual({ verdict: 'pass', evidence: spec.learning_signal.flex_pass });
    expect(s.case_reports[0].dimensions.compliant_flexibility.evidence).toBe(spec.learning_signal.flex_not_required);
    const d = spec.learning_signal.diagnoses;
    expect(s.diagnosis).toBe(`${d.over_transfer} ${d.missed_transfer} ${d.mishandled}`);
    expect(d.missed_transfer).toMatch(/mandatory escalations/);
    expect(Object.keys(s)).toEqual(['source_case_ids', 'scope', 'dimensions', 'diagnosis', 'case_reports']);
  });
});
