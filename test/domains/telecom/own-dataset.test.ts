/**
 * servicegym's own telecom dataset (Kestrel Mobile): the seeded generator at scale (hundreds of
 * customers, lines, bills and devices; namesakes; integer cents; ISO dates; deterministic), the
 * policy's formulas (rules.ts) with worked examples, the phone's derived status and the sync of
 * both sides, and how the dataset is picked (own without --data-dir, tau2's with it).
 */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { Environment } from '../../../src/env/environment.js';
import { taskInitialState } from '../../../src/evaluation/initial-state.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { kestrelRules, kestrelTablesJson, type KestrelState } from '../../../src/domains/telecom/index.js';
import { generateKestrel } from '../../../src/domains/telecom/own/data/generate.js';
import { KESTREL_PLANS } from '../../../src/domains/telecom/own/data/catalog.js';
import { phoneStatus } from '../../../src/domains/telecom/own/phone.js';

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const loaded = loadDomain('telecom');
const env = { now: loaded.now!, idSeed: '' };
const task = (id: string) => loaded.tasks.find((t) => t.id === id)!;
const callOf = (name: string, args: unknown = {}, id = 'c1') => ({ id, type: 'function' as const, function: { name, arguments: JSON.stringify(args) } });

describe('the generated carrier', () => {
  const t = kestrelTablesJson();
  it('is at scale: hundreds of customers, lines, bills and devices, and running passes', () => {
    expect(Object.keys(t.customers).length).toBeGreaterThanOrEqual(480);
    expect(Object.keys(t.lines).length).toBeGreaterThan(700);
    expect(Object.keys(t.bills).length).toBe(3 * Object.keys(t.customers).length);
    expect(Object.keys(t.devices).length).toBe(Object.values(t.lines).filter((l) => l.device_id).length);
    expect(Object.keys(t.line_passes).length).toBeGreaterThan(10);
    expect(Object.values(t.lines).filter((l) => l.status === 'suspended').length).toBeGreaterThan(5);
    expect(Object.values(t.bills).filter((b) => b.status === 'overdue').length).toBeGreaterThan(10);
  });
  it('money is integer cents, dates ISO, bill totals add up, references resolve', () => {
    for (const b of Object.values(t.bills)) {
      expect(Number.isInteger(b.total_cents)).toBe(true);
      expect(b.items.reduce((s, x) => s + x.amount_cents, 0)).toBe(b.total_cents);
      for (const d of [b.period_start, b.period_end, ...(b.due_date ? [b.due_date] : [])]) expect(d).toMatch(ISO);
      expect(t.customers[b.customer_id]).toBeDefined();
    }
    for (const l of Object.values(t.lines)) {
      expect(t.plans[l.plan_id]).toBeDefined();
      expect(t.customers[l.customer_id].line_ids).toContain(l.line_id);
    }
    for (const p of Object.values(t.line_passes)) expect(t.plans[t.lines[p.line_id].plan_id].eligible_passes).toContain(p.pass_id);
  });
  it('has namesakes (Zoe Adams more than once) and unique phone numbers', () => {
    const zoes = Object.values(t.customers).filter((c) => c.full_name === 'Zoe Adams');
    expect(zoes.length).toBeGreaterThanOrEqual(3);
    const phones = Object.values(t.lines).map((l) => l.phone_number);
    expect(new Set(phones).size).toBe(phones.length);
  });
  it('is deterministic per seed and differs between seeds', () => {
    expect(JSON.stringify(generateKestrel(2026))).toBe(JSON.stringify(generateKestrel(2026)));
    expect(JSON.stringify(generateKestrel(7))).not.toBe(JSON.stringify(generateKestrel(2026)));
  });
});

describe('policy formulas (kestrel_policy.md)', () => {
  const travel = KESTREL_PLANS.find((p) => p.plan_id === 'PL-TRAVEL')!;
  const basic = KESTREL_PLANS.find((p) => p.plan_id === 'PL-BASIC')!;
  const unltd = KESTREL_PLANS.find((p) => p.plan_id === 'PL-UNLTD')!;
  it('4.2: a pass needs an active line, an eligible plan and no overdue bill', () => {
    expect(kestrelRules.passRefusals({ status: 'active' }, travel, 'RP-EU7', [{ status: 'paid' }, { status: 'issued' }, { status: 'open' }])).toEqual([]);
    expect(kestrelRules.passRefusals({ status: 'active' }, travel, 'RP-EU30', [])).toEqual(['plan_not_eligible']);
    expect(kestrelRules.passRefusals({ status: 'active' }, basic, 'RP-EU7', [])).toEqual(['plan_not_eligible']);
    expect(kestrelRules.passRefusals({ status: 'suspended' }, travel, 'RP-WORLD7', [{ status: 'overdue' }])).toEqual(['line_not_active', 'overdue_bill']);
  });
  it('5.2: one plan change in 30 days (day 30 allowed); 5.3: no downgrade under contract; 5.1: no overdue bill', () => {
    const line = (last: string | null, contract: string | null = null) => ({ status: 'active' as const, last_plan_change_on: last, contract_end_on: contract });
    expect(kestrelRules.planChangeRefusals(line('2026-10-20'), basic, travel, [], '2026-11-12')).toEqual(['changed_recently']);
    expect(kestrelRules.addDays('2026-10-20', kestrelRules.PLAN_CHANGE_MIN_DAYS)).toBe('2026-11-19');
    expect(kestrelRules.planChangeRefusals(line('2026-10-13'), basic, travel, [], '2026-11-12')).toEqual([]);
    expect(kestrelRules.planChangeRefusals(line(null, '2027-05-31'), unltd, basic, [], '2026-11-12')).toEqual(['downgrade_under_contract']);
    expect(kestrelRules.planChangeRefusals(line(null, '2026-11-11'), unltd, basic, [], '2026-11-12')).toEqual([]);
    expect(kestrelRules.planChangeRefusals(line(null), basic, travel, [{ status: 'overdue' }], '2026-11-12')).toEqual(['overdue_bill']);
  });
  it('6.2: resuming; 7.1-7.2: top-up charges and the 5 GB cap; dollars', () => {
    expect(kestrelRules.mayResume({ status: 'suspended', suspension_reason: 'non_payment' }, [{ status: 'overdue' }])).toBe(false);
    expect(kestrelRules.mayResume({ status: 'suspended', suspension_reason: 'non_payment' }, [{ status: 'awaiting_payment' }])).toBe(false);
    expect(kestrelRules.mayResume({ status: 'suspended', suspension_reason: 'non_payment' }, [{ status: 'paid' }, { status: 'issued' }])).toBe(true);
    expect(kestrelRules.mayResume({ status: 'suspended', suspension_reason: 'lost_or_stolen' }, [])).toBe(false);
    expect(kestrelRules.topupChargeCents(basic, 0, 2)).toBe(2000);
    expect(kestrelRules.topupChargeCents(basic, 4, 2)).toBeNull();
    expect(kestrelRules.topupChargeCents(basic, 0, 1.5)).toBeNull();
    expect([kestrelRules.dollars(2500), kestrelRules.dollars(99), kestrelRules.dollars(-300)]).toEqual(['$25.00', '$0.99', '-$3.00']);
  });
});

describe('the phone and the sync of both sides', () => {
  it("T07's start: abroad, data roaming off and a wrong APN; the status names the first cause", async () => {
    const s = (await taskInitialState(loaded.domain, task('T07'), env)) as KestrelState;
    expect(s.phone.line_id).toBe('L-77301');
    expect(s.phone.status).toEqual({ service: 'connected', network: '4G', mobile_data: 'not_working', problem: 'apn_incorrect' });
    s.phone.apn.name = 'kestrel.net';
    expect(phoneStatus(s.db, s.phone).problem).toBe('data_roaming_off');
  });
  it('the agent cannot use the phone, the customer cannot use the account; a customer payment marks the bill paid', async () => {
    const e = new Environment(loaded.domain, { now: env.now, state: await taskInitialState(loaded.domain, task('K03'), env) });
    expect((await e.execute(callOf('pay_payment_request'), 'assistant')).error).toBe(true);
    expect((await e.execute(callOf('list_bills', { customer_id: 'omar_haddad_518' }), 'user')).error).toBe(true);
    await e.execute(callOf('send_payment_request', { customer_id: 'omar_haddad_518', bill_id: 'B-518-09' }));
    expect((e.state as KestrelState).phone.payment_request).toEqual({ bill_id: 'B-518-09', amount_cents: 4500, paid: false });
    expect((await e.execute(callOf('send_payment_request', { customer_id: 'omar_haddad_518', bill_id: 'B-518-10' }))).output).toMatch(/already awaiting payment/);
    expect((await e.execute(callOf('pay_payment_request'), 'user')).output).toBe('Paid $45.00 for bill B-518-09.');
    const st = e.state as KestrelState;
    expect(st.db.get('bills', 'B-518-09')?.status).toBe('paid');
    expect(st.phone.payment_request).toBeNull();
  });
  it('an APN reset waits for the restart; a suspended line has no service', async () => {
    const e = new Environment(loaded.domain, { now: env.now, state: await taskInitialState(loaded.domain, task('T07'), env) });
    await e.execute(callOf('set_data_roaming', { enabled: true }), 'user');
    expect((await e.execute(callOf('reset_apn_to_default'), 'user')).output).toMatch(/when you restart/);
    expect((await e.execute(callOf('run_connection_check'), 'user')).output).toMatch(/^Connection check failed/);
    await e.execute(callOf('restart_phone'), 'user');
    expect((await e.execute(callOf('run_connection_check'), 'user')).output).toBe('Connection check passed: test page loaded over 4G (roaming) at 60 Mbps.');
    const k04 = (await taskInitialState(loaded.domain, task('K04'), env)) as KestrelState;
    expect(k04.phone.status.problem).toBe('line_suspended');
  });
  it('a pass is charged in cents to the open bill, dated today, with an id derived from its content', async () => {
    const e = new Environment(loaded.domain, { now: env.now, state: await taskInitialState(loaded.domain, task('T07'), env) });
    const out = JSON.parse((await e.execute(callOf('add_roaming_pass', { line_id: 'L-77301', pass_id: 'RP-EU7' }))).output);
    expect(out).toEqual({ line_pass: { line_pass_id: 'LP-77301-EU7-20261112', line_id: 'L-77301', pass_id: 'RP-EU7', start_on: '2026-11-12', end_on: '2026-11-18', price_cents: 2500, bill_id: 'B-773-11' }, charged_cents: 2500, bill_id: 'B-773-11' });
    expect((e.state as KestrelState).db.get('bills', 'B-773-11')?.total_cents).toBe(6000 + 3000 + 2500);
    expect((await e.execute(callOf('add_roaming_pass', { line_id: 'L-77301', pass_id: 'RP-EU7' }))).output).toMatch(/already running/);
  });
});

describe('picking the dataset', () => {
  it("without --data-dir telecom is servicegym's own; the policy variants and solo mode belong to tau2's data", () => {
    expect(loaded.mode).toBe('servicegym');
    expect(loaded.policy).toMatch(/^# Kestrel Mobile/);
    expect(loaded.policy).toMatch(/^4\.2 You may add a pass only when/m);
    expect(() => loadDomain('telecom', { solo: true })).toThrow(BadInputError);
    expect(() => loadDomain('telecom', { policy: 'workflow' })).toThrow(/--data-dir/);
    expect(loaded.domain.tools.filter((x) => x.requestor === 'user').map((x) => x.name)).toContain('set_data_roaming');
  });
});
