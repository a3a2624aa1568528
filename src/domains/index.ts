/**
 * The domain registry: an explicit map from name to domain (never a folder scan).
 */
import type { Domain } from '../spec/domain.js';
import { BadInputError } from '../spec/errors.js';
import { yunshuDomain } from './yunshu/index.js';

export const domains: Record<string, Domain<any>> = {
  yunshu: yunshuDomain,
};

/** The domain registered under `name`; throws {@link BadInputError} listing the known names. */
export function getDomain(name: string): Domain<any> {
  const d = domains[name];
  if (!d) throw new BadInputError(`unknown domain '${name}' (known: ${Object.keys(domains).join(', ')})`);
  return d;
}
