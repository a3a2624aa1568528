/**
 * The domain registry: explicit maps from name to domain (never a folder scan).
 *
 * - {@link domains}: environment definitions used directly by campaigns (e.g. `yunshu`).
 * - {@link domainPackages}: domain families with datasets and tasks, for `run`, `validate` and
 *   `conformance` (servicegym's own dataset, or a tau2 folder with `--data-dir`).
 */
import type { Domain, DomainLoadOptions, DomainPackage, LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
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
  const d = domains[name];
  if (!d) throw new BadInputError(`unknown domain '${name}' (known: ${Object.keys(domains).join(', ')})`);
  return d;
}

/** Loads a domain family with its dataset; throws {@link BadInputError} for an unknown name. */
export function loadDomain(name: string, opts: DomainLoadOptions = {}): LoadedDomain<any> {
  const p = domainPackages[name];
  if (!p) throw new BadInputError(`unknown domain '${name}' (known: ${Object.keys(domainPackages).join(', ') || 'none'})`);
  const policies = p.variants?.policies ?? [];
  if (opts.policy !== undefined && !policies.includes(opts.policy)) {
    throw new BadInputError(`domain '${name}' has no policy variant '${opts.policy}'${policies.length ? ` (known: ${policies.join(', ')})` : ''}`);
  }
  if (opts.solo && !p.variants?.solo) throw new BadInputError(`domain '${name}' has no solo mode`);
  return p.load(opts);
}
