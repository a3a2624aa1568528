/**
 * The names of the registered surfaces, from the lazy registry (`./catalog.ts`, which imports no
 * surface until one is asked for): command help lists them without loading the surfaces
 * themselves (browsers, PDF rendering). test/cli/startup-imports.test.ts checks that this list
 * equals the eager registry's (`./index.ts`).
 */
import { surfaceLoaders } from './catalog.js';

export const SURFACE_NAMES: readonly string[] = Object.keys(surfaceLoaders);
