/**
 * Shared pieces of the banking tools: the state type (a copy-on-write view of the bank's
 * tables), record look-ups that fail as tool errors, and argument schemas.
 */
import { recordOrToolError } from '../common/record-lookup.js';
import { z } from 'zod';
import type { CowDb } from '../../env/cow-db.js';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import type { Account, Card, CardOrder, CallRecord, Customer, Dispute, SecurityNote, Transaction } from './types.js';

/** The bank's tables by id. */
export type BankTables = {
  customers: Record<string, Customer>;
  accounts: Record<string, Account>;
  cards: Record<string, Card>;
  transactions: Record<string, Transaction>;
  disputes: Record<string, Dispute>;
  card_orders: Record<string, CardOrder>;
  security_notes: Record<string, SecurityNote>;
  call_log: Record<string, CallRecord>;
};
/** An episode's bank state. */
export type BankDb = CowDb<BankTables>;
/** A banking tool. */
export type BankTool<A = any> = ToolDef<BankDb, A>;

/** The record or a tool error `<Label> <id> not found` (see recordOrToolError). */
export const must = <K extends keyof BankTables>(db: BankDb, table: K, id: string, label: string): BankTables[K][string] => recordOrToolError(db, table, id, label);

/** The ISO date of the environment's "now". */
export const today = (now: string): string => now.slice(0, 10);

export const customerIdArg = z.string().describe("The customer's id, for example 'ben_ross_604'.");
export const accountIdArg = z.string().describe("The account id, for example 'ACC-60401'.");
export const cardIdArg = z.string().describe("The card id, for example 'CRD-60401'.");
export const transactionIdArg = z.string().describe("The transaction id, for example 'TXN-8841207'.");
export const isoDateArg = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date YYYY-MM-DD');

/** A customer's public profile line (no date of birth, no SSN digits). */
export function profileOf(db: BankDb, c: Customer): Record<string, unknown> {
  return {
    customer_id: c.customer_id,
    first_name: c.first_name,
    last_name: c.last_name,
    tier: c.tier,
    customer_since: c.customer_since,
    email: c.email,
    phone: c.phone,
    mailing_address: c.mailing_address,
    accounts: c.account_ids.map((id) => {
      const a = db.get('accounts', id);
      return a ? { account_id: a.account_id, product: a.product, status: a.status } : { account_id: id };
    }),
    cards: c.account_ids.flatMap((id) =>
      (db.get('accounts', id)?.card_ids ?? []).map((cid) => {
        const card = db.get('cards', cid);
        return card ? { card_id: card.card_id, account_id: card.account_id, network: card.network, last4: card.last4, status: card.status } : { card_id: cid };
      }),
    ),
  };
}
