/**
 * Harbordesk's pages: inbox views (open, pending, closed, all) and the ticket page — the thread,
 * the reply box with the macro picker and the macro's variables, internal notes, status and tags —
 * beside the customer sidebar. Pure functions of the records.
 */
import { macroVariables } from '../rules.js';
import type { Macro, Requester, Ticket } from '../schema.js';
import { esc, page, stamp, type Brand } from './html.js';

export const DESK_BRAND: Brand = { product: 'Harbordesk', accent: '#3b4cca', nav: [['/views/open', 'Inbox'], ['/views/all', 'All tickets'], ['/orders', 'Shop admin']] };

type Flash = { kind: 'ok' | 'error'; text: string } | null;

/** The inbox views, in the order the left nav lists them. */
export const VIEWS: [id: string, label: string][] = [['open', 'Open'], ['pending', 'Pending'], ['closed', 'Closed'], ['all', 'All']];

function viewsNav(current: string, counts: Record<string, number>): string {
  return `<nav class="views panel" aria-label="Views" style="width:170px">${VIEWS.map(([id, label]) => `<a href="/views/${id}"${id === current ? ' aria-current="page"' : ''}>${label} (${counts[id] ?? 0})</a>`).join('')}</nav>`;
}

/** A view's ticket list. */
export function inboxPage(view: string, tickets: { t: Ticket; r: Requester | undefined }[], counts: Record<string, number>, flash: Flash): string {
  const label = VIEWS.find(([id]) => id === view)?.[1] ?? view;
  const rows = tickets
    .map(({ t, r }) => `<tr><td><a href="/tickets/${esc(t.ticket_id)}">#${esc(t.ticket_id)} ${esc(t.subject)}</a></td><td>${esc(r?.name ?? t.requester_id)}</td><td><span class="badge ${t.status}">${t.status}</span></td><td>${t.tags.map((x) => `<span class="badge">${esc(x)}</span>`).join(' ')}</td><td>${stamp(t.updated_at)}</td></tr>`)
    .join('');
  const body = `${viewsNav(view, counts)}<section class="panel grow" aria-labelledby="h-view"><h1 id="h-view">${esc(label)} tickets</h1>
<table><thead><tr><th>Ticket</th><th>Requester</th><th>Status</th><th>Tags</th><th>Last update</th></tr></thead><tbody>${rows || '<tr><td colspan="5" class="muted">No tickets in this view.</td></tr>'}</tbody></table></section>`;
  return page(DESK_BRAND, `${label} tickets`, body, flash);
}

/** Labels of macro variables: `order.number` → `Order number`, `discount_code` → `Discount code`. */
export function variableLabel(name: string): string {
  const words = name.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What the reply box holds: the text, the applied macro, the variable values typed so far. */
export interface Composer {
  body: string;
  macro: Macro | null;
  vars: Record<string, string>;
}

function thread(t: Ticket, requester: string): string {
  return t.messages
    .map((m) => {
      const who = m.from === 'customer' ? requester : m.public ? 'Sam Rivera (reply)' : 'Sam Rivera (internal note)';
      return `<article class="msg ${m.from}${m.public ? '' : ' note'}" aria-label="Message from ${esc(who)}"><div class="muted">${esc(who)} · ${stamp(m.sent_at)}</div>${esc(m.body)}</article>`;
    })
    .join('');
}

function composer(t: Ticket, macros: Macro[], c: Composer): string {
  const picker = `<form method="get" action="/tickets/${esc(t.ticket_id)}" class="row"><div><label for="macro">Macro</label><select id="macro" name="macro"><option value="">Choose a macro…</option>${macros.map((m) => `<option value="${esc(m.macro_id)}"${c.macro?.macro_id === m.macro_id ? ' selected' : ''}>${esc(m.name)}</option>`).join('')}</select></div><button type="submit" class="secondary">Apply macro</button></form>`;
  const vars = c.macro ? macroVariables(c.body).map((v) => `<div><label for="var-${esc(v)}">${esc(variableLabel(v))}</label><input id="var-${esc(v)}" name="var:${esc(v)}" value="${esc(c.vars[v] ?? '')}"></div>`) : [];
  const fieldset = vars.length ? `<fieldset><legend>Macro variables (fill in every one)</legend><div class="row">${vars.join('')}</div></fieldset>` : '';
  return `<section class="panel" aria-labelledby="h-reply"><h2 id="h-reply">Reply</h2>${picker}
<form method="post" action="/tickets/${esc(t.ticket_id)}/reply">${c.macro ? `<input type="hidden" name="macro_id" value="${esc(c.macro.macro_id)}"><p class="muted">Macro applied: ${esc(c.macro.name)}</p>` : ''}
<label for="body">Reply text</label><textarea id="body" name="body">${esc(c.body)}</textarea>${fieldset}
<label><input type="checkbox" name="note" value="1"> Internal note (not sent to the customer)</label>
<div class="row"><button type="submit" name="after" value="keep">Send</button><button type="submit" name="after" value="closed">Send and close</button></div></form></section>`;
}

function header(t: Ticket): string {
  const tags = t.tags
    .map((x) => `<form method="post" action="/tickets/${esc(t.ticket_id)}/tags/remove" style="display:inline"><input type="hidden" name="tag" value="${esc(x)}"><span class="badge">${esc(x)}</span><button type="submit" class="secondary" aria-label="Remove tag ${esc(x)}">×</button></form>`)
    .join(' ');
  return `<h1 id="h-ticket">#${esc(t.ticket_id)} ${esc(t.subject)}</h1><p><span class="badge ${t.status}">${t.status}</span> · via ${esc(t.channel.replace('_', ' '))} · opened ${stamp(t.created_at)}</p>
<div class="row"><form method="post" action="/tickets/${esc(t.ticket_id)}/status" class="row"><div><label for="status">Status</label><select id="status" name="status">${['open', 'pending', 'closed'].map((s) => `<option value="${s}"${s === t.status ? ' selected' : ''}>${s[0].toUpperCase()}${s.slice(1)}</option>`).join('')}</select></div><button type="submit" class="secondary">Update status</button></form>
<form method="post" action="/tickets/${esc(t.ticket_id)}/tags" class="row"><div><label for="tag">Add tag</label><input id="tag" name="tag" size="12"></div><button type="submit" class="secondary">Add</button></form></div>
<p aria-label="Tags">${tags || '<span class="muted">No tags</span>'}</p>`;
}

/** The ticket page: `sidebar` is the customer sidebar's HTML. */
export function ticketPage(t: Ticket, requester: Requester | undefined, macros: Macro[], c: Composer, sidebar: string, counts: Record<string, number>, flash: Flash): string {
  const who = requester ? `${requester.name} <${requester.email}>` : t.requester_id;
  const main = `<section class="grow"><div class="panel" aria-labelledby="h-ticket">${header(t)}</div><section class="panel" aria-label="Conversation">${thread(t, who)}</section>${composer(t, macros, c)}</section>`;
  return page(DESK_BRAND, `#${t.ticket_id} ${t.subject}`, viewsNav('', counts) + main + sidebar, flash);
}
