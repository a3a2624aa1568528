/**
 * Helpers shared by the retail tools: record lookups with tau2's error messages, Python's list
 * semantics the tools rely on, argument schemas, and Python-style serialisation of results.
 */
import { z } from 'zod';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import { pyString } from '../../util/pyjson.js';
import { pythonKeyOrder } from '../common/json-key-order.js';
import { dumpResult } from '../common/py-output.js';
import type { RetailState } from './state.js';
import { ORDER_TYPES, USER_TYPES, VARIANT_TYPES, type Order, type PaymentMethod, type Product, type RetailDb, type User, type Variant } from './schema.js';

/** A retail tool over the episode's copy-on-write DB. */
export type RetailTool<A = any> = ToolDef<RetailState, A>;

const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

/** The user; throws `User not found`. */
export function getUser(db: RetailState, userId: string): User {
  const u = db.get('users', userId);
  if (!u) throw new ToolError('User not found');
  return u;
}

/** The order; throws `Order not found`. */
export function getOrder(db: RetailState, orderId: string): Order {
  const o = db.get('orders', orderId);
  if (!o) throw new ToolError('Order not found');
  return o;
}

/** The product; throws `Product not found`. */
export function getProduct(db: RetailState, productId: string): Product {
  const p = db.get('products', productId);
  if (!p) throw new ToolError('Product not found');
  return p;
}

/** A variant of a product; throws `Product not found` or `Variant not found`. */
export function getVariant(db: RetailState, productId: string, itemId: string): Variant {
  const p = getProduct(db, productId);
  if (!has(p.variants, itemId)) throw new ToolError('Variant not found');
  return p.variants[itemId];
}

/** A saved payment method of a user; throws `User not found` or `Payment method not found`. */
export function getPaymentMethod(db: RetailState, userId: string, paymentMethodId: string): PaymentMethod {
  const u = getUser(db, userId);
  if (!has(u.payment_methods, paymentMethodId)) throw new ToolError('Payment method not found');
  return u.payment_methods[paymentMethodId];
}

/** Python's `list.count(x)`. */
export const countOf = (list: readonly string[], x: string): number => list.reduce((n, y) => n + (y === x ? 1 : 0), 0);

/** Python's `sorted()` of strings (by code point; equal to UTF-16 order on BMP text). */
export const pySorted = (list: readonly string[]): string[] => [...list].sort();

/** `list[0]` as Python does it: throws Python's IndexError message on an empty list. */
export function first<T>(list: readonly T[]): T {
  if (list.length === 0) throw new ToolError('list index out of range');
  return list[0];
}

/**
 * Ids of `table` in tau2's dict order: the file's order (remembered for dicts with integer-like
 * keys, see `json-key-order.ts`; otherwise JavaScript's insertion order), then any added ids.
 */
export function idsInDbOrder(db: RetailState, table: keyof RetailDb): string[] {
  const ids = db.ids(table);
  const present = new Set(ids);
  const out = pythonKeyOrder(db.base[table]).filter((id) => present.has(id));
  const listed = new Set(out);
  for (const id of ids) if (!listed.has(id)) out.push(id);
  return out;
}

/** Whether `rec` is the shared base record `table/id` (never mutated, so its dumps can be cached). */
export const isBaseRecord = (db: RetailState, table: keyof RetailDb, id: string, rec: object): boolean => has(db.base[table], id) && db.base[table][id] === rec;
const baseDumps = new WeakMap<object, string>();

/**
 * `dump(value)`, cached per process when `value` is (part of) a shared base record — `fromBase`,
 * see {@link isBaseRecord}; base records never change — and computed afresh otherwise.
 */
export function cachedDump<V extends object>(value: V, fromBase: boolean, dump: (v: V) => string): string {
  if (!fromBase) return dump(value);
  let s = baseDumps.get(value);
  if (s === undefined) baseDumps.set(value, (s = dump(value)));
  return s;
}

/** `dump(rec)` of the record `table/id` of the view, cached when it is the base's ({@link cachedDump}). */
export function dumpRecord<R extends object>(db: RetailState, table: keyof RetailDb, id: string, rec: R, dump: (r: R) => string): string {
  return cachedDump(rec, isBaseRecord(db, table, id, rec), dump);
}

/** A product as tau2 prints it: model field order, variants in dict order, prices as floats. */
export function dumpProduct(p: Product): string {
  const variants = pythonKeyOrder(p.variants).map((id) => `${pyString(id)}: ${dumpResult(p.variants[id], VARIANT_TYPES)}`);
  return `{"name": ${pyString(p.name)}, "product_id": ${pyString(p.product_id)}, "variants": {${variants.join(', ')}}}`;
}

/** An order as tau2 prints it (model field order, nulls, prices and amounts as floats). */
export const dumpOrder = (o: Order): string => dumpResult(o, ORDER_TYPES);
/** A user as tau2 prints it (gift-card balances as floats). */
export const dumpUser = (u: User): string => dumpResult(u, USER_TYPES);

// ---- argument schemas (descriptions are what the model reads) ------------------------------

/** `user_id` argument. */
export const userIdArg = z.string().describe("The customer's user id, for example 'sara_doe_496'.");
/** `order_id` argument. */
export const orderIdArg = z.string().describe("The order id, '#W' followed by 7 digits, for example '#W0000000'. Include the '#'.");
/** `product_id` argument. */
export const productIdArg = z.string().describe("The product id (10 digits), for example '6086499569'. Not the same as an item id.");
/** `item_id` argument. */
export const itemIdArg = z.string().describe("The item id of one product variant (10 digits), for example '1008292230'.");
/** `payment_method_id` argument. */
export const paymentMethodIdArg = z
  .string()
  .describe("Id of a payment method saved in the user's profile, for example 'credit_card_0000000', 'paypal_0000000' or 'gift_card_0000000'.");
/** A list of item ids in an order (a repeated id means that many units). */
export const itemIdsArg = (what: string) => z.array(z.string()).describe(what);

/** The address fields of the address-changing tools, in tau2's argument order. */
export const addressArgs = {
  address1: z.string().describe('First address line, for example \'123 Main St\'.'),
  address2: z.string().describe("Second address line, for example 'Apt 1'; an empty string when there is none."),
  city: z.string().describe("City, for example 'San Francisco'."),
  state: z.string().describe("State or province code, for example 'CA'."),
  country: z.string().describe("Country, for example 'USA'."),
  zip: z.string().describe("Postal code, for example '12345'."),
};
