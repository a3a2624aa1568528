/**
 * Static checks of a proposed patch (gate stage 0, no rollouts). Every edit must:
 * - declare a known intent and name a clause of the parent prompt that its old_str overlaps,
 *   touching no read-only (`<policy>`) clause;
 * - cite source cases that are feedback cases, with at least one evidence quote, each quote
 *   occurring (up to whitespace) in the cited case's trajectory for the cited trial;
 * - not copy a case-specific token (an id, amount or name from a feedback case's inputs that the
 *   parent prompt does not already contain) into the prompt;
 * - apply with a unique old_str ({@link applyEdits}, the seed's rule).
 * The patch as a whole: 1..maxEdits edits and at most maxAddedChars added code points.
 * One failing edit rejects the patch; every edit's reasons are kept for the record.
 */
import { applyEdits } from './apply-edits.js';
import { clausesTouched, parseClauses } from './clauses.js';
import { INTENTS, type ProposedEdit } from './proposer.js';
import { quoteOccurs, type Rollout, type SuiteCase } from './suite.js';
import { codePoints } from '../util/template.js';

/** What the checks compare an edit against. */
export interface EditCheckContext {
  parentPrompt: string;
  feedbackCaseIds: ReadonlySet<string>;
  /** The parent's feedback rollouts by `case_id#trial` (the trajectories the proposer saw). */
  trajectories: ReadonlyMap<string, Rollout>;
  /** Case-specific tokens of feedback cases: token → case id ({@link caseSpecificTokens}). */
  caseTokens: ReadonlyMap<string, string>;
  maxEdits: number;
  maxAddedChars: number;
}

/** One edit's verdict. */
export interface EditVerdict {
  index: number;
  ok: boolean;
  reasons: string[];
}

/** The patch's verdict. */
export interface PatchCheck {
  ok: boolean;
  /** The candidate text (the parent's when rejected). */
  text: string;
  /**
   * The text the edits produce when they apply, also when a check rejected the patch (absent when
   * they do not apply): what the rejected candidate would have been, for its own hash.
   */
  appliedText?: string;
  edits: EditVerdict[];
  /** First reason, prefixed with the edit index (absent when ok). */
  reason?: string;
}

const ID_TOKEN = /[A-Za-z0-9_.@+-]*[0-9][A-Za-z0-9_.@+-]*/g;
const NAME_TOKEN = /\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)+\b/g;
const EMAIL = /[A-Za-z0-9_.+-]+@[A-Za-z0-9-]+\.[A-Za-z0-9.-]+/g;

/**
 * Case-specific tokens of cases: ids and amounts (ASCII tokens with a digit, at least 2
 * characters, trailing dots trimmed), e-mail addresses and capitalised multi-word names.
 * Returns token → the first case id it came from.
 */
export function caseSpecificTokens(cases: readonly SuiteCase[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of cases) {
    for (const text of c.inputs) {
      for (const re of [ID_TOKEN, EMAIL, NAME_TOKEN]) {
        for (const m of text.matchAll(re)) {
          const t = m[0].replace(/[.\-+]+$/, '');
          if (t.length >= 2 && !out.has(t)) out.set(t, c.id);
        }
      }
    }
  }
  return out;
}

function checkEdit(e: ProposedEdit, index: number, ctx: EditCheckContext, clauses: ReturnType<typeof parseClauses>): EditVerdict {
  const reasons: string[] = [];
  if (!(INTENTS as readonly string[]).includes(e.intent)) reasons.push(`intent '${e.intent}' is not one of ${INTENTS.join(', ')}`);
  const named = clauses.find((c) => c.id === e.clause);
  if (!named) reasons.push(`clause '${e.clause}' does not exist in the prompt`);
  const at = ctx.parentPrompt.indexOf(e.old_str);
  if (e.old_str !== '' && at >= 0 && ctx.parentPrompt.indexOf(e.old_str, at + 1) < 0) {
    const touched = clausesTouched(clauses, at, at + e.old_str.length);
    if (named && !touched.includes(named)) reasons.push(`old_str lies in clause(s) ${touched.map((c) => c.id).join(', ')}, not in the named clause ${e.clause}`);
    const ro = touched.filter((c) => c.readonly);
    if (ro.length) reasons.push(`old_str touches read-only policy clause(s) ${ro.map((c) => c.id).join(', ')}`);
  }
  if (e.source_cases.length === 0) reasons.push('no source cases cited');
  for (const id of e.source_cases) if (!ctx.feedbackCaseIds.has(id)) reasons.push(`source case '${id}' is not a feedback case`);
  if (e.evidence.length === 0) reasons.push('no evidence quotes');
  for (const ev of e.evidence) {
    if (!e.source_cases.includes(ev.case_id)) reasons.push(`evidence cites case '${ev.case_id}', which is not among the edit's source cases`);
    const r = ctx.trajectories.get(`${ev.case_id}#${ev.trial}`);
    if (!r) reasons.push(`evidence cites ${ev.case_id} trial ${ev.trial}, which has no trajectory the proposer saw`);
    else if (!quoteOccurs(ev.quote, r.messages)) reasons.push(`evidence quote ${JSON.stringify(ev.quote)} does not occur in the trajectory of ${ev.case_id} trial ${ev.trial}`);
  }
  for (const [token, caseId] of ctx.caseTokens) {
    if (e.new_str.includes(token) && !ctx.parentPrompt.includes(token)) reasons.push(`new_str copies the case-specific token '${token}' from feedback case ${caseId}`);
  }
  return { index, ok: reasons.length === 0, reasons };
}

/** Checks and applies a proposed patch; see the module doc. Never throws. */
export function checkPatch(edits: readonly ProposedEdit[], ctx: EditCheckContext): PatchCheck {
  const reject = (reason: string, verdicts: EditVerdict[] = []): PatchCheck => ({ ok: false, text: ctx.parentPrompt, edits: verdicts, reason });
  if (edits.length === 0) return reject('the patch has no edits');
  if (edits.length > ctx.maxEdits) return reject(`the patch has ${edits.length} edits; at most ${ctx.maxEdits} are allowed`);
  const clauses = parseClauses(ctx.parentPrompt);
  const verdicts = edits.map((e, i) => checkEdit(e, i, ctx, clauses));
  const applied = applyEdits(ctx.parentPrompt, edits.map((e) => ({ old_str: e.old_str, new_str: e.new_str })));
  for (const o of applied.edits) if (!o.ok && o.reason) verdicts[o.index].reasons.push(o.reason);
  if (!applied.ok && applied.edits.length === 0 && applied.reason) verdicts.forEach((v) => v.reasons.push(applied.reason!));
  if (!applied.ok && applied.edits.every((o) => o.ok)) verdicts.forEach((v) => v.reasons.push(applied.reason ?? 'the patch does not apply'));
  for (const v of verdicts) v.ok = v.reasons.length === 0;
  const bad = verdicts.find((v) => !v.ok);
  const withText = (c: PatchCheck): PatchCheck => (applied.ok ? { ...c, appliedText: applied.text } : c);
  if (bad) return withText(reject(`edit ${bad.index}: ${bad.reasons[0]}`, verdicts));
  const added = codePoints(applied.text) - codePoints(ctx.parentPrompt);
  if (added > ctx.maxAddedChars) return withText(reject(`the patch adds ${added} characters; at most ${ctx.maxAddedChars} are allowed`, verdicts));
  return { ok: true, text: applied.text, edits: verdicts };
}
