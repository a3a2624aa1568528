/**
 * The records the seed retail tasks name (`seeds/001_14d444b6cd11c72e.txt`: T04, T05, T06, T13,
 * T16), laid over the generated dataset. Prices are chosen so each task's arithmetic is exact;
 * the task files document it.
 */
import type { Json } from './generate.js';

const variant = (item_id: string, options: Record<string, string>, price: number, available = true) => ({ item_id, options, available, price });
const product = (product_id: string, name: string, variants: Json[]) => ({ name, product_id, variants: Object.fromEntries(variants.map((v) => [v.item_id, v])) });

/** Named products: Hiking Boots, Rain Jacket, Coffee Grinder, Mug Set, Desk Lamp, USB Hub, Running Shoes, Water Bottle, Notebook, Tea Kettle. */
export function seedProducts(): Json {
  const ps = [
    product('5100000001', 'Hiking Boots', [
      variant('6100000101', { size: '9', material: 'leather', waterproof: 'yes' }, 149.99),
      variant('6100000102', { size: '10', material: 'leather', waterproof: 'yes' }, 159.99),
      variant('6100000103', { size: '11', material: 'leather', waterproof: 'yes' }, 159.99, false),
    ]),
    product('5100000002', 'Rain Jacket', [
      variant('6100000201', { color: 'blue', size: 'M' }, 89.5),
      variant('6100000202', { color: 'green', size: 'M' }, 84.5),
      variant('6100000203', { color: 'green', size: 'L' }, 84.5),
      variant('6100000204', { color: 'blue', size: 'L' }, 89.5, false),
    ]),
    product('5100000003', 'Coffee Grinder', [variant('6100000301', { type: 'blade', color: 'black' }, 39.0), variant('6100000302', { type: 'burr', color: 'black' }, 79.0)]),
    product('5100000004', 'Mug Set', [variant('6100000401', { pieces: '4', material: 'ceramic' }, 24.0), variant('6100000402', { pieces: '6', material: 'ceramic' }, 32.0)]),
    product('5100000005', 'Desk Lamp', [variant('6100000501', { color: 'black', bulb: 'LED' }, 45.25), variant('6100000502', { color: 'white', bulb: 'LED' }, 45.25)]),
    product('5100000006', 'USB Hub', [variant('6100000601', { ports: '4' }, 19.99), variant('6100000602', { ports: '7' }, 29.99)]),
    product('5100000007', 'Running Shoes', [
      variant('6100000701', { size: '8', color: 'white' }, 110.0),
      variant('6100000702', { size: '8.5', color: 'white' }, 110.0),
      variant('6100000703', { size: '9', color: 'white' }, 110.0),
    ]),
    product('5100000008', 'Water Bottle', [variant('6100000801', { capacity: '750ml', material: 'steel' }, 24.5)]),
    product('5100000009', 'Notebook', [variant('6100000901', { pages: '120', ruling: 'dotted' }, 8.99)]),
    product('5100000010', 'Tea Kettle', [variant('6100001001', { capacity: '1.2L', material: 'enamel' }, 34.0)]),
  ];
  return Object.fromEntries(ps.map((p) => [p.product_id, p]));
}

const addr = (address1: string, address2: string, city: string, state: string, zip: string) => ({ address1, address2, city, country: 'USA', state, zip });
const card = (id: string, brand: string, last_four: string) => ({ source: 'credit_card', id, brand, last_four });
const gift = (id: string, balance: number) => ({ source: 'gift_card', id, balance });
const paypal = (id: string) => ({ source: 'paypal', id });

function user(user_id: string, first: string, last: string, email: string, address: Json, methods: Json[], orders: string[]): Json {
  return { user_id, name: { first_name: first, last_name: last }, address, email, payment_methods: Object.fromEntries(methods.map((m) => [m.id, m])), orders };
}

/** Customers named by the seed retail tasks (addresses, payment methods, orders). */
export function seedUsers(): Json {
  return {
    noah_kim_2207: user('noah_kim_2207', 'Noah', 'Kim', 'noah.kim2207@example.com', addr('18 Pike Street', 'Apt 4', 'Seattle', 'WA', '98101'), [card('credit_card_2207001', 'visa', '1881')], ['#W4419983']),
    olivia_chen_9022: user('olivia_chen_9022', 'Olivia', 'Chen', 'olivia.chen9022@example.com', addr('301 Valencia Street', '', 'San Francisco', 'CA', '94110'), [card('credit_card_9022001', 'mastercard', '4410'), gift('gift_card_9022002', 15.0)], ['#W7731204']),
    liam_ortiz_5531: user('liam_ortiz_5531', 'Liam', 'Ortiz', 'liam.ortiz5531@example.com', addr('12 Wells Street', '', 'Chicago', 'IL', '60614'), [paypal('paypal_5531001')], ['#W9902117']),
    grace_li_6610: user('grace_li_6610', 'Grace', 'Li', 'grace.li6610@example.com', addr('77 West 14th Street', 'Apt 9C', 'New York', 'NY', '10011'), [card('credit_card_6610001', 'visa', '7755')], ['#W1188450']),
    ethan_ward_3380: user('ethan_ward_3380', 'Ethan', 'Ward', 'ethan.ward3380@example.com', addr('5 Peachtree Place', '', 'Atlanta', 'GA', '30303'), [card('credit_card_3380001', 'visa', '2020'), gift('gift_card_3380002', 20.0)], ['#W5530021']),
  };
}

const item = (p: Json, itemId: string) => ({ name: p.name, product_id: p.product_id, item_id: itemId, price: p.variants[itemId].price, options: p.variants[itemId].options });

function order(orderId: string, userId: string, address: Json, items: Json[], status: string, method: string, tracking?: string): Json {
  const total = Math.round(items.reduce((s, it) => s + it.price, 0) * 100) / 100;
  return {
    order_id: orderId,
    user_id: userId,
    address,
    items,
    status,
    fulfillments: tracking ? [{ tracking_id: [tracking], item_ids: items.map((it) => it.item_id) }] : [],
    payment_history: [{ transaction_type: 'payment', amount: total, payment_method_id: method }],
    cancel_reason: null,
    exchange_items: null,
    exchange_new_items: null,
    exchange_payment_method_id: null,
    exchange_price_difference: null,
    return_items: null,
    return_payment_method_id: null,
  };
}

/** Orders named by the seed retail tasks; prices in dollars (floats, cents exact). */
export function seedOrders(): Json {
  const p = seedProducts();
  const u = seedUsers();
  const P = (id: string) => p[id];
  return {
    // T04: boots size 9 and blue M jacket to exchange (+$10.00 and -$5.00 = +$5.00 on the card).
    '#W4419983': order('#W4419983', 'noah_kim_2207', u.noah_kim_2207.address, [item(P('5100000001'), '6100000101'), item(P('5100000002'), '6100000201'), item(P('5100000009'), '6100000901')], 'delivered', 'credit_card_2207001', '410022070001'),
    // T05: lamp and hub to return ($65.24), original card or existing gift card only.
    '#W7731204': order('#W7731204', 'olivia_chen_9022', u.olivia_chen_9022.address, [item(P('5100000005'), '6100000501'), item(P('5100000006'), '6100000601'), item(P('5100000010'), '6100001001')], 'delivered', 'credit_card_9022001', '410090220001'),
    // T06: pending; the grinder stays, the mug set line is cancelled ($24.00 back to PayPal).
    '#W9902117': order('#W9902117', 'liam_ortiz_5531', u.liam_ortiz_5531.address, [item(P('5100000003'), '6100000301'), item(P('5100000004'), '6100000401'), item(P('5100000009'), '6100000901')], 'pending', 'paypal_5531001'),
    // T13: pending, cancelled with a refund to the card on file only.
    '#W1188450': order('#W1188450', 'grace_li_6610', u.grace_li_6610.address, [item(P('5100000010'), '6100001001'), item(P('5100000008'), '6100000801')], 'pending', 'credit_card_6610001'),
    // T16: shoes 8 -> 8.5 (same price) and the water bottle returned to the gift card.
    '#W5530021': order('#W5530021', 'ethan_ward_3380', u.ethan_ward_3380.address, [item(P('5100000007'), '6100000701'), item(P('5100000008'), '6100000801'), item(P('5100000009'), '6100000901')], 'delivered', 'credit_card_3380001', '410033800001'),
  };
}
