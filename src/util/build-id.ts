/**
 * The id of a stamped build: `npm run build` bundles the CLI (`scripts/bundle-cli.mjs`) and writes
 * into the bundle 16 hex digits of the sha256 of all the bundled code, in place of the placeholder
 * below. Caches of derived data (validated copies of data files, `src/domains/common/validated-copy.ts`)
 * key on it instead of deriving a key from each schema at start-up. `null` when the code runs
 * unbundled (tsx, tsc's output): callers then derive their keys themselves.
 */
const STAMP: string = '__SERVICEGYM_BUILD_ID__';

export const BUILD_ID: string | null = /^[0-9a-f]{16}$/.test(STAMP) ? STAMP : null;
