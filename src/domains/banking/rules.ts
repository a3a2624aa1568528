/**
 * The bank policy's formulas (data/bank_policy.md), as pure functions. Money in integer cents,
 * dates ISO `YYYY-MM-DD`. Tools do not enforce these rules (the agent must apply the policy);
 * tasks and tests use them to state gold values.
 */
import type { Account, CustomerTier, DisputeReason } from './types.js';

/** Policy 3.2: a transaction may be disputed up to 60 calendar days after it posted (day 60 included). */
export const DISPUTE_WINDOW_DAYS = 60;
/** Policy 3.5: an account must have been open at least 90 days for provisional credit. */
export const PROVISIONAL_MIN_ACCOUNT_AGE_DAYS = 90;
/** Policy 3.5: the account products that can receive provisional credit on a fraud dispute. */
export const PROVISIONAL_CREDIT_PRODUCTS: readonly Account['product'][] = ['Everyday Checking', 'Premier Checking'];
/** Policy 4.3: expedited card delivery costs $25.00. */
export const EXPEDITED_FEE_CENTS = 2500;
/** Policy 6.1: the foreign transaction fee is 3% of the purchase. */
export const FOREIGN_FEE_PERCENT = 3;

/** Whole calendar days from ISO date `from` to ISO date `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Math.round(ms / 86_400_000);
}

/** ISO date `days` calendar days after `date`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Policy 3.2: whether a transaction posted on `postedOn` can still be disputed on `today`
 * (0..60 days after posting). Example: posted 2026-08-03, today 2026-10-02 → 60 days → open;
 * posted 2026-08-02 → 61 days → closed.
 */
export function disputeWindowOpen(postedOn: string, today: string): boolean {
  const d = daysBetween(postedOn, today);
  return d >= 0 && d <= DISPUTE_WINDOW_DAYS;
}

/**
 * Policy 3.5: provisional credit is due on a `fraud` dispute only for Everyday or Premier
 * Checking accounts opened at least 90 days before `today`. Basic Checking, Student Checking
 * and Savings never receive it (seed task T08: Basic Checking, so none).
 */
export function provisionalCreditAllowed(account: Pick<Account, 'product' | 'opened_on'>, reason: DisputeReason, today: string): boolean {
  return reason === 'fraud' && PROVISIONAL_CREDIT_PRODUCTS.includes(account.product) && daysBetween(account.opened_on, today) >= PROVISIONAL_MIN_ACCOUNT_AGE_DAYS;
}

/**
 * Policy 4.3: the expedited-delivery fee in cents for a customer of `tier` — $25.00 (2500), waived
 * (0) only for the Premier tier; standard delivery is free. Seed task T20: Standard → 2500.
 */
export function replacementFeeCents(delivery: 'standard' | 'expedited', tier: CustomerTier): number {
  if (delivery === 'standard') return 0;
  return tier === 'Premier' ? 0 : EXPEDITED_FEE_CENTS;
}

/**
 * Policy 6.1: the foreign transaction fee on a purchase of `amountCents` (absolute value): 3%,
 * rounded half up to the cent. Example: $299.50 → 898.5 → 899 cents ($8.99).
 */
export function foreignFeeCents(amountCents: number): number {
  return Math.floor((Math.abs(amountCents) * FOREIGN_FEE_PERCENT + 50) / 100);
}

/** `$1,234.56` for cents (negative amounts with a leading minus). */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const dollars = Math.floor(abs / 100).toLocaleString('en-US');
  return `${sign}$${dollars}.${String(abs % 100).padStart(2, '0')}`;
}
