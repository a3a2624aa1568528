/**
 * The `helpdesk` domain family: servicegym's helpdesk connected to a shop (seed task T18). The
 * back-end is the shop's and the helpdesk's state; an API agent calls its operations directly, a
 * web agent works through the Harbordesk helpdesk and the shop admin (`apps/`). Episodes are
 * ticket-driven: the customer's message is a ticket, not a live caller.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymHelpdesk } from './dataset.js';

export { loadServicegymHelpdesk, createHelpdeskDomain, servicegymHelpdeskJson, helpdeskTools, HELPDESK_TASK_FILES } from './dataset.js';
export type { HelpdeskDb, HelpdeskTables, HelpdeskTool } from './tools-common.js';
export * as helpdeskRules from './rules.js';

/** What the scripted customer of `validate` says first: the work item, since the customer's words are in the ticket. */
export const CUSTOMER_OPENING = 'Please handle the ticket assigned to you.';

/** Registry entry: the helpdesk has only servicegym's dataset (`dataDir` is refused). */
export const helpdeskPackage: DomainPackage = {
  name: 'helpdesk',
  description: 'A helpdesk connected to a shop: ticket-driven service (late deliveries, refunds, discount codes, macros) under a written policy, through the API or the helpdesk and shop admin apps (servicegym).',
  load: (opts) => ({ ...loadServicegymHelpdesk(opts), customerOpening: CUSTOMER_OPENING }),
};
