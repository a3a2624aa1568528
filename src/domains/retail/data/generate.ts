/**
 * servicegym's own retail dataset, generated reproducibly from a seed: products with variants,
 * customers with payment methods, and orders in every status — in tau2's retail `db.json` shape,
 * so the same tools and hash apply. The records the seed tasks name are laid over it by
 * `seed-records.ts`. Ids stay above 2^32 so JavaScript keeps their insertion order.
 */
import { Rng } from '../../../util/rng.js';

export type Json = Record<string, any>;

/** "now" of the dataset (EST). */
export const SERVICEGYM_RETAIL_NOW = '2026-10-14T15:00:00';

const CATALOGUE: [name: string, options: Record<string, string[]>, low: number, high: number][] = [
  ['T-Shirt', { color: ['black', 'white', 'navy'], size: ['S', 'M', 'L', 'XL'] }, 14, 29],
  ['Backpack', { color: ['grey', 'olive'], capacity: ['20L', '30L'] }, 45, 95],
  ['Yoga Mat', { thickness: ['4mm', '6mm'], color: ['purple', 'teal'] }, 20, 45],
  ['Headphones', { type: ['over-ear', 'on-ear'], connectivity: ['wired', 'wireless'] }, 40, 220],
  ['Wall Clock', { style: ['modern', 'classic'], diameter: ['25cm', '35cm'] }, 18, 60],
  ['Phone Case', { model: ['A15', 'A16', 'B9'], color: ['clear', 'black'] }, 9, 25],
  ['Table Lamp', { shade: ['linen', 'glass'], color: ['brass', 'black'] }, 30, 85],
  ['Sunglasses', { frame: ['round', 'square'], lens: ['polarized', 'tinted'] }, 25, 140],
  ['Cutting Board', { material: ['bamboo', 'walnut'], size: ['medium', 'large'] }, 16, 58],
  ['Bike Light', { lumens: ['400', '800'], mount: ['bar', 'helmet'] }, 19, 49],
];

const FIRST = ['Ava', 'Mason', 'Zoe', 'Kai', 'Nora', 'Ravi', 'Lucia', 'Owen', 'Mei', 'Tomas', 'Sara', 'Idris', 'Hana', 'Felix'];
const LAST = ['Patel', 'Moreau', 'Adeyemi', 'Larsen', 'Ito', 'Costa', 'Novak', 'Hughes', 'Bauer', 'Singh', 'Reyes'];
const PLACES: [city: string, state: string, zip: string][] = [['Portland', 'OR', '97205'], ['Austin', 'TX', '78704'], ['Denver', 'CO', '80206'], ['Atlanta', 'GA', '30307'], ['Boston', 'MA', '02116']];
const STREETS = ['Alder Street', 'Pine Road', 'Birch Lane', 'River Walk', 'Hill Avenue'];

/** All option combinations of a product, in a fixed order. */
function combos(options: Record<string, string[]>): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [k, vs] of Object.entries(options)) out = out.flatMap((o) => vs.map((v) => ({ ...o, [k]: v })));
  return out;
}

const cents = (x: number) => Math.round(x * 100) / 100;

/** Generates products, users and orders. Same seed, same DB (deep-equal, same key order). */
export function generateRetailDb(seed = 2027, sizes = { users: 50, orders: 110 }): Json {
  const rng = new Rng(seed);
  const products: Json = {};
  let itemNo = 7200000000;
  CATALOGUE.forEach(([name, options, low, high], i) => {
    const productId = String(5300000000 + i * 17);
    const variants: Json = {};
    for (const o of combos(options)) {
      const itemId = String(itemNo++);
      variants[itemId] = { item_id: itemId, options: o, available: rng.chance(0.8), price: cents(low + rng.next() * (high - low)) };
    }
    products[productId] = { name, product_id: productId, variants };
  });
  const users: Json = {};
  for (let i = 0; i < sizes.users; i++) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const userId = `${first.toLowerCase()}_${last.toLowerCase()}_${3000 + i}`;
    const [city, state, zip] = rng.pick(PLACES);
    const payment_methods: Json = {};
    const kind = rng.int(0, 2);
    if (kind === 0) payment_methods[`credit_card_${8100000 + i}`] = { source: 'credit_card', id: `credit_card_${8100000 + i}`, brand: rng.pick(['visa', 'mastercard']), last_four: String(rng.int(1000, 9999)) };
    if (kind === 1) payment_methods[`paypal_${8200000 + i}`] = { source: 'paypal', id: `paypal_${8200000 + i}` };
    if (kind === 2 || rng.chance(0.3)) payment_methods[`gift_card_${8300000 + i}`] = { source: 'gift_card', id: `gift_card_${8300000 + i}`, balance: cents(rng.int(0, 200) + rng.next()) };
    users[userId] = {
      user_id: userId,
      name: { first_name: first, last_name: last },
      address: { address1: `${rng.int(10, 999)} ${rng.pick(STREETS)}`, address2: rng.chance(0.3) ? `Unit ${rng.int(1, 30)}` : '', city, country: 'USA', state, zip },
      email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@example.com`,
      payment_methods,
      orders: [],
    };
  }
  const orders: Json = {};
  const userIds = Object.keys(users);
  const productIds = Object.keys(products);
  const statuses = ['pending', 'pending', 'processed', 'delivered', 'delivered', 'cancelled'];
  for (let i = 0; i < sizes.orders; i++) {
    const orderId = `#W${6000000 + i * 37}`;
    const user = users[rng.pick(userIds)];
    const items = Array.from({ length: rng.int(1, 3) }, () => {
      const p = products[rng.pick(productIds)];
      const v = p.variants[rng.pick(Object.keys(p.variants))];
      return { name: p.name, product_id: p.product_id, item_id: v.item_id, price: v.price, options: v.options };
    });
    const status = rng.pick(statuses);
    const method = Object.keys(user.payment_methods)[0];
    const total = cents(items.reduce((s, it) => s + it.price, 0));
    const history: Json[] = [{ transaction_type: 'payment', amount: total, payment_method_id: method }];
    if (status === 'cancelled') history.push({ transaction_type: 'refund', amount: total, payment_method_id: method });
    orders[orderId] = {
      order_id: orderId,
      user_id: user.user_id,
      address: user.address,
      items,
      status,
      fulfillments: status === 'delivered' || status === 'processed' ? [{ tracking_id: [String(rng.int(100000000000, 999999999999))], item_ids: items.map((it) => it.item_id) }] : [],
      payment_history: history,
      ...(status === 'cancelled' ? { cancel_reason: rng.pick(['no longer needed', 'ordered by mistake']) } : {}),
    };
    user.orders.push(orderId);
  }
  return { products, users, orders };
}
