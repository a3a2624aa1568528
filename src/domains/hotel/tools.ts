/**
 * The hotel back-end's tools (property-management system): guest and reservation look-ups, rate
 * plans and availability, date changes, cancellations, folio charges, refunds and card charges.
 * The system reprices nights and keeps totals and balances; penalties and refunds are posted by
 * the agent per the policy (data/hotel_policy.md), as at a real front desk.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { stayDates } from './rules.js';
import { CHARGE_CODES } from './schema.js';
import { centsArg, guestIdArg, isoDateArg, must, priceNight, rateKey, reservationIdArg, settle, type HotelDb, type HotelTool } from './tools-common.js';

export const findGuests: HotelTool<{ last_name: string; first_name?: string; email?: string }> = {
  name: 'find_guests',
  description: 'Find guest profiles by last name, optionally narrowed by first name or email (case-insensitive). Returns a list of {guest_id, first_name, last_name, email, loyalty_tier}.',
  parameters: z.strictObject({ last_name: z.string().min(1), first_name: z.string().optional(), email: z.string().optional() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ last_name, first_name, email }, { state }) =>
    state.ids('guests').map((id) => state.get('guests', id)!).filter((g) => g.last_name.toLowerCase() === last_name.trim().toLowerCase() && (!first_name || g.first_name.toLowerCase() === first_name.trim().toLowerCase()) && (!email || g.email.toLowerCase() === email.trim().toLowerCase()))
      .map((g) => ({ guest_id: g.guest_id, first_name: g.first_name, last_name: g.last_name, email: g.email, loyalty_tier: g.loyalty_tier })),
};

export const getGuest: HotelTool<{ guest_id: string }> = {
  name: 'get_guest',
  description: "Get a guest profile: contact details, loyalty tier, cards on file (payment_id, brand, last four digits) and reservation numbers.",
  parameters: z.strictObject({ guest_id: guestIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ guest_id }, { state }) => must(state, 'guests', guest_id, 'Guest'),
};

export const getReservation: HotelTool<{ reservation_id: string }> = {
  name: 'get_reservation',
  description: 'Get a reservation: guest, property, room type, rate plan, dates, status, nights (rate_cents and tax_cents each), folio charges, payments (card payment_id, charge or refund), total_cents and balance_cents (positive: the hotel owes the guest).',
  parameters: z.strictObject({ reservation_id: reservationIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ reservation_id }, { state }) => must(state, 'reservations', reservation_id, 'Reservation'),
};

export const getRatePlan: HotelTool<{ rate_plan_id: string }> = {
  name: 'get_rate_plan',
  description: 'Get a rate plan: whether it is prepaid, and its change rule (free_until_hours before arrival, the penalty inside that window, whether dates may change).',
  parameters: z.strictObject({ rate_plan_id: z.string() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ rate_plan_id }, { state }) => must(state, 'rate_plans', rate_plan_id, 'Rate plan'),
};

export const getProperty: HotelTool<{ property_id: string }> = {
  name: 'get_property',
  description: 'Get a property: name, city, check-in time (arrival for the policy hour counts), occupancy tax in basis points (1475 = 14.75%), room types.',
  parameters: z.strictObject({ property_id: z.string() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ property_id }, { state }) => must(state, 'properties', property_id, 'Property'),
};

export const checkAvailability: HotelTool<{ property_id: string; room_type: string; rate_plan_id: string; check_in: string; check_out: string }> = {
  name: 'check_availability',
  description: 'Nightly rates and rooms left for a room type and rate plan between check_in (first night) and check_out (departure day, not a night). Returns a list of {date, rate_cents, rooms_left}; a night without a rate is reported with rate_cents null.',
  parameters: z.strictObject({ property_id: z.string(), room_type: z.string(), rate_plan_id: z.string(), check_in: isoDateArg, check_out: isoDateArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ property_id, room_type, rate_plan_id, check_in, check_out }, { state }) => {
    must(state, 'properties', property_id, 'Property');
    const dates = stayDates(check_in, check_out);
    if (dates.length === 0) throw new ToolError('check_out must be after check_in');
    return dates.map((date) => {
      const r = state.get('rates', rateKey(property_id, room_type, rate_plan_id, date));
      return { date, rate_cents: r?.rate_cents ?? null, rooms_left: r?.rooms_left ?? 0 };
    });
  },
};

/** Moves one room of inventory for each date (`delta` −1 to take, +1 to release). */
function moveInventory(db: HotelDb, r: { property_id: string; room_type: string; rate_plan_id: string }, dates: string[], delta: number): void {
  for (const d of dates) {
    const key = rateKey(r.property_id, r.room_type, r.rate_plan_id, d);
    if (db.has('rates', key)) db.mut('rates', key).rooms_left += delta;
  }
}

export const changeStayDates: HotelTool<{ reservation_id: string; check_in: string; check_out: string }> = {
  name: 'change_stay_dates',
  description: 'Change the dates of a confirmed reservation. Nights kept keep their booked rate; added nights are priced at the current rate. Recomputes total_cents and balance_cents; does NOT post penalties or move money (use post_charge, refund_payment or charge_card). Refused for rate plans that do not allow date changes and for sold-out nights.',
  parameters: z.strictObject({ reservation_id: reservationIdArg, check_in: isoDateArg, check_out: isoDateArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ reservation_id, check_in, check_out }, { state }) => {
    const r = must(state, 'reservations', reservation_id, 'Reservation');
    if (r.status !== 'confirmed') throw new ToolError(`Reservation ${reservation_id} is ${r.status}`);
    const plan = must(state, 'rate_plans', r.rate_plan_id, 'Rate plan');
    if (!plan.change_rule.changeable) throw new ToolError(`Rate plan ${plan.rate_plan_id} (${plan.name}) does not allow date changes`);
    const dates = stayDates(check_in, check_out);
    if (dates.length === 0) throw new ToolError('check_out must be after check_in');
    const kept = new Map(r.nights.map((n) => [n.date, n]));
    const nights = dates.map((d) => kept.get(d) ?? priceNight(state, r, d));
    const added = dates.filter((d) => !kept.has(d));
    const removed = r.nights.map((n) => n.date).filter((d) => !dates.includes(d));
    moveInventory(state, r, added, -1);
    moveInventory(state, r, removed, +1);
    const m = state.mut('reservations', reservation_id);
    Object.assign(m, { check_in, check_out, nights });
    return settle(m);
  },
};

export const cancelReservation: HotelTool<{ reservation_id: string }> = {
  name: 'cancel_reservation',
  description: 'Cancel a confirmed reservation: all nights are released and the total becomes the folio charges only. Does NOT post a penalty or refund anything (use post_charge and refund_payment).',
  parameters: z.strictObject({ reservation_id: reservationIdArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ reservation_id }, { state }) => {
    const r = must(state, 'reservations', reservation_id, 'Reservation');
    if (r.status !== 'confirmed') throw new ToolError(`Reservation ${reservation_id} is ${r.status}`);
    moveInventory(state, r, r.nights.map((n) => n.date), +1);
    const m = state.mut('reservations', reservation_id);
    m.status = 'cancelled';
    m.nights = [];
    return settle(m);
  },
};

const CHARGE_TEXT: Record<(typeof CHARGE_CODES)[number], string> = {
  EARLY_DEPARTURE: 'Early departure penalty',
  CANCELLATION: 'Cancellation penalty',
  LATE_CHECKOUT: 'Late check-out',
  ROOM_UPGRADE: 'Room upgrade',
};

export const postCharge: HotelTool<{ reservation_id: string; code: (typeof CHARGE_CODES)[number]; amount_cents: number }> = {
  name: 'post_charge',
  description: 'Post a charge to the reservation folio: code EARLY_DEPARTURE (nights removed inside the change window), CANCELLATION, LATE_CHECKOUT or ROOM_UPGRADE, amount in cents. Adds to total_cents; does not charge a card.',
  parameters: z.strictObject({ reservation_id: reservationIdArg, code: z.enum(CHARGE_CODES), amount_cents: centsArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ reservation_id, code, amount_cents }, { state, now }) => {
    must(state, 'reservations', reservation_id, 'Reservation');
    const m = state.mut('reservations', reservation_id);
    m.charges.push({ charge_id: `${reservation_id}-C${m.charges.length + 1}`, code, description: CHARGE_TEXT[code], amount_cents, posted_at: now });
    return settle(m);
  },
};

/** The guest's card `payment_id`, or a tool error. */
function cardOf(db: HotelDb, guestId: string, paymentId: string) {
  const card = must(db, 'guests', guestId, 'Guest').cards.find((c) => c.payment_id === paymentId);
  if (!card) throw new ToolError(`Card ${paymentId} is not on file for guest ${guestId}`);
  return card;
}

export const refundPayment: HotelTool<{ reservation_id: string; payment_id: string; amount_cents: number }> = {
  name: 'refund_payment',
  description: "Refund an amount to one of the guest's cards on file (payment_id). Refused when the amount is more than the reservation's balance owed to the guest.",
  parameters: z.strictObject({ reservation_id: reservationIdArg, payment_id: z.string(), amount_cents: centsArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ reservation_id, payment_id, amount_cents }, { state, now }) => {
    const r = must(state, 'reservations', reservation_id, 'Reservation');
    cardOf(state, r.guest_id, payment_id);
    if (amount_cents > r.balance_cents) throw new ToolError(`Refund of ${amount_cents} cents exceeds the balance owed to the guest (${Math.max(0, r.balance_cents)} cents)`);
    const m = state.mut('reservations', reservation_id);
    m.payments.push({ payment_id, kind: 'refund', amount_cents, at: now });
    return settle(m);
  },
};

export const chargeCard: HotelTool<{ reservation_id: string; payment_id: string; amount_cents: number }> = {
  name: 'charge_card',
  description: "Charge an amount to one of the guest's cards on file (payment_id) against the reservation, e.g. for nights added to a prepaid stay. Refused when it exceeds what the guest owes.",
  parameters: z.strictObject({ reservation_id: reservationIdArg, payment_id: z.string(), amount_cents: centsArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ reservation_id, payment_id, amount_cents }, { state, now }) => {
    const r = must(state, 'reservations', reservation_id, 'Reservation');
    cardOf(state, r.guest_id, payment_id);
    if (amount_cents > -r.balance_cents) throw new ToolError(`Charge of ${amount_cents} cents exceeds what the guest owes (${Math.max(0, -r.balance_cents)} cents)`);
    const m = state.mut('reservations', reservation_id);
    m.payments.push({ payment_id, kind: 'charge', amount_cents, at: now });
    return settle(m);
  },
};

/** The hotel tools in the order the agent sees them (without the generic ones). */
export const hotelTools: HotelTool[] = [findGuests, getGuest, getReservation, getRatePlan, getProperty, checkAvailability, changeStayDates, cancelReservation, postCharge, refundPayment, chargeCard];

