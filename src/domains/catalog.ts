/**
 * The lazy domain registry: explicit maps from a domain's name to a loader that imports that one
 * domain (never a folder scan, never every domain at once), so a command loads only the domain it
 * runs — `validate --domain airline` compiles none of the other domains, their GUI apps or their
 * dataset generators. `./index.ts` imports the same entries eagerly for synchronous callers;
 * test/domains/catalog.test.ts checks that both registries hold the same names and objects.
 *
 * - {@link domainLoaders}: environment definitions used directly by campaigns (e.g. `yunshu`).
 * - {@link domainPackageLoaders}: domain families with datasets and tasks, for `run`, `validate`,
 *   `lint`, `evaluate`, `rescore`, `conformance`, the queue worker and the optimiser.
 */
import type { Domain, DomainLoadOptions, DomainPackage, LoadedDomain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';

export const domainLoaders: Record<string, () => Promise<Domain<any>>> = {
  yunshu: async () => (await import('./yunshu/index.js')).yunshuDomain,
};

export const domainPackageLoaders: Record<string, () => Promise<DomainPackage>> = {
  airline: async () => (await import('./airline/index.js')).airlinePackage,
  retail: async () => (await import('./retail/index.js')).retailPackage,
  banking: async () => (await import('./banking/index.js')).bankingPackage,
  hotel: async () => (await import('./hotel/index.js')).hotelPackage,
  insurance: async () => (await import('./insurance/index.js')).insurancePackage,
  utility: async () => (await import('./utility/index.js')).utilityPackage,
  gds: async () => (await import('./gds/index.js')).gdsPackage,
  telecom: async () => (await import('./telecom/index.js')).telecomPackage,
  helpdesk: async () => (await import('./helpdesk/index.js')).helpdeskPackage,
  console: async () => (await import('./console/index.js')).consolePackage,
};

/** Names of the campaign environment definitions ({@link domainLoaders}), without loading any. */
export const DOMAIN_NAMES: readonly string[] = Object.keys(domainLoaders);
/** Names of the domain families ({@link domainPackageLoaders}), without loading any. */
export const DOMAIN_PACKAGE_NAMES: readonly string[] = Object.keys(domainPackageLoaders);

/** True when `name` is a registered campaign domain (no prototype keys such as `toString`). */
export function isDomainName(name: string): boolean {
  return Object.hasOwn(domainLoaders, name);
}

/** True when `name` is a registered domain family. */
export function isDomainPackageName(name: string): boolean {
  return Object.hasOwn(domainPackageLoaders, name);
}

/** The error for a domain name no registry holds: `unknown domain 'x' (known: a, b)`. */
export function unknownDomainError(name: string, known: readonly string[]): BadInputError {
  return new BadInputError(`unknown domain '${name}' (known: ${known.join(', ') || 'none'})`);
}

/** Imports the campaign domain `name` alone; throws {@link BadInputError} listing the known names. */
export async function importDomain(name: string): Promise<Domain<any>> {
  if (!isDomainName(name)) throw unknownDomainError(name, DOMAIN_NAMES);
  return domainLoaders[name]();
}

/** Imports the domain family `name` alone; throws {@link BadInputError} listing the known names. */
export async function importDomainPackage(name: string): Promise<DomainPackage> {
  if (!isDomainPackageName(name)) throw unknownDomainError(name, DOMAIN_PACKAGE_NAMES);
  return domainPackageLoaders[name]();
}

/**
 * Loads a family's dataset after checking the variant options against what it offers.
 * @throws BadInputError for a policy variant the family has not (listing those it has), or solo
 *   mode on a family without it; and whatever `p.load` throws for a bad data folder.
 */
export function loadPackage(p: DomainPackage, opts: DomainLoadOptions = {}): LoadedDomain<any> {
  const policies = p.variants?.policies ?? [];
  if (opts.policy !== undefined && !policies.includes(opts.policy)) {
    throw new BadInputError(`domain '${p.name}' has no policy variant '${opts.policy}'${policies.length ? ` (known: ${policies.join(', ')})` : ''}`);
  }
  if (opts.solo && !p.variants?.solo) throw new BadInputError(`domain '${p.name}' has no solo mode`);
  return p.load(opts);
}

/**
 * Imports the domain family `name` alone and loads its dataset (servicegym's own, or the tau2
 * folder `opts.dataDir`): the lazy form of `loadDomain` in `./index.ts`, with the same errors.
 */
export async function loadDomainAsync(name: string, opts: DomainLoadOptions = {}): Promise<LoadedDomain<any>> {
  return loadPackage(await importDomainPackage(name), opts);
}
