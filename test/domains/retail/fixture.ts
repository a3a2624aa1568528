/**
 * A tiny hand-made retail DB (not taken from tau2's data) for tool tests that run without
 * ../shared: two products (variant ids deliberately out of numeric order, one above 2^32), one
 * user with a card, a PayPal account and a gift card, and orders in each relevant status.
 * Written as JSON text, because the text order of integer-like keys is part of what is tested.
 */
import { Environment } from '../../../src/env/environment.js';
import { createRetailDomain, parseRetailDb, type RetailState } from '../../../src/domains/retail/index.js';
import type { Domain } from '../../../src/spec/domain.js';

const address = (zip: string) => `{"address1": "1 Main St", "address2": "", "city": "Austin", "country": "USA", "state": "TX", "zip": "${zip}"}`;
const tee = (id: string, color: string, price: number) =>
  `{"name": "T-Shirt", "product_id": "1000000001", "item_id": "${id}", "price": ${price}, "options": {"color": "${color}", "size": "M"}}`;
const mug = (id: string, capacity: string, price: number) =>
  `{"name": "Mug", "product_id": "1000000002", "item_id": "${id}", "price": ${price}, "options": {"capacity": "${capacity}"}}`;
const order = (id: string, status: string, items: string[], payments: [number, string][], extra = '') =>
  `"${id}": {"order_id": "${id}", "user_id": "ana_lee_1", "address": ${address('78701')}, "items": [${items.join(', ')}], "status": "${status}", "fulfillments": [], "payment_history": [${payments
    .map(([amount, pm]) => `{"transaction_type": "payment", "amount": ${amount}, "payment_method_id": "${pm}"}`)
    .join(', ')}]${extra}}`;

/** The fixture's `db.json` text (keys of `products` and `variants` not in numeric order). */
export const FIXTURE_TEXT = `{
  "products": {
    "1000000002": {"name": "Mug", "product_id": "1000000002", "variants": {
      "3000000001": {"item_id": "3000000001", "options": {"capacity": "350ml"}, "available": true, "price": 12.34},
      "3000000002": {"item_id": "3000000002", "options": {"capacity": "500ml"}, "available": true, "price": 15}
    }},
    "1000000001": {"name": "T-Shirt", "product_id": "1000000001", "variants": {
      "2000000002": {"item_id": "2000000002", "options": {"color": "red", "size": "M"}, "available": true, "price": 20.5},
      "2000000001": {"item_id": "2000000001", "options": {"color": "blue", "size": "M"}, "available": true, "price": 19.99},
      "2000000003": {"item_id": "2000000003", "options": {"color": "green", "size": "L"}, "available": false, "price": 25},
      "9000000001": {"item_id": "9000000001", "options": {"color": "black", "size": "S"}, "available": true, "price": 21.1}
    }}
  },
  "users": {
    "ana_lee_1": {"user_id": "ana_lee_1", "name": {"first_name": "Ana", "last_name": "Lee"}, "address": ${address('78701')}, "email": "Ana.Lee@example.com",
      "payment_methods": {
        "credit_card_1": {"source": "credit_card", "id": "credit_card_1", "brand": "visa", "last_four": "1234"},
        "paypal_1": {"source": "paypal", "id": "paypal_1"},
        "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 10.1}
      },
      "orders": ["#W0000001", "#W0000002", "#W0000003", "#W0000004"]}
  },
  "orders": {
    ${order('#W0000001', 'pending', [tee('2000000002', 'red', 7.86), mug('3000000001', '350ml', 12.34)], [[20.2, 'gift_card_1']])},
    ${order('#W0000002', 'delivered', [tee('2000000001', 'blue', 19.99), tee('2000000001', 'blue', 19.99), mug('3000000002', '500ml', 15)], [[54.98, 'credit_card_1']])},
    ${order('#W0000003', 'pending', [tee('2000000002', 'red', 20.5), mug('3000000001', '350ml', 12.34)], [[32.84, 'paypal_1']])},
    ${order('#W0000004', 'processed', [mug('3000000002', '500ml', 15)], [[15, 'credit_card_1']])}
  }
}`;

/** The fixture as a domain (validated through the real schema, with the text's key order). */
export function fixtureDomain(): Domain<RetailState> {
  return createRetailDomain({ db: parseRetailDb(JSON.parse(FIXTURE_TEXT), 'fixture.json', FIXTURE_TEXT), policy: 'fixture policy' });
}

/** A fresh environment over the fixture, with a `call(name, args)` shortcut. */
export function fixtureEnv(domain = fixtureDomain()) {
  const env = new Environment(domain, { now: '1970-01-01T00:00:00' });
  let n = 0;
  const call = (name: string, args: Record<string, unknown> = {}) =>
    env.execute({ id: `c${n++}`, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  return { env, call, domain };
}
