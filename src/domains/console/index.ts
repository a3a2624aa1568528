/**
 * The `console` domain family: servicegym's service console (seed task T11), reached only
 * through the web surface. One dataset, shipped with the project.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymConsole } from './dataset.js';

export { loadServicegymConsole, createConsoleDomain, servicegymConsole, CONSOLE_TASK_FILES } from './dataset.js';
export { consoleUiOracle, CONSOLE_ORACLE_STEPS } from './oracle.js';
export type { ConsoleState } from './state.js';

/** Registry entry. */
export const consolePackage: DomainPackage = {
  name: 'console',
  description: 'Warranty claims in a service console worked through a browser: entitlements, return orders (RMA), paid repairs, duplicate cases, call logs (servicegym).',
  load: (opts) => loadServicegymConsole(opts),
};
