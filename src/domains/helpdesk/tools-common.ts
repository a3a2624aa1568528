/**
 * Shared pieces of the helpdesk domain's back-end operations: the state type (a copy-on-write
 * view of the shop's and the helpdesk's tables), record look-ups that fail as tool errors, and
 * argument schemas.
 */
import { z } from 'zod';
import type { CowDb } from '../../env/cow-db.js';
import type { ToolDef } from '../../spec/tool.js';
import { recordOrToolError } from '../common/record-lookup.js';
import type { HelpdeskTables } from './schema.js';

export type { HelpdeskTables } from './schema.js';
/** An episode's state: the shop's and the helpdesk's tables. */
export type HelpdeskDb = CowDb<HelpdeskTables>;
/** One back-end operation of the domain. */
export type HelpdeskTool<A = any> = ToolDef<HelpdeskDb, A>;

/** The record or a tool error `<Label> <id> not found`. */
export const must = <K extends keyof HelpdeskTables>(db: HelpdeskDb, table: K, id: string, label: string): HelpdeskTables[K][string] => recordOrToolError(db, table, id, label);

/** An order number as the shop keys it: `#1207`, ` 1207 ` → `1207`. */
export const orderKey = (id: string): string => id.trim().replace(/^#/, '');
/** A ticket number as the helpdesk keys it: `#5521` → `5521`. */
export const ticketKey = (id: string): string => id.trim().replace(/^#/, '');

/** The order, looked up by number with or without `#`; a tool error when unknown. */
export const mustOrder = (db: HelpdeskDb, id: string) => must(db, 'orders', orderKey(id), 'Order');
/** The ticket, looked up by number with or without `#`; a tool error when unknown. */
export const mustTicket = (db: HelpdeskDb, id: string) => must(db, 'tickets', ticketKey(id), 'Ticket');

export const orderIdArg = z.string().min(1).describe("The order number, for example '1207' (a leading '#' is accepted).");
export const ticketIdArg = z.string().min(1).describe("The ticket number, for example '5521' (a leading '#' is accepted).");
export const customerIdArg = z.string().min(1).describe("The shop customer id, for example 'cus_4471'.");
