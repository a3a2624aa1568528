/**
 * The `retail` domain family: tau2-bench's retail domain (products, users, orders; 16 agent
 * tools) loaded from a tau2 data folder, with tau2-identical tool outputs and DB hashes.
 */
import type { DomainPackage, PersonaText } from '../../spec/domain.js';
import { loadRetail } from './load.js';

export { loadRetail, createRetailDomain, loadRetailDb, parseRetailDb, applyRetailInitialState, type RetailDomainParts } from './load.js';
export { retailTau2Tools, retailTau2SurfaceTools, RETAIL_TAU2_SURFACE } from './tools.js';
export { retailDbHash, retailStateOps, type RetailState } from './state.js';
export type { RetailTool } from './tools-common.js';
export type { RetailDb } from './schema.js';

/** What the scripted customer of `validate` says first (before confirming each write). */
export const CUSTOMER_OPENING = 'Hello, I need help with my reservation.';

/** How the domain's customers name their records, for the personas (src/users/personas.ts; seed task T16). */
export const PERSONA_TEXT: PersonaText = { recordNouns: ['order', 'item', 'product'], withheld: 'order or user ids, no item or product names' };

/** Registry entry: `load({dataDir})` reads a tau2 retail folder; without it, BadInputError (no servicegym dataset yet). */
export const retailPackage: DomainPackage = {
  name: 'retail',
  description: 'Retail customer service: cancel, modify, return and exchange orders under a written policy (tau2-bench retail).',
  load: (opts) => ({ ...loadRetail(opts), customerOpening: CUSTOMER_OPENING, personaText: PERSONA_TEXT }),
};
