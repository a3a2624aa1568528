/** The auto servicing rules' formulas (src/domains/insurance/rules.ts) with the rules' worked example and seed task T10's cents. */
import { describe, expect, it } from 'vitest';
import { insuranceRules } from '../../../src/domains/insurance/index.js';

const { ageOn, daysBetween, driverEligibility, surchargePercent, fullTermSurchargeCents, proRataCents } = insuranceRules;
const CRV = { premiums: { liability: 41_236, collision: 29_850, comprehensive: 11_822, uninsured_motorist: 6_410 } };
const COROLLA = { premiums: { liability: 35_510, collision: 18_975, comprehensive: 7_340 } };

describe('eligibility and surcharge (rules 2-3)', () => {
  it('ages on the effective date and the 16-year minimum', () => {
    expect(ageOn('2009-03-14', '2026-10-20')).toBe(17);
    expect(ageOn('2010-10-20', '2026-10-20')).toBe(16);
    expect(ageOn('2010-10-21', '2026-10-20')).toBe(15);
    expect(driverEligibility({ date_of_birth: '2011-02-02', licence_status: 'permit' }, '2026-10-14')).toEqual({ eligible: false, reason: 'under_16' });
    expect(driverEligibility({ date_of_birth: '1994-09-09', licence_status: 'suspended' }, '2026-10-14')).toEqual({ eligible: false, reason: 'no_valid_credential' });
    expect(driverEligibility({ date_of_birth: '2009-03-14', licence_status: 'licensed' }, '2026-10-20')).toEqual({ eligible: true, status: 'licensed' });
  });
  it('surcharges by age band, none on a permit', () => {
    expect([16, 17, 18, 20, 21, 24, 25].map((a) => surchargePercent(a, 'licensed'))).toEqual([90, 90, 60, 60, 25, 25, 0]);
    expect(surchargePercent(16, 'permit')).toBe(0);
  });
});

describe('premium to the cent (rules 3.2, 4.1)', () => {
  it('T10: 90% of the rated CR-V ($710.86) = $639.77, x 42/183 = $146.83', () => {
    expect(fullTermSurchargeCents([COROLLA, CRV], 90)).toBe(63_977);
    expect(daysBetween('2026-06-01', '2026-12-01')).toBe(183);
    expect(daysBetween('2026-10-20', '2026-12-01')).toBe(42);
    expect(proRataCents(63_977, '2026-10-20', '2026-06-01', '2026-12-01')).toBe(14_683);
  });
  it('the worked example of rule 4.3: $360.00 x 92/183 = $180.98', () => {
    expect(fullTermSurchargeCents([{ premiums: { liability: 35_000, collision: 25_000 } }], 60)).toBe(36_000);
    expect(proRataCents(36_000, '2026-07-01', '2026-04-01', '2026-10-01')).toBe(18_098);
  });
  it('rounds half up: 25% of $666.66 = $166.665 -> $166.67', () => {
    expect(fullTermSurchargeCents([{ premiums: { liability: 39_999, collision: 26_667 } }], 25)).toBe(16_667);
    expect(proRataCents(-37_775, '2026-11-01', '2026-08-15', '2027-02-15')).toBe(-21_762);
  });
});
