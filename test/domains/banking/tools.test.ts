/**
 * The banking back-end: dataset scale and realism (namesakes, shared ZIP codes, several records
 * per task customer), and each tool's results and refusals through the environment, as an agent
 * sees them.
 */
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../../src/domains/index.js';
import { Environment } from '../../../src/env/environment.js';
import type { BankDb, BankTables } from '../../../src/domains/banking/index.js';

const loaded = loadDomain('banking');
const newEnv = () => new Environment<BankDb>(loaded.domain, { now: loaded.now!, idSeed: '' });
let n = 0;
const run = async (env: Environment<BankDb>, name: string, args: unknown) => {
  const entry = await Promise.resolve(env.execute({ id: `c${n++}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }));
  return { ...entry, json: entry.error ? undefined : JSON.parse(entry.output) };
};

describe('the banking dataset', () => {
  const db = (loaded.domain.initialState() as BankDb).materialize() as BankTables;
  const customers = Object.values(db.customers);
  it('is at realistic scale: hundreds of customers, their accounts, cards and months of transactions', () => {
    expect(customers.length).toBeGreaterThanOrEqual(300);
    expect(Object.keys(db.accounts).length).toBeGreaterThanOrEqual(500);
    expect(Object.keys(db.cards).length).toBeGreaterThanOrEqual(300);
    expect(Object.keys(db.transactions).length).toBeGreaterThanOrEqual(4000);
    expect(Object.keys(db.disputes).length).toBeGreaterThan(3);
  });
  it('has namesakes and shared ZIP codes, including for task customers', () => {
    const byName = new Map<string, number>();
    for (const c of customers) byName.set(`${c.first_name} ${c.last_name}`, (byName.get(`${c.first_name} ${c.last_name}`) ?? 0) + 1);
    expect([...byName.values()].filter((k) => k > 1).length).toBeGreaterThan(20);
    for (const name of ['Ben Ross', 'Omar Haddad', 'Sofia Alvarez']) expect(byName.get(name)).toBeGreaterThanOrEqual(2);
    const zip = customers.filter((c) => c.mailing_address.zip === '97214');
    expect(zip.length).toBeGreaterThan(5);
  });
  it('keeps money in integer cents with non-round values', () => {
    const amounts = Object.values(db.transactions).map((t) => t.amount_cents);
    expect(amounts.every(Number.isInteger)).toBe(true);
    expect(amounts.filter((a) => a % 100 !== 0).length / amounts.length).toBeGreaterThan(0.8);
  });
  it('is the same on every load (seeded)', async () => {
    const { servicegymBankJson } = await import('../../../src/domains/banking/index.js');
    expect(JSON.stringify(servicegymBankJson())).toBe(JSON.stringify(servicegymBankJson()));
  });
});

describe('banking tools', () => {
  it('find_customers lists namesakes with what tells them apart', async () => {
    const r = await run(newEnv(), 'find_customers', { first_name: 'ben', last_name: 'ROSS' });
    expect(r.json.map((c: { customer_id: string }) => c.customer_id)).toEqual(expect.arrayContaining(['ben_ross_604', 'ben_ross_318']));
  });
  it('verify_identity needs two matching factors and never shows stored values', async () => {
    const env = newEnv();
    expect((await run(env, 'verify_identity', { customer_id: 'ben_ross_604', date_of_birth: '1981-04-17', ssn_last4: '6604' })).json).toEqual({ customer_id: 'ben_ross_604', verified: true, matched: ['date_of_birth', 'ssn_last4'], mismatched: [] });
    expect((await run(env, 'verify_identity', { customer_id: 'ben_ross_604', date_of_birth: '1981-04-17' })).json.verified).toBe(false);
    const wrong = await run(env, 'verify_identity', { customer_id: 'ivy_tran_265', date_of_birth: '1993-05-12', zip: '95054' });
    expect(wrong.json).toEqual({ customer_id: 'ivy_tran_265', verified: false, matched: ['zip'], mismatched: ['date_of_birth'] });
    expect(wrong.output).not.toContain('1993-12-05');
    expect((await run(env, 'verify_identity', { customer_id: 'ben_ross_604', phone: '(503) 555 0164', zip: '97214' })).json.verified).toBe(true);
    expect((await run(env, 'verify_identity', { customer_id: 'nobody_1' , zip: '1' })).output).toBe('Error: Customer nobody_1 not found');
  });
  it('a fraud dispute, block and expedited replacement post exactly the state and fees the policy names', async () => {
    const env = newEnv();
    const d = await run(env, 'open_dispute', { transaction_id: 'TXN-8841207', reason: 'fraud' });
    expect(d.json).toMatchObject({ dispute_id: 'DSP-8841207', amount_cents: 41_290, opened_on: '2026-10-02', provisional_credit_cents: 0 });
    expect((await run(env, 'open_dispute', { transaction_id: 'TXN-8841207', reason: 'fraud' })).output).toBe('Error: Transaction TXN-8841207 is already disputed (DSP-8841207)');
    expect((await run(env, 'order_replacement_card', { card_id: 'CRD-60401', delivery: 'standard' })).output).toBe('Error: Card CRD-60401 is active: block it before ordering a replacement');
    expect((await run(env, 'block_card', { card_id: 'CRD-60401', reason: 'fraud' })).json).toMatchObject({ status: 'blocked', block_reason: 'fraud', blocked_at: '2026-10-02T14:00:00' });
    const o = await run(env, 'order_replacement_card', { card_id: 'CRD-60401', delivery: 'expedited' });
    expect(o.json).toMatchObject({ order_id: 'ORD-60401', new_card_id: 'CRD-60401-R', fee_cents: 2500, fee_waived: false, ship_to: { line1: '2218 SE Belmont St', line2: null, city: 'Portland', state: 'OR', zip: '97214' } });
    expect(env.state.get('accounts', 'ACC-60401')!.balance_cents).toBe(184_233 - 2500);
    expect((await run(env, 'order_replacement_card', { card_id: 'CRD-60401', delivery: 'standard' })).output).toBe('Error: Card CRD-60401 already has replacement order ORD-60401');
  });
  it('refuses a pending transaction, a credit, and an invalid address with the field named', async () => {
    const env = newEnv();
    expect((await run(env, 'open_dispute', { transaction_id: 'TXN-8840115', reason: 'fraud' })).output).toBe('Error: Transaction TXN-8840115 is a credit and cannot be disputed');
    const addr = { customer_id: 'sofia_alvarez_702', line1: '4410 Duval St', line2: 'Apt 12', city: 'Austin' };
    expect((await run(env, 'update_mailing_address', { ...addr, state: 'Texas', zip: '78751' })).output).toBe('Error: Invalid address: state must be a two-letter state code');
    expect((await run(env, 'update_mailing_address', { ...addr, state: 'TX', zip: '7875' })).output).toBe('Error: Invalid address: zip must be a five-digit ZIP code');
    expect((await run(env, 'update_mailing_address', { ...addr, line1: 'PO Box 12', state: 'TX', zip: '78751' })).output).toContain('PO box');
    expect((await run(env, 'update_mailing_address', { ...addr, state: 'tx', zip: '78751' })).json).toEqual({ line1: '4410 Duval St', line2: 'Apt 12', city: 'Austin', state: 'TX', zip: '78751' });
  });
  it('refunds a fee once, refuses non-fees, and credits provisional credit in full', async () => {
    const env = newEnv();
    expect((await run(env, 'refund_fee', { transaction_id: 'TXN-8400102' })).json).toMatchObject({ transaction_id: 'TXN-8400102-RF', amount_cents: 899, kind: 'fee_refund' });
    expect((await run(env, 'refund_fee', { transaction_id: 'TXN-8400102' })).output).toBe('Error: Fee TXN-8400102 was already refunded');
    expect((await run(env, 'refund_fee', { transaction_id: 'TXN-8400101' })).output).toBe('Error: Transaction TXN-8400101 is not a fee');
    await run(env, 'open_dispute', { transaction_id: 'TXN-4190102', reason: 'fraud' });
    expect((await run(env, 'issue_provisional_credit', { dispute_id: 'DSP-4190102' })).json.provisional_credit_cents).toBe(106_418);
    expect(env.state.get('accounts', 'ACC-41901')!.balance_cents).toBe(356_002 + 106_418);
  });
  it('numbers notes and call records per customer, so the order of writes does not change ids', async () => {
    const env = newEnv();
    expect((await run(env, 'add_security_note', { customer_id: 'paul_meyer_221', category: 'unverified caller', text: 'x' })).json.note_id).toBe('NOTE-paul_meyer_221-1');
    expect((await run(env, 'record_call_outcome', { customer_id: 'nina_berg_871', outcome_code: 'RES-FULL', verified_fields: ['date_of_birth', 'ssn_last4', 'zip'], notes: 'ok' })).json).toMatchObject({ call_id: 'CALL-nina_berg_871-1', verified: true });
    expect((await run(env, 'add_security_note', { customer_id: 'paul_meyer_221', category: 'bogus', text: 'x' })).error).toBe(true);
  });
  it('leaves the shared initial state untouched and shares nothing between episodes', async () => {
    const a = newEnv();
    await run(a, 'block_card', { card_id: 'CRD-33001', reason: 'lost' });
    const b = newEnv();
    expect(b.state.get('cards', 'CRD-33001')!.status).toBe('active');
    expect(loaded.domain.initialState().get('cards', 'CRD-33001')!.status).toBe('active');
    expect(a.stateHash()).not.toBe(b.stateHash());
    expect(newEnv().stateHash()).toBe(b.stateHash());
  });
});
