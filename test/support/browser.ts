/**
 * Browser tests of the viewer: Debian's chromium driven by playwright-core (which downloads no
 * browser), the viewer UI built from the current sources into a temporary folder, and
 * screenshots under test-output/viewer/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT, tmpDir } from './paths.js';
import { CHROMIUM_ARGS, chromiumPath } from '../../src/surfaces/browser-pool.js';
import { CHROMIUM_NEED } from './needs.js';

/** The chromium the tests drive: SERVICEGYM_CHROMIUM, else where CI installs it (`apt-get install -y chromium` in .ci/run), /usr/bin/chromium. */
export const CHROMIUM = chromiumPath();
/** True when chromium is installed; browser tests skip otherwise, saying so in their names ({@link CHROMIUM_NEED}). */
export const HAS_CHROMIUM = CHROMIUM_NEED.present;

/** Launch flags: the browser pool's (headless, no sandbox, no network of chromium's own). */
export { CHROMIUM_ARGS };

/** Screenshots of the viewer tests. */
export const SCREENSHOT_DIR = path.join(ROOT, 'test-output', 'viewer');

/** Starts headless chromium. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });
}

/** Saves a full-page screenshot as test-output/viewer/`name`.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * Builds the viewer UI from `viewer/` into a fresh temporary folder (the same `vite build` as
 * `npm run build`, another output folder), so the tests check the current sources.
 */
export function buildViewerUi(): string {
  const out = path.join(tmpDir('sg-viewer-ui-'), 'ui');
  const vite = path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  const res = spawnSync(process.execPath, [vite, 'build', '-c', path.join(ROOT, 'viewer', 'vite.config.ts'), '--outDir', out, '--emptyOutDir'], {
    cwd: ROOT,
    encoding: 'utf8',
    // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0 || !fs.existsSync(path.join(out, 'index.html'))) {
    throw new Error(`vite build of the viewer failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`);
  }
  return out;
}

/** Collects the page's console errors and uncaught exceptions, to assert none happened. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return errors;
}
