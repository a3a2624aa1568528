/**
 * The warranty rules of `data/warranty_policy.md` as pure functions: which entitlement covers an
 * asset on a day (policy 1.2: start <= day <= end, both inclusive), and the standard warranty's end
 * (policy 1.1: purchase date plus the product's warranty months, less one day).
 */
import type { Entitlement } from './schema.js';

/** `iso` (YYYY-MM-DD) plus `months` calendar months, less one day (a 12-month warranty from 2026-03-14 ends 2027-03-13). */
export function warrantyEnd(iso: string, months: number): string {
  const [y, m, d] = iso.split('-').map(Number);
  const end = new Date(Date.UTC(y, m - 1 + months, d));
  end.setUTCDate(end.getUTCDate() - 1);
  return end.toISOString().slice(0, 10);
}

/** The entitlement of `entitlements` that covers `day` (policy 1.2), preferring the one that ends last; null when none does. */
export function coveringEntitlement(entitlements: readonly Entitlement[], day: string): Entitlement | null {
  const live = entitlements.filter((e) => e.start_date <= day && day <= e.end_date);
  live.sort((a, b) => (a.end_date < b.end_date ? 1 : a.end_date > b.end_date ? -1 : a.id.localeCompare(b.id)));
  return live[0] ?? null;
}

/** Whether an entitlement is active on `day` (shown as its status in the console). */
export const entitlementStatus = (e: Entitlement, day: string): 'Active' | 'Expired' | 'Not Started' => (day < e.start_date ? 'Not Started' : day > e.end_date ? 'Expired' : 'Active');

/** Cents as dollars, e.g. 14900 -> `$149.00`. */
export const dollars = (cents: number): string => `$${(cents / 100).toFixed(2)}`;
