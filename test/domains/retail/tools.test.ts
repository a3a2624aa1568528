/**
 * Retail tools on a tiny hand-made DB (runs without ../shared): tau2's quirks with exact outputs
 * — last-variant pricing and unrounded differences in `modify_pending_order_items`, rounding in
 * exchanges, immediate gift-card refunds on cancel, the return-method rule — the error strings,
 * the text order of integer-like keys, and the tau2-style DB hash.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseRetailDb, retailDbHash, retailTau2Tools, applyRetailInitialState } from '../../../src/domains/retail/index.js';
import { RETAIL_DB_TYPES } from '../../../src/domains/retail/schema.js';
import { integerKeyOrders } from '../../../src/domains/common/json-key-order.js';
import { BadInputError } from '../../../src/spec/errors.js';
import { pyDumps } from '../../../src/util/pyjson.js';
import { FIXTURE_TEXT, fixtureEnv } from './fixture.js';

const json = (s: string) => JSON.parse(s);
const ADDRESS = '{"address1": "1 Main St", "address2": "", "city": "Austin", "country": "USA", "state": "TX", "zip": "78701"}';
const NULLS = '"cancel_reason": null, "exchange_items": null, "exchange_new_items": null, "exchange_payment_method_id": null, "exchange_price_difference": null, "return_items": null, "return_payment_method_id": null';

describe('retail DB schema', () => {
  it('normalises like pydantic model_dump: field order, null optional order fields', async () => {
    const db = parseRetailDb(json(FIXTURE_TEXT));
    expect(Object.keys(db.orders['#W0000001'])).toEqual([
      'order_id', 'user_id', 'address', 'items', 'status', 'fulfillments', 'payment_history',
      'cancel_reason', 'exchange_items', 'exchange_new_items', 'exchange_payment_method_id', 'exchange_price_difference', 'return_items', 'return_payment_method_id',
    ]);
    expect(db.orders['#W0000001'].exchange_price_difference).toBeNull();
  });

  it('names the JSON path of a bad value and of an unknown top-level key', async () => {
    const bad = json(FIXTURE_TEXT);
    bad.users.ana_lee_1.payment_methods.gift_card_1.balance = '10.1';
    expect(() => parseRetailDb(bad, 'db.json')).toThrow(BadInputError);
    expect(() => parseRetailDb(bad, 'db.json')).toThrow('db.json at $.users.ana_lee_1.payment_methods.gift_card_1.balance: Invalid input: expected number, received string');
    const status = json(FIXTURE_TEXT);
    status.orders['#W0000004'].status = 'shipped';
    expect(() => parseRetailDb(status, 'db.json')).toThrow('db.json at $.orders["#W0000004"].status:');
    expect(() => parseRetailDb({ ...json(FIXTURE_TEXT), reviews: {} }, 'db.json')).toThrow('db.json at $.reviews: Unrecognized key: "reviews"');
  });

  it("exposes exactly tau2's 16 tools", async () => {
    expect(retailTau2Tools().map((t) => t.name)).toEqual([
      'calculate', 'cancel_pending_order', 'exchange_delivered_order_items', 'find_user_id_by_email', 'find_user_id_by_name_zip', 'get_item_details',
      'get_order_details', 'get_product_details', 'get_user_details', 'list_all_product_types', 'modify_pending_order_address', 'modify_pending_order_items',
      'modify_pending_order_payment', 'modify_user_address', 'return_delivered_order_items', 'transfer_to_human_agents',
    ]);
    expect(retailTau2Tools().filter((t) => t.kind === 'write')).toHaveLength(7);
  });
});

describe('read tools', () => {
  it('prints variants in the file order (integer-like keys are not reordered) with float prices', async () => {
    const { call } = fixtureEnv();
    const r = (await call('get_product_details', { product_id: '1000000001' }));
    expect(r.output).toBe(
      '{"name": "T-Shirt", "product_id": "1000000001", "variants": {"2000000002": {"item_id": "2000000002", "options": {"color": "red", "size": "M"}, "available": true, "price": 20.5}, ' +
        '"2000000001": {"item_id": "2000000001", "options": {"color": "blue", "size": "M"}, "available": true, "price": 19.99}, ' +
        '"2000000003": {"item_id": "2000000003", "options": {"color": "green", "size": "L"}, "available": false, "price": 25.0}, ' +
        '"9000000001": {"item_id": "9000000001", "options": {"color": "black", "size": "S"}, "available": true, "price": 21.1}}}',
    );
    expect(integerKeyOrders(FIXTURE_TEXT).get('/products')).toEqual(['1000000002', '1000000001']);
  });

  it('finds users case-insensitively (zip exact), lists product types by name, looks up items', async () => {
    const { call } = fixtureEnv();
    expect((await call('find_user_id_by_email', { email: 'ana.lee@EXAMPLE.com' })).output).toBe('ana_lee_1');
    expect((await call('find_user_id_by_name_zip', { first_name: 'ANA', last_name: 'lee', zip: '78701' })).output).toBe('ana_lee_1');
    expect((await call('find_user_id_by_name_zip', { first_name: 'Ana', last_name: 'Lee', zip: '78702' }))).toMatchObject({ output: 'Error: User not found', error: true });
    expect((await call('list_all_product_types')).output).toBe('{"Mug": "1000000002", "T-Shirt": "1000000001"}');
    expect((await call('get_item_details', { item_id: '3000000002' })).output).toBe('{"item_id": "3000000002", "options": {"capacity": "500ml"}, "available": true, "price": 15.0}');
    expect((await call('get_item_details', { item_id: '1000000001' })).output).toBe('Error: Item not found');
    expect((await call('get_product_details', { product_id: '2000000001' })).output).toBe('Error: Product not found');
    expect((await call('get_order_details', { order_id: 'W0000001' })).output).toBe('Error: Order not found');
    expect((await call('get_user_details', { user_id: 'ana' })).output).toBe('Error: User not found');
    expect((await call('calculate', { expression: '19.99 - 20.5 + 15 - 12.34' })).output).toBe('2.15');
    expect((await call('transfer_to_human_agents', { summary: 'x' })).output).toBe('Transfer successful');
  });

  it('finds a user by the new zip after modify_user_address (index bypassed once users are written)', async () => {
    const { call } = fixtureEnv();
    const r = (await call('modify_user_address', { user_id: 'ana_lee_1', address1: '9 Elm St', address2: 'Apt 2', city: 'Dallas', state: 'TX', country: 'USA', zip: '75001' }));
    expect(r.output).toContain('"address": {"address1": "9 Elm St", "address2": "Apt 2", "city": "Dallas", "country": "USA", "state": "TX", "zip": "75001"}');
    expect((await call('find_user_id_by_name_zip', { first_name: 'ana', last_name: 'LEE', zip: '75001' })).output).toBe('ana_lee_1');
    expect((await call('find_user_id_by_name_zip', { first_name: 'Ana', last_name: 'Lee', zip: '78701' })).output).toBe('Error: User not found');
  });
});

describe('modify_pending_order_items', () => {
  it('gives every modified item the price and options of the last new variant; the difference is not rounded', async () => {
    const { call, env } = fixtureEnv();
    const r = (await call('modify_pending_order_items', { order_id: '#W0000003', item_ids: ['2000000002', '3000000001'], new_item_ids: ['2000000001', '3000000002'], payment_method_id: 'paypal_1' }));
    expect(r.error).toBe(false);
    expect(r.output).toBe(
      `{"order_id": "#W0000003", "user_id": "ana_lee_1", "address": ${ADDRESS}, "items": [` +
        '{"name": "T-Shirt", "product_id": "1000000001", "item_id": "2000000001", "price": 15.0, "options": {"capacity": "500ml"}}, ' +
        '{"name": "Mug", "product_id": "1000000002", "item_id": "3000000002", "price": 15.0, "options": {"capacity": "500ml"}}], ' +
        '"status": "pending (item modified)", "fulfillments": [], "payment_history": [{"transaction_type": "payment", "amount": 32.84, "payment_method_id": "paypal_1"}, ' +
        `{"transaction_type": "payment", "amount": 2.1499999999999986, "payment_method_id": "paypal_1"}], ${NULLS}}`,
    );
    // once modified, the order is no longer exactly "pending"
    expect((await call('modify_pending_order_items', { order_id: '#W0000003', item_ids: ['3000000002'], new_item_ids: ['3000000001'], payment_method_id: 'paypal_1' })).output).toBe(
      'Error: Non-pending order cannot be modified',
    );
    expect((await call('cancel_pending_order', { order_id: '#W0000003', reason: 'ordered by mistake' })).output).toBe('Error: Non-pending order cannot be cancelled');
    expect(env.diff().filter((d) => d.path.startsWith('/orders/#W0000003/items/0/options'))).toHaveLength(3);
  });

  it('a gift card is debited by the difference or credited with a refund, balances rounded to cents', async () => {
    const { call, env } = fixtureEnv();
    const balance = () => (env.state.get('users', 'ana_lee_1')!.payment_methods.gift_card_1 as { balance: number }).balance;
    const r = (await call('modify_pending_order_items', { order_id: '#W0000001', item_ids: ['3000000001'], new_item_ids: ['3000000002'], payment_method_id: 'gift_card_1' }));
    expect(r.output).toContain('{"transaction_type": "payment", "amount": 2.66, "payment_method_id": "gift_card_1"}]');
    expect(balance()).toBe(7.44); // 10.1 - 2.66 = 7.4399999999999995, rounded
    const refund = (await call('modify_pending_order_items', { order_id: '#W0000003', item_ids: ['2000000002'], new_item_ids: ['2000000001'], payment_method_id: 'gift_card_1' }));
    expect(refund.output).toContain('{"transaction_type": "refund", "amount": 0.5100000000000016, "payment_method_id": "gift_card_1"}]');
    expect(balance()).toBe(7.95);
  });

  it('errors come in tau2 order', async () => {
    const e = fixtureEnv().call;
    const mod = async (item_ids: string[], new_item_ids: string[], payment_method_id = 'paypal_1', order_id = '#W0000003') =>
      (await e('modify_pending_order_items', { order_id, item_ids, new_item_ids, payment_method_id })).output;
    expect((await mod(['2000000001'], ['2000000002']))).toBe('Error: 2000000001 not found');
    expect((await mod(['2000000002', '2000000002'], ['2000000001', '2000000001']))).toBe('Error: 2000000002 not found');
    expect((await mod(['2000000002'], []))).toBe('Error: The number of items to be exchanged should match');
    expect((await mod(['2000000002'], ['2000000002']))).toBe('Error: The new item id should be different from the old item id');
    expect((await mod(['2000000002'], ['3000000002']))).toBe('Error: Variant not found');
    expect((await mod(['2000000002'], ['2000000003']))).toBe('Error: New item 2000000003 not found or available');
    expect((await mod(['2000000002'], ['2000000001'], 'venmo_1'))).toBe('Error: Payment method not found');
    // 19.99 - 7.86 = 12.13 > 10.1 on the gift card
    expect((await mod(['2000000002'], ['2000000001'], 'gift_card_1', '#W0000001'))).toBe('Error: Insufficient gift card balance to pay for the new item');
    expect((await mod(['2000000002'], ['2000000001'], 'paypal_1', '#W0000002'))).toBe('Error: Non-pending order cannot be modified');
  });
});

describe('exchange_delivered_order_items', () => {
  it('rounds the price difference to cents and sorts both id lists; records no payment', async () => {
    const { call } = fixtureEnv();
    const r = (await call('exchange_delivered_order_items', { order_id: '#W0000002', item_ids: ['2000000001', '2000000001'], new_item_ids: ['9000000001', '2000000002'], payment_method_id: 'gift_card_1' }));
    expect(r.error).toBe(false);
    const o = json(r.output);
    expect([o.status, o.exchange_items, o.exchange_new_items, o.exchange_payment_method_id, o.payment_history.length]).toEqual([
      'exchange requested', ['2000000001', '2000000001'], ['2000000002', '9000000001'], 'gift_card_1', 1,
    ]);
    expect(r.output).toContain('"exchange_price_difference": 1.62, "return_items": null');
  });

  it('errors: status, counts (with a period), availability, gift card', async () => {
    const { call } = fixtureEnv();
    const ex = async (order_id: string, item_ids: string[], new_item_ids: string[], payment_method_id = 'credit_card_1') =>
      (await call('exchange_delivered_order_items', { order_id, item_ids, new_item_ids, payment_method_id })).output;
    expect((await ex('#W0000001', ['2000000002'], ['2000000001']))).toBe('Error: Non-delivered order cannot be exchanged');
    expect((await ex('#W0000002', ['2000000001', '2000000001', '2000000001'], ['2000000002', '2000000002', '2000000002']))).toBe('Error: Number of 2000000001 not found.');
    expect((await ex('#W0000002', ['2000000001'], ['2000000002', '2000000002']))).toBe('Error: The number of items to be exchanged should match.');
    expect((await ex('#W0000002', ['2000000001'], ['2000000003']))).toBe('Error: New item 2000000003 not found or available');
    expect((await ex('#W0000002', ['2000000001'], ['3000000001']))).toBe('Error: Variant not found');
    expect((await ex('#W0000002', ['2000000001'], ['2000000002'], 'venmo_1'))).toBe('Error: Payment method not found');
  });

  it('a gift card must cover a positive (rounded) difference; a negative one needs no balance', async () => {
    const { env } = fixtureEnv();
    const low = applyRetailInitialState(env.state.branch(), { agent_data: { users: { ana_lee_1: { payment_methods: { gift_card_1: { balance: 2.2 } } } } } });
    const { call } = fixtureEnv();
    const ex = async (new_item_ids: string[], item_ids = ['2000000001', '2000000001']) => {
      const e = fixtureEnv().env;
      e.state = low.branch();
      return (await e.execute({ id: 'x', type: 'function', function: { name: 'exchange_delivered_order_items', arguments: JSON.stringify({ order_id: '#W0000002', item_ids, new_item_ids, payment_method_id: 'gift_card_1' }) } })).output;
    };
    // (21.1 - 19.99) + (21.1 - 19.99) = 2.220000000000006, rounded to 2.22 > 2.2
    expect((await ex(['9000000001', '9000000001']))).toBe('Error: Insufficient gift card balance to pay for the price difference');
    expect((await ex(['3000000001'], ['3000000002']))).toContain('"exchange_price_difference": -2.66');
    expect((await call('exchange_delivered_order_items', { order_id: '#W0000002', item_ids: ['2000000001', '2000000001'], new_item_ids: ['9000000001', '9000000001'], payment_method_id: 'gift_card_1' })).output).toContain(
      '"exchange_price_difference": 2.22',
    );
  });
});

describe('cancel_pending_order', () => {
  it('refunds every payment and credits a gift card immediately, rounded to cents', async () => {
    const { call, env } = fixtureEnv();
    const r = (await call('cancel_pending_order', { order_id: '#W0000001', reason: 'no longer needed' }));
    expect(r.output).toBe(
      `{"order_id": "#W0000001", "user_id": "ana_lee_1", "address": ${ADDRESS}, "items": [` +
        '{"name": "T-Shirt", "product_id": "1000000001", "item_id": "2000000002", "price": 7.86, "options": {"color": "red", "size": "M"}}, ' +
        '{"name": "Mug", "product_id": "1000000002", "item_id": "3000000001", "price": 12.34, "options": {"capacity": "350ml"}}], ' +
        '"status": "cancelled", "fulfillments": [], "payment_history": [{"transaction_type": "payment", "amount": 20.2, "payment_method_id": "gift_card_1"}, ' +
        '{"transaction_type": "refund", "amount": 20.2, "payment_method_id": "gift_card_1"}], "cancel_reason": "no longer needed", ' +
        '"exchange_items": null, "exchange_new_items": null, "exchange_payment_method_id": null, "exchange_price_difference": null, "return_items": null, "return_payment_method_id": null}',
    );
    // 10.1 + 20.2 = 30.299999999999997 in floating point; tau2 rounds the balance to 30.3
    expect((await call('get_user_details', { user_id: 'ana_lee_1' })).output).toContain('"gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 30.3}');
    expect(env.diff()).toContainEqual({ path: '/users/ana_lee_1/payment_methods/gift_card_1/balance', op: 'replace', before: 10.1, after: 30.3 });
  });

  it('after a payment change, refunds both history entries (the earlier refund too)', async () => {
    const { call } = fixtureEnv();
    const m = json((await call('modify_pending_order_payment', { order_id: '#W0000001', payment_method_id: 'credit_card_1' })).output);
    expect(m.payment_history).toEqual([
      { transaction_type: 'payment', amount: 20.2, payment_method_id: 'gift_card_1' },
      { transaction_type: 'payment', amount: 20.2, payment_method_id: 'credit_card_1' },
      { transaction_type: 'refund', amount: 20.2, payment_method_id: 'gift_card_1' },
    ]);
    expect((await call('get_user_details', { user_id: 'ana_lee_1' })).output).toContain('"balance": 30.3}');
    expect((await call('modify_pending_order_payment', { order_id: '#W0000001', payment_method_id: 'paypal_1' })).output).toBe('Error: There should be exactly one payment for a pending order');
    const c = json((await call('cancel_pending_order', { order_id: '#W0000001', reason: 'ordered by mistake' })).output);
    expect(c.payment_history.slice(3).map((p: { transaction_type: string; payment_method_id: string }) => `${p.transaction_type} ${p.payment_method_id}`)).toEqual([
      'refund gift_card_1', 'refund credit_card_1', 'refund gift_card_1',
    ]);
    // both gift-card entries are credited: 30.3 + 20.2 + 20.2
    expect((await call('get_user_details', { user_id: 'ana_lee_1' })).output).toContain('"balance": 70.7}');
  });

  it('errors: status, reason', async () => {
    const { call, env } = fixtureEnv();
    expect((await call('cancel_pending_order', { order_id: '#W0000004', reason: 'no longer needed' })).output).toBe('Error: Non-pending order cannot be cancelled');
    expect((await call('cancel_pending_order', { order_id: '#W0000001', reason: 'changed my mind' })).output).toBe('Error: Invalid reason');
    expect(env.changed()).toBe(false);
  });
});

describe('modify_pending_order_payment and address', () => {
  it('payment: new method must differ and a gift card must cover the amount', async () => {
    const { call } = fixtureEnv();
    const pay = async (order_id: string, payment_method_id: string) => (await call('modify_pending_order_payment', { order_id, payment_method_id })).output;
    expect((await pay('#W0000003', 'paypal_1'))).toBe('Error: The new payment method should be different from the current one');
    expect((await pay('#W0000003', 'gift_card_1'))).toBe('Error: Insufficient gift card balance to pay for the order');
    expect((await pay('#W0000003', 'venmo_1'))).toBe('Error: Payment method not found');
    expect((await pay('#W0000004', 'paypal_1'))).toBe('Error: Non-pending order cannot be modified');
  });

  it('address: any status containing "pending"; fields in model order (country before state)', async () => {
    const { call } = fixtureEnv();
    (await call('modify_pending_order_items', { order_id: '#W0000003', item_ids: ['3000000001'], new_item_ids: ['3000000002'], payment_method_id: 'paypal_1' }));
    const r = (await call('modify_pending_order_address', { order_id: '#W0000003', address1: '9 Elm St', address2: '', city: 'Dallas', state: 'TX', country: 'USA', zip: '75001' }));
    expect(r.output).toContain('"address": {"address1": "9 Elm St", "address2": "", "city": "Dallas", "country": "USA", "state": "TX", "zip": "75001"}, "items"');
    expect((await call('modify_pending_order_address', { order_id: '#W0000002', address1: 'a', address2: '', city: 'b', state: 'c', country: 'd', zip: 'e' })).output).toBe(
      'Error: Non-pending order cannot be modified',
    );
  });
});

describe('return_delivered_order_items', () => {
  it('refund method: the original payment method or any gift card — nothing else', async () => {
    const ret = async (payment_method_id: string, item_ids = ['2000000001']) => await fixtureEnv().call('return_delivered_order_items', { order_id: '#W0000002', item_ids, payment_method_id });
    expect((await ret('paypal_1')).output).toBe('Error: Payment method should be the original payment method');
    expect((await ret('venmo_1')).output).toBe('Error: Payment method not found');
    expect(json((await ret('credit_card_1')).output).return_payment_method_id).toBe('credit_card_1');
    const r = (await ret('gift_card_1', ['3000000002', '2000000001', '2000000001']));
    expect(r.output).toContain('"status": "return requested"');
    expect(r.output).toContain('"return_items": ["2000000001", "2000000001", "3000000002"], "return_payment_method_id": "gift_card_1"}');
    expect(json(r.output).payment_history).toHaveLength(1);
    expect((await ret('credit_card_1', ['2000000001', '2000000001', '2000000001'])).output).toBe('Error: Some item not found');
    expect((await fixtureEnv().call('return_delivered_order_items', { order_id: '#W0000004', item_ids: [], payment_method_id: 'credit_card_1' })).output).toBe(
      'Error: Non-delivered order cannot be returned',
    );
  });
});

describe('tau2 DB hash', () => {
  const naive = (env: ReturnType<typeof fixtureEnv>['env']) =>
    createHash('sha256').update(pyDumps(env.state.materialize(), { sortKeys: true, ensureAscii: true, types: RETAIL_DB_TYPES })).digest('hex');

  it('equals sha256 of the Python-style dump of the whole DB, before and after writes', async () => {
    const { env, call } = fixtureEnv();
    const pristine = env.stateHash();
    expect(pristine).toBe(naive(env));
    expect(pyDumps(env.state.materialize(), { sortKeys: true, types: RETAIL_DB_TYPES })).toContain('"price": 15.0');
    (await call('cancel_pending_order', { order_id: '#W0000001', reason: 'no longer needed' }));
    (await call('exchange_delivered_order_items', { order_id: '#W0000002', item_ids: ['3000000002'], new_item_ids: ['3000000001'], payment_method_id: 'credit_card_1' }));
    expect(env.stateHash()).toBe(naive(env));
    expect(retailDbHash(env.state)).not.toBe(pristine);
  });
});

describe('initial state (tau2 initialization_data)', () => {
  it('deep-merges agent_data, validates records, and keeps a patched product\'s variant order', async () => {
    const { env } = fixtureEnv();
    const s = applyRetailInitialState(env.state.branch(), {
      agent_data: { products: { '1000000001': { variants: { '2000000001': { available: false } } } }, orders: { '#W0000004': { status: 'delivered' } } },
    });
    expect(s.get('orders', '#W0000004')!.status).toBe('delivered');
    const env2 = fixtureEnv().env;
    env2.state = s;
    const out = (await env2.execute({ id: 'x', type: 'function', function: { name: 'get_product_details', arguments: '{"product_id": "1000000001"}' } })).output;
    // (JSON.parse would reorder the integer-like keys, so the text is checked)
    expect(out.indexOf('"2000000002": {')).toBeLessThan(out.indexOf('"2000000001": {'));
    expect(out).toContain('"2000000001": {"item_id": "2000000001", "options": {"color": "blue", "size": "M"}, "available": false');
    expect(() => applyRetailInitialState(env.state.branch(), { agent_data: { orders: { '#W0000004': { status: 'lost' } } } })).toThrow(
      'initial_state.initialization_data at $.agent_data.orders["#W0000004"].status:',
    );
    expect(() => applyRetailInitialState(env.state.branch(), { user_data: {} })).toThrow('the retail domain has no user-side DB');
  });
});
