/**
 * The lazy surface registry: an explicit map from a surface's name to a loader that imports that
 * one surface, so a command on the API surface never compiles the browser, pixel or terminal
 * surfaces (their apps, snapshot code, PDF rendering). `./index.ts` imports the same surfaces
 * eagerly for synchronous callers; test/domains/catalog.test.ts checks that both hold the same
 * names and objects.
 */
import type { Domain } from '../spec/domain.js';
import type { Surface } from '../spec/surface.js';
import { BadInputError, SurfaceUnsupportedError } from '../spec/errors.js';

/** A surface and, for one that takes per-run options (`--surface-option key=value`), its factory. */
export interface SurfaceEntry {
  surface: Surface;
  /** The surface with options (key to string value); throws BadInputError for a bad option. */
  withOptions?: (options: Record<string, string>) => Surface;
}

export const surfaceLoaders: Record<string, () => Promise<SurfaceEntry>> = {
  api: async () => ({ surface: (await import('./api.js')).apiSurface }),
  terminal: async () => ({ surface: (await import('./terminal.js')).terminalSurface }),
  web: async () => ({ surface: (await import('./web.js')).webSurface }),
  'web-screenshot': async () => ({ surface: (await import('./web.js')).webScreenshotSurface }),
  pixels: async () => {
    const m = await import('./pixels.js');
    return { surface: m.pixelsSurface, withOptions: m.pixelSurfaceFromOptions };
  },
};

const imported = new Map<string, SurfaceEntry>();

/** Imports the surface entry `name` alone (once per process); throws {@link BadInputError} listing the known names. */
export async function importSurface(name: string): Promise<SurfaceEntry> {
  if (!Object.hasOwn(surfaceLoaders, name)) throw new BadInputError(`unknown surface '${name}' (known: ${Object.keys(surfaceLoaders).join(', ')})`);
  let entry = imported.get(name);
  if (!entry) imported.set(name, (entry = await surfaceLoaders[name]()));
  return entry;
}

/**
 * The surface `name` with per-run `options` (key to string value), importing only that surface.
 * Throws {@link BadInputError} for an unknown surface, or options given to a surface that takes none.
 */
export async function loadSurface(name: string, options: Record<string, string> = {}): Promise<Surface> {
  const entry = await importSurface(name);
  if (Object.keys(options).length === 0) return entry.surface;
  if (!entry.withOptions) throw new BadInputError(`the ${name} surface takes no options (given: ${Object.keys(options).join(', ')})`);
  return entry.withOptions(options);
}

/**
 * The surface `name` without options, synchronously, once {@link loadSurface} or
 * {@link importSurface} has imported it in this process (`buildEpisode` and `runDomainTasks` do
 * so for a dataset's own surface). Throws {@link BadInputError} for an unknown name, and an Error
 * naming the call to make when the surface is known but not imported yet.
 */
export function importedSurface(name: string): Surface {
  const entry = imported.get(name);
  if (entry) return entry.surface;
  if (!Object.hasOwn(surfaceLoaders, name)) throw new BadInputError(`unknown surface '${name}' (known: ${Object.keys(surfaceLoaders).join(', ')})`);
  throw new Error(`the ${name} surface is not loaded yet: await loadSurface('${name}') before building an episode on it synchronously`);
}

/**
 * Why `surface` cannot front `domain`, or null when it can. A surface says so through its own
 * contract: {@link Surface.tools} throws BadInputError for a domain it cannot front (no command
 * interpreter, no web app, no GUI app). The reason is a {@link SurfaceUnsupportedError}'s
 * `because` (e.g. "it offers no command interpreter"), or another BadInputError's whole message.
 * Other errors propagate.
 */
export function unsupportedReason(surface: Surface, domain: Domain<any>): string | null {
  try {
    surface.tools(domain);
    return null;
  } catch (e) {
    if (e instanceof SurfaceUnsupportedError) return e.because;
    if (e instanceof BadInputError) return e.message;
    throw e;
  }
}

/**
 * The names of the registered surfaces that can front `domain`, in registry order. Imports every
 * registered surface: for error messages and listings, not for a command's normal path.
 */
export async function surfacesSupporting(domain: Domain<any>): Promise<string[]> {
  const names: string[] = [];
  for (const name of Object.keys(surfaceLoaders)) {
    if (unsupportedReason((await importSurface(name)).surface, domain) === null) names.push(name);
  }
  return names;
}

/**
 * Checks, before anything runs or is stored, that `surface` can front `domain`.
 * @throws BadInputError, one sentence naming the domain, the surface asked for, the surface's
 *   reason and the surfaces the domain supports, e.g. "the airline domain does not support the
 *   terminal surface: it offers no command interpreter; surfaces it supports: api".
 */
export async function checkSurfaceSupports(surface: Surface, domain: Domain<any>): Promise<void> {
  const reason = unsupportedReason(surface, domain);
  if (reason === null) return;
  const supported = await surfacesSupporting(domain);
  const alternatives = supported.length > 0 ? `surfaces it supports: ${supported.join(', ')}` : 'it supports no registered surface';
  throw new BadInputError(`the ${domain.name} domain does not support the ${surface.name} surface: ${reason}; ${alternatives}`);
}
