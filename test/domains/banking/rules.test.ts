/**
 * The bank policy's formulas (src/domains/banking/rules.ts, data/bank_policy.md) with the worked
 * examples the policy states, in cents and ISO dates.
 */
import { describe, expect, it } from 'vitest';
import { bankRules } from '../../../src/domains/banking/index.js';

const { daysBetween, disputeWindowOpen, provisionalCreditAllowed, replacementFeeCents, foreignFeeCents, formatUsd } = bankRules;

describe('policy 3.2: the 60-day dispute window, day 60 included', () => {
  it('counts calendar days', () => {
    expect(daysBetween('2026-08-03', '2026-10-02')).toBe(60);
    expect(daysBetween('2026-07-30', '2026-10-02')).toBe(64);
    expect(daysBetween('2026-10-02', '2026-10-01')).toBe(-1);
  });
  it('is open on day 60 and closed on day 61', () => {
    expect(disputeWindowOpen('2026-08-03', '2026-10-02')).toBe(true);
    expect(disputeWindowOpen('2026-08-02', '2026-10-02')).toBe(false);
    expect(disputeWindowOpen('2026-09-21', '2026-10-02')).toBe(true);
  });
});

describe('policy 3.5: provisional credit', () => {
  it('is due on fraud for Everyday or Premier Checking open 90+ days', () => {
    expect(provisionalCreditAllowed({ product: 'Everyday Checking', opened_on: '2024-05-14' }, 'fraud', '2026-10-02')).toBe(true);
    expect(provisionalCreditAllowed({ product: 'Premier Checking', opened_on: '2026-07-04' }, 'fraud', '2026-10-02')).toBe(true);
  });
  it('is never due on Basic Checking (seed T08), on a young account (74 days) or for a billing error', () => {
    expect(provisionalCreditAllowed({ product: 'Basic Checking', opened_on: '2019-03-02' }, 'fraud', '2026-10-02')).toBe(false);
    expect(provisionalCreditAllowed({ product: 'Premier Checking', opened_on: '2026-07-20' }, 'fraud', '2026-10-02')).toBe(false);
    expect(provisionalCreditAllowed({ product: 'Everyday Checking', opened_on: '2024-05-14' }, 'billing_error', '2026-10-02')).toBe(false);
  });
});

describe('policy 4.3 and 6.1: fees in cents', () => {
  it('charges $25.00 for expedited delivery unless the tier is Premier (seed T20: Standard pays)', () => {
    expect(replacementFeeCents('expedited', 'Standard')).toBe(2500);
    expect(replacementFeeCents('expedited', 'Plus')).toBe(2500);
    expect(replacementFeeCents('expedited', 'Premier')).toBe(0);
    expect(replacementFeeCents('standard', 'Standard')).toBe(0);
  });
  it('rounds the 3% foreign fee half up: $299.50 -> $8.99', () => {
    expect(foreignFeeCents(-29_950)).toBe(899);
    expect(foreignFeeCents(10_050)).toBe(302); // 301.5 -> 302
    expect(foreignFeeCents(1_000)).toBe(30);
    expect(formatUsd(899)).toBe('$8.99');
    expect(formatUsd(-106_418)).toBe('-$1,064.18');
  });
});
