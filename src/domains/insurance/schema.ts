/**
 * The auto-insurance back-end's state (servicegym's own domain; seed task T10): policyholders,
 * personal auto policies with their six-month term, vehicles with per-coverage term premiums,
 * listed drivers, and endorsements (mid-term changes with their pro-rata premium). Money in
 * integer cents (USD); dates ISO `YYYY-MM-DD`, US Central time.
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD');
const cents = z.number().int();

export const RELATIONSHIPS = ['named_insured', 'spouse', 'child', 'other_household'] as const;
export const LICENCE_STATUSES = ['permit', 'licensed', 'suspended', 'none'] as const;
export const COVERAGES = ['liability', 'collision', 'comprehensive', 'uninsured_motorist'] as const;

export const HolderSchema = z.strictObject({
  customer_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: isoDate,
  zip: z.string().regex(/^\d{5}$/),
  phone: z.string(),
  email: z.string(),
  policy_ids: z.array(z.string()),
});
export type Holder = z.infer<typeof HolderSchema>;

export const DriverSchema = z.strictObject({
  driver_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: isoDate,
  relationship: z.enum(RELATIONSHIPS),
  licence_status: z.enum(LICENCE_STATUSES),
  /** Date the current credential (permit or licence) was issued. */
  licence_date: isoDate.nullable(),
  /** Driver added from (endorsement effective date; term start for original drivers). */
  effective_date: isoDate,
  /** Removed from this date, or null. */
  removed_date: isoDate.nullable(),
});
export type Driver = z.infer<typeof DriverSchema>;

export const VehicleSchema = z.strictObject({
  vehicle_id: z.string(),
  year: z.number().int(),
  make: z.string(),
  model: z.string(),
  /** Full-term premium per coverage carried, in cents. */
  premiums: z.partialRecord(z.enum(COVERAGES), cents),
});
export type Vehicle = z.infer<typeof VehicleSchema>;

export const EndorsementSchema = z.strictObject({
  endorsement_id: z.string(),
  kind: z.enum(['add_driver', 'remove_driver']),
  driver_id: z.string(),
  effective_date: isoDate,
  /** Positive: additional premium charged; negative: premium returned. */
  premium_change_cents: cents,
});
export type Endorsement = z.infer<typeof EndorsementSchema>;

export const PolicySchema = z.strictObject({
  policy_id: z.string(),
  customer_id: z.string(),
  status: z.enum(['active', 'cancelled', 'expired']),
  term_start: isoDate,
  term_end: isoDate,
  /** Coverages and limits as written; an endorsement adding a driver never changes them. */
  coverages: z.partialRecord(z.enum(COVERAGES), z.string()),
  vehicles: z.array(VehicleSchema),
  drivers: z.array(DriverSchema),
  endorsements: z.array(EndorsementSchema),
  /** Written premium for the term: the vehicles' term premiums plus every endorsement's change. */
  term_premium_cents: cents,
});
export type Policy = z.infer<typeof PolicySchema>;

export const InsuranceStateSchema = z.strictObject({
  holders: z.record(z.string(), HolderSchema),
  policies: z.record(z.string(), PolicySchema),
});
export type InsuranceState = z.infer<typeof InsuranceStateSchema>;
