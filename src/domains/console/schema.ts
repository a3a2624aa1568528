/**
 * The service console's records (Halden Home Appliances' customer service, November 2026):
 * accounts, contacts, products, assets with purchase dates, entitlements (warranty and extended
 * protection), cases, return orders (RMAs), activity tasks (logged calls) and the case feed.
 * Dates are ISO `YYYY-MM-DD`; money in cents. Free text people write (case descriptions, call
 * comments, feed posts) lives beside the records, in the feed and `notes` (see state.ts).
 */
import { z } from 'zod';

export const CASE_STATUSES = ['New', 'Working', 'Awaiting Return', 'Waiting on Customer', 'Closed'] as const;
export const CASE_PRIORITIES = ['Low', 'Medium', 'High'] as const;
export const CASE_ORIGINS = ['Phone', 'Email', 'Web'] as const;
export const ENTITLEMENT_CHECKS = ['Not Checked', 'In Warranty', 'Out of Warranty', 'Not Covered - Exclusion'] as const;
export const RESOLUTIONS = ['', 'Advance Replacement', 'Paid Repair Offered', 'Duplicate', 'Information Given'] as const;
export const RMA_TYPES = ['Advance Replacement', 'Return for Repair'] as const;
export const RMA_REASONS = ['Defective under warranty', 'Dead on arrival', 'Repair under warranty'] as const;
export const CALL_RESULTS = ['Resolved', 'Follow-up needed', 'Left voicemail'] as const;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

export const AccountSchema = z.strictObject({ id: z.string(), name: z.string(), phone: z.string(), city: z.string(), ship_to: z.string() });
export const ContactSchema = z.strictObject({ id: z.string(), account_id: z.string(), first_name: z.string(), last_name: z.string(), email: z.string(), phone: z.string() });
export const ProductSchema = z.strictObject({ id: z.string(), name: z.string(), sku: z.string(), warranty_months: z.number().int(), repair_fee_cents: z.number().int() });
export const AssetSchema = z.strictObject({ id: z.string(), account_id: z.string(), contact_id: z.string(), product_id: z.string(), serial_number: z.string(), purchase_date: isoDate, status: z.enum(['Installed', 'Returned', 'Replaced']) });
export const EntitlementSchema = z.strictObject({ id: z.string(), asset_id: z.string(), account_id: z.string(), name: z.string(), kind: z.enum(['Standard Warranty', 'Extended Protection']), start_date: isoDate, end_date: isoDate });
export const CaseSchema = z.strictObject({
  number: z.string().regex(/^\d{8}$/),
  account_id: z.string(),
  contact_id: z.string(),
  asset_id: z.string().nullable(),
  subject: z.string(),
  status: z.enum(CASE_STATUSES),
  priority: z.enum(CASE_PRIORITIES),
  origin: z.enum(CASE_ORIGINS),
  opened: isoDate,
  entitlement_check: z.enum(ENTITLEMENT_CHECKS),
  entitlement_id: z.string().nullable(),
  resolution: z.enum(RESOLUTIONS),
  parent_case: z.string().nullable(),
});
export const ReturnOrderSchema = z.strictObject({ id: z.string(), case_number: z.string(), account_id: z.string(), asset_id: z.string(), type: z.enum(RMA_TYPES), reason: z.enum(RMA_REASONS), ship_to: z.string(), status: z.enum(['Submitted', 'Shipped', 'Received']), created: isoDate });
export const TaskRecordSchema = z.strictObject({ id: z.string(), case_number: z.string(), type: z.enum(['Call', 'Follow-up']), subject: z.string(), status: z.enum(['Completed', 'Open']), result: z.enum(CALL_RESULTS).nullable(), due: isoDate });
/** A case feed entry (the case's activity stream; an audit trail, not compared). */
export const FeedItemSchema = z.strictObject({ case_number: z.string(), at: z.string(), kind: z.enum(['post', 'call', 'change', 'return_order']), body: z.string() });

export type Account = z.infer<typeof AccountSchema>;
export type Contact = z.infer<typeof ContactSchema>;
export type Product = z.infer<typeof ProductSchema>;
export type Asset = z.infer<typeof AssetSchema>;
export type Entitlement = z.infer<typeof EntitlementSchema>;
export type Case = z.infer<typeof CaseSchema>;
export type ReturnOrder = z.infer<typeof ReturnOrderSchema>;
export type TaskRecord = z.infer<typeof TaskRecordSchema>;
export type FeedItem = z.infer<typeof FeedItemSchema>;

/** The console's tables by id (cases by their 8-digit number). */
export type ConsoleTables = {
  accounts: Record<string, Account>;
  contacts: Record<string, Contact>;
  products: Record<string, Product>;
  assets: Record<string, Asset>;
  entitlements: Record<string, Entitlement>;
  cases: Record<string, Case>;
  return_orders: Record<string, ReturnOrder>;
  tasks: Record<string, TaskRecord>;
};

export const ConsoleTablesSchema = z.strictObject({
  accounts: z.record(z.string(), AccountSchema),
  contacts: z.record(z.string(), ContactSchema),
  products: z.record(z.string(), ProductSchema),
  assets: z.record(z.string(), AssetSchema),
  entitlements: z.record(z.string(), EntitlementSchema),
  cases: z.record(z.string(), CaseSchema),
  return_orders: z.record(z.string(), ReturnOrderSchema),
  tasks: z.record(z.string(), TaskRecordSchema),
});

/** The objects the console's list views, record pages and search know. */
export const OBJECTS = ['cases', 'accounts', 'contacts', 'assets', 'entitlements', 'return_orders', 'tasks'] as const;
export type ConsoleObject = (typeof OBJECTS)[number];
