/**
 * The lazy registries (`src/domains/catalog.ts`, `src/surfaces/catalog.ts`) import one domain or
 * surface on demand; the eager ones (`index.ts`) import them all for synchronous callers. Both
 * must hold the same names and the very same objects, and give the same errors.
 */
import { describe, expect, it } from 'vitest';
import { domainPackages, domains, loadDomain } from '../../src/domains/index.js';
import { DOMAIN_NAMES, DOMAIN_PACKAGE_NAMES, domainLoaders, domainPackageLoaders, importDomain, importDomainPackage, loadDomainAsync } from '../../src/domains/catalog.js';
import { surfaceFactories, surfaces } from '../../src/surfaces/index.js';
import { importedSurface, importSurface, loadSurface, surfaceLoaders } from '../../src/surfaces/catalog.js';
import { SURFACE_NAMES } from '../../src/surfaces/names.js';
import { BadInputError } from '../../src/spec/errors.js';

describe('the lazy domain registry', () => {
  it('lists the eager registry\'s names and loads the same objects', async () => {
    expect([...DOMAIN_PACKAGE_NAMES].sort()).toEqual(Object.keys(domainPackages).sort());
    expect([...DOMAIN_NAMES].sort()).toEqual(Object.keys(domains).sort());
    for (const name of Object.keys(domainPackageLoaders)) expect(await importDomainPackage(name), name).toBe(domainPackages[name]);
    for (const name of Object.keys(domainLoaders)) expect(await importDomain(name), name).toBe(domains[name]);
  });

  it('loads a dataset as loadDomain does', async () => {
    const lazy = await loadDomainAsync('airline');
    const eager = loadDomain('airline');
    expect(lazy.tasks.map((t) => t.id)).toEqual(eager.tasks.map((t) => t.id));
    expect(lazy.domain.name).toBe('airline');
    expect(lazy.policy).toBe(eager.policy);
  });

  it('gives the eager registry\'s errors: unknown names (prototype keys too), unknown variants, no solo mode', async () => {
    await expect(loadDomainAsync('nope')).rejects.toThrow(BadInputError);
    await expect(loadDomainAsync('nope')).rejects.toThrow(`unknown domain 'nope' (known: ${DOMAIN_PACKAGE_NAMES.join(', ')})`);
    expect(() => loadDomain('nope')).toThrow(`unknown domain 'nope' (known: ${DOMAIN_PACKAGE_NAMES.join(', ')})`);
    await expect(loadDomainAsync('toString')).rejects.toThrow("unknown domain 'toString'");
    expect(() => loadDomain('toString')).toThrow("unknown domain 'toString'");
    await expect(importDomain('constructor')).rejects.toThrow(`unknown domain 'constructor' (known: ${DOMAIN_NAMES.join(', ')})`);
    await expect(loadDomainAsync('airline', { policy: 'workflow' })).rejects.toThrow("domain 'airline' has no policy variant 'workflow'");
    await expect(loadDomainAsync('airline', { solo: true })).rejects.toThrow("domain 'airline' has no solo mode");
    expect(() => loadDomain('airline', { solo: true })).toThrow("domain 'airline' has no solo mode");
  });
});

describe('the lazy surface registry', () => {
  it('gives no surface synchronously before it is loaded (nothing here has loaded one yet)', () => {
    expect(() => importedSurface('web')).toThrow("the web surface is not loaded yet: await loadSurface('web')");
  });

  it('lists the eager registry\'s names (the help\'s list too) and loads the same objects', async () => {
    expect(Object.keys(surfaceLoaders).sort()).toEqual(Object.keys(surfaces).sort());
    expect([...SURFACE_NAMES].sort()).toEqual(Object.keys(surfaces).sort());
    for (const name of Object.keys(surfaceLoaders)) {
      const entry = await importSurface(name);
      expect(entry.surface, name).toBe(surfaces[name]);
      expect(entry.withOptions, name).toBe(surfaceFactories[name]);
    }
  });

  it('gives a surface synchronously only once it is loaded; options only to a surface that takes them', async () => {
    expect(() => importedSurface('nope')).toThrow(BadInputError);
    await expect(loadSurface('nope')).rejects.toThrow(`unknown surface 'nope' (known: ${SURFACE_NAMES.join(', ')})`);
    await expect(loadSurface('valueOf')).rejects.toThrow("unknown surface 'valueOf'");
    await expect(loadSurface('api', { format: 'png' })).rejects.toThrow('the api surface takes no options (given: format)');
    expect((await loadSurface('pixels', { format: 'jpeg' })).name).toBe('pixels');
    await expect(loadSurface('pixels', { format: 'gif' })).rejects.toThrow(BadInputError);
    expect(importedSurface('pixels')).toBe(surfaces.pixels);
  });
});
