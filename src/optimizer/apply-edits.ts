/**
 * `apply_edits`: exact search/replace edits on a prompt, the only way the optimiser changes one.
 *
 * Rule (seed record 9-3, gate check `patch_is_auditable_old_to_new_edit`): every `old_str` must
 * occur exactly once in the text it is applied to (edits apply in order). One bad edit rejects
 * the whole patch: the result keeps the original text and says why for each edit.
 */

export interface PromptEdit {
  old_str: string;
  new_str: string;
}

export interface EditOutcome {
  index: number;
  ok: boolean;
  /** How often `old_str` occurred when the edit was tried. */
  occurrences: number;
  reason?: string;
}

export interface ApplyEditsResult {
  /** True when every edit applied and the text changed. */
  ok: boolean;
  /** The edited text, or the original when the patch is rejected. */
  text: string;
  edits: EditOutcome[];
  /** Why the patch was rejected (absent when ok). */
  reason?: string;
}

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) n++;
  return n;
}

/** Applies `edits` to `text` in order; see the module rule. Never throws. */
export function applyEdits(text: string, edits: PromptEdit[]): ApplyEditsResult {
  let cur = text;
  const outcomes: EditOutcome[] = [];
  let failed = false;
  edits.forEach((e, index) => {
    if (failed) {
      outcomes.push({ index, ok: false, occurrences: occurrences(cur, e.old_str), reason: 'not applied: an earlier edit was rejected' });
      return;
    }
    if (e.old_str === '') {
      failed = true;
      outcomes.push({ index, ok: false, occurrences: 0, reason: 'old_str is empty' });
      return;
    }
    const n = occurrences(cur, e.old_str);
    if (n !== 1) {
      failed = true;
      outcomes.push({ index, ok: false, occurrences: n, reason: n === 0 ? 'old_str does not occur in the prompt' : `old_str occurs ${n} times; it must be unique` });
      return;
    }
    if (e.old_str === e.new_str) {
      failed = true;
      outcomes.push({ index, ok: false, occurrences: n, reason: 'new_str equals old_str (a no-op edit)' });
      return;
    }
    const at = cur.indexOf(e.old_str);
    cur = cur.slice(0, at) + e.new_str + cur.slice(at + e.old_str.length);
    outcomes.push({ index, ok: true, occurrences: 1 });
  });
  if (edits.length === 0) return { ok: false, text, edits: [], reason: 'the patch has no edits' };
  if (failed) {
    const first = outcomes.find((o) => !o.ok)!;
    return { ok: false, text, edits: outcomes, reason: `edit ${first.index}: ${first.reason}` };
  }
  if (cur === text) return { ok: false, text, edits: outcomes, reason: 'the edits leave the prompt unchanged' };
  return { ok: true, text: cur, edits: outcomes };
}
