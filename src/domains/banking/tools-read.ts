/**
 * The banking back-end's read tools: customer search, profile, identity verification, accounts,
 * transactions, cards and disputes. None changes the state. Errors are tool errors the agent sees.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { VERIFICATION_FIELDS } from './schema.js';
import { accountIdArg, cardIdArg, customerIdArg, isoDateArg, must, profileOf, transactionIdArg, type BankTool } from './tools-common.js';

/** `find_customers(first_name, last_name)`: every customer with that name (namesakes included), with city and ZIP to tell them apart. */
export const findCustomers: BankTool<{ first_name: string; last_name: string }> = {
  name: 'find_customers',
  description:
    'Find customers by first and last name (case-insensitive). Several customers can share a name: each match comes with its city, state and ZIP code so the caller can be told apart. Returns a list of {customer_id, first_name, last_name, city, state, zip}; an empty list when nobody matches.',
  parameters: z.strictObject({ first_name: z.string().min(1), last_name: z.string().min(1) }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ first_name, last_name }, { state }) =>
    state
      .ids('customers')
      .map((id) => state.get('customers', id)!)
      .filter((c) => c.first_name.toLowerCase() === first_name.trim().toLowerCase() && c.last_name.toLowerCase() === last_name.trim().toLowerCase())
      .map((c) => ({ customer_id: c.customer_id, first_name: c.first_name, last_name: c.last_name, city: c.mailing_address.city, state: c.mailing_address.state, zip: c.mailing_address.zip })),
};

/** `verify_identity(customer_id, ...factors)`: policy 1.1 — verified when at least two factors are given and every given factor matches. */
export const verifyIdentity: BankTool<{ customer_id: string; date_of_birth?: string; ssn_last4?: string; phone?: string; zip?: string }> = {
  name: 'verify_identity',
  description:
    "Check identity factors the caller gave against the customer's record: date_of_birth (YYYY-MM-DD), ssn_last4 (4 digits), phone (NNN-NNN-NNNN) and zip (the mailing address ZIP). Give only what the caller said. Returns {customer_id, verified, matched, mismatched}: verified is true when at least two factors were given and all of them match (policy 1.1). Never reveals the stored values.",
  parameters: z.strictObject({
    customer_id: customerIdArg,
    date_of_birth: isoDateArg.optional(),
    ssn_last4: z.string().regex(/^\d{4}$/, 'expected 4 digits').optional(),
    phone: z.string().optional(),
    zip: z.string().optional(),
  }),
  kind: 'read',
  requestor: 'assistant',
  invoke: (args, { state }) => {
    const c = must(state, 'customers', args.customer_id, 'Customer');
    const stored: Record<(typeof VERIFICATION_FIELDS)[number], string> = { date_of_birth: c.date_of_birth, ssn_last4: c.ssn_last4, phone: c.phone, zip: c.mailing_address.zip };
    const digits = (s: string) => s.replace(/\D/g, '');
    const matched: string[] = [];
    const mismatched: string[] = [];
    for (const f of VERIFICATION_FIELDS) {
      const given = args[f];
      if (given === undefined) continue;
      const ok = f === 'phone' ? digits(given) === digits(stored.phone) : given.trim() === stored[f];
      (ok ? matched : mismatched).push(f);
    }
    if (matched.length + mismatched.length === 0) throw new ToolError('give at least two identity factors to verify');
    return { customer_id: c.customer_id, verified: matched.length >= 2 && mismatched.length === 0, matched, mismatched };
  },
};

/** `get_customer_profile(customer_id)`: name, tier, contact details, mailing address, accounts and cards (last four digits only). */
export const getCustomerProfile: BankTool<{ customer_id: string }> = {
  name: 'get_customer_profile',
  description:
    "Get a customer's profile: name, tier (Standard, Plus, Premier), customer since, email, phone, mailing address, accounts (id, product, status) and cards (id, account, network, last four digits, status). Does not show date of birth or SSN digits. Share nothing from it with a caller who is not verified (policy 1.3).",
  parameters: z.strictObject({ customer_id: customerIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ customer_id }, { state }) => profileOf(state, must(state, 'customers', customer_id, 'Customer')),
};

/** `get_account(account_id)`: the account with its balance in cents. */
export const getAccount: BankTool<{ account_id: string }> = {
  name: 'get_account',
  description: 'Get an account: product, status, opening date, balance_cents (integer cents) and its card ids.',
  parameters: z.strictObject({ account_id: accountIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ account_id }, { state }) => must(state, 'accounts', account_id, 'Account'),
};

/** `list_transactions(account_id, from_date?, to_date?)`: newest first, by authorisation date. */
export const listTransactions: BankTool<{ account_id: string; from_date?: string; to_date?: string }> = {
  name: 'list_transactions',
  description:
    'List the transactions of an account, newest first, optionally between from_date and to_date (inclusive, by authorisation date, YYYY-MM-DD). Each has transaction_id, card_id, authorized_on, posted_on (null while pending), status, kind, description, amount_cents (debits negative) and dispute_id.',
  parameters: z.strictObject({ account_id: accountIdArg, from_date: isoDateArg.optional(), to_date: isoDateArg.optional() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ account_id, from_date, to_date }, { state }) => {
    must(state, 'accounts', account_id, 'Account');
    return state
      .ids('transactions')
      .map((id) => state.get('transactions', id)!)
      .filter((t) => t.account_id === account_id && (!from_date || t.authorized_on >= from_date) && (!to_date || t.authorized_on <= to_date))
      .sort((a, b) => (a.authorized_on === b.authorized_on ? a.transaction_id.localeCompare(b.transaction_id) : a.authorized_on < b.authorized_on ? 1 : -1));
  },
};

/** `get_transaction(transaction_id)`. */
export const getTransaction: BankTool<{ transaction_id: string }> = {
  name: 'get_transaction',
  description: 'Get one transaction by id (see list_transactions for the fields).',
  parameters: z.strictObject({ transaction_id: transactionIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ transaction_id }, { state }) => must(state, 'transactions', transaction_id, 'Transaction'),
};

/** `get_card(card_id)`: the card and, when one is open, its replacement order. */
export const getCard: BankTool<{ card_id: string }> = {
  name: 'get_card',
  description: 'Get a card: network, last four digits, status (active, blocked, ordered, closed), block reason, expiry, and its open replacement order if there is one.',
  parameters: z.strictObject({ card_id: cardIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ card_id }, { state }) => {
    const card = must(state, 'cards', card_id, 'Card');
    const order = card.replacement_order_id ? state.get('card_orders', card.replacement_order_id) ?? null : null;
    return { ...card, replacement_order: order };
  },
};

/** `list_disputes(customer_id)`. */
export const listDisputes: BankTool<{ customer_id: string }> = {
  name: 'list_disputes',
  description: "List a customer's disputes with their transaction, reason, amount_cents, opening date, status and provisional credit.",
  parameters: z.strictObject({ customer_id: customerIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ customer_id }, { state }) => {
    must(state, 'customers', customer_id, 'Customer');
    return state.ids('disputes').map((id) => state.get('disputes', id)!).filter((d) => d.customer_id === customer_id);
  },
};

/** The read tools, in the order the agent sees them. */
export const bankReadTools: BankTool[] = [findCustomers, verifyIdentity, getCustomerProfile, getAccount, listTransactions, getTransaction, getCard, listDisputes];
