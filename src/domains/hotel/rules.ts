/**
 * The hotel policy's formulas (data/hotel_policy.md), pure. Money in integer cents, dates ISO.
 * Tools apply the arithmetic the property-management system does itself (nightly tax, totals,
 * balances); penalties and refunds are the agent's to compute and post, as at a real front desk.
 */
import type { Property, RatePlan, Reservation } from './schema.js';

/** Policy 2.1: the occupancy tax of one night, `rate × tax_bp / 10000`, rounded half up to the cent. Example: $249.00 at 14.75% → 3672.75 → $36.73. */
export function nightTaxCents(rateCents: number, taxBp: number): number {
  return Math.floor((rateCents * taxBp + 5_000) / 10_000);
}

/** The nights of a stay from `checkIn` (included) to `checkOut` (excluded), as ISO dates. */
export function stayDates(checkIn: string, checkOut: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${checkIn}T00:00:00Z`); t < Date.parse(`${checkOut}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Policy 3.1: hours from `now` to arrival (the check-in date at the property's check-in time), rounded down. */
export function hoursBeforeArrival(now: string, checkIn: string, property: Pick<Property, 'check_in_time'>): number {
  const arrival = Date.parse(`${checkIn}T${property.check_in_time}:00Z`);
  return Math.floor((arrival - Date.parse(`${now}Z`)) / 3_600_000);
}

/**
 * Policy 3.2-3.4: the penalty for removing `removed` nights (each with rate and tax) under `plan`
 * at `hoursBefore` hours before arrival: 0 outside the plan's window; inside it the first removed
 * night's rate plus tax (`first_night`), 50% of the removed nights' rates rounded half up, no tax
 * (`half_removed`), or every removed night with tax (`all_removed`). Seed task T09 (Flexible
 * Prepaid, 36 hours): the first removed night, $249.00 + $36.73 = $285.73.
 */
export function removalPenaltyCents(plan: Pick<RatePlan, 'change_rule'>, hoursBefore: number, removed: readonly { rate_cents: number; tax_cents: number }[]): number {
  if (removed.length === 0 || hoursBefore >= plan.change_rule.free_until_hours) return 0;
  switch (plan.change_rule.penalty) {
    case 'first_night':
      return removed[0].rate_cents + removed[0].tax_cents;
    case 'half_removed':
      return Math.floor((removed.reduce((s, n) => s + n.rate_cents, 0) + 1) / 2);
    case 'all_removed':
      return removed.reduce((s, n) => s + n.rate_cents + n.tax_cents, 0);
  }
}

/** Σ nights (rate + tax) + Σ charges, in cents. */
export function reservationTotalCents(r: Pick<Reservation, 'nights' | 'charges'>): number {
  return r.nights.reduce((s, n) => s + n.rate_cents + n.tax_cents, 0) + r.charges.reduce((s, c) => s + c.amount_cents, 0);
}

/** Paid (charges − refunds) − total: positive when the hotel owes the guest a refund. */
export function balanceCents(r: Pick<Reservation, 'nights' | 'charges' | 'payments'>): number {
  const paid = r.payments.reduce((s, p) => s + (p.kind === 'charge' ? p.amount_cents : -p.amount_cents), 0);
  return paid - reservationTotalCents(r);
}
