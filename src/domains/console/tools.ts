/**
 * The console's back-end operations. The agent never calls them: the console's pages and forms do,
 * through the web surface, so each lands in the action log with the click that caused it. The gold
 * actions of the tasks are these operations, and the gold replay runs them directly.
 *
 * Reads: `search_console`, `list_records`, `get_record`, `lookup_records`. Writes: `update_case`,
 * `create_return_order`, `log_call`, `post_to_feed`, `create_case`, `create_task` (a follow-up).
 * Writes validate what a CRM validates (known
 * records, picklist values, a closed case needs a resolution, a duplicate needs its parent case);
 * whether a write is within the warranty policy is for the checks to judge, not the back-end.
 */
import { z } from 'zod';
import { ToolError, type ToolDef } from '../../spec/tool.js';
import { recordOrToolError } from '../common/record-lookup.js';
import { CALL_RESULTS, CASE_ORIGINS, CASE_PRIORITIES, CASE_STATUSES, ENTITLEMENT_CHECKS, OBJECTS, RESOLUTIONS, RMA_REASONS, RMA_TYPES, type Case, type ConsoleObject, type ConsoleTables } from './schema.js';
import type { ConsoleState, ConsoleStore } from './state.js';

export type ConsoleTool<A = any> = ToolDef<ConsoleState, A>;

/** Rows per list page. */
export const PAGE_SIZE = 10;

const must = <K extends keyof ConsoleTables>(db: ConsoleStore, table: K, id: string, label: string) => recordOrToolError(db, table, id, label);
const objectArg = z.enum(OBJECTS).describe('The object, e.g. cases, assets, entitlements.');

/** A record's display name (cases: number and subject; assets: product and serial). */
export function titleOf(db: ConsoleStore, object: ConsoleObject, id: string): string {
  const r = db.get(object, id) as Record<string, unknown> | undefined;
  if (!r) return id;
  switch (object) {
    case 'cases': return `Case ${id}`;
    case 'contacts': return `${r.first_name} ${r.last_name}`;
    case 'assets': return `${db.get('products', String(r.product_id))?.name ?? r.product_id} (${r.serial_number})`;
    case 'entitlements': return `${id} · ${r.name}`;
    case 'return_orders': case 'tasks': return id;
    default: return String(r.name ?? id);
  }
}

/** Text a search or lookup matches against. */
function haystack(db: ConsoleStore, object: ConsoleObject, id: string): string {
  const r = db.get(object, id) as Record<string, unknown>;
  return `${id} ${titleOf(db, object, id)} ${Object.values(r).filter((v) => typeof v === 'string').join(' ')}`.toLowerCase();
}

/** Ids of `object` whose fields equal every entry of `where`, in id order. */
export function idsWhere(db: ConsoleStore, object: ConsoleObject, where: Record<string, unknown> = {}): string[] {
  return db.ids(object).filter((id) => {
    const r = db.get(object, id) as Record<string, unknown>;
    return Object.entries(where).every(([k, v]) => r[k] === v);
  }).sort();
}

const searchConsole: ConsoleTool<{ query: string }> = {
  name: 'search_console',
  description: 'Global search: records of every object whose number, name, serial, email or phone contains the query (at most 10 per object).',
  parameters: z.strictObject({ query: z.string().min(2) }),
  kind: 'read', requestor: 'assistant',
  invoke: ({ query }, { state }) => {
    const q = query.trim().toLowerCase();
    const out: Record<string, { id: string; title: string }[]> = {};
    for (const o of OBJECTS) {
      const hits = state.db.ids(o).filter((id) => haystack(state.db, o, id).includes(q)).sort().slice(0, 10);
      if (hits.length) out[o] = hits.map((id) => ({ id, title: titleOf(state.db, o, id) }));
    }
    return out;
  },
};

const listRecords: ConsoleTool<{ object: ConsoleObject; where?: Record<string, string | null>; open_only?: boolean; page?: number }> = {
  name: 'list_records',
  description: 'A list view: records of an object whose fields equal `where`, optionally only open cases, 10 per page (page from 1).',
  parameters: z.strictObject({ object: objectArg, where: z.record(z.string(), z.string().nullable()).optional(), open_only: z.boolean().optional(), page: z.number().int().min(1).optional() }),
  kind: 'read', requestor: 'assistant',
  invoke: ({ object, where, open_only, page = 1 }, { state }) => {
    let ids = idsWhere(state.db, object, where ?? {});
    if (open_only) ids = ids.filter((id) => (state.db.get(object, id) as { status?: string }).status !== 'Closed');
    if (object === 'cases') ids.reverse();
    const rows = ids.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE).map((id) => ({ id, ...(state.db.get(object, id) as object) }));
    return { object, total: ids.length, page, pages: Math.max(1, Math.ceil(ids.length / PAGE_SIZE)), rows };
  },
};

const getRecord: ConsoleTool<{ object: ConsoleObject; id: string }> = {
  name: 'get_record',
  description: 'One record by id (cases by their 8-digit number).',
  parameters: z.strictObject({ object: objectArg, id: z.string() }),
  kind: 'read', requestor: 'assistant',
  invoke: ({ object, id }, { state }) => ({ id, ...(must(state.db, object, id, object.replace(/s$/, '').replace('_', ' ')) as object) }),
};

const lookupRecords: ConsoleTool<{ object: ConsoleObject; query: string; account_id?: string }> = {
  name: 'lookup_records',
  description: "A lookup field's suggestions: records of an object (optionally of one account) matching the query, at most 8.",
  parameters: z.strictObject({ object: objectArg, query: z.string(), account_id: z.string().optional() }),
  kind: 'read', requestor: 'assistant',
  invoke: ({ object, query, account_id }, { state }) => {
    const q = query.trim().toLowerCase();
    return idsWhere(state.db, object, account_id ? { account_id } : {}).filter((id) => haystack(state.db, object, id).includes(q)).slice(0, 8).map((id) => ({ id, title: titleOf(state.db, object, id) }));
  },
};

/** Appends a feed entry. */
function feed(state: ConsoleState, case_number: string, kind: 'post' | 'call' | 'change' | 'return_order', body: string, at: string): void {
  state.feed.push({ case_number, at, kind, body });
}

type CaseUpdate = { case_number: string; status?: Case['status']; priority?: Case['priority']; entitlement_check?: Case['entitlement_check']; entitlement_id?: string | null; resolution?: Case['resolution']; parent_case?: string | null };

/** Refusals of a case update, as a CRM's validation rules word them (null: valid). */
function caseUpdateError(db: ConsoleStore, c: Case, next: Case): string | null {
  if (next.entitlement_id !== null) {
    const e = db.get('entitlements', next.entitlement_id);
    if (!e) return `Entitlement ${next.entitlement_id} not found`;
    if (e.asset_id !== c.asset_id) return `Entitlement ${next.entitlement_id} does not cover this case's asset`;
  }
  if (next.parent_case !== null) {
    if (next.parent_case === c.number) return 'A case cannot be its own parent';
    if (!db.get('cases', next.parent_case)) return `Case ${next.parent_case} not found`;
  }
  if (next.status === 'Closed' && next.resolution === '') return 'Resolution is required to close a case';
  if (next.resolution === 'Duplicate' && next.parent_case === null) return 'Parent Case is required when the resolution is Duplicate';
  return null;
}

const updateCase: ConsoleTool<CaseUpdate> = {
  name: 'update_case',
  description: "Change a case's status, priority, entitlement check, entitlement, resolution or parent case. Returns the case.",
  parameters: z.strictObject({
    case_number: z.string(), status: z.enum(CASE_STATUSES).optional(), priority: z.enum(CASE_PRIORITIES).optional(), entitlement_check: z.enum(ENTITLEMENT_CHECKS).optional(),
    entitlement_id: z.string().nullable().optional(), resolution: z.enum(RESOLUTIONS).optional(), parent_case: z.string().nullable().optional(),
  }),
  kind: 'write', requestor: 'assistant',
  invoke: ({ case_number, ...fields }, { state, now }) => {
    const c = must(state.db, 'cases', case_number, 'Case');
    const set = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<Case>;
    const next = { ...c, ...set };
    const err = caseUpdateError(state.db, c, next);
    if (err) throw new ToolError(err);
    const changed = (Object.keys(set) as (keyof Case)[]).filter((k) => c[k] !== next[k]);
    Object.assign(state.db.mut('cases', case_number), set);
    if (changed.length) feed(state, case_number, 'change', changed.map((k) => `${k}: ${c[k] ?? '—'} → ${next[k] ?? '—'}`).join('; '), now);
    return { id: case_number, ...state.db.get('cases', case_number)! };
  },
};

const createReturnOrder: ConsoleTool<{ case_number: string; asset_id: string; type: (typeof RMA_TYPES)[number]; reason: (typeof RMA_REASONS)[number] }> = {
  name: 'create_return_order',
  description: "Create a return order (RMA) from a case for one of the case account's assets; it ships to the account's address. Returns the return order.",
  parameters: z.strictObject({ case_number: z.string(), asset_id: z.string(), type: z.enum(RMA_TYPES), reason: z.enum(RMA_REASONS) }),
  kind: 'write', requestor: 'assistant',
  invoke: ({ case_number, asset_id, type, reason }, { state, now }) => {
    const c = must(state.db, 'cases', case_number, 'Case');
    const a = must(state.db, 'assets', asset_id, 'Asset');
    if (a.account_id !== c.account_id) throw new ToolError(`Asset ${asset_id} does not belong to the case's account`);
    const id = `RO-${10001 + state.db.ids('return_orders').length}`;
    const account = must(state.db, 'accounts', c.account_id, 'Account');
    const ro = { id, case_number, account_id: c.account_id, asset_id, type, reason, ship_to: account.ship_to, status: 'Submitted' as const, created: now.slice(0, 10) };
    state.db.put('return_orders', id, ro);
    feed(state, case_number, 'return_order', `Return order ${id} (${type}) created for asset ${a.serial_number}`, now);
    return ro;
  },
};

const logCall: ConsoleTool<{ case_number: string; subject: string; result: (typeof CALL_RESULTS)[number]; comments: string }> = {
  name: 'log_call',
  description: 'Log a call on a case: a completed Call activity with its result; the comments go to the activity and the feed. Returns the activity.',
  parameters: z.strictObject({ case_number: z.string(), subject: z.string().min(1), result: z.enum(CALL_RESULTS), comments: z.string() }),
  kind: 'write', requestor: 'assistant',
  invoke: ({ case_number, subject, result, comments }, { state, now }) => {
    must(state.db, 'cases', case_number, 'Case');
    const id = `TSK-${1001 + state.db.ids('tasks').length}`;
    const rec = { id, case_number, type: 'Call' as const, subject: 'Call', status: 'Completed' as const, result, due: now.slice(0, 10) };
    state.db.put('tasks', id, rec);
    state.notes[`${id}.subject`] = subject;
    state.notes[`${id}.comments`] = comments;
    feed(state, case_number, 'call', `Logged a call (${result}): ${subject}${comments ? ` — ${comments}` : ''}`, now);
    return { ...rec, subject, comments };
  },
};

const postToFeed: ConsoleTool<{ case_number: string; body: string }> = {
  name: 'post_to_feed',
  description: "Post a note to a case's feed.",
  parameters: z.strictObject({ case_number: z.string(), body: z.string().min(1) }),
  kind: 'write', requestor: 'assistant',
  invoke: ({ case_number, body }, { state, now }) => {
    must(state.db, 'cases', case_number, 'Case');
    feed(state, case_number, 'post', body, now);
    return 'Posted';
  },
};

type NewCase = { account_id: string; contact_id: string; asset_id?: string | null; subject: string; priority: Case['priority']; origin: Case['origin']; description?: string };

const createCase: ConsoleTool<NewCase> = {
  name: 'create_case',
  description: "Open a new case for an account's contact (optionally about one of the account's assets): status New, entitlement Not Checked; numbered after the highest case number. Returns the case.",
  parameters: z.strictObject({ account_id: z.string(), contact_id: z.string(), asset_id: z.string().nullable().optional(), subject: z.string().min(1), priority: z.enum(CASE_PRIORITIES), origin: z.enum(CASE_ORIGINS), description: z.string().optional() }),
  kind: 'write', requestor: 'assistant',
  invoke: ({ account_id, contact_id, asset_id, subject, priority, origin, description }, { state, now }) => {
    must(state.db, 'accounts', account_id, 'Account');
    if (must(state.db, 'contacts', contact_id, 'Contact').account_id !== account_id) throw new ToolError(`Contact ${contact_id} does not belong to account ${account_id}`);
    if (asset_id && must(state.db, 'assets', asset_id, 'Asset').account_id !== account_id) throw new ToolError(`Asset ${asset_id} does not belong to account ${account_id}`);
    const number = String(Math.max(0, ...state.db.ids('cases').map(Number)) + 1).padStart(8, '0');
    const c: Case = { number, account_id, contact_id, asset_id: asset_id || null, subject: subject.trim(), status: 'New', priority, origin, opened: now.slice(0, 10), entitlement_check: 'Not Checked', entitlement_id: null, resolution: '', parent_case: null };
    state.db.put('cases', number, c);
    if (description?.trim()) state.notes[`${number}.description`] = description.trim();
    feed(state, number, 'change', `Case opened (${origin}): ${c.subject}`, now);
    return { id: number, ...c };
  },
};

const createTask: ConsoleTool<{ case_number: string; subject: string; due: string; comments?: string }> = {
  name: 'create_task',
  description: 'Create an open follow-up task on a case, due on an ISO date (YYYY-MM-DD) not before today. Returns the task.',
  parameters: z.strictObject({ case_number: z.string(), subject: z.string().min(1), due: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'an ISO date YYYY-MM-DD'), comments: z.string().optional() }),
  kind: 'write', requestor: 'assistant',
  invoke: ({ case_number, subject, due, comments }, { state, now }) => {
    must(state.db, 'cases', case_number, 'Case');
    if (due < now.slice(0, 10)) throw new ToolError(`Due date ${due} is before today (${now.slice(0, 10)})`);
    const id = `TSK-${1001 + state.db.ids('tasks').length}`;
    const rec = { id, case_number, type: 'Follow-up' as const, subject: subject.trim(), status: 'Open' as const, result: null, due };
    state.db.put('tasks', id, rec);
    if (comments?.trim()) state.notes[`${id}.comments`] = comments.trim();
    feed(state, case_number, 'change', `Follow-up task ${id} due ${due}: ${rec.subject}`, now);
    return rec;
  },
};

/** The back-end operations, reads first. */
export const consoleTools: ConsoleTool[] = [searchConsole, listRecords, getRecord, lookupRecords, updateCase, createReturnOrder, logCall, postToFeed, createCase, createTask];
