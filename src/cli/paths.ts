/** Locations inside the installed package. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package root (works from `src/` under tsx and from `dist/`). */
export const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The embedded default campaign: the seed transfer-policy experiment, imported. */
export const DEFAULT_CAMPAIGN_DIR = path.join(PACKAGE_ROOT, 'examples', 'seed-transfer-policy');

/** The package's version from its package.json (`--version`). */
export function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}
