/**
 * The auto policy rules' formulas (data/auto_policy_rules.md), pure. Money in integer cents,
 * dates ISO. The endorsement tools record what the agent computed; tasks and tests state gold
 * values with these functions.
 */
import type { Driver, Vehicle } from './schema.js';

/** Whole calendar days from `from` to `to`. */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Age in whole years on `on` (a birthday counts on the day itself). */
export function ageOn(dateOfBirth: string, on: string): number {
  const [y, m, d] = dateOfBirth.split('-').map(Number);
  const [oy, om, od] = on.split('-').map(Number);
  return oy - y - (om < m || (om === m && od < d) ? 1 : 0);
}

/**
 * Rules 2.1-2.4: who may be listed and how. Returns the licence status to record on the
 * effective date, or the reason the driver cannot be added: under 16 → `under_16`; a suspended or
 * missing credential → `no_valid_credential`.
 */
export function driverEligibility(d: Pick<Driver, 'date_of_birth' | 'licence_status'>, effective: string): { eligible: true; status: 'permit' | 'licensed' } | { eligible: false; reason: 'under_16' | 'no_valid_credential' } {
  if (ageOn(d.date_of_birth, effective) < 16) return { eligible: false, reason: 'under_16' };
  if (d.licence_status === 'permit' || d.licence_status === 'licensed') return { eligible: true, status: d.licence_status };
  return { eligible: false, reason: 'no_valid_credential' };
}

/** Rule 3.1: the youthful-operator surcharge in percent for a licensed driver of `age`; permit holders 0. */
export function surchargePercent(age: number, status: 'permit' | 'licensed'): number {
  if (status === 'permit') return 0;
  if (age <= 17) return 90;
  if (age <= 20) return 60;
  if (age <= 24) return 25;
  return 0;
}

const halfUp = (numerator: number, denominator: number) => Math.floor((2 * numerator + denominator) / (2 * denominator));

/**
 * Rule 3.2: the full-term surcharge on the rated vehicle (the vehicle with the highest liability +
 * collision premium): `percent` of its liability + collision premiums, rounded half up to the cent.
 * Seed T10: 90% × ($412.36 + $298.50) = $639.774 → $639.77.
 */
export function fullTermSurchargeCents(vehicles: readonly Pick<Vehicle, 'premiums'>[], percent: number): number {
  const base = Math.max(0, ...vehicles.map((v) => (v.premiums.liability ?? 0) + (v.premiums.collision ?? 0)));
  return halfUp(base * percent, 100);
}

/**
 * Rule 4.1: the pro-rata share of a full-term amount for the days from `effective` to `termEnd`
 * over the term's days, rounded half up to the cent. Seed T10: $639.77 × 42 / 183 = $146.83.
 */
export function proRataCents(fullTermCents: number, effective: string, termStart: string, termEnd: string): number {
  const sign = fullTermCents < 0 ? -1 : 1;
  return sign * halfUp(Math.abs(fullTermCents) * daysBetween(effective, termEnd), daysBetween(termStart, termEnd));
}
