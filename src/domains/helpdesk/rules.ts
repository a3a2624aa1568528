/**
 * The customer-service policy's formulas (data/cs_policy.md) and the shop's own rules, as pure
 * functions. Money in integer cents, dates ISO `YYYY-MM-DD`. Tools enforce only what the shop or
 * helpdesk software itself refuses; the policy is the agent's to apply, and tasks check it.
 */
import { createHash } from 'node:crypto';
import type { Order } from './schema.js';

/** Policy 2.1: a delivery after the promised date is late; 2.2: five or more days late also earns a code. */
export const LATE_CODE_MIN_DAYS = 5;
/** Policy 2.2: the apology code is 10% off, single use (seed task T18). */
export const LATE_CODE_PERCENT = 10;
/** Policy 3.1: items may be returned for a refund within 30 days of delivery. */
export const RETURN_WINDOW_DAYS = 30;
/** Policy 4.2: the most a service-recovery code may take off. */
export const MAX_RECOVERY_PERCENT = 15;

/** Whole calendar days from ISO date `from` to ISO date `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/**
 * Policy 2.1: days an order was delivered after its promised date (0 when on time or early; null
 * while undelivered). Seed T18: promised 2026-11-09, delivered 2026-11-15 → 6.
 */
export function daysLate(order: Pick<Order, 'fulfillment'>): number | null {
  const f = order.fulfillment;
  if (!f.delivered_on) return null;
  return Math.max(0, daysBetween(f.promised_by, f.delivered_on));
}

/** Shipping still refundable on an order (charged minus refunded), in cents. */
export function refundableShippingCents(order: Pick<Order, 'shipping_line' | 'shipping_refunded_cents'>): number {
  return order.shipping_line.price_cents - order.shipping_refunded_cents;
}

/** `$1,234.56` for cents (negative amounts with a leading minus). */
export function formatUsd(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * The shop's generated discount code for the `n`-th code (1-based) issued for `scope` (an order
 * number, a customer id, or `shop`): `prefix` + 6 characters from a hash, no 0/O/1/I. Depends only
 * on the scope and the count, never on the discount's terms, so the code an agent is shown is the
 * same whichever terms it chose (seed T18: the first code for order 1207).
 */
export function generatedCode(scope: string, n: number, prefix = 'SORRY'): string {
  const digest = createHash('sha256').update(`${scope}|${n}`).digest();
  let out = '';
  for (let i = 0; i < 6; i++) out += CODE_ALPHABET[digest[i] % CODE_ALPHABET.length];
  return `${prefix}-${out}`;
}

/** The `{{name}}` variables of a macro body, in order of first use. */
export function macroVariables(body: string): string[] {
  return [...new Set([...body.matchAll(/\{\{\s*([a-z0-9_.]+)\s*\}\}/gi)].map((m) => m[1]))];
}

/**
 * A macro body with its variables filled from `values` (missing ones left as `{{name}}`, which
 * the helpdesk then refuses to send: policy 1.3, every variable filled).
 */
export function renderMacro(body: string, values: Readonly<Record<string, string>>): string {
  return body.replace(/\{\{\s*([a-z0-9_.]+)\s*\}\}/gi, (whole, name: string) => {
    const v = values[name];
    return v !== undefined && v.trim() !== '' ? v.trim() : whole;
  });
}
