/**
 * The Juniper & Oak catalogue (home goods) and the record builders the seed records and the
 * generator share. Prices in cents; product and item ids are 10 digits, as in the retail domain.
 */
import type { LineItem, Order, ShopCustomer } from '../schema.js';

/** One sellable variant. */
export interface CatalogueItem {
  product_id: string;
  item_id: string;
  title: string;
  options: Record<string, string>;
  unit_price_cents: number;
}

export const CATALOGUE: Record<string, CatalogueItem> = {
  throw: { product_id: '7310042210', item_id: '7310042211', title: 'Linen throw blanket', options: { color: 'oat' }, unit_price_cents: 8950 },
  mugs: { product_id: '7310042300', item_id: '7310042304', title: 'Stoneware mug set (4)', options: { glaze: 'speckled white' }, unit_price_cents: 3800 },
  pourover: { product_id: '7310042400', item_id: '7310042402', title: 'Ceramic pour-over dripper', options: { color: 'sand' }, unit_price_cents: 3275 },
  board: { product_id: '7310042500', item_id: '7310042501', title: 'Walnut serving board', options: { size: 'large' }, unit_price_cents: 6400 },
  candle: { product_id: '7310042600', item_id: '7310042607', title: 'Soy candle, cedar & fig', options: { size: '8 oz' }, unit_price_cents: 2490 },
  towels: { product_id: '7310042700', item_id: '7310042703', title: 'Cotton tea towels (3)', options: { pattern: 'stripe' }, unit_price_cents: 1995 },
  vase: { product_id: '7310042800', item_id: '7310042805', title: 'Hand-thrown bud vase', options: { color: 'moss' }, unit_price_cents: 4150 },
  planter: { product_id: '7310042900', item_id: '7310042906', title: 'Terracotta planter', options: { size: '6 in' }, unit_price_cents: 2725 },
};

export const SHIPPING = {
  standard: { code: 'standard' as const, title: 'Standard (3-6 business days)', price_cents: 895 },
  express: { code: 'express' as const, title: 'Express (1-2 business days)', price_cents: 1495 },
  free: { code: 'free' as const, title: 'Free standard shipping', price_cents: 0 },
};

/** What an order is built from. */
export interface OrderSpec {
  order_id: string;
  customer: ShopCustomer;
  placed_at: string;
  items: [keyof typeof CATALOGUE, number][];
  shipping: keyof typeof SHIPPING;
  fulfillment: Order['fulfillment'];
  /** A percentage code applied at checkout. */
  discount?: { code: string; percent_off: number };
}

/** An order (no refunds yet) from a spec: line ids `li-<order>-<n>`, totals summed. */
export function buildOrder(s: OrderSpec): Order {
  const line_items: LineItem[] = s.items.map(([key, quantity], i) => {
    const c = CATALOGUE[key];
    return { line_id: `li-${s.order_id}-${i + 1}`, product_id: c.product_id, item_id: c.item_id, title: c.title, options: { ...c.options }, quantity, unit_price_cents: c.unit_price_cents, refunded_quantity: 0 };
  });
  const subtotal = line_items.reduce((t, l) => t + l.quantity * l.unit_price_cents, 0);
  const shipping_line = { ...SHIPPING[s.shipping] };
  const discount = s.discount ? Math.round((subtotal * s.discount.percent_off) / 100) : 0;
  return {
    order_id: s.order_id,
    customer_id: s.customer.customer_id,
    email: s.customer.email,
    placed_at: s.placed_at,
    line_items,
    shipping_line,
    subtotal_cents: subtotal,
    discount_code: s.discount?.code ?? null,
    discount_cents: discount,
    total_cents: subtotal - discount + shipping_line.price_cents,
    refunded_cents: 0,
    shipping_refunded_cents: 0,
    financial_status: 'paid',
    fulfillment: s.fulfillment,
    shipping_address: { ...s.customer.address },
    refund_ids: [],
    notes: [],
  };
}

/** A delivered fulfillment. */
export const delivered = (carrier: string, tracking: string, shipped_on: string, promised_by: string, delivered_on: string): Order['fulfillment'] => ({ status: 'delivered', carrier, tracking_number: tracking, shipped_on, promised_by, delivered_on });
