/**
 * The servicegym check registry: an explicit map from check kind to its function. `nl` checks
 * are judged in one batch by the composer and arrive here as verdicts.
 */
import type { Check } from '../../spec/task.js';
import { communicateCheck } from '../communicate.js';
import { quote } from '../evidence.js';
import type { NlVerdict } from '../nl.js';
import type { CheckResult } from '../types.js';
import { checkConfirmationBeforeWrite } from './confirmation.js';
import { checkOrder, checkToolCalls } from './calls.js';
import type { CheckContext, CheckOf } from './context.js';
import { checkDbDelta, checkDbGold, checkFieldIn, checkStateCount, checkUnchanged } from './db.js';
import { checkNoExtraWrites } from './writes.js';
import { checkStatedAmount, checkTranscript } from './transcript.js';

export type { CheckContext, CheckOf } from './context.js';

type SyncKind = Exclude<Check['kind'], 'nl'>;

/** Each deterministic check kind's function. */
export const checkFunctions: { [K in SyncKind]: (check: CheckOf<K>, ctx: CheckContext<any>) => CheckResult } = {
  db_gold: checkDbGold,
  unchanged: checkUnchanged,
  field_in: checkFieldIn,
  state_count: checkStateCount,
  db_delta: checkDbDelta,
  no_extra_writes: checkNoExtraWrites,
  tool_calls: checkToolCalls,
  order: checkOrder,
  confirmation_before_write: checkConfirmationBeforeWrite,
  transcript: checkTranscript,
  stated_amount: checkStatedAmount,
  communicate: (check, ctx) => communicateCheck(check.id, check.kind, check.info, ctx.trace.messages),
};

/**
 * Check kinds whose result is a function of the task's start, gold and final states alone (not of
 * the trajectory): the composer computes them once per task for episodes that wrote nothing.
 */
export const stateOnlyCheckKinds: ReadonlySet<Check['kind']> = new Set<SyncKind>(['db_gold', 'unchanged', 'field_in', 'state_count', 'db_delta']);

/** An `nl` check's row from its judge verdict: evidence `"assertion": reason`. */
export function nlCheckResult(check: CheckOf<'nl'>, v: NlVerdict): CheckResult {
  return { id: check.id, kind: check.kind, verdict: v.verdict, evidence: `${quote(v.assertion)}: ${v.reason}` };
}

/** Whether a persona id (`impatient`, or a combination `vague+off-policy`) is one of `personas` or contains one. */
export function personaApplies(personas: readonly string[], persona: string | undefined): boolean {
  return persona !== undefined && persona.split('+').some((p) => personas.includes(p));
}

/**
 * Evaluates one servicegym check; a check limited to `personas` passes as not applicable in other
 * episodes. `nl` checks take their verdict from `nl` (the batch judged by
 * the composer); a missing verdict is `not_judged`. Throws BadInputError for an invalid regex.
 */
export function runCheck(check: Check, ctx: CheckContext<any>, nl: ReadonlyMap<string, NlVerdict>): CheckResult {
  if (check.personas && !personaApplies(check.personas, ctx.persona)) {
    const who = ctx.persona === undefined ? 'no persona' : `persona ${ctx.persona}`;
    return { id: check.id, kind: check.kind, verdict: 'pass', evidence: `not applicable: ${who} (only for ${check.personas.join(', ')})` };
  }
  if (check.kind === 'nl') {
    return nlCheckResult(check, nl.get(check.id) ?? { assertion: check.assertion, verdict: 'not_judged', reason: 'not sent to the judge' });
  }
  const fn = checkFunctions[check.kind] as (c: Check, x: CheckContext<any>) => CheckResult;
  return fn(check, ctx);
}
