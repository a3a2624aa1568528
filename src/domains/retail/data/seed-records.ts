/**
 * The records the seed retail tasks name (`seeds/001_14d444b6cd11c72e.txt`: T04, T05, T06, T13,
 * T16), laid over the generated dataset. Prices are chosen so each task's arithmetic is exact;
 * the task files document it.
 *
 * Each task also has decoys the gold path never touches ({@link RETAIL_SEED_DECOYS}): another
 * order of the same customer holding the same item, a namesake customer (same first and last
 * name, another zip), or a variant that differs from the requested one in a single option.
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
      // Decoy for T04: size 10 as asked, but not waterproof.
      variant('6100000104', { size: '10', material: 'leather', waterproof: 'no' }, 142.37),
    ]),
    product('5100000002', 'Rain Jacket', [
      variant('6100000201', { color: 'blue', size: 'M' }, 89.5),
      variant('6100000202', { color: 'green', size: 'M' }, 84.5),
      variant('6100000203', { color: 'green', size: 'L' }, 84.5),
      variant('6100000204', { color: 'blue', size: 'L' }, 89.5, false),
    ]),
    product('5100000003', 'Coffee Grinder', [variant('6100000301', { type: 'blade', color: 'black' }, 39.0), variant('6100000302', { type: 'burr', color: 'black' }, 79.0)]),
    product('5100000004', 'Mug Set', [
      variant('6100000401', { pieces: '4', material: 'ceramic' }, 24.0),
      variant('6100000402', { pieces: '6', material: 'ceramic' }, 32.0),
      variant('6100000403', { pieces: '4', material: 'stoneware' }, 27.63),
    ]),
    product('5100000005', 'Desk Lamp', [
      variant('6100000501', { color: 'black', bulb: 'LED' }, 45.25),
      variant('6100000502', { color: 'white', bulb: 'LED' }, 45.25),
      variant('6100000503', { color: 'black', bulb: 'halogen' }, 38.71),
    ]),
    product('5100000006', 'USB Hub', [variant('6100000601', { ports: '4' }, 19.99), variant('6100000602', { ports: '7' }, 29.99)]),
    product('5100000007', 'Running Shoes', [
      variant('6100000701', { size: '8', color: 'white' }, 110.0),
      variant('6100000702', { size: '8.5', color: 'white' }, 110.0),
      variant('6100000703', { size: '9', color: 'white' }, 110.0),
      // Decoy for T16: size 8.5 as asked, but black.
      variant('6100000704', { size: '8.5', color: 'black' }, 113.49),
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
    noah_kim_2207: user('noah_kim_2207', 'Noah', 'Kim', 'noah.kim2207@example.com', addr('18 Pike Street', 'Apt 4', 'Seattle', 'WA', '98101'), [card('credit_card_2207001', 'visa', '1881')], ['#W2207415', '#W4419983']),
    olivia_chen_9022: user('olivia_chen_9022', 'Olivia', 'Chen', 'olivia.chen9022@example.com', addr('301 Valencia Street', '', 'San Francisco', 'CA', '94110'), [card('credit_card_9022001', 'mastercard', '4410'), gift('gift_card_9022002', 15.0)], ['#W7731204', '#W9022688']),
    liam_ortiz_5531: user('liam_ortiz_5531', 'Liam', 'Ortiz', 'liam.ortiz5531@example.com', addr('12 Wells Street', '', 'Chicago', 'IL', '60614'), [paypal('paypal_5531001')], ['#W9902117', '#W5531376']),
    grace_li_6610: user('grace_li_6610', 'Grace', 'Li', 'grace.li6610@example.com', addr('77 West 14th Street', 'Apt 9C', 'New York', 'NY', '10011'), [card('credit_card_6610001', 'visa', '7755')], ['#W6610293', '#W1188450']),
    ethan_ward_3380: user('ethan_ward_3380', 'Ethan', 'Ward', 'ethan.ward3380@example.com', addr('5 Peachtree Place', '', 'Atlanta', 'GA', '30303'), [card('credit_card_3380001', 'visa', '2020'), gift('gift_card_3380002', 20.0)], ['#W3380954', '#W5530021']),
    ...namesakes(),
  };
}

/** One namesake per seed customer: same first and last name, another id, email, address and zip. */
function namesakes(): Json {
  return {
    noah_kim_4815: user('noah_kim_4815', 'Noah', 'Kim', 'noah.kim4815@example.com', addr('902 Alder Street', '', 'Seattle', 'WA', '98103'), [card('credit_card_4815001', 'mastercard', '6204')], ['#W4815062']),
    olivia_chen_3371: user('olivia_chen_3371', 'Olivia', 'Chen', 'olivia.chen3371@example.com', addr('45 Cole Street', 'Unit 3', 'San Francisco', 'CA', '94117'), [paypal('paypal_3371001'), gift('gift_card_3371002', 37.18)], ['#W3371840']),
    liam_ortiz_8024: user('liam_ortiz_8024', 'Liam', 'Ortiz', 'liam.ortiz8024@example.com', addr('3300 Lake Shore Drive', 'Apt 7', 'Chicago', 'IL', '60657'), [card('credit_card_8024001', 'visa', '5532')], []),
    grace_li_1942: user('grace_li_1942', 'Grace', 'Li', 'grace.li1942@example.com', addr('410 Amsterdam Avenue', '', 'New York', 'NY', '10025'), [card('credit_card_1942001', 'visa', '3019')], ['#W1942557']),
    ethan_ward_7067: user('ethan_ward_7067', 'Ethan', 'Ward', 'ethan.ward7067@example.com', addr('18 Ponce de Leon Avenue', '', 'Atlanta', 'GA', '30308'), [paypal('paypal_7067001')], []),
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
    ...decoyOrders(p, u),
  };
}

/** Orders that look like the seed tasks' orders (same customer and item, or a namesake's); the gold paths leave them alone. */
function decoyOrders(p: Json, u: Json): Json {
  const P = (id: string) => p[id];
  const nk = namesakes();
  return {
    // T04: Noah's earlier delivered order with the same size-9 boots (and an earlier namesake's).
    '#W2207415': order('#W2207415', 'noah_kim_2207', u.noah_kim_2207.address, [item(P('5100000001'), '6100000101'), item(P('5100000006'), '6100000602')], 'delivered', 'credit_card_2207001', '410022070002'),
    '#W4815062': order('#W4815062', 'noah_kim_4815', nk.noah_kim_4815.address, [item(P('5100000002'), '6100000201')], 'delivered', 'credit_card_4815001', '410048150001'),
    // T05: Olivia's later delivered order with another Desk Lamp, and her namesake's order with the lamp and the hub.
    '#W9022688': order('#W9022688', 'olivia_chen_9022', u.olivia_chen_9022.address, [item(P('5100000005'), '6100000502'), item(P('5100000009'), '6100000901')], 'delivered', 'credit_card_9022001', '410090220002'),
    '#W3371840': order('#W3371840', 'olivia_chen_3371', nk.olivia_chen_3371.address, [item(P('5100000005'), '6100000501'), item(P('5100000006'), '6100000601')], 'delivered', 'paypal_3371001', '410033710001'),
    // T06: Liam's other pending order, also with a Mug Set.
    '#W5531376': order('#W5531376', 'liam_ortiz_5531', u.liam_ortiz_5531.address, [item(P('5100000004'), '6100000402'), item(P('5100000010'), '6100001001')], 'pending', 'paypal_5531001'),
    // T13: Grace's other pending order (a Tea Kettle too), and her namesake's pending order.
    '#W6610293': order('#W6610293', 'grace_li_6610', u.grace_li_6610.address, [item(P('5100000010'), '6100001001'), item(P('5100000003'), '6100000302')], 'pending', 'credit_card_6610001'),
    '#W1942557': order('#W1942557', 'grace_li_1942', nk.grace_li_1942.address, [item(P('5100000008'), '6100000801')], 'pending', 'credit_card_1942001'),
    // T16: Ethan's earlier delivered order with the same size-8 Running Shoes.
    '#W3380954': order('#W3380954', 'ethan_ward_3380', u.ethan_ward_3380.address, [item(P('5100000007'), '6100000701'), item(P('5100000004'), '6100000403')], 'delivered', 'credit_card_3380001', '410033800002'),
  };
}

/**
 * The decoys of every retail seed task: JSON paths (into the DB) of records that look like the
 * ones the task is about and that the gold path must leave untouched.
 */
export const RETAIL_SEED_DECOYS: Record<string, string[]> = {
  T04: ['/orders/#W2207415', '/products/5100000001/variants/6100000104', '/users/noah_kim_4815'],
  T05: ['/orders/#W9022688', '/orders/#W3371840', '/users/olivia_chen_3371'],
  T06: ['/orders/#W5531376', '/users/liam_ortiz_8024'],
  T13: ['/orders/#W6610293', '/users/grace_li_1942'],
  T16: ['/orders/#W3380954', '/products/5100000007/variants/6100000704', '/users/ethan_ward_7067'],
};
