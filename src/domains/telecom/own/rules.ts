/**
 * The Kestrel Mobile policy's rules (`data/kestrel_policy.md`) as pure functions over plain
 * records. Money in integer cents, dates ISO `YYYY-MM-DD`. The tools do not enforce them (the
 * agent must apply the policy); the task notes and the tests use them to state gold outcomes.
 */
import type { Bill, Line, Plan } from './schema.js';

/** Policy 5.2: at most one plan change per line in any 30 days. */
export const PLAN_CHANGE_MIN_DAYS = 30;
/** Policy 7.2: at most 5 GB of top-ups per line per cycle. */
export const TOPUP_MAX_GB_PER_CYCLE = 5;

/** Whole calendar days from ISO date `from` to ISO date `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** ISO date `days` calendar days after `date`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** `$12.50` for 1250 cents (negative amounts `-$3.00`). */
export function dollars(cents: number): string {
  const abs = Math.abs(cents);
  return `${cents < 0 ? '-' : ''}$${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Policy 0 and 6.1: a bill is overdue when its status says so (the billing system marks it the day after the due date). */
export const isOverdue = (b: Pick<Bill, 'status'>): boolean => b.status === 'overdue';

/** Why a roaming pass may not be added (empty: it may). */
export type PassRefusal = 'line_not_active' | 'plan_not_eligible' | 'overdue_bill';

/**
 * Policy 4.2: a pass may be added to a line only when (a) the line is active, (b) the line's plan
 * lists the pass among its eligible passes and (c) the customer has no overdue bill. Returns every
 * reason that fails, in that order. Example: the Travel plan lists RP-EU7, no overdue bill → [].
 */
export function passRefusals(line: Pick<Line, 'status'>, plan: Pick<Plan, 'eligible_passes'>, passId: string, bills: readonly Pick<Bill, 'status'>[]): PassRefusal[] {
  const out: PassRefusal[] = [];
  if (line.status !== 'active') out.push('line_not_active');
  if (!plan.eligible_passes.includes(passId)) out.push('plan_not_eligible');
  if (bills.some(isOverdue)) out.push('overdue_bill');
  return out;
}

/** Why a plan change may not be made (empty: it may). */
export type PlanChangeRefusal = 'line_not_active' | 'overdue_bill' | 'changed_recently' | 'downgrade_under_contract';

/**
 * Policy 5.1-5.3: a line may change plan when it is active, the customer has no overdue bill, its
 * last change was at least 30 days before `today` (day 30 allowed), and — while a device-payment
 * contract runs (`contract_end_on` after `today`) — the new plan's monthly price is not lower.
 * Example: last change 2026-10-20, today 2026-11-12 → 23 days → `changed_recently`.
 */
export function planChangeRefusals(
  line: Pick<Line, 'status' | 'last_plan_change_on' | 'contract_end_on'>,
  from: Pick<Plan, 'monthly_price_cents'>,
  to: Pick<Plan, 'monthly_price_cents'>,
  bills: readonly Pick<Bill, 'status'>[],
  today: string,
): PlanChangeRefusal[] {
  const out: PlanChangeRefusal[] = [];
  if (line.status !== 'active') out.push('line_not_active');
  if (bills.some(isOverdue)) out.push('overdue_bill');
  if (line.last_plan_change_on !== null && daysBetween(line.last_plan_change_on, today) < PLAN_CHANGE_MIN_DAYS) out.push('changed_recently');
  if (line.contract_end_on !== null && line.contract_end_on > today && to.monthly_price_cents < from.monthly_price_cents) out.push('downgrade_under_contract');
  return out;
}

/**
 * Policy 6.2: a line suspended for non-payment may be resumed only when none of the customer's
 * bills is overdue or awaiting payment; a line suspended at the customer's request may be resumed
 * on request; a line suspended as lost or stolen may not be resumed by phone (transfer, 8.1).
 */
export function mayResume(line: Pick<Line, 'status' | 'suspension_reason'>, bills: readonly Pick<Bill, 'status'>[]): boolean {
  if (line.status !== 'suspended') return false;
  if (line.suspension_reason === 'lost_or_stolen') return false;
  if (line.suspension_reason === 'non_payment') return !bills.some((b) => b.status === 'overdue' || b.status === 'awaiting_payment');
  return true;
}

/** Policy 7.1-7.2: the charge for a top-up of `gb` GB (cents), or null when it would pass 5 GB this cycle. */
export function topupChargeCents(plan: Pick<Plan, 'topup_price_per_gb_cents'>, alreadyGb: number, gb: number): number | null {
  if (!Number.isInteger(gb) || gb <= 0 || alreadyGb + gb > TOPUP_MAX_GB_PER_CYCLE) return null;
  return gb * plan.topup_price_per_gb_cents;
}
