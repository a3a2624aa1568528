/**
 * The surface registry, imported eagerly: an explicit map from name to surface (how an agent
 * reaches a domain's back-end), for synchronous callers (tests, benches). Terminal, web and pixel
 * surfaces register here beside `api`; a dataset names its default surface in
 * `LoadedDomain.surface`. Commands and the episode builder load through the lazy registry
 * `./catalog.ts`, which imports only the surface they use; both hold the same entries
 * (test/domains/catalog.test.ts).
 */
import type { Surface } from '../spec/surface.js';
import { BadInputError } from '../spec/errors.js';
import { apiSurface } from './api.js';
import { webScreenshotSurface, webSurface } from './web.js';
import { pixelSurfaceFromOptions, pixelsSurface } from './pixels.js';
import { terminalSurface } from './terminal.js';

export const surfaces: Record<string, Surface> = {
  api: apiSurface,
  terminal: terminalSurface,
  web: webSurface,
  'web-screenshot': webScreenshotSurface,
  pixels: pixelsSurface,
};

/** The surface registered under `name`; throws {@link BadInputError} listing the known names. */
export function getSurface(name: string): Surface {
  const s = surfaces[name];
  if (!s) throw new BadInputError(`unknown surface '${name}' (known: ${Object.keys(surfaces).join(', ')})`);
  return s;
}

/** Surfaces that take per-run options (`--surface-option key=value`), by name. */
export const surfaceFactories: Record<string, (options: Record<string, string>) => Surface> = {
  pixels: pixelSurfaceFromOptions,
};

/**
 * The surface `name` with per-run `options` (key to string value). Throws {@link BadInputError}
 * for an unknown surface, or options given to a surface that takes none.
 */
export function surfaceWithOptions(name: string, options: Record<string, string> = {}): Surface {
  const base = getSurface(name);
  if (Object.keys(options).length === 0) return base;
  const make = surfaceFactories[name];
  if (!make) throw new BadInputError(`the ${name} surface takes no options (given: ${Object.keys(options).join(', ')})`);
  return make(options);
}
