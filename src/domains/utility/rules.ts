/**
 * The utility policy's rules (data/utility_policy.md), pure: deposit eligibility from payment
 * history, the final-bill date in business days, the prorated basic charge. Cents and ISO dates.
 */
import type { Bill } from './schema.js';

/** Policy 5.2: utility holidays (no bills issued, not business days). */
export const UTILITY_HOLIDAYS = ['2026-09-07', '2026-11-11', '2026-11-26', '2026-12-25', '2027-01-01'];

const t = (d: string) => Date.parse(`${d}T00:00:00Z`);
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (d: string, n: number) => iso(t(d) + n * 86_400_000);

/** The same calendar day `months` months earlier (clamped to the month's end). */
export function monthsBefore(date: string, months: number): string {
  const [y, m, d] = date.split('-').map(Number);
  const idx = y * 12 + (m - 1) - months;
  const yy = Math.floor(idx / 12);
  const mm = (idx % 12) + 1;
  const last = new Date(Date.UTC(yy, mm, 0)).getUTCDate();
  return `${yy}-${String(mm).padStart(2, '0')}-${String(Math.min(d, last)).padStart(2, '0')}`;
}

/** A bill paid late: paid after its due date, or unpaid with its due date before `today`. */
export function isLate(b: Bill, today: string): boolean {
  return b.paid_on === null ? b.due_on < today : b.paid_on > b.due_on;
}

/**
 * Policy 4.1: a deposit moves to the new account only when no bill due in the last 12 months (due
 * date on or after the same day twelve months before `today`) was paid late. Seed T19: one late
 * payment (due 2026-04-15, paid 2026-04-22), so the deposit stays.
 */
export function depositTransferable(bills: readonly Bill[], today: string): boolean {
  const from = monthsBefore(today, 12);
  return !bills.some((b) => b.due_on >= from && b.due_on <= today && isLate(b, today));
}

/** Whether `date` is a business day (Monday-Friday and not a utility holiday). */
export function isBusinessDay(date: string): boolean {
  const dow = new Date(t(date)).getUTCDay();
  return dow !== 0 && dow !== 6 && !UTILITY_HOLIDAYS.includes(date);
}

/**
 * Policy 5.1: the final bill is issued on the 5th business day after the final meter read.
 * Seed T19: read Sunday 2026-11-01 → Mon 2 (1) … Fri 6 (5) → 2026-11-06; a read on 2026-11-06
 * skips Veterans Day (11-11) → 2026-11-16.
 */
export function finalBillDate(readDate: string): string {
  let d = readDate;
  for (let n = 0; n < 5; ) {
    d = addDays(d, 1);
    if (isBusinessDay(d)) n++;
  }
  return d;
}

/**
 * Policy 5.3: the monthly basic charge prorated for `days` of a `monthDays`-day month, rounded half
 * up to the cent. Example: $12.50 for 17 of 31 days → $6.854… → $6.85.
 */
export function proratedBasicChargeCents(monthlyCents: number, days: number, monthDays: number): number {
  return Math.floor((2 * monthlyCents * days + monthDays) / (2 * monthDays));
}
