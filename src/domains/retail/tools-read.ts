/**
 * The retail read tools (tau2 semantics; they never change the DB).
 *
 * The `find_*` tools return the bare user id; the `get_*` tools return the Python `json.dumps`
 * of tau2's model (field order, nulls, floats; products and variants in the file's dict order);
 * `list_all_product_types` returns a name → id object with sorted keys.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { dumpResult } from '../common/py-output.js';
import { pyDumps } from '../../util/pyjson.js';
import { pythonKeyOrder } from '../common/json-key-order.js';
import { VARIANT_TYPES, type User } from './schema.js';
import type { RetailState } from './state.js';
import {
  dumpOrder,
  dumpProduct,
  dumpUser,
  getOrder,
  getProduct,
  getUser,
  itemIdArg,
  orderIdArg,
  productIdArg,
  idsInDbOrder,
  dumpRecord,
  cachedDump,
  isBaseRecord,
  userIdArg,
  type RetailTool,
} from './tools-common.js';

/** Per base users table: first user id (dict order) per lower-cased email and per name + zip. */
interface UserIndex {
  byEmail: Map<string, string>;
  byNameZip: Map<string, string>;
}
const userIndexes = new WeakMap<object, UserIndex>();
const nameZipKey = (first: string, last: string, zip: string) => `${first.toLowerCase()}\u0000${last.toLowerCase()}\u0000${zip}`;

/**
 * The first user id, in dict order, whose record matches: through an index of the shared base
 * (built once per process) when the view has not written any user, by a scan otherwise.
 */
function findUser(db: RetailState, key: (u: User) => string, want: string, pick: (ix: UserIndex) => Map<string, string>): string {
  if (!db.touched().has('users')) {
    let ix = userIndexes.get(db.base.users);
    if (!ix) {
      ix = { byEmail: new Map(), byNameZip: new Map() };
      for (const id of pythonKeyOrder(db.base.users)) {
        const u = db.base.users[id];
        if (!ix.byEmail.has(u.email.toLowerCase())) ix.byEmail.set(u.email.toLowerCase(), id);
        const nz = nameZipKey(u.name.first_name, u.name.last_name, u.address.zip);
        if (!ix.byNameZip.has(nz)) ix.byNameZip.set(nz, id);
      }
      userIndexes.set(db.base.users, ix);
    }
    const hit = pick(ix).get(want);
    if (hit !== undefined) return hit;
  } else {
    for (const id of idsInDbOrder(db, 'users')) if (key(db.get('users', id)!) === want) return id;
  }
  throw new ToolError('User not found');
}

/**
 * `find_user_id_by_email`: the id of the first user (DB order) whose email equals `email`
 * ignoring case. Error `User not found`.
 */
export const findUserIdByEmail: RetailTool<{ email: string }> = {
  name: 'find_user_id_by_email',
  description: "Find a customer's user id from their email address (case does not matter). Use it to authenticate the customer.",
  parameters: z.strictObject({ email: z.string().describe("The customer's email address, for example 'something@example.com'.") }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ email }, { state: db }) => findUser(db, (u) => u.email.toLowerCase(), email.toLowerCase(), (ix) => ix.byEmail),
};

/**
 * `find_user_id_by_name_zip`: the id of the first user (DB order) whose first and last names
 * equal the arguments ignoring case and whose address zip equals `zip` exactly. Error `User not
 * found`.
 */
export const findUserIdByNameZip: RetailTool<{ first_name: string; last_name: string; zip: string }> = {
  name: 'find_user_id_by_name_zip',
  description:
    "Find a customer's user id from their first name, last name and zip code (names match regardless of case). Use it to authenticate the customer when they cannot give their email.",
  parameters: z.strictObject({
    first_name: z.string().describe("The customer's first name, for example 'John'."),
    last_name: z.string().describe("The customer's last name, for example 'Doe'."),
    zip: z.string().describe("The zip code of the customer's default address, for example '12345'."),
  }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ first_name, last_name, zip }, { state: db }) =>
    findUser(db, (u) => nameZipKey(u.name.first_name, u.name.last_name, u.address.zip), nameZipKey(first_name, last_name, zip), (ix) => ix.byNameZip),
};

/** `get_user_details`: the user's profile. Error `User not found`. */
export const getUserDetails: RetailTool<{ user_id: string }> = {
  name: 'get_user_details',
  description: "Look up a customer's profile: name, default address, email, saved payment methods (with gift card balances) and order ids.",
  parameters: z.strictObject({ user_id: userIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ user_id }, { state }) => dumpRecord(state, 'users', user_id, getUser(state, user_id), dumpUser),
};

/** `get_order_details`: the order with every field (unset optional fields null). Error `Order not found`. */
export const getOrderDetails: RetailTool<{ order_id: string }> = {
  name: 'get_order_details',
  description:
    'Look up an order: shipping address, items (product, item id, options, price paid), status, shipments, payment history, and any cancellation, exchange or return details.',
  parameters: z.strictObject({ order_id: orderIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ order_id }, { state }) => dumpRecord(state, 'orders', order_id, getOrder(state, order_id), dumpOrder),
};

/** `get_product_details`: the product with all its variants. Error `Product not found`. */
export const getProductDetails: RetailTool<{ product_id: string }> = {
  name: 'get_product_details',
  description: 'Look up a product type and all its variants: item id, options, whether it is available, and price.',
  parameters: z.strictObject({ product_id: productIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ product_id }, { state }) => dumpRecord(state, 'products', product_id, getProduct(state, product_id), dumpProduct),
};

/**
 * `get_item_details`: the variant with this item id, searching products in DB order.
 * Error `Item not found`.
 */
export const getItemDetails: RetailTool<{ item_id: string }> = {
  name: 'get_item_details',
  description: 'Look up one product variant by its item id: options, whether it is available, and price.',
  parameters: z.strictObject({ item_id: itemIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ item_id }, { state: db }) => {
    for (const id of idsInDbOrder(db, 'products')) {
      const p = db.get('products', id)!;
      if (Object.prototype.hasOwnProperty.call(p.variants, item_id)) {
        return cachedDump(p.variants[item_id], isBaseRecord(db, 'products', id, p), (v) => dumpResult(v, VARIANT_TYPES));
      }
    }
    throw new ToolError('Item not found');
  },
};

/**
 * `list_all_product_types`: `{product name: product id}` for every product, keys sorted (a name
 * shared by two products keeps the later product's id, as a Python dict built in DB order does).
 */
export const listAllProductTypes: RetailTool<Record<string, never>> = {
  name: 'list_all_product_types',
  description: 'List every product type the store sells, as product name and product id.',
  parameters: z.strictObject({}),
  kind: 'read',
  requestor: 'assistant',
  invoke: (_a, { state: db }) => {
    const byName: Record<string, string> = {};
    for (const id of idsInDbOrder(db, 'products')) {
      const p = db.get('products', id)!;
      Object.defineProperty(byName, p.name, { value: p.product_id, enumerable: true, writable: true, configurable: true });
    }
    return pyDumps(byName, { sortKeys: true, ensureAscii: true });
  },
};
