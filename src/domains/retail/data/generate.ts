/**
 * servicegym's own retail dataset, generated reproducibly from a seed: the products of
 * `catalogue.ts` with every option combination as a variant (prices to the cent, never a round
 * dollar or half dollar), customers with payment methods (names from small pools, so namesakes
 * are common; a few zip codes per city, so zips are shared), and orders in every status tau2
 * knows — in tau2's retail `db.json` shape, so the same tools and hash apply. The records the
 * seed tasks name are laid over it by `seed-records.ts`.
 *
 * Records are built in the schema's normalised form (model field order, optional order fields
 * as null), so they need no schema pass at start-up. Ids stay above 2^32 so JavaScript keeps
 * their insertion order.
 */
import { Rng } from '../../../util/rng.js';
import { CATALOGUE } from './catalogue.js';

export type Json = Record<string, any>;

/** "now" of the dataset (EST). */
export const SERVICEGYM_RETAIL_NOW = '2026-10-14T15:00:00';

const FIRST = [
  'Ava', 'Mason', 'Zoe', 'Kai', 'Nora', 'Ravi', 'Lucia', 'Owen', 'Mei', 'Tomas', 'Sara', 'Idris', 'Hana', 'Felix', 'Noah', 'Olivia',
  'Liam', 'Grace', 'Ethan', 'Amelia', 'Yusuf', 'Chloe', 'Daniel', 'Priya', 'Leo', 'Fatima', 'Isabel', 'Marcus',
];
const LAST = ['Patel', 'Moreau', 'Adeyemi', 'Larsen', 'Ito', 'Costa', 'Novak', 'Hughes', 'Bauer', 'Singh', 'Reyes', 'Kim', 'Chen', 'Li', 'Ortiz', 'Ward', 'Nguyen', 'Garcia'];
/** City, state and the zip codes customers there share. */
const PLACES: [city: string, state: string, zips: string[]][] = [
  ['Portland', 'OR', ['97205', '97209']], ['Austin', 'TX', ['78704', '78701']], ['Denver', 'CO', ['80206', '80203']], ['Atlanta', 'GA', ['30307', '30303']],
  ['Boston', 'MA', ['02116', '02118']], ['Seattle', 'WA', ['98101', '98103']], ['San Francisco', 'CA', ['94110', '94117']], ['Chicago', 'IL', ['60614', '60611']],
  ['New York', 'NY', ['10011', '10025', '10001']], ['Phoenix', 'AZ', ['85004']], ['Columbus', 'OH', ['43215']], ['Charlotte', 'NC', ['28202', '28205']],
];
const STREETS = ['Alder Street', 'Pine Road', 'Birch Lane', 'River Walk', 'Hill Avenue', 'Main Street', 'Park Avenue', 'Lake Shore Drive', 'Elm Street', 'Willow Way'];
/** Order statuses with their weights (tau2's mix: mostly pending and delivered). */
const STATUSES: [string, number][] = [
  ['pending', 36], ['processed', 11], ['delivered', 33], ['cancelled', 10], ['pending (item modified)', 4], ['exchange requested', 3], ['return requested', 3],
];

/** All option combinations of a product, in a fixed order. */
function combos(options: Record<string, string[]>): Record<string, string>[] {
  let out: Record<string, string>[] = [{}];
  for (const [k, vs] of Object.entries(options)) out = out.flatMap((o) => vs.map((v) => ({ ...o, [k]: v })));
  return out;
}

/** Dollars rounded to cents (floating point, as tau2 stores money). */
export const cents = (x: number) => Math.round(x * 100) / 100;

/** A price in dollars within [low, high], to the cent, never a multiple of $0.50. */
function price(rng: Rng, low: number, high: number): number {
  let c = rng.int(low * 100, high * 100);
  if (c % 50 === 0) c += 13;
  return c / 100;
}

function weighted<T>(rng: Rng, xs: [T, number][]): T {
  let r = rng.next() * xs.reduce((s, [, w]) => s + w, 0);
  for (const [x, w] of xs) if ((r -= w) < 0) return x;
  return xs[xs.length - 1][0];
}

/** Products `5300000000 + 17 i` with variants `7200000000…`; about 80% of variants available. */
function makeProducts(rng: Rng): Json {
  const products: Json = {};
  let itemNo = 7200000000;
  CATALOGUE.forEach(([name, options, low, high], i) => {
    const productId = String(5300000000 + i * 17);
    const variants: Json = {};
    for (const o of combos(options)) {
      const itemId = String(itemNo);
      itemNo += rng.int(1, 9);
      variants[itemId] = { item_id: itemId, options: o, available: rng.chance(0.8), price: price(rng, low, high) };
    }
    products[productId] = { name, product_id: productId, variants };
  });
  return products;
}

function makeUsers(rng: Rng, count: number, reserved: Set<string>): Json {
  const users: Json = {};
  const usedIds = new Set<number>();
  const nextId = () => {
    let n = 0;
    do n = rng.int(1000000, 9999999);
    while (usedIds.has(n));
    usedIds.add(n);
    return n;
  };
  for (let made = 0; made < count; ) {
    const first = rng.pick(FIRST);
    const last = rng.pick(LAST);
    const userId = `${first.toLowerCase()}_${last.toLowerCase()}_${rng.int(1000, 9999)}`;
    if (users[userId] || reserved.has(userId)) continue;
    const [city, state, zips] = rng.pick(PLACES);
    const payment_methods: Json = {};
    const card = rng.chance(0.6);
    const paypal = !card || rng.chance(0.25);
    if (card) {
      const id = `credit_card_${nextId()}`;
      payment_methods[id] = { source: 'credit_card', id, brand: rng.pick(['visa', 'mastercard', 'amex']), last_four: String(rng.int(1000, 9999)) };
    }
    if (paypal) {
      const id = `paypal_${nextId()}`;
      payment_methods[id] = { source: 'paypal', id };
    }
    if (rng.chance(0.35)) {
      const id = `gift_card_${nextId()}`;
      payment_methods[id] = { source: 'gift_card', id, balance: rng.int(0, 25000) / 100 };
    }
    users[userId] = {
      user_id: userId,
      name: { first_name: first, last_name: last },
      address: { address1: `${rng.int(10, 9999)} ${rng.pick(STREETS)}`, address2: rng.chance(0.3) ? `Suite ${rng.int(100, 999)}` : '', city, country: 'USA', state, zip: rng.pick(zips) },
      email: `${first.toLowerCase()}.${last.toLowerCase()}${userId.slice(-4)}@example.com`,
      payment_methods,
      orders: [],
    };
    made++;
  }
  return users;
}

const orderItem = (p: Json, v: Json) => ({ name: p.name, product_id: p.product_id, item_id: v.item_id, price: v.price, options: v.options });
const sortedIds = (xs: string[]) => [...xs].sort();

/** Another variant of the same product (available), or undefined. */
function otherVariant(rng: Rng, p: Json, itemId: string): Json | undefined {
  const vs = Object.values(p.variants as Json).filter((v: Json) => v.item_id !== itemId && v.available);
  return vs.length ? rng.pick(vs) : undefined;
}

/** One order of `user` in a status drawn from {@link STATUSES}, with the fields that status implies. */
function makeOrder(rng: Rng, orderId: string, user: Json, products: Json[]): Json {
  const lines = Array.from({ length: rng.pick([1, 1, 2, 2, 2, 3, 3, 4, 5]) }, () => {
    const p = rng.pick(products);
    return { p, v: (p.variants as Json)[rng.pick(Object.keys(p.variants))] };
  });
  const items = lines.map(({ p, v }) => orderItem(p, v));
  const status = weighted(rng, STATUSES);
  const method = rng.pick(Object.keys(user.payment_methods));
  const total = cents(items.reduce((s, it) => s + it.price, 0));
  const shipped = status !== 'pending' && status !== 'pending (item modified)' && status !== 'cancelled';
  const o: Json = {
    order_id: orderId, user_id: user.user_id, address: { ...user.address }, items, status,
    fulfillments: shipped ? [{ tracking_id: [String(rng.int(100000000000, 999999999999))], item_ids: items.map((it) => it.item_id) }] : [],
    payment_history: [{ transaction_type: 'payment', amount: total, payment_method_id: method }],
    cancel_reason: null, exchange_items: null, exchange_new_items: null, exchange_payment_method_id: null, exchange_price_difference: null, return_items: null, return_payment_method_id: null,
  };
  if (status === 'cancelled') {
    o.payment_history.push({ transaction_type: 'refund', amount: total, payment_method_id: method });
    o.cancel_reason = rng.pick(['no longer needed', 'ordered by mistake']);
  }
  const k = rng.int(0, items.length - 1);
  const swap = otherVariant(rng, lines[k].p, items[k].item_id);
  if (status === 'pending (item modified)' && swap) {
    const diff = cents(swap.price - items[k].price);
    items[k] = orderItem(lines[k].p, swap);
    if (diff !== 0) o.payment_history.push({ transaction_type: diff > 0 ? 'payment' : 'refund', amount: Math.abs(diff), payment_method_id: method });
  }
  if (!swap && (status === 'exchange requested' || status === 'pending (item modified)')) o.status = status === 'exchange requested' ? 'delivered' : 'pending';
  if (status === 'exchange requested' && swap) {
    o.exchange_items = [items[k].item_id];
    o.exchange_new_items = [swap.item_id];
    o.exchange_payment_method_id = method;
    o.exchange_price_difference = cents(swap.price - items[k].price);
  }
  if (status === 'return requested') {
    o.return_items = sortedIds(items.slice(0, rng.int(1, items.length)).map((it) => it.item_id));
    o.return_payment_method_id = method;
  }
  return o;
}

/** How many records to generate (the defaults exceed tau2's retail scale: 50 products, 500 users, 1,000 orders). */
export interface RetailSizes {
  users: number;
  orders: number;
}
export const RETAIL_SIZES: RetailSizes = { users: 600, orders: 1200 };

/**
 * Generates products, users and orders. Same seed, same DB (deep-equal, same key order). User
 * ids and order ids (`#W` + 7 digits) are unique and never one of `reservedIds`.
 */
export function generateRetailDb(seed = 2027, sizes: RetailSizes = RETAIL_SIZES, reservedIds: Iterable<string> = []): Json {
  const rng = new Rng(seed);
  const reserved = new Set(reservedIds);
  const products = makeProducts(rng);
  const users = makeUsers(rng, sizes.users, reserved);
  const orders: Json = {};
  const userIds = Object.keys(users);
  const productList = Object.values(products);
  for (let made = 0; made < sizes.orders; ) {
    const orderId = `#W${rng.int(1000000, 9999999)}`;
    if (orders[orderId] || reserved.has(orderId)) continue;
    const user = users[rng.pick(userIds)];
    orders[orderId] = makeOrder(rng, orderId, user, productList);
    user.orders.push(orderId);
    made++;
  }
  return { products, users, orders };
}
