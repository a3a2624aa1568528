/**
 * Where the built viewer UI (`vite build` of `viewer/`: index.html + assets/) lives: beside the
 * compiled server in `dist/viewer/ui/`, or, when running from sources, in the checkout's
 * `dist/viewer/ui/`; `SERVICEGYM_VIEWER_UI_DIR` overrides both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Environment variable naming another UI folder (a development build, or the tests' own build). */
export const UI_DIR_ENV = 'SERVICEGYM_VIEWER_UI_DIR';

/**
 * The default UI folder: `$SERVICEGYM_VIEWER_UI_DIR` when set, else the first of `./ui` (built
 * package) and `../../dist/viewer/ui` (sources) that holds an index.html.
 */
export function defaultUiDir(): string {
  const fromEnv = process.env[UI_DIR_ENV];
  if (fromEnv) return path.resolve(fromEnv);
  const candidates = [path.join(here, 'ui'), path.resolve(here, '..', '..', 'dist', 'viewer', 'ui')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[candidates.length - 1];
}

/** The message shown when `uiDir` holds no built UI. */
export function missingUiMessage(uiDir: string): string {
  return `the viewer UI is not built (no ${path.join(uiDir, 'index.html')}); run \`npm run build\` in the servicegym checkout`;
}
