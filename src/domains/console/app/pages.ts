/**
 * The console's read pages: list views (a view picker, a table loaded over XHR, paging), record
 * pages (details, actions, related lists loaded over XHR, the case feed) and global search. Every
 * list and record comes from a back-end read (`list_records`, `get_record`, `search_console`)
 * made through `backend.act`, so the action log shows what the agent looked at.
 */
import type { WebBackend } from '../../../surfaces/web-app.js';
import { dollars, entitlementStatus } from '../rules.js';
import type { ConsoleObject } from '../schema.js';
import type { ConsoleState } from '../state.js';
import { titleOf } from '../tools.js';
import { esc, field, lazy, LABELS, page, recordLink } from './layout.js';

type B = WebBackend<ConsoleState>;
type Row = Record<string, unknown> & { id: string };

/** The columns of each object's tables: header and cell renderer. */
const COLUMNS: Record<ConsoleObject, [string, (r: Row, b: B) => string][]> = {
  cases: [['Case Number', (r) => recordLink('cases', r.id, r.id)], ['Subject', (r) => esc(r.subject)], ['Status', (r) => esc(r.status)], ['Priority', (r) => esc(r.priority)], ['Opened', (r) => esc(r.opened)], ['Account', (r, b) => recordLink('accounts', String(r.account_id), titleOf(b.state.db, 'accounts', String(r.account_id)))]],
  accounts: [['Account Name', (r) => recordLink('accounts', r.id, String(r.name))], ['Phone', (r) => esc(r.phone)], ['City', (r) => esc(r.city)]],
  contacts: [['Name', (r) => recordLink('contacts', r.id, `${r.first_name} ${r.last_name}`)], ['Email', (r) => esc(r.email)], ['Phone', (r) => esc(r.phone)], ['Account', (r, b) => recordLink('accounts', String(r.account_id), titleOf(b.state.db, 'accounts', String(r.account_id)))]],
  assets: [['Asset', (r, b) => recordLink('assets', r.id, titleOf(b.state.db, 'assets', r.id))], ['Serial Number', (r) => esc(r.serial_number)], ['Purchase Date', (r) => esc(r.purchase_date)], ['Status', (r) => esc(r.status)]],
  entitlements: [['Entitlement', (r, b) => recordLink('entitlements', r.id, titleOf(b.state.db, 'entitlements', r.id))], ['Type', (r) => esc(r.kind)], ['Start Date', (r) => esc(r.start_date)], ['End Date', (r) => esc(r.end_date)], ['Status', (r, b) => esc(entitlementStatus(r as never, b.now.slice(0, 10)))]],
  return_orders: [['Return Order', (r) => recordLink('return_orders', r.id, r.id)], ['Case', (r) => recordLink('cases', String(r.case_number), String(r.case_number))], ['Asset', (r, b) => recordLink('assets', String(r.asset_id), titleOf(b.state.db, 'assets', String(r.asset_id)))], ['Type', (r) => esc(r.type)], ['Status', (r) => esc(r.status)], ['Created', (r) => esc(r.created)]],
  tasks: [['Activity', (r) => recordLink('tasks', r.id, r.id)], ['Subject', (r, b) => esc(b.state.notes[`${r.id}.subject`] ?? r.subject)], ['Case', (r) => recordLink('cases', String(r.case_number), String(r.case_number))], ['Type', (r) => esc(r.type)], ['Status', (r) => esc(r.status)], ['Result', (r) => esc(r.result)], ['Date', (r) => esc(r.due)]],
};

/** A table of rows of `object`, captioned. */
export function table(b: B, object: ConsoleObject, caption: string, rows: Row[]): string {
  if (!rows.length) return `<p>No ${esc(LABELS[object][0].toLowerCase())}.</p>`;
  const cols = COLUMNS[object];
  return `<table><caption hidden>${esc(caption)}</caption><thead><tr>${cols.map(([h]) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${cols.map(([, cell]) => `<td>${cell(r, b)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

/** Reads through the back-end; a refusal throws (a broken page is a bug of the app, not the agent's doing). */
async function read<T>(b: B, name: string, args: unknown): Promise<T | null> {
  const out = await b.act(name, args);
  return out.error ? null : (JSON.parse(out.result) as T);
}

const VIEWS: Record<string, { label: string; open_only?: boolean; where?: Record<string, string> }> = {
  all: { label: 'All' },
  open: { label: 'Open', open_only: true },
  closed: { label: 'Closed', where: { status: 'Closed' } },
};

/** A list view's shell: view picker (cases) and the table region. */
export function listPage(object: ConsoleObject, view: string, pageNo: number): string {
  const picker = object === 'cases'
    ? `<label for="view">List view</label><select id="view" data-go="/o/cases?view=">${Object.entries(VIEWS).map(([k, v]) => `<option value="${k}"${k === view ? ' selected' : ''}>${v.label} cases</option>`).join('')}</select>`
    : '';
  const actions = object === 'cases' ? `<div class="actions" role="toolbar" aria-label="List actions"><a class="btn" href="/o/cases/new">New Case</a></div>` : '';
  return page(LABELS[object][0], `<h1>${LABELS[object][0]}</h1>${actions}${picker}${lazy(`${LABELS[object][0]} list`, `/frag/list/${object}?view=${encodeURIComponent(view)}&page=${pageNo}`)}`, object);
}

/** The list fragment: rows of one page and the pager. */
export async function listFragment(b: B, object: ConsoleObject, view: string, pageNo: number): Promise<string> {
  const v = object === 'cases' ? VIEWS[view] ?? VIEWS.all : VIEWS.all;
  const res = await read<{ total: number; page: number; pages: number; rows: Row[] }>(b, 'list_records', { object, page: pageNo, ...(v.open_only ? { open_only: true } : {}), ...(v.where ? { where: v.where } : {}) });
  if (!res) return '<p role="alert">This list could not be loaded.</p>';
  const base = `/o/${object}?view=${encodeURIComponent(view)}&page=`;
  const pager = `<nav class="pager" aria-label="Pages">${res.page > 1 ? `<a href="${base}${res.page - 1}">Previous page</a>` : ''}<span>Page ${res.page} of ${res.pages} · ${res.total} records</span>${res.page < res.pages ? `<a href="${base}${res.page + 1}">Next page</a>` : ''}</nav>`;
  return table(b, object, `${LABELS[object][0]} list`, res.rows) + pager;
}

/** The related lists of each object: label, object and the field that points back. */
const RELATED: Partial<Record<ConsoleObject, [string, ConsoleObject, string][]>> = {
  accounts: [['Contacts', 'contacts', 'account_id'], ['Assets', 'assets', 'account_id'], ['Cases', 'cases', 'account_id']],
  contacts: [['Assets', 'assets', 'contact_id'], ['Cases', 'cases', 'contact_id']],
  assets: [['Entitlements', 'entitlements', 'asset_id'], ['Cases', 'cases', 'asset_id'], ['Return Orders', 'return_orders', 'asset_id']],
  cases: [['Return Orders', 'return_orders', 'case_number'], ['Activity History', 'tasks', 'case_number']],
};

/** A related-list fragment. */
export async function relatedFragment(b: B, object: ConsoleObject, id: string, rel: number): Promise<string> {
  const spec = RELATED[object]?.[rel];
  if (!spec) return '<p>Unknown related list.</p>';
  const res = await read<{ rows: Row[] }>(b, 'list_records', { object: spec[1], where: { [spec[2]]: id } });
  return res ? table(b, spec[1], spec[0], res.rows) : '<p role="alert">This list could not be loaded.</p>';
}

/** The details of a record, by object. */
function details(b: B, object: ConsoleObject, r: Row): string {
  const db = b.state.db;
  const link = (o: ConsoleObject, id: unknown) => (id ? recordLink(o, String(id), titleOf(db, o, String(id))) : '');
  switch (object) {
    case 'cases': return [field('Case Number', esc(r.id)), field('Status', esc(r.status)), field('Subject', esc(r.subject)), field('Priority', esc(r.priority)), field('Account', link('accounts', r.account_id)), field('Contact', link('contacts', r.contact_id)), field('Asset', link('assets', r.asset_id)), field('Origin', esc(r.origin)), field('Opened', esc(r.opened)), field('Entitlement Check', esc(r.entitlement_check)), field('Entitlement', link('entitlements', r.entitlement_id)), field('Resolution', esc(r.resolution)), field('Parent Case', link('cases', r.parent_case)), field('Description', esc(b.state.notes[`${r.id}.description`] ?? ''))].join('');
    case 'accounts': return [field('Account Name', esc(r.name)), field('Phone', esc(r.phone)), field('City', esc(r.city)), field('Shipping Address', esc(r.ship_to))].join('');
    case 'contacts': return [field('Name', esc(`${r.first_name} ${r.last_name}`)), field('Account', link('accounts', r.account_id)), field('Email', esc(r.email)), field('Phone', esc(r.phone))].join('');
    case 'assets': {
      const p = db.get('products', String(r.product_id));
      return [field('Product', esc(p?.name)), field('Serial Number', esc(r.serial_number)), field('Purchase Date', esc(r.purchase_date)), field('Status', esc(r.status)), field('Account', link('accounts', r.account_id)), field('Contact', link('contacts', r.contact_id)), field('Standard Warranty', esc(`${p?.warranty_months} months`)), field('Flat Repair Fee', esc(p ? dollars(p.repair_fee_cents) : ''))].join('');
    }
    case 'entitlements': return [field('Name', esc(r.name)), field('Type', esc(r.kind)), field('Asset', link('assets', r.asset_id)), field('Account', link('accounts', r.account_id)), field('Start Date', esc(r.start_date)), field('End Date', esc(r.end_date)), field('Status', esc(entitlementStatus(r as never, b.now.slice(0, 10))))].join('');
    case 'return_orders': return [field('Return Order', esc(r.id)), field('Status', esc(r.status)), field('Case', link('cases', r.case_number)), field('Asset', link('assets', r.asset_id)), field('Type', esc(r.type)), field('Reason', esc(r.reason)), field('Ship To', esc(r.ship_to)), field('Created', esc(r.created))].join('');
    case 'tasks': return [field('Subject', esc(b.state.notes[`${r.id}.subject`] ?? r.subject)), field('Type', esc(r.type)), field('Status', esc(r.status)), field('Result', esc(r.result)), field('Case', link('cases', r.case_number)), field('Date', esc(r.due)), field('Comments', esc(b.state.notes[`${r.id}.comments`] ?? ''))].join('');
  }
}

/** A record page: heading, actions (cases), details, related lists, feed (cases). Null when the record does not exist. */
export async function recordPage(b: B, object: ConsoleObject, id: string): Promise<string | null> {
  const r = await read<Row>(b, 'get_record', { object, id });
  if (!r) return null;
  const title = `${LABELS[object][1]} ${object === 'cases' ? id : titleOf(b.state.db, object, id)}`;
  const base = `/r/cases/${encodeURIComponent(id)}`;
  const actions = object === 'cases'
    ? `<div class="actions" role="toolbar" aria-label="Case actions"><a class="btn" href="${base}/edit">Edit</a><a class="btn" href="${base}/return-order">New Return Order</a><a class="btn" href="${base}/log-call">Log a Call</a><a class="btn" href="${base}/follow-up">New Task</a><a class="btn secondary" href="${base}/post">Post</a></div>`
    : object === 'accounts'
      ? `<div class="actions" role="toolbar" aria-label="Account actions"><a class="btn" href="/o/cases/new?account=${encodeURIComponent(id)}">New Case</a></div>`
      : '';
  const related = (RELATED[object] ?? []).map(([label], i) => lazy(label, `/frag/related/${object}/${encodeURIComponent(id)}/${i}`)).join('');
  const feed = object === 'cases'
    ? `<section class="card" aria-label="Feed"><h2>Feed</h2><ul class="feed">${b.state.feed.filter((f) => f.case_number === id).map((f) => `<li><span class="pill">${esc(f.kind)}</span> ${esc(f.at.slice(0, 10))}: ${esc(f.body)}</li>`).reverse().join('') || '<li>No activity yet.</li>'}</ul></section>`
    : '';
  return page(title, `<h1>${esc(title)}</h1>${actions}<section class="card" aria-label="Details"><h2>Details</h2><dl class="fields">${details(b, object, r)}</dl></section>${related}${feed}`, object);
}

/** The global search page. */
export async function searchPage(b: B, q: string): Promise<string> {
  if (q.trim().length < 2) return page('Search', `<h1>Search</h1><p role="alert">Type at least 2 characters to search.</p>`);
  const hits = (await read<Record<string, { id: string; title: string }[]>>(b, 'search_console', { query: q })) ?? {};
  const groups = Object.entries(hits).map(([o, rows]) => `<section class="card" aria-label="${esc(LABELS[o as ConsoleObject][0])} results"><h2>${esc(LABELS[o as ConsoleObject][0])}</h2><ul>${rows.map((h) => `<li>${recordLink(o as ConsoleObject, h.id, o === 'cases' ? `Case ${h.id}` : h.title)}</li>`).join('')}</ul></section>`).join('');
  return page(`Search: ${q}`, `<h1>Search results for “${esc(q)}”</h1>${groups || '<p>No results.</p>'}`);
}
