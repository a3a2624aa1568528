/**
 * The banking back-end's write tools. Each checks what a real core-banking system would refuse
 * (unknown records, a pending transaction, a card already blocked or on order, an invalid
 * address) and leaves policy judgement to the agent: the window for disputes, provisional credit
 * eligibility and the fee waiver are the policy's rules (data/bank_policy.md), which tasks check.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { AddressSchema, BLOCK_REASONS, DISPUTE_REASONS, NOTE_CATEGORIES, OUTCOME_CODES, VERIFICATION_FIELDS } from './schema.js';
import { EXPEDITED_FEE_CENTS } from './rules.js';
import { cardIdArg, customerIdArg, must, today, transactionIdArg, type BankDb, type BankTool } from './tools-common.js';
import type { Account, Transaction } from './types.js';

/** Posts a transaction to an account and moves its balance. */
function post(db: BankDb, id: string, account: Account, fields: Pick<Transaction, 'kind' | 'description' | 'amount_cents'> & { on: string; related?: string }): Transaction {
  const t: Transaction = {
    transaction_id: id,
    account_id: account.account_id,
    card_id: null,
    posted_on: fields.on,
    authorized_on: fields.on,
    status: 'posted',
    kind: fields.kind,
    description: fields.description,
    amount_cents: fields.amount_cents,
    related_transaction_id: fields.related ?? null,
    dispute_id: null,
  };
  db.put('transactions', id, t);
  db.mut('accounts', account.account_id).balance_cents += fields.amount_cents;
  return t;
}

/** `open_dispute(transaction_id, reason)`: opens a dispute on one posted debit. */
export const openDispute: BankTool<{ transaction_id: string; reason: (typeof DISPUTE_REASONS)[number] }> = {
  name: 'open_dispute',
  description:
    'Open a dispute on one posted debit transaction. reason: fraud (the customer did not make or authorise it), billing_error, duplicate_charge or not_received. Refused for pending transactions, credits, and transactions already disputed. Returns the dispute {dispute_id, transaction_id, amount_cents, status, provisional_credit_cents}. Does not block the card or issue credit.',
  parameters: z.strictObject({ transaction_id: transactionIdArg, reason: z.enum(DISPUTE_REASONS) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ transaction_id, reason }, { state, now }) => {
    const t = must(state, 'transactions', transaction_id, 'Transaction');
    if (t.status !== 'posted') throw new ToolError(`Transaction ${transaction_id} is pending and cannot be disputed until it posts`);
    if (t.amount_cents >= 0) throw new ToolError(`Transaction ${transaction_id} is a credit and cannot be disputed`);
    if (t.dispute_id) throw new ToolError(`Transaction ${transaction_id} is already disputed (${t.dispute_id})`);
    const account = must(state, 'accounts', t.account_id, 'Account');
    const id = `DSP-${transaction_id.replace(/^TXN-/, '')}`;
    const dispute = { dispute_id: id, transaction_id, account_id: t.account_id, customer_id: account.customer_id, reason, amount_cents: -t.amount_cents, opened_on: today(now), status: 'open' as const, provisional_credit_cents: 0 };
    state.put('disputes', id, dispute);
    state.mut('transactions', transaction_id).dispute_id = id;
    return dispute;
  },
};

/** `issue_provisional_credit(dispute_id)`: credits the disputed amount while the dispute is open. */
export const issueProvisionalCredit: BankTool<{ dispute_id: string }> = {
  name: 'issue_provisional_credit',
  description:
    'Credit the full disputed amount to the account while an open dispute is investigated (policy 3.5 says when this is allowed). Refused when the dispute is closed or already credited. Returns the dispute.',
  parameters: z.strictObject({ dispute_id: z.string().describe("The dispute id, for example 'DSP-1'.") }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ dispute_id }, { state, now }) => {
    const d = must(state, 'disputes', dispute_id, 'Dispute');
    if (d.status !== 'open') throw new ToolError(`Dispute ${dispute_id} is ${d.status}`);
    if (d.provisional_credit_cents > 0) throw new ToolError(`Dispute ${dispute_id} already has provisional credit`);
    const account = must(state, 'accounts', d.account_id, 'Account');
    post(state, `${d.transaction_id}-PC`, account, { kind: 'provisional_credit', description: `Provisional credit, dispute ${dispute_id}`, amount_cents: d.amount_cents, on: today(now), related: d.transaction_id });
    const m = state.mut('disputes', dispute_id);
    m.provisional_credit_cents = d.amount_cents;
    return m;
  },
};

/** `block_card(card_id, reason)`: blocks a card at once; it cannot be unblocked. */
export const blockCard: BankTool<{ card_id: string; reason: (typeof BLOCK_REASONS)[number] }> = {
  name: 'block_card',
  description: 'Block a card immediately (reason: lost, stolen, fraud or damaged). A blocked card cannot be used or unblocked. Refused when the card is already blocked or closed. Returns the card.',
  parameters: z.strictObject({ card_id: cardIdArg, reason: z.enum(BLOCK_REASONS) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ card_id, reason }, { state, now }) => {
    const card = must(state, 'cards', card_id, 'Card');
    if (card.status === 'blocked' || card.status === 'closed') throw new ToolError(`Card ${card_id} is already ${card.status}`);
    if (card.status === 'ordered') throw new ToolError(`Card ${card_id} has not been activated yet`);
    const m = state.mut('cards', card_id);
    m.status = 'blocked';
    m.block_reason = reason;
    m.blocked_at = now;
    return m;
  },
};

/**
 * The next id `<prefix><n>` of a table (n = 1 + the number of ids with that prefix). Ids of new
 * records derive from their content (one dispute per transaction, one order per card, notes and
 * calls numbered per customer), so two agents doing the same writes in another order produce the
 * same state.
 */
function nthId(db: BankDb, table: 'security_notes' | 'call_log', prefix: string): string {
  return `${prefix}${db.ids(table).filter((id) => id.startsWith(prefix)).length + 1}`;
}

/** A deterministic last-four for a new card id. */
const lastFourOf = (id: string) => String(1000 + (parseInt(createHash('sha256').update(id).digest('hex').slice(0, 8), 16) % 9000));

/** `order_replacement_card(card_id, delivery, waive_expedited_fee?)`: ships to the mailing address on file. */
export const orderReplacementCard: BankTool<{ card_id: string; delivery: 'standard' | 'expedited'; waive_expedited_fee?: boolean }> = {
  name: 'order_replacement_card',
  description:
    "Order a replacement for a blocked card, shipped to the customer's mailing address on file (change the address first if it is wrong). delivery: standard (free, 7-10 business days) or expedited ($25.00 = 2500 cents, 2 business days, charged to the card's account unless waive_expedited_fee is true; policy 4.3 says who may have it waived). Refused when the card is not blocked or already has a replacement on order. Returns the order {order_id, new_card_id, delivery, fee_cents, fee_waived, ship_to, ordered_on, status}.",
  parameters: z.strictObject({ card_id: cardIdArg, delivery: z.enum(['standard', 'expedited']), waive_expedited_fee: z.boolean().optional() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ card_id, delivery, waive_expedited_fee }, { state, now }) => {
    const card = must(state, 'cards', card_id, 'Card');
    if (card.replacement_order_id) throw new ToolError(`Card ${card_id} already has replacement order ${card.replacement_order_id}`);
    if (card.status !== 'blocked') throw new ToolError(`Card ${card_id} is ${card.status}: block it before ordering a replacement`);
    if (waive_expedited_fee && delivery !== 'expedited') throw new ToolError('only an expedited delivery fee can be waived');
    const customer = must(state, 'customers', card.customer_id, 'Customer');
    const account = must(state, 'accounts', card.account_id, 'Account');
    const waived = delivery === 'expedited' && waive_expedited_fee === true;
    const fee = delivery === 'expedited' && !waived ? EXPEDITED_FEE_CENTS : 0;
    const orderId = `ORD-${card_id.replace(/^CRD-/, '')}`;
    const newCardId = `${card_id}-R`;
    const on = today(now);
    state.put('cards', newCardId, {
      card_id: newCardId,
      account_id: card.account_id,
      customer_id: card.customer_id,
      network: card.network,
      last4: lastFourOf(newCardId),
      status: 'ordered',
      block_reason: null,
      blocked_at: null,
      expires: `${Number(on.slice(0, 4)) + 4}-${on.slice(5, 7)}`,
      issued_on: null,
      replacement_order_id: null,
    });
    state.mut('accounts', account.account_id).card_ids.push(newCardId);
    const order = { order_id: orderId, customer_id: customer.customer_id, replaces_card_id: card_id, new_card_id: newCardId, delivery, fee_cents: fee, fee_waived: waived, ship_to: structuredClone(customer.mailing_address), ordered_on: on, status: 'ordered' as const };
    state.put('card_orders', orderId, order);
    state.mut('cards', card_id).replacement_order_id = orderId;
    if (fee > 0) post(state, `TXN-${orderId}-FEE`, account, { kind: 'fee', description: `Expedited card delivery, order ${orderId}`, amount_cents: -fee, on });
    return order;
  },
};

/** `update_mailing_address(customer_id, address)`: US addresses; validation errors name the field. */
export const updateMailingAddress: BankTool<{ customer_id: string; line1: string; line2?: string | null; city: string; state: string; zip: string }> = {
  name: 'update_mailing_address',
  description:
    "Replace a customer's mailing address (statements and cards go there). US addresses only: line1 (street and number), optional line2 (apartment or suite), city, state (two-letter code such as 'OR') and zip (five digits). Returns the customer's new mailing address.",
  parameters: z.strictObject({ customer_id: customerIdArg, line1: z.string(), line2: z.string().nullable().optional(), city: z.string(), state: z.string(), zip: z.string() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: (args, { state }) => {
    must(state, 'customers', args.customer_id, 'Customer');
    const address = { line1: args.line1.trim(), line2: args.line2?.trim() ? args.line2.trim() : null, city: args.city.trim(), state: args.state.trim().toUpperCase(), zip: args.zip.trim() };
    const r = AddressSchema.safeParse(address);
    if (!r.success) {
      const field = String(r.error.issues[0].path[0] ?? 'address');
      const what: Record<string, string> = { line1: 'a street address', city: 'a city', state: 'a two-letter state code', zip: 'a five-digit ZIP code' };
      throw new ToolError(`Invalid address: ${field} must be ${what[field] ?? 'valid'}`);
    }
    if (/\bp\.?\s*o\.?\s*box\b/i.test(address.line1)) throw new ToolError('Invalid address: cards cannot be mailed to a PO box; a street address is required');
    state.mut('customers', args.customer_id).mailing_address = r.data;
    return r.data;
  },
};

/** `add_security_note(customer_id, category, text)`. */
export const addSecurityNote: BankTool<{ customer_id: string; category: (typeof NOTE_CATEGORIES)[number]; text: string }> = {
  name: 'add_security_note',
  description:
    "Add a note to a customer's security file (category: unverified caller, fraud alert, vulnerable customer, general). Write what happened without account data (no balances or card numbers). Returns the note.",
  parameters: z.strictObject({ customer_id: customerIdArg, category: z.enum(NOTE_CATEGORIES), text: z.string().min(1) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ customer_id, category, text }, { state, now }) => {
    must(state, 'customers', customer_id, 'Customer');
    const id = nthId(state, 'security_notes', `NOTE-${customer_id}-`);
    const note = { note_id: id, customer_id, category, text, created_at: now };
    state.put('security_notes', id, note);
    return note;
  },
};

/** `refund_fee(transaction_id)`: reverses one posted fee in full. */
export const refundFee: BankTool<{ transaction_id: string }> = {
  name: 'refund_fee',
  description: 'Refund one posted fee transaction in full (kind fee). Refused for anything that is not a fee or for a fee already refunded. Returns the refund transaction.',
  parameters: z.strictObject({ transaction_id: transactionIdArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ transaction_id }, { state, now }) => {
    const t = must(state, 'transactions', transaction_id, 'Transaction');
    if (t.kind !== 'fee') throw new ToolError(`Transaction ${transaction_id} is not a fee`);
    const refunded = state.ids('transactions').some((id) => {
      const x = state.get('transactions', id)!;
      return x.kind === 'fee_refund' && x.related_transaction_id === transaction_id;
    });
    if (refunded) throw new ToolError(`Fee ${transaction_id} was already refunded`);
    const account = must(state, 'accounts', t.account_id, 'Account');
    return post(state, `${transaction_id}-RF`, account, { kind: 'fee_refund', description: `Refund: ${t.description}`, amount_cents: -t.amount_cents, on: today(now), related: transaction_id });
  },
};

/** `record_call_outcome(customer_id, outcome_code, verified_fields, notes)`: the call wrap-up record. */
export const recordCallOutcome: BankTool<{ customer_id: string; outcome_code: (typeof OUTCOME_CODES)[number]; verified_fields: (typeof VERIFICATION_FIELDS)[number][]; notes: string }> = {
  name: 'record_call_outcome',
  description:
    'Record the wrap-up of a call when the call script asks for it: outcome_code (RES-FULL resolved, RES-PART partly resolved, ESC-SUP escalated to a supervisor, UNV-FAIL caller failed verification, INFO-ONLY information only), the identity fields the caller answered correctly, and a short note without account data. Returns the call record.',
  parameters: z.strictObject({ customer_id: customerIdArg, outcome_code: z.enum(OUTCOME_CODES), verified_fields: z.array(z.enum(VERIFICATION_FIELDS)), notes: z.string() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ customer_id, outcome_code, verified_fields, notes }, { state, now }) => {
    must(state, 'customers', customer_id, 'Customer');
    const fields = [...new Set(verified_fields)];
    const id = nthId(state, 'call_log', `CALL-${customer_id}-`);
    const rec = { call_id: id, customer_id, outcome_code, verified_fields: fields, verified: fields.length >= 2, notes, logged_at: now };
    state.put('call_log', id, rec);
    return rec;
  },
};

/** The write tools, in the order the agent sees them. */
export const bankWriteTools: BankTool[] = [openDispute, issueProvisionalCredit, blockCard, orderReplacementCard, updateMailingAddress, addSecurityNote, refundFee, recordCallOutcome];
