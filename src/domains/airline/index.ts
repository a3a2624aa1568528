/**
 * The `airline` domain family: tau2-bench's airline domain (flights, users, reservations; 14
 * agent tools) loaded from a tau2 data folder, with tau2-identical tool outputs and DB hashes.
 */
import type { DomainPackage, PersonaText } from '../../spec/domain.js';
import { loadAirline } from './load.js';

export { loadAirline, createAirlineDomain, loadAirlineDb, loadTau2Tasks, parseAirlineDb } from './load.js';
export { airlineTau2Tools, airlineTau2SurfaceTools, AIRLINE_TAU2_SURFACE } from './tools.js';
export { airlineDbHash, airlineStateOps, type AirlineState } from './state.js';
export { AIRLINE_TAU2_NOW } from './tools-common.js';
export { applyAirlineInitialState } from './initial-state.js';
export type { AirlineDb } from './schema.js';

/** What the scripted customer of `validate` says first (before confirming each write). */
export const CUSTOMER_OPENING = 'Hello, I need help with my reservation.';

/** How the domain's customers name their records, for the personas (src/users/personas.ts; seed task T16). */
export const PERSONA_TEXT: PersonaText = { recordNouns: ['reservation', 'booking', 'flight', 'ticket'], withheld: 'reservation or user ids, no flight numbers' };

/** Registry entry: `load({dataDir})` reads a tau2 airline folder; without it, servicegym's dataset. */
export const airlinePackage: DomainPackage = {
  name: 'airline',
  description: 'Airline customer service: book, change and cancel flight reservations under a written policy (tau2-bench airline).',
  load: (opts) => ({ ...loadAirline(opts), customerOpening: CUSTOMER_OPENING, personaText: PERSONA_TEXT }),
};
