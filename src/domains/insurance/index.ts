/**
 * The `insurance` domain family: servicegym's own personal auto insurance back-end (seed task T10).
 * One dataset, shipped with the project.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymInsurance } from './dataset.js';

export { loadServicegymInsurance, createInsuranceDomain, servicegymInsuranceJson, INSURANCE_TASK_FILES } from './dataset.js';
export type { InsuranceDb, InsuranceTables } from './tools.js';
export * as insuranceRules from './rules.js';

/** Registry entry: insurance has only servicegym's dataset (`dataDir` is refused). */
export const insurancePackage: DomainPackage = {
  name: 'insurance',
  description: 'Personal auto insurance customer service: add and remove drivers mid-term with eligibility rules and pro-rata premium (servicegym).',
  load: (opts) => loadServicegymInsurance(opts),
};
