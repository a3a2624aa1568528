/**
 * The `utility` domain family: servicegym's own residential utility back-end (seed task T19). One
 * dataset, shipped with the project.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymUtility } from './dataset.js';

export { loadServicegymUtility, createUtilityDomain, servicegymUtilityJson, UTILITY_TASK_FILES } from './dataset.js';
export type { UtilityDb, UtilityTables } from './tools.js';
export * as utilityRules from './rules.js';

/** Registry entry: utility has only servicegym's dataset (`dataDir` is refused). */
export const utilityPackage: DomainPackage = {
  name: 'utility',
  description: 'Residential utility customer service: moves, stops and starts of service, final meter reads, deposits and final-bill dates (servicegym).',
  load: (opts) => loadServicegymUtility(opts),
};
