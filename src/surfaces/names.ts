/**
 * The names of the registered surfaces (`surfaces` in `./index.ts`), in a module that loads
 * nothing: command help lists them without loading the surfaces themselves (browsers, PDF
 * rendering). test/cli/startup-imports.test.ts checks that this list equals the registry's.
 */
export const SURFACE_NAMES: readonly string[] = ['api', 'terminal', 'web', 'web-screenshot', 'pixels'];
