/**
 * The console's New Case form (`/o/cases/new`, optionally `?account=ACC-…` from an account page):
 * Account, Contact and Asset lookups, Subject, Priority and Origin picklists, Description. The
 * handler checks what a CRM's validation rules check — required fields, a lookup typed but not
 * chosen from its suggestions, a contact or asset of another account — and shows each as a field
 * error; a valid form opens the case through the back-end's `create_case` and goes to it.
 */
import type { WebBackend } from '../../../surfaces/web-app.js';
import { CASE_ORIGINS, CASE_PRIORITIES } from '../schema.js';
import type { ConsoleState } from '../state.js';
import { titleOf } from '../tools.js';
import type { FormAnswer } from './forms.js';
import { apiForm, lookupField, page, picklist } from './layout.js';

type B = WebBackend<ConsoleState>;

/** The form page; `accountId` preselects the account (ignored when unknown). */
export function newCasePage(b: B, accountId?: string): string {
  const account = accountId && b.state.db.get('accounts', accountId) ? { id: accountId, title: titleOf(b.state.db, 'accounts', accountId) } : null;
  const inner =
    lookupField('account_id', 'Account', '/api/lookup/accounts', account) +
    lookupField('contact_id', 'Contact', `/api/lookup/contacts${account ? `?account=${encodeURIComponent(account.id)}` : ''}`, null) +
    lookupField('asset_id', 'Asset', `/api/lookup/assets${account ? `?account=${encodeURIComponent(account.id)}` : ''}`, null) +
    `<label for="f-subject">Subject</label><input id="f-subject" name="subject" data-field="subject" required>` +
    picklist('priority', 'Priority', CASE_PRIORITIES, 'Medium') + picklist('origin', 'Case Origin', CASE_ORIGINS, 'Phone') +
    `<label for="f-description">Description</label><textarea id="f-description" name="description" data-field="description" rows="4"></textarea>`;
  return page('New Case', `<h1>New Case</h1>${apiForm('New Case', '/api/new-case', inner, 'Save Case', account ? `/r/accounts/${encodeURIComponent(account.id)}` : '/o/cases')}`, 'cases');
}

/** Field errors of a submitted New Case form (empty when valid). */
function newCaseErrors(b: B, body: Record<string, string>): Record<string, string> {
  const db = b.state.db;
  const errors: Record<string, string> = {};
  const lookups: [string, string, string][] = [['account_id', 'Account', 'an account'], ['contact_id', 'Contact', 'a contact'], ['asset_id', 'Asset', 'an asset']];
  for (const [name, label, what] of lookups) {
    if ((body[`${name}_q`] ?? '').trim() && !body[name]) errors[name] = `Choose ${what} from the suggestions${name === 'asset_id' ? ', or clear the field' : ''}.`;
    else if (name !== 'asset_id' && !body[name]) errors[name] = `${label} is required.`;
  }
  if (!(body.subject ?? '').trim()) errors.subject = 'Subject is required.';
  const account = body.account_id;
  if (account && !errors.contact_id && body.contact_id && db.get('contacts', body.contact_id)?.account_id !== account) errors.contact_id = 'Contact must belong to the account.';
  if (account && !errors.asset_id && body.asset_id && db.get('assets', body.asset_id)?.account_id !== account) errors.asset_id = 'Asset must belong to the account.';
  if (!(CASE_PRIORITIES as readonly string[]).includes(body.priority)) errors.priority = 'Choose a priority.';
  if (!(CASE_ORIGINS as readonly string[]).includes(body.origin)) errors.origin = 'Choose a case origin.';
  return errors;
}

/** Handles the form's submit: errors to show, or the new case's page. */
export async function submitNewCase(b: B, body: Record<string, string>): Promise<FormAnswer> {
  const errors = newCaseErrors(b, body);
  if (Object.keys(errors).length) return { errors, message: 'Review the errors on this page.' };
  const args = { account_id: body.account_id, contact_id: body.contact_id, ...(body.asset_id ? { asset_id: body.asset_id } : {}), subject: body.subject.trim(), priority: body.priority, origin: body.origin, ...((body.description ?? '').trim() ? { description: body.description.trim() } : {}) };
  const out = await b.act('create_case', args);
  if (out.error) return { errors: {}, message: out.result.replace(/^Error: /, '') };
  const created = JSON.parse(out.result) as { id: string };
  return { redirect: `/r/cases/${encodeURIComponent(created.id)}` };
}
