/**
 * The banking back-end's state (servicegym's own domain; seed tasks T08, T14 and, through the
 * legacy desktop CRM, T20). Plain JSON, validated on load. Money is integer cents (USD); dates are
 * ISO `YYYY-MM-DD` and times ISO `YYYY-MM-DDTHH:MM:SS` in US Eastern time (America/New_York).
 *
 * Tables are keyed by id: customers, accounts, cards, transactions, disputes, card orders,
 * security notes and the call log (outcome codes and verification flags recorded at call wrap-up).
 */
import { z } from 'zod';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD');
const isoTime = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/, 'an ISO time YYYY-MM-DDTHH:MM:SS (US Eastern)');
const cents = z.number().int();

export const TIERS = ['Standard', 'Plus', 'Premier'] as const;
export const ACCOUNT_PRODUCTS = ['Basic Checking', 'Student Checking', 'Everyday Checking', 'Premier Checking', 'Savings'] as const;
export const BLOCK_REASONS = ['lost', 'stolen', 'fraud', 'damaged'] as const;
export const DISPUTE_REASONS = ['fraud', 'billing_error', 'duplicate_charge', 'not_received'] as const;
export const NOTE_CATEGORIES = ['unverified caller', 'fraud alert', 'vulnerable customer', 'general'] as const;
export const OUTCOME_CODES = ['RES-FULL', 'RES-PART', 'ESC-SUP', 'UNV-FAIL', 'INFO-ONLY'] as const;
export const VERIFICATION_FIELDS = ['date_of_birth', 'ssn_last4', 'phone', 'zip'] as const;

export const AddressSchema = z.strictObject({
  line1: z.string().min(1),
  line2: z.string().nullable(),
  city: z.string().min(1),
  state: z.string().regex(/^[A-Z]{2}$/),
  zip: z.string().regex(/^\d{5}$/),
});
export type Address = z.infer<typeof AddressSchema>;

export const CustomerSchema = z.strictObject({
  customer_id: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: isoDate,
  ssn_last4: z.string().regex(/^\d{4}$/),
  phone: z.string().regex(/^\d{3}-\d{3}-\d{4}$/),
  email: z.string(),
  tier: z.enum(TIERS),
  customer_since: isoDate,
  mailing_address: AddressSchema,
  account_ids: z.array(z.string()),
});
export type Customer = z.infer<typeof CustomerSchema>;

export const AccountSchema = z.strictObject({
  account_id: z.string(),
  customer_id: z.string(),
  product: z.enum(ACCOUNT_PRODUCTS),
  status: z.enum(['open', 'frozen', 'closed']),
  opened_on: isoDate,
  balance_cents: cents,
  card_ids: z.array(z.string()),
});
export type Account = z.infer<typeof AccountSchema>;

export const CardSchema = z.strictObject({
  card_id: z.string(),
  account_id: z.string(),
  customer_id: z.string(),
  network: z.enum(['Visa', 'Mastercard']),
  last4: z.string().regex(/^\d{4}$/),
  status: z.enum(['active', 'blocked', 'ordered', 'closed']),
  block_reason: z.enum(BLOCK_REASONS).nullable(),
  blocked_at: isoTime.nullable(),
  expires: z.string().regex(/^\d{4}-\d{2}$/),
  issued_on: isoDate.nullable(),
  /** The open replacement order for this card, if any (policy 4.4: one per card). */
  replacement_order_id: z.string().nullable(),
});
export type Card = z.infer<typeof CardSchema>;

export const TransactionSchema = z.strictObject({
  transaction_id: z.string(),
  account_id: z.string(),
  card_id: z.string().nullable(),
  posted_on: isoDate.nullable(),
  authorized_on: isoDate,
  status: z.enum(['pending', 'posted']),
  kind: z.enum(['card_purchase', 'atm_withdrawal', 'transfer', 'deposit', 'fee', 'fee_refund', 'provisional_credit']),
  description: z.string(),
  /** Signed: a debit is negative, a credit positive. */
  amount_cents: cents,
  /** For card purchases abroad: the foreign-fee transaction it caused. */
  related_transaction_id: z.string().nullable(),
  dispute_id: z.string().nullable(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const DisputeSchema = z.strictObject({
  dispute_id: z.string(),
  transaction_id: z.string(),
  account_id: z.string(),
  customer_id: z.string(),
  reason: z.enum(DISPUTE_REASONS),
  /** The disputed amount, positive cents. */
  amount_cents: cents,
  opened_on: isoDate,
  status: z.enum(['open', 'resolved_customer', 'resolved_merchant']),
  provisional_credit_cents: cents,
});
export type Dispute = z.infer<typeof DisputeSchema>;

export const CardOrderSchema = z.strictObject({
  order_id: z.string(),
  customer_id: z.string(),
  replaces_card_id: z.string(),
  new_card_id: z.string(),
  delivery: z.enum(['standard', 'expedited']),
  /** The expedited-delivery fee charged (0 for standard or when waived). */
  fee_cents: cents,
  fee_waived: z.boolean(),
  ship_to: AddressSchema,
  ordered_on: isoDate,
  status: z.enum(['ordered', 'shipped', 'delivered']),
});
export type CardOrder = z.infer<typeof CardOrderSchema>;

export const SecurityNoteSchema = z.strictObject({
  note_id: z.string(),
  customer_id: z.string(),
  category: z.enum(NOTE_CATEGORIES),
  text: z.string(),
  created_at: isoTime,
});
export type SecurityNote = z.infer<typeof SecurityNoteSchema>;

export const CallRecordSchema = z.strictObject({
  call_id: z.string(),
  customer_id: z.string(),
  outcome_code: z.enum(OUTCOME_CODES),
  /** The verification fields the caller answered correctly (policy 1.1). */
  verified_fields: z.array(z.enum(VERIFICATION_FIELDS)),
  verified: z.boolean(),
  notes: z.string(),
  logged_at: isoTime,
});
export type CallRecord = z.infer<typeof CallRecordSchema>;

export const BankStateSchema = z.strictObject({
  customers: z.record(z.string(), CustomerSchema),
  accounts: z.record(z.string(), AccountSchema),
  cards: z.record(z.string(), CardSchema),
  transactions: z.record(z.string(), TransactionSchema),
  disputes: z.record(z.string(), DisputeSchema),
  card_orders: z.record(z.string(), CardOrderSchema),
  security_notes: z.record(z.string(), SecurityNoteSchema),
  call_log: z.record(z.string(), CallRecordSchema),
});
export type BankState = z.infer<typeof BankStateSchema>;
