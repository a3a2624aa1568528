/**
 * The hotel back-end's state (servicegym's own domain; seed task T09): guests with cards on
 * file, properties with their tax rate and check-in time, rate plans with their change rules,
 * nightly rates and availability, and reservations with their nights, folio charges and payments.
 * Money in integer cents (USD); dates ISO `YYYY-MM-DD`; times ISO `YYYY-MM-DDTHH:MM:SS` in the
 * property's local time (all properties are on US Pacific time).
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD');
const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'an ISO time YYYY-MM-DDTHH:MM:SS');
const cents = z.number().int();

export const LOYALTY_TIERS = ['Member', 'Silver', 'Gold'] as const;
export const CHARGE_CODES = ['EARLY_DEPARTURE', 'CANCELLATION', 'LATE_CHECKOUT', 'ROOM_UPGRADE'] as const;

export const CardOnFileSchema = z.strictObject({ payment_id: z.string(), brand: z.enum(['Visa', 'Mastercard', 'Amex']), last4: z.string().regex(/^\d{4}$/) });

export const GuestSchema = z.strictObject({
  guest_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string(),
  loyalty_tier: z.enum(LOYALTY_TIERS),
  cards: z.array(CardOnFileSchema),
  reservation_ids: z.array(z.string()),
});
export type Guest = z.infer<typeof GuestSchema>;

export const PropertySchema = z.strictObject({
  property_id: z.string(),
  name: z.string(),
  city: z.string(),
  /** Check-in time, `HH:MM`, local: "arrival" in the policy's hour counts. */
  check_in_time: z.string().regex(/^\d{2}:\d{2}$/),
  /** Occupancy tax in basis points (1475 = 14.75%). */
  tax_bp: z.number().int().nonnegative(),
  room_types: z.record(z.string(), z.strictObject({ name: z.string(), max_occupancy: z.number().int().positive() })),
});
export type Property = z.infer<typeof PropertySchema>;

/** How a rate plan treats removed nights (data/hotel_policy.md section 3). */
export const ChangeRuleSchema = z.strictObject({
  /** Removing nights is free until this many hours before arrival. */
  free_until_hours: z.number().int().nonnegative(),
  /** Inside that window: `first_night` — the first removed night's rate plus tax; `half_removed` — 50% of the removed nights' rates (no tax); `all_removed` — every removed night with tax (non-refundable). */
  penalty: z.enum(['first_night', 'half_removed', 'all_removed']),
  /** Whether dates may be changed at all (advance purchase: no). */
  changeable: z.boolean(),
});

export const RatePlanSchema = z.strictObject({
  rate_plan_id: z.string(),
  name: z.string(),
  /** Prepaid plans are charged in full at booking; the others at check-out. */
  prepaid: z.boolean(),
  change_rule: ChangeRuleSchema,
});
export type RatePlan = z.infer<typeof RatePlanSchema>;

export const NightlyRateSchema = z.strictObject({
  property_id: z.string(),
  room_type: z.string(),
  rate_plan_id: z.string(),
  date: isoDate,
  rate_cents: cents,
  rooms_left: z.number().int().nonnegative(),
});
export type NightlyRate = z.infer<typeof NightlyRateSchema>;

export const NightSchema = z.strictObject({ date: isoDate, rate_cents: cents, tax_cents: cents });
export const ChargeSchema = z.strictObject({ charge_id: z.string(), code: z.enum(CHARGE_CODES), description: z.string(), amount_cents: cents, posted_at: isoTime });
export const PaymentSchema = z.strictObject({ payment_id: z.string(), kind: z.enum(['charge', 'refund']), amount_cents: cents, at: isoTime });

export const ReservationSchema = z.strictObject({
  reservation_id: z.string(),
  guest_id: z.string(),
  property_id: z.string(),
  room_type: z.string(),
  rate_plan_id: z.string(),
  check_in: isoDate,
  check_out: isoDate,
  adults: z.number().int().positive(),
  status: z.enum(['confirmed', 'cancelled', 'checked_in', 'checked_out']),
  nights: z.array(NightSchema),
  charges: z.array(ChargeSchema),
  payments: z.array(PaymentSchema),
  /** Σ nights (rate + tax) + Σ charges. */
  total_cents: cents,
  /** Σ payments (charges minus refunds) − total: positive means the hotel owes the guest. */
  balance_cents: cents,
});
export type Reservation = z.infer<typeof ReservationSchema>;

export const HotelStateSchema = z.strictObject({
  guests: z.record(z.string(), GuestSchema),
  properties: z.record(z.string(), PropertySchema),
  rate_plans: z.record(z.string(), RatePlanSchema),
  rates: z.record(z.string(), NightlyRateSchema),
  reservations: z.record(z.string(), ReservationSchema),
});
export type HotelState = z.infer<typeof HotelStateSchema>;
