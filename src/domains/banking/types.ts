/** Type aliases of the banking schema used across the domain. */
import type { Customer, Dispute } from './schema.js';

export type { Account, Address, BankState, Card, CardOrder, CallRecord, Customer, Dispute, SecurityNote, Transaction } from './schema.js';
export type CustomerTier = Customer['tier'];
export type DisputeReason = Dispute['reason'];
