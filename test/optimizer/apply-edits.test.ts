import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../src/optimizer/apply-edits.js';
import { seedGate } from '../../src/optimizer/seed-gate.js';
import type { CaseResult } from '../../src/campaign/evaluate.js';

describe('applyEdits', () => {
  const prompt = 'Rule 1: transfer when unsure.\nRule 2: be polite.\nRule 3: transfer when unsure.\n';
  it('applies unique edits in order', () => {
    const r = applyEdits(prompt, [{ old_str: 'Rule 2: be polite.', new_str: 'Rule 2: be polite and brief.' }]);
    expect(r.ok).toBe(true);
    expect(r.text).toBe('Rule 1: transfer when unsure.\nRule 2: be polite and brief.\nRule 3: transfer when unsure.\n');
  });
  it('rejects a non-unique old_str and keeps the original text', () => {
    const r = applyEdits(prompt, [
      { old_str: 'Rule 2', new_str: 'R2' },
      { old_str: 'transfer when unsure.', new_str: 'never transfer.' },
    ]);
    expect(r.ok).toBe(false);
    expect(r.text).toBe(prompt);
    expect(r.reason).toBe('edit 1: old_str occurs 2 times; it must be unique');
    expect(r.edits.map((e) => e.ok)).toEqual([true, false]);
  });
  it('rejects missing, empty, no-op and empty patches', () => {
    expect(applyEdits(prompt, [{ old_str: 'absent', new_str: 'x' }]).reason).toBe('edit 0: old_str does not occur in the prompt');
    expect(applyEdits(prompt, [{ old_str: '', new_str: 'x' }]).reason).toBe('edit 0: old_str is empty');
    expect(applyEdits(prompt, [{ old_str: 'Rule 2', new_str: 'Rule 2' }]).reason).toBe('edit 0: new_str equals old_str (a no-op edit)');
    expect(applyEdits(prompt, []).reason).toBe('the patch has no edits');
  });
  it('checks uniqueness against the text as already edited', () => {
    const r = applyEdits('a b', [{ old_str: 'a', new_str: 'b' }, { old_str: 'b', new_str: 'c' }]);
    expect(r.ok).toBe(false);
    expect(r.reason).toBe('edit 1: old_str occurs 2 times; it must be unique');
  });
});

const res = (id: string, group: 'holdout' | 'boundary', correct: boolean): CaseResult => ({
  id, group, correct, transferred: false, should_transfer: false, note: '', final_text: '', transfer_reason: null,
  tool_calls: [], handled: correct, judge_reason: null, rubric: '', user: '',
});

describe('seedGate', () => {
  const before = [res('H1', 'holdout', true), res('H2', 'holdout', true), res('B1', 'boundary', false), res('B2', 'boundary', false)];
  const okPatch = { ok: true, text: 'x', edits: [] };
  it('releases to canary when all five checks hold', () => {
    const after = [res('H1', 'holdout', true), res('H2', 'holdout', true), res('B1', 'boundary', true), res('B2', 'boundary', false)];
    const g = seedGate({ proposedEdits: 1, patch: okPatch, sourceCaseIds: ['B1', 'B2'], before, after });
    expect(g.decision).toBe('release_to_canary');
    expect(g.metrics).toEqual({ holdout_before: [2, 2], holdout_after: [2, 2], boundary_before: [0, 2], boundary_after: [1, 2] });
  });
  it('rejects a holdout regression even when the holdout count is unchanged', () => {
    const after = [res('H1', 'holdout', false), res('H2', 'holdout', true), res('B1', 'boundary', true), res('B2', 'boundary', true)];
    const g = seedGate({ proposedEdits: 1, patch: okPatch, sourceCaseIds: ['B1'], before, after });
    expect(g.checks.holdout_did_not_regress).toBe(false);
    expect(g.decision).toBe('reject');
  });
  it('rejects an unauditable patch, unknown source cases and no improvement', () => {
    const g = seedGate({ proposedEdits: 1, patch: { ok: false, text: '', edits: [], reason: 'x' }, sourceCaseIds: ['Z9'], before, after: null });
    expect(g.checks).toEqual({
      patch_is_nonempty: true,
      patch_is_auditable_old_to_new_edit: false,
      source_cases_are_recorded: false,
      holdout_did_not_regress: false,
      boundary_improved: false,
    });
    expect(g.accepted).toBe(false);
  });
});
