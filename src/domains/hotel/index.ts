/**
 * The `hotel` domain family: servicegym's own hotel reservations back-end (seed task T09). One
 * dataset, shipped with the project.
 */
import type { DomainPackage } from '../../spec/domain.js';
import { loadServicegymHotel } from './dataset.js';

export { loadServicegymHotel, createHotelDomain, servicegymHotelJson, HOTEL_TASK_FILES } from './dataset.js';
export type { HotelDb, HotelTables } from './tools-common.js';
export * as hotelRules from './rules.js';

/** What the scripted customer of `validate` says first (before confirming each write). */
export const CUSTOMER_OPENING = 'Hello, I need help with my reservation.';

/** Registry entry: hotel has only servicegym's dataset (`dataDir` is refused). */
export const hotelPackage: DomainPackage = {
  name: 'hotel',
  description: 'Hotel reservations customer service: shorten, extend and cancel stays under rate-plan rules, with nightly taxes, penalties and refunds (servicegym).',
  load: (opts) => ({ ...loadServicegymHotel(opts), customerOpening: CUSTOMER_OPENING }),
};
