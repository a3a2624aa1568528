/**
 * TellerLink/32: Meridian Savings Bank's legacy desktop CRM (seed task T20), the GUI the pixel
 * surface streams for the banking domain. It fronts the same banking back-end state the API
 * surface serves: every read and write it makes is one of banking's own tools, so one task runs
 * through both surfaces and the action log and checks are the same.
 */
import type { Task } from '../../../spec/task.js';
import type { PixelApp } from '../../../surfaces/pixel-app.js';
import { CALL_SHEETS, callScriptDocument } from './call-scripts.js';
import { SCREEN } from './layout.js';
import { crmOracle } from './oracle.js';
import { APP_NAME, crmPageHtml } from './page.js';

/** The back-end operations the app calls (banking tool names). */
export const CRM_OPERATIONS = ['find_customers', 'get_customer_profile', 'verify_identity', 'update_mailing_address', 'block_card', 'order_replacement_card', 'record_call_outcome'] as const;

let html: string | undefined;

/** The app (see the module doc). It fronts the tasks that have a call sheet (T20, C01-C04). */
export const tellerLinkApp: PixelApp = {
  name: APP_NAME,
  screen: SCREEN,
  html: () => (html ??= crmPageHtml()),
  operations: CRM_OPERATIONS,
  fronts: (task: Task) => Object.prototype.hasOwnProperty.call(CALL_SHEETS, task.id),
  document: (task: Task) => (CALL_SHEETS[task.id] ? callScriptDocument(CALL_SHEETS[task.id]) : null),
  oracle: crmOracle,
};

export { CALL_SHEETS, SCRIPT_NOTES, callScriptDocument } from './call-scripts.js';
export { LAYOUT, SCREEN, centre, rowRect, optionRect } from './layout.js';
