/**
 * The retail DB: TypeScript types, the zod schema that loads tau2's retail `db.json`, and the
 * map of float positions that makes tool outputs and the DB hash print numbers as Python does.
 *
 * The shapes follow tau2-bench's retail pydantic models (`RetailDB` and the models under it):
 * - the top level (`products`, `users`, `orders`) forbids unknown keys, as tau2's `DB` base model
 *   does (`extra="forbid"`); nested models ignore unknown keys (pydantic's default), so they are
 *   dropped on load;
 * - parsing reproduces pydantic's `model_dump()`: keys in model field order, and an order's
 *   optional fields (`cancel_reason`, `exchange_*`, `return_*`) present as `null` when absent;
 * - money is in dollars as floats, as tau2 keeps it: variant and item prices, payment amounts,
 *   gift-card balances and exchange price differences (printed `46.0`, `0.04999999999999716`).
 *
 * Types are checked strictly (a string where a number belongs is an error, where pydantic's lax
 * mode would coerce `"100"`), so a malformed file is reported instead of silently repaired.
 */
import { z } from 'zod';
import type { PyTypeTree } from '../../util/pyjson.js';

/** Order statuses tau2 knows. Only `pending` orders can be cancelled or have items modified. */
export const ORDER_STATUSES = [
  'processed',
  'pending',
  'pending (item modified)',
  'delivered',
  'cancelled',
  'exchange requested',
  'return requested',
  // servicegym dataset only: an exchange and a return requested together on one delivered order.
  'exchange and return requested',
] as const;
/** An order's status. */
export type OrderStatus = (typeof ORDER_STATUSES)[number];
/** The two reasons `cancel_pending_order` accepts. */
export const CANCEL_REASONS = ['no longer needed', 'ordered by mistake'] as const;
/** A cancellation reason. */
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** One purchasable variant of a product: its options and price (dollars, float). */
export interface Variant {
  /** 10-digit id, also the key in `Product.variants`. */
  item_id: string;
  /** Option name → value, e.g. `{"color": "blue", "size": "M"}`. */
  options: Record<string, string>;
  available: boolean;
  price: number;
}
/** A product type with its variants keyed by item id. */
export interface Product {
  name: string;
  /** 10-digit id. */
  product_id: string;
  variants: Record<string, Variant>;
}

/** A person's name. */
export interface PersonName {
  first_name: string;
  last_name: string;
}
/** A postal address (`address2` may be the empty string). */
export interface Address {
  address1: string;
  address2: string;
  city: string;
  country: string;
  state: string;
  zip: string;
}
/** A saved credit card (no balance). */
export interface CreditCard {
  source: 'credit_card';
  id: string;
  brand: string;
  last_four: string;
}
/** A PayPal account (no balance). */
export interface Paypal {
  source: 'paypal';
  id: string;
}
/** A gift card with its balance in dollars (a float). */
export interface GiftCard {
  source: 'gift_card';
  id: string;
  balance: number;
}
/** A payment method in a user's profile, keyed by its id. */
export type PaymentMethod = CreditCard | Paypal | GiftCard;

/** A customer. */
export interface User {
  user_id: string;
  name: PersonName;
  /** The default shipping address. */
  address: Address;
  email: string;
  payment_methods: Record<string, PaymentMethod>;
  /** Order ids, oldest first. */
  orders: string[];
}

/** One item of an order: the variant bought and the price paid (dollars, float). */
export interface OrderItem {
  name: string;
  product_id: string;
  item_id: string;
  price: number;
  options: Record<string, string>;
}
/** A shipment: tracking ids and the item ids in it. */
export interface Fulfillment {
  tracking_id: string[];
  item_ids: string[];
}
/** A payment or refund of `amount` dollars (float, positive in both cases) on a payment method. */
export interface OrderPayment {
  transaction_type: 'payment' | 'refund';
  amount: number;
  payment_method_id: string;
}
/** An order (`#W` + 7 digits). The optional fields are null until a tool sets them. */
export interface Order {
  order_id: string;
  user_id: string;
  address: Address;
  items: OrderItem[];
  status: OrderStatus;
  fulfillments: Fulfillment[];
  payment_history: OrderPayment[];
  cancel_reason: CancelReason | null;
  /** Item ids to exchange, sorted. */
  exchange_items: string[] | null;
  /** Replacement item ids, sorted (independently of `exchange_items`). */
  exchange_new_items: string[] | null;
  exchange_payment_method_id: string | null;
  /** New minus old prices, rounded to cents (dollars, float; negative = refund). */
  exchange_price_difference: number | null;
  /** Item ids to return, sorted. */
  return_items: string[] | null;
  return_payment_method_id: string | null;
}

/** The whole DB: three tables keyed by product id, user id and order id. */
export type RetailDb = {
  products: Record<string, Product>;
  users: Record<string, User>;
  orders: Record<string, Order>;
};

// ---- zod schema (field order = pydantic model field order = model_dump order) ---------------

const options = z.record(z.string(), z.string());

const VariantSchema = z.object({ item_id: z.string(), options, available: z.boolean(), price: z.number() });

const ProductSchema = z.object({ name: z.string(), product_id: z.string(), variants: z.record(z.string(), VariantSchema) });

const AddressSchema = z.object({
  address1: z.string(),
  address2: z.string(),
  city: z.string(),
  country: z.string(),
  state: z.string(),
  zip: z.string(),
});

const PaymentMethodSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('credit_card'), id: z.string(), brand: z.string(), last_four: z.string() }),
  z.object({ source: z.literal('paypal'), id: z.string() }),
  z.object({ source: z.literal('gift_card'), id: z.string(), balance: z.number() }),
]);

const UserSchema = z.object({
  user_id: z.string(),
  name: z.object({ first_name: z.string(), last_name: z.string() }),
  address: AddressSchema,
  email: z.string(),
  payment_methods: z.record(z.string(), PaymentMethodSchema),
  orders: z.array(z.string()),
});

const nullable = <T extends z.ZodType>(t: T) => t.nullable().default(null);
const ids = z.array(z.string());

const OrderSchema = z.object({
  order_id: z.string(),
  user_id: z.string(),
  address: AddressSchema,
  items: z.array(z.object({ name: z.string(), product_id: z.string(), item_id: z.string(), price: z.number(), options })),
  status: z.enum(ORDER_STATUSES),
  fulfillments: z.array(z.object({ tracking_id: ids, item_ids: ids })),
  payment_history: z.array(z.object({ transaction_type: z.enum(['payment', 'refund']), amount: z.number(), payment_method_id: z.string() })),
  cancel_reason: nullable(z.enum(CANCEL_REASONS)),
  exchange_items: nullable(ids),
  exchange_new_items: nullable(ids),
  exchange_payment_method_id: nullable(z.string()),
  exchange_price_difference: nullable(z.number()),
  return_items: nullable(ids),
  return_payment_method_id: nullable(z.string()),
});

/** Schema of one record per table (used to validate records patched in by a task's initial state). */
export const RETAIL_RECORD_SCHEMAS: { [K in keyof RetailDb]: z.ZodType<RetailDb[K][string]> } = {
  products: ProductSchema as unknown as z.ZodType<Product>,
  users: UserSchema as unknown as z.ZodType<User>,
  orders: OrderSchema as unknown as z.ZodType<Order>,
};

/**
 * Schema of tau2's retail `db.json`. Parsing returns the normalised DB (model_dump field order,
 * nulls filled in, unknown nested keys dropped); an unknown top-level key is an error.
 */
export const RetailDbSchema: z.ZodType<RetailDb> = z.strictObject({
  products: z.record(z.string(), ProductSchema),
  users: z.record(z.string(), UserSchema),
  orders: z.record(z.string(), OrderSchema),
}) as unknown as z.ZodType<RetailDb>;

// ---- float positions for Python-style JSON ---------------------------------------------------

/** Float positions in a {@link Variant} (its price). */
export const VARIANT_TYPES: PyTypeTree = { price: 'float' };
/** Float positions in a {@link Product} (every variant's price). */
export const PRODUCT_TYPES: PyTypeTree = { variants: { '*': VARIANT_TYPES } };
/** Float positions in a {@link User} (gift-card balances). */
export const USER_TYPES: PyTypeTree = { payment_methods: { '*': { balance: 'float' } } };
/** Float positions in an {@link Order}: item prices, payment amounts, the exchange price difference. */
export const ORDER_TYPES: PyTypeTree = { items: [{ price: 'float' }], payment_history: [{ amount: 'float' }], exchange_price_difference: 'float' };
/** Float positions per table, by record. */
export const RETAIL_TABLE_RECORD_TYPES: Record<keyof RetailDb, PyTypeTree> = {
  products: PRODUCT_TYPES,
  users: USER_TYPES,
  orders: ORDER_TYPES,
};
/**
 * Float positions of the whole DB, as tau2's pydantic models type them. Found empirically: with
 * exactly these positions as floats (every price, amount, balance and price difference) and the
 * order's optional fields dumped as null, `sha256(json.dumps(db, sort_keys=True))` of the
 * pristine DB equals the reference `initial_db_hash` (`b25c9cb2…`); without the nulls it does not.
 */
export const RETAIL_DB_TYPES: PyTypeTree = {
  products: { '*': PRODUCT_TYPES },
  users: { '*': USER_TYPES },
  orders: { '*': ORDER_TYPES },
};
