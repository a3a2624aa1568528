/** The utility policy's rules (src/domains/utility/rules.ts) with the policy's examples and seed task T19's dates. */
import { describe, expect, it } from 'vitest';
import { utilityRules } from '../../../src/domains/utility/index.js';
import { monthlyBills } from '../../../src/domains/utility/data/seed-records.js';

const { depositTransferable, finalBillDate, isBusinessDay, monthsBefore, proratedBasicChargeCents } = utilityRules;

describe('policy 4.1: deposits move only with no late payment in 12 months', () => {
  it('T19: the bill due 2026-04-15 paid 2026-04-22 keeps the deposit', () => {
    expect(depositTransferable(monthlyBills('b', [100], { '2026-04-15': '2026-04-22' }), '2026-10-20')).toBe(false);
    expect(depositTransferable(monthlyBills('b', [100]), '2026-10-20')).toBe(true);
  });
  it('counts back to the same calendar day: a late bill due 2025-10-15 is outside on 2026-10-20, inside on 2026-10-15', () => {
    const late = [{ bill_id: 'x', issued_on: '2025-10-01', due_on: '2025-10-15', amount_cents: 1, paid_on: '2025-10-25' }];
    expect(monthsBefore('2026-10-20', 12)).toBe('2025-10-20');
    expect(depositTransferable(late, '2026-10-20')).toBe(true);
    expect(depositTransferable(late, '2026-10-15')).toBe(false);
    expect(depositTransferable([{ ...late[0], due_on: '2026-09-15', paid_on: null }], '2026-10-20')).toBe(false);
  });
});

describe('policy 5.1: the final bill on the 5th business day after the read', () => {
  it('gives the policy examples and T19 (read Sunday 2026-11-01 -> 2026-11-06)', () => {
    expect(finalBillDate('2026-11-01')).toBe('2026-11-06');
    expect(finalBillDate('2026-10-30')).toBe('2026-11-06');
    expect(finalBillDate('2026-11-05')).toBe('2026-11-13');
    expect(finalBillDate('2026-11-06')).toBe('2026-11-16');
    expect(finalBillDate('2026-10-21')).toBe('2026-10-28');
    expect(isBusinessDay('2026-11-11')).toBe(false);
    expect(isBusinessDay('2026-11-07')).toBe(false);
  });
});

describe('policy 5.3: the prorated basic charge', () => {
  it('rounds half up: $12.50 x 10/30 = $4.17; x 17/31 = $6.85', () => {
    expect(proratedBasicChargeCents(1250, 10, 30)).toBe(417);
    expect(proratedBasicChargeCents(1250, 17, 31)).toBe(685);
  });
});
