/**
 * The `gds` domain family: servicegym's Sabre-style GDS training emulator on the terminal surface
 * (seed task T12). One dataset, shipped with the project.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymGds } from './dataset.js';

export { loadServicegymGds, createGdsDomain, servicegymGdsDb, gdsTerminalTool, gdsInterpreter, GDS_GEOMETRY, GDS_TASK_FILES } from './dataset.js';
export { interpret } from './entries.js';
export { newSession, gdsStateOps, type GdsState } from './state.js';

/** Registry entry. */
export const gdsPackage: DomainPackage = {
  name: 'gds',
  description: 'Airline reservations through a cryptic-command GDS terminal: rebook after cancellations, SSRs, schedule changes, end transaction (servicegym).',
  load: (opts) => loadServicegymGds(opts),
};
