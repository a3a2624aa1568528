/**
 * The `banking` domain family: servicegym's own retail-bank back-end (seed tasks T08 and T14;
 * the legacy desktop CRM of T20 fronts the same state). No public benchmark has it, so it has one
 * dataset, shipped with the project.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymBank } from './dataset.js';

export { loadServicegymBank, createBankDomain, servicegymBankJson, bankTools, BANK_TASK_FILES } from './dataset.js';
export type { BankDb, BankTables } from './tools-common.js';
export * as bankRules from './rules.js';

/** What the scripted customer of `validate` says first (before confirming each write). */
export const CUSTOMER_OPENING = 'Hello, I need help with my reservation.';

/** Registry entry: banking has only servicegym's dataset (`dataDir` is refused). */
export const bankingPackage: DomainPackage = {
  name: 'banking',
  description: 'Retail banking customer service: identity verification, card disputes, card blocks and replacements, address changes and fees under a written policy (servicegym).',
  load: (opts) => ({ ...loadServicegymBank(opts), customerOpening: CUSTOMER_OPENING }),
};
