/**
 * The domain registry, imported eagerly: explicit maps from name to domain (never a folder scan),
 * for synchronous callers (tests, benches). Commands load through the lazy registry
 * `./catalog.ts`, which imports only the domain they run; both hold the same entries
 * (test/domains/catalog.test.ts).
 *
 * - {@link domains}: environment definitions used directly by campaigns (e.g. `yunshu`).
 * - {@link domainPackages}: domain families with datasets and tasks (servicegym's own dataset, or
 *   a tau2 folder with `--data-dir`).
 */
import type { Domain, DomainLoadOptions, DomainPackage, LoadedDomain } from '../spec/domain.js';
import { loadPackage, unknownDomainError } from './catalog.js';
import { yunshuDomain } from './yunshu/index.js';
import { airlinePackage } from './airline/index.js';
import { retailPackage } from './retail/index.js';
import { bankingPackage } from './banking/index.js';
import { hotelPackage } from './hotel/index.js';
import { insurancePackage } from './insurance/index.js';
import { utilityPackage } from './utility/index.js';
import { gdsPackage } from './gds/index.js';
import { telecomPackage } from './telecom/index.js';
import { helpdeskPackage } from './helpdesk/index.js';
import { consolePackage } from './console/index.js';

export const domains: Record<string, Domain<any>> = {
  yunshu: yunshuDomain,
};

export const domainPackages: Record<string, DomainPackage> = {
  airline: airlinePackage,
  retail: retailPackage,
  banking: bankingPackage,
  hotel: hotelPackage,
  insurance: insurancePackage,
  utility: utilityPackage,
  gds: gdsPackage,
  telecom: telecomPackage,
  helpdesk: helpdeskPackage,
  console: consolePackage,
};

/** The domain registered under `name`; throws {@link BadInputError} listing the known names. */
export function getDomain(name: string): Domain<any> {
  if (!Object.hasOwn(domains, name)) throw unknownDomainError(name, Object.keys(domains));
  return domains[name];
}

/** Loads a domain family with its dataset; throws {@link BadInputError} for an unknown name or variant. */
export function loadDomain(name: string, opts: DomainLoadOptions = {}): LoadedDomain<any> {
  if (!Object.hasOwn(domainPackages, name)) throw unknownDomainError(name, Object.keys(domainPackages));
  return loadPackage(domainPackages[name], opts);
}
