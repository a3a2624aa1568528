/**
 * The helpdesk's back-end operations (what its app calls): tickets with their threads, replies
 * and internal notes, statuses, tags and macros. The helpdesk refuses a reply that still holds an
 * unfilled macro variable (`{{name}}`), as helpdesks do; the policy is the agent's to apply.
 */
import { z } from 'zod';
import { ToolError } from '../../spec/tool.js';
import { macroVariables } from './rules.js';
import { TICKET_STATUSES, type Ticket, type TicketMessage } from './schema.js';
import { must, mustTicket, ticketIdArg, type HelpdeskDb, type HelpdeskTool } from './tools-common.js';

/** A ticket with its requester, as the helpdesk's API returns it. */
export function ticketView(db: HelpdeskDb, t: Ticket): Ticket & { requester: { name: string; email: string } } {
  const r = db.get('requesters', t.requester_id);
  return { ...t, requester: { name: r?.name ?? t.requester_id, email: r?.email ?? '' } };
}

/** `list_tickets(status)`: ticket summaries, newest activity first. */
export const listTickets: HelpdeskTool<{ status?: (typeof TICKET_STATUSES)[number] | null }> = {
  name: 'list_tickets',
  description: 'List tickets (optionally only those with status open, pending or closed), newest activity first: [{ticket_id, subject, requester, status, tags, updated_at}].',
  parameters: z.strictObject({ status: z.enum(TICKET_STATUSES).nullable().optional() }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ status }, { state }) =>
    state
      .ids('tickets')
      .map((id) => state.get('tickets', id)!)
      .filter((t) => !status || t.status === status)
      .sort((a, b) => b.updated_at.localeCompare(a.updated_at) || b.ticket_id.localeCompare(a.ticket_id))
      .map((t) => ({ ticket_id: t.ticket_id, subject: t.subject, requester: ticketView(state, t).requester, status: t.status, tags: t.tags, updated_at: t.updated_at })),
};

/** `get_ticket(ticket_id)`: the ticket with its whole thread and requester. */
export const getTicket: HelpdeskTool<{ ticket_id: string }> = {
  name: 'get_ticket',
  description: 'Get a ticket: subject, requester {name, email}, status, tags and the thread (messages from the customer, public replies and internal notes, oldest first).',
  parameters: z.strictObject({ ticket_id: ticketIdArg }),
  kind: 'read',
  requestor: 'assistant',
  invoke: ({ ticket_id }, { state }) => ticketView(state, mustTicket(state, ticket_id)),
};

/** `list_macros()`: the saved replies with their variables. */
export const listMacros: HelpdeskTool<Record<string, never>> = {
  name: 'list_macros',
  description: 'List the macros (saved replies): [{macro_id, name, body, variables, add_tags}]. A {{name}} in a body is a variable to fill before sending.',
  parameters: z.strictObject({}),
  kind: 'read',
  requestor: 'assistant',
  invoke: (_args, { state }) => state.ids('macros').map((id) => {
    const m = state.get('macros', id)!;
    return { ...m, variables: macroVariables(m.body) };
  }),
};

/** Appends a message to a ticket's thread and returns it. */
function append(db: HelpdeskDb, ticketId: string, fields: Pick<TicketMessage, 'public' | 'body' | 'macro_id'>, now: string): TicketMessage {
  const m = db.mut('tickets', ticketId);
  const msg: TicketMessage = { message_id: `${ticketId}-${m.messages.length + 1}`, from: 'agent', ...fields, sent_at: now };
  m.messages.push(msg);
  m.updated_at = now;
  return msg;
}

/** `reply_to_ticket(ticket_id, body, macro_id)`: a public reply emailed to the requester. */
export const replyToTicket: HelpdeskTool<{ ticket_id: string; body: string; macro_id?: string | null }> = {
  name: 'reply_to_ticket',
  description: "Send a public reply to the ticket's requester. body: the text (a macro's body with every {{variable}} filled in); macro_id: the macro it was written from, if any (its tags are added to the ticket). Refused when the body is empty or still holds an unfilled {{variable}}. Returns the message.",
  parameters: z.strictObject({ ticket_id: ticketIdArg, body: z.string(), macro_id: z.string().nullable().optional() }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ ticket_id, body, macro_id }, { state, now }) => {
    const t = mustTicket(state, ticket_id);
    const text = body.trim();
    if (text === '') throw new ToolError('The reply is empty');
    const unfilled = macroVariables(text);
    if (unfilled.length) throw new ToolError(`Fill in the macro variable(s) before sending: ${unfilled.join(', ')}`);
    const macro = macro_id ? must(state, 'macros', macro_id, 'Macro') : null;
    const msg = append(state, t.ticket_id, { public: true, body: text, macro_id: macro?.macro_id ?? null }, now);
    if (macro) {
      const m = state.mut('tickets', t.ticket_id);
      for (const tag of macro.add_tags) if (!m.tags.includes(tag)) m.tags.push(tag);
    }
    return msg;
  },
};

/** `add_internal_note(ticket_id, body)`: a note only agents see. */
export const addInternalNote: HelpdeskTool<{ ticket_id: string; body: string }> = {
  name: 'add_internal_note',
  description: 'Add an internal note to the ticket (agents only; never sent to the customer). Returns the message.',
  parameters: z.strictObject({ ticket_id: ticketIdArg, body: z.string().trim().min(1) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ ticket_id, body }, { state, now }) => append(state, mustTicket(state, ticket_id).ticket_id, { public: false, body: body.trim(), macro_id: null }, now),
};

/** `set_ticket_status(ticket_id, status)`. */
export const setTicketStatus: HelpdeskTool<{ ticket_id: string; status: (typeof TICKET_STATUSES)[number] }> = {
  name: 'set_ticket_status',
  description: 'Set the ticket status: open (needs work), pending (waiting on the customer) or closed (solved). Refused when it already has that status. Returns {ticket_id, status}.',
  parameters: z.strictObject({ ticket_id: ticketIdArg, status: z.enum(TICKET_STATUSES) }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ ticket_id, status }, { state, now }) => {
    const t = mustTicket(state, ticket_id);
    if (t.status === status) throw new ToolError(`Ticket ${t.ticket_id} is already ${status}`);
    const m = state.mut('tickets', t.ticket_id);
    m.status = status;
    m.updated_at = now;
    return { ticket_id: t.ticket_id, status };
  },
};

const tagArg = z.string().trim().toLowerCase().regex(/^[a-z0-9-]{2,32}$/, 'a tag: 2-32 lowercase letters, digits or -');

/** `add_ticket_tag(ticket_id, tag)`. */
export const addTicketTag: HelpdeskTool<{ ticket_id: string; tag: string }> = {
  name: 'add_ticket_tag',
  description: "Add a tag (lowercase letters, digits, '-') to the ticket. Returns the ticket's tags.",
  parameters: z.strictObject({ ticket_id: ticketIdArg, tag: tagArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ ticket_id, tag }, { state }) => {
    const t = mustTicket(state, ticket_id);
    if (t.tags.includes(tag)) throw new ToolError(`Ticket ${t.ticket_id} already has tag ${tag}`);
    const m = state.mut('tickets', t.ticket_id);
    m.tags.push(tag);
    return m.tags;
  },
};

/** `remove_ticket_tag(ticket_id, tag)`. */
export const removeTicketTag: HelpdeskTool<{ ticket_id: string; tag: string }> = {
  name: 'remove_ticket_tag',
  description: "Remove a tag from the ticket. Returns the ticket's tags.",
  parameters: z.strictObject({ ticket_id: ticketIdArg, tag: tagArg }),
  kind: 'write',
  requestor: 'assistant',
  invoke: ({ ticket_id, tag }, { state }) => {
    const t = mustTicket(state, ticket_id);
    if (!t.tags.includes(tag)) throw new ToolError(`Ticket ${t.ticket_id} has no tag ${tag}`);
    const m = state.mut('tickets', t.ticket_id);
    m.tags = m.tags.filter((x) => x !== tag);
    return m.tags;
  },
};

/** The helpdesk's operations, in the order an API agent sees them. */
export const deskTools: HelpdeskTool[] = [listTickets, getTicket, listMacros, replyToTicket, addInternalNote, setTicketStatus, addTicketTag, removeTicketTag];
