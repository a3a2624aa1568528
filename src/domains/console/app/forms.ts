/**
 * The console's forms and their XHR handlers: Edit Case (picklists, the Entitlement and Parent
 * Case lookups), New Return Order (Asset lookup over the case account's assets, type and reason
 * picklists), Log a Call, New Task (a follow-up with a due date not before today) and Post. A handler checks what the form requires (field errors, shown by
 * the page next to each field), then performs the back-end write through `backend.act`; a refusal
 * of the back-end is the form's alert. Success answers with the record page to go to.
 */
import type { WebBackend } from '../../../surfaces/web-app.js';
import { CALL_RESULTS, CASE_PRIORITIES, CASE_STATUSES, ENTITLEMENT_CHECKS, RESOLUTIONS, RMA_REASONS, RMA_TYPES, type Case } from '../schema.js';
import type { ConsoleState } from '../state.js';
import { titleOf } from '../tools.js';
import { apiForm, esc, lookupField, page, picklist } from './layout.js';

type B = WebBackend<ConsoleState>;
/** What a form handler answers: where to go, or the errors to show. */
export type FormAnswer = { redirect: string } | { errors: Record<string, string>; message: string };

const caseUrl = (n: string) => `/r/cases/${encodeURIComponent(n)}`;
const lookupValue = (b: B, object: 'entitlements' | 'cases' | 'assets', id: string | null) => (id ? { id, title: object === 'cases' ? `Case ${id}` : titleOf(b.state.db, object, id) } : null);

/** The form pages of a case, by path segment; null for an unknown case or form. */
export function casePage(b: B, number: string, form: string): string | null {
  const c = b.state.db.get('cases', number);
  if (!c) return null;
  const acc = encodeURIComponent(c.account_id);
  const forms: Record<string, () => [string, string]> = {
    edit: () => ['Edit Case', apiForm(`Edit Case ${number}`, `/api/cases/${number}`,
      picklist('status', 'Status', CASE_STATUSES, c.status) + picklist('priority', 'Priority', CASE_PRIORITIES, c.priority) + picklist('entitlement_check', 'Entitlement Check', ENTITLEMENT_CHECKS, c.entitlement_check) +
      lookupField('entitlement_id', 'Entitlement', `/api/lookup/entitlements?account=${acc}`, lookupValue(b, 'entitlements', c.entitlement_id)) + picklist('resolution', 'Resolution', RESOLUTIONS, c.resolution) +
      lookupField('parent_case', 'Parent Case', `/api/lookup/cases?account=${acc}`, lookupValue(b, 'cases', c.parent_case)), 'Save', caseUrl(number))],
    'return-order': () => ['New Return Order', apiForm(`New Return Order for Case ${number}`, `/api/cases/${number}/return-orders`,
      `<p>Ships to: ${esc(b.state.db.get('accounts', c.account_id)?.ship_to)}</p>` + lookupField('asset_id', 'Asset', `/api/lookup/assets?account=${acc}`, null) +
      picklist('type', 'Return Type', ['', ...RMA_TYPES], '') + picklist('reason', 'Reason', ['', ...RMA_REASONS], ''), 'Create Return Order', caseUrl(number))],
    'log-call': () => ['Log a Call', apiForm(`Log a Call on Case ${number}`, `/api/cases/${number}/calls`,
      `<label for="f-subject">Subject</label><input id="f-subject" name="subject" data-field="subject" value="Call" required>` + picklist('result', 'Call Result', ['', ...CALL_RESULTS], '') +
      `<label for="f-comments">Comments</label><textarea id="f-comments" name="comments" data-field="comments" rows="4"></textarea>`, 'Save Call', caseUrl(number))],
    'follow-up': () => ['New Task', apiForm(`New Follow-up Task on Case ${number}`, `/api/cases/${number}/tasks`,
      `<label for="f-subject">Subject</label><input id="f-subject" name="subject" data-field="subject" required>` +
      `<label for="f-due">Due Date</label><input id="f-due" name="due" type="date" data-field="due" min="${esc(b.now.slice(0, 10))}" required>` +
      `<label for="f-comments">Comments</label><textarea id="f-comments" name="comments" data-field="comments" rows="3"></textarea>`, 'Save Task', caseUrl(number))],
    post: () => ['Post', apiForm(`Post to Case ${number}`, `/api/cases/${number}/feed`, `<label for="f-body">Post</label><textarea id="f-body" name="body" data-field="body" rows="3" required></textarea>`, 'Share', caseUrl(number))],
  };
  const make = forms[form];
  if (!make) return null;
  const [label, html] = make();
  return page(`${label} · Case ${number}`, `<h1>${esc(label)} · Case ${esc(number)}</h1>${html}`, 'cases');
}

/** Missing required fields as form errors. */
function required(body: Record<string, string>, fields: [name: string, label: string][]): Record<string, string> {
  return Object.fromEntries(fields.filter(([n]) => !(body[n] ?? '').trim()).map(([n, l]) => [n, `${l} is required.`]));
}

/** A back-end write answered as the form's outcome. */
async function write(b: B, name: string, args: unknown, then: string): Promise<FormAnswer> {
  const out = await b.act(name, args);
  return out.error ? { errors: {}, message: out.result.replace(/^Error: /, '') } : { redirect: then };
}

/** Handles a case form's submit (`form` as in {@link casePage}). */
export async function submitCaseForm(b: B, number: string, form: string, body: Record<string, string>): Promise<FormAnswer> {
  const c = b.state.db.get('cases', number);
  if (!c) return { errors: {}, message: `Case ${number} not found` };
  if (form === 'edit') {
    const errors: Record<string, string> = {};
    if (body.entitlement_id_q && !body.entitlement_id) errors.entitlement_id = 'Choose an entitlement from the suggestions, or clear the field.';
    if (body.parent_case_q && !body.parent_case) errors.parent_case = 'Choose a case from the suggestions, or clear the field.';
    if (body.status === 'Closed' && !body.resolution) errors.resolution = 'Resolution is required to close a case.';
    if (body.resolution === 'Duplicate' && !body.parent_case) errors.parent_case = 'Parent Case is required when the resolution is Duplicate.';
    if (Object.keys(errors).length) return { errors, message: 'Review the errors on this page.' };
    const next = { status: body.status, priority: body.priority, entitlement_check: body.entitlement_check, entitlement_id: body.entitlement_id || null, resolution: body.resolution ?? '', parent_case: body.parent_case || null } as Partial<Case>;
    const changed = Object.fromEntries(Object.entries(next).filter(([k, v]) => c[k as keyof Case] !== v));
    if (!Object.keys(changed).length) return { redirect: caseUrl(number) };
    return write(b, 'update_case', { case_number: number, ...changed }, caseUrl(number));
  }
  if (form === 'return-order') {
    const errors = required(body, [['asset_id', 'Asset'], ['type', 'Return Type'], ['reason', 'Reason']]);
    if (Object.keys(errors).length) return { errors, message: 'Review the errors on this page.' };
    return write(b, 'create_return_order', { case_number: number, asset_id: body.asset_id, type: body.type, reason: body.reason }, caseUrl(number));
  }
  if (form === 'log-call') {
    const errors = required(body, [['subject', 'Subject'], ['result', 'Call Result']]);
    if (Object.keys(errors).length) return { errors, message: 'Review the errors on this page.' };
    return write(b, 'log_call', { case_number: number, subject: body.subject.trim(), result: body.result, comments: (body.comments ?? '').trim() }, caseUrl(number));
  }
  if (form === 'follow-up') {
    const errors = required(body, [['subject', 'Subject'], ['due', 'Due Date']]);
    const today = b.now.slice(0, 10);
    if (!errors.due && !/^\d{4}-\d{2}-\d{2}$/.test(body.due)) errors.due = 'Due Date must be a date (YYYY-MM-DD).';
    else if (!errors.due && body.due < today) errors.due = `Due Date cannot be before today (${today}).`;
    if (Object.keys(errors).length) return { errors, message: 'Review the errors on this page.' };
    return write(b, 'create_task', { case_number: number, subject: body.subject.trim(), due: body.due, ...((body.comments ?? '').trim() ? { comments: body.comments.trim() } : {}) }, caseUrl(number));
  }
  if (form === 'post') {
    const errors = required(body, [['body', 'Post']]);
    if (Object.keys(errors).length) return { errors, message: 'Review the errors on this page.' };
    return write(b, 'post_to_feed', { case_number: number, body: body.body.trim() }, caseUrl(number));
  }
  return { errors: {}, message: `Unknown form ${form}` };
}
