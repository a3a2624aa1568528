/**
 * The helpdesk's client of the shop's internal API (the shop integration): HTTP requests from the
 * helpdesk's server to the shop app's handler, with the integration token — never from the browser.
 */
import type { WebFetch } from '../../../surfaces/web-app.js';
import type { DiscountCode, Order, Refund, RefundReason } from '../schema.js';

/** A customer as the shop's API returns it. */
export interface ShopCustomerView {
  customer_id: string;
  name: { first_name: string; last_name: string };
  email: string;
  created_on: string;
  orders: { order_id: string; placed_at: string; total_cents: number; refunded_cents: number; financial_status: string; fulfillment_status: string; promised_by: string; delivered_on: string | null }[];
}

export type ShopOrderView = Order & { refunds: Refund[] };

/** An API answer: the value, or the shop's error message. */
export type ShopResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** The shop integration of one episode. */
export class ShopClient {
  constructor(
    private readonly shopFetch: WebFetch,
    private readonly token: string,
  ) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ShopResult<T>> {
    try {
      const res = await this.shopFetch(new Request(`http://shop.internal/internal/api${path}`, {
        method,
        headers: { 'x-integration-token': this.token, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }));
      const json = (await res.json()) as T & { error?: string };
      return res.ok ? { ok: true, value: json } : { ok: false, error: json.error ?? `shop answered ${res.status}` };
    } catch (e) {
      return { ok: false, error: `the shop could not be reached (${(e as Error).message})` };
    }
  }

  customerByEmail(email: string): Promise<ShopResult<ShopCustomerView>> {
    return this.call('GET', `/customers?email=${encodeURIComponent(email)}`);
  }
  order(id: string): Promise<ShopResult<ShopOrderView>> {
    return this.call('GET', `/orders/${encodeURIComponent(id)}`);
  }
  refund(id: string, body: { line_items: { line_id: string; quantity: number }[]; shipping_cents: number; reason: RefundReason }): Promise<ShopResult<Refund>> {
    return this.call('POST', `/orders/${encodeURIComponent(id)}/refunds`, body);
  }
  codesOf(customerId: string): Promise<ShopResult<DiscountCode[]>> {
    return this.call('GET', `/discount_codes?customer_id=${encodeURIComponent(customerId)}`);
  }
  createCode(body: { percent_off: number; usage_limit: number | null; once_per_customer: boolean; customer_id: string | null; order_id: string | null; code: null }): Promise<ShopResult<DiscountCode>> {
    return this.call('POST', '/discount_codes', body);
  }
}
