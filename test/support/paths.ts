/** Paths tests share: the shipped example campaign and the optional ../shared folder. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SEED_CAMPAIGN = path.join(ROOT, 'examples', 'seed-transfer-policy');
export const SHARED = path.resolve(ROOT, '..', 'shared');
export const SEED_RECORD = path.join(SHARED, 'seeds', '000_30951e7824566f07.txt');
/** True when ../shared (seeds, peers) is beside the checkout; tests needing it skip otherwise. */
export const HAS_SHARED = fs.existsSync(SEED_RECORD);
/** What a test needing ../shared says it needs (the wording of test/support/needs.ts). */
export const SHARED_REASON = `needs ../shared (tau2 peer data, seed records) at ${SHARED}`;
/** The end of a ../shared test's name: why it is skipped when ../shared is absent (`has` false), else nothing. */
export const sharedSkipReason = (has: boolean): string => (has ? '' : ` (skipped: ${SHARED_REASON})`);
/** Why a test needing ../shared is skipped here (empty when it runs), for the end of its name. */
export const NO_SHARED_REASON = sharedSkipReason(HAS_SHARED);
/**
 * The name of a test or suite that needs ../shared: `name`, plus the reason it is skipped when
 * ../shared is absent. Use with `describe.skipIf(!HAS_SHARED)(needsShared('...'), ...)` (or `it`).
 */
export const needsShared = (name: string): string => `${name}${NO_SHARED_REASON}`;

/** A fresh temporary folder. */
export function tmpDir(prefix = 'sg-'): string {
  return fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? '/tmp'), prefix));
}
