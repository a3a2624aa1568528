/**
 * The hotel policy's formulas (src/domains/hotel/rules.ts, data/hotel_policy.md) with the policy's
 * worked examples and seed task T09's numbers, in cents.
 */
import { describe, expect, it } from 'vitest';
import { hotelRules } from '../../../src/domains/hotel/index.js';

const { nightTaxCents, stayDates, hoursBeforeArrival, removalPenaltyCents, reservationTotalCents, balanceCents } = hotelRules;
const FLEX = { change_rule: { free_until_hours: 48, penalty: 'first_night' as const, changeable: true } };
const SEMI = { change_rule: { free_until_hours: 72, penalty: 'half_removed' as const, changeable: true } };
const ADV = { change_rule: { free_until_hours: 8760, penalty: 'all_removed' as const, changeable: false } };
const sea = (rate: number) => ({ rate_cents: rate, tax_cents: nightTaxCents(rate, 1475) });

describe('policy 2.1: nightly tax rounded half up', () => {
  it('gives the policy examples', () => {
    expect(nightTaxCents(24_900, 1475)).toBe(3673); // 3672.75
    expect(nightTaxCents(21_900, 1475)).toBe(3230); // 3230.25
    expect(nightTaxCents(18_900, 1350)).toBe(2552); // 2551.5
    expect(nightTaxCents(20_900, 1350)).toBe(2822); // 2821.5
  });
});

describe('policy 3: hours to arrival and penalties', () => {
  it('counts whole hours to the 15:00 arrival (T09: 36)', () => {
    expect(hoursBeforeArrival('2026-10-19T03:00:00', '2026-10-20', { check_in_time: '15:00' })).toBe(36);
    expect(hoursBeforeArrival('2026-10-19T03:00:00', '2026-10-21', { check_in_time: '15:00' })).toBe(60);
    expect(hoursBeforeArrival('2026-10-19T03:30:00', '2026-10-21', { check_in_time: '15:00' })).toBe(59);
  });
  it('T09: the first removed night with tax inside 48 hours; nothing at or beyond the window', () => {
    const removed = [sea(24_900), sea(27_900)];
    expect(removalPenaltyCents(FLEX, 36, removed)).toBe(28_573);
    expect(removalPenaltyCents(FLEX, 48, removed)).toBe(0);
  });
  it('SEMI-PP: half of $199.99 rounds half up to $100.00; ADV-NR keeps every night', () => {
    expect(removalPenaltyCents(SEMI, 60, [sea(19_999)])).toBe(10_000);
    expect(removalPenaltyCents(ADV, 200, [sea(21_900), sea(24_900)])).toBe(25_130 + 28_573);
  });
  it('T09 totals: $1,108.48 paid, new total $788.33, $320.15 to refund', () => {
    const nights = stayDates('2026-10-20', '2026-10-24').map((date, i) => ({ date, ...sea([21_900, 21_900, 24_900, 27_900][i]) }));
    const payments = [{ payment_id: 'card_8191', kind: 'charge' as const, amount_cents: reservationTotalCents({ nights, charges: [] }), at: 'x' }];
    expect(payments[0].amount_cents).toBe(110_848);
    const after = { nights: nights.slice(0, 2), charges: [{ charge_id: 'c', code: 'EARLY_DEPARTURE' as const, description: '', amount_cents: 28_573, posted_at: 'x' }], payments };
    expect(reservationTotalCents(after)).toBe(78_833);
    expect(balanceCents(after)).toBe(32_015);
  });
});
