/**
 * The browser pool shared by the browser-backed surfaces (web, pixels): one headless Chromium per
 * process, launched on first use, and one isolated browser context per episode (its own cookies,
 * storage and pages), so a reset is a new context rather than a new browser and episodes never
 * see each other's state (architecture notes, "Performance shape").
 *
 * playwright-core downloads no browser: the executable is Debian's `chromium` at
 * `/usr/bin/chromium`, or the path in `SERVICEGYM_CHROMIUM`.
 *
 * Signals: playwright's own Ctrl-C and SIGTERM handling (close the browser and exit 130) is off,
 * so a command that stops gently on Ctrl-C (`run`: src/cli/run-interrupt.ts) keeps the browser its
 * running episodes use. The running browser is tracked as an open resource instead
 * (src/env/open-environments.ts): a signal that ends the process closes it first.
 */
import fs from 'node:fs';
import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { BadInputError } from '../spec/errors.js';
import { trackOpen, untrackOpen, type Closable } from '../env/open-environments.js';

/** Where Chromium is looked for when `SERVICEGYM_CHROMIUM` is unset. */
export const DEFAULT_CHROMIUM = '/usr/bin/chromium';

/**
 * Launch flags: headless, no sandbox (containers run as root), no GPU, and none of Chromium's own
 * network traffic (updates, sync, background fetches), which a closed network refuses noisily.
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Chromium executable this process uses (`SERVICEGYM_CHROMIUM` or {@link DEFAULT_CHROMIUM}). */
export function chromiumPath(): string {
  return process.env.SERVICEGYM_CHROMIUM || DEFAULT_CHROMIUM;
}

/** True when the Chromium executable exists (browser surfaces and their tests need it). */
export function hasChromium(): boolean {
  return fs.existsSync(chromiumPath());
}

let launching: Promise<Browser> | null = null;

/** The shared browser as an open resource: a signal that ends the process closes it (see the module comment). */
const RUNNING_BROWSER: Closable = { close: () => closeSharedBrowser() };

/**
 * The process's browser, launched on first call (concurrent callers share one launch). A browser
 * that disconnected (crashed or was closed) is relaunched on the next call, once however many
 * callers ask at the same time. Throws
 * {@link BadInputError} naming the path when Chromium is not installed.
 */
export async function sharedBrowser(): Promise<Browser> {
  // After a crash, callers that waited on the dead browser together relaunch once: only the one
  // that finds `launching` unchanged launches; the others take its browser (none is orphaned).
  for (let current = launching; current; current = launching) {
    const b = await current.catch(() => null);
    if (b && b.isConnected()) return b;
    if (launching === current) break;
  }
  const exe = chromiumPath();
  if (!fs.existsSync(exe)) {
    throw new BadInputError(`Chromium not found at ${exe}: install it (Debian: apt-get install -y chromium) or set SERVICEGYM_CHROMIUM`);
  }
  launching = import('playwright-core').then(async ({ chromium }) => {
    const browser = await chromium.launch({ executablePath: exe, args: [...CHROMIUM_ARGS], handleSIGINT: false, handleSIGTERM: false });
    trackOpen(RUNNING_BROWSER);
    return browser;
  });
  launching.catch(() => {
    launching = null;
  });
  return launching;
}

/**
 * A fresh, isolated context for one episode on the shared browser. The caller closes it (a
 * surface's `close`), which also closes its pages. `options` are playwright's context options
 * (viewport in CSS pixels, device scale factor, locale, timezone ...).
 */
export async function newEpisodeContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const browser = await sharedBrowser();
  return browser.newContext({ locale: 'en-US', timezoneId: 'UTC', ...options });
}

/** Closes the shared browser if one was launched (tests, process exit). Safe to call twice. */
export async function closeSharedBrowser(): Promise<void> {
  const p = launching;
  launching = null;
  untrackOpen(RUNNING_BROWSER);
  if (!p) return;
  const b = await p.catch(() => null);
  if (b) await b.close().catch(() => undefined);
}
