/**
 * What the machine must offer for a test to run, and the one wording a skipped test gives for what
 * is missing: the reason ends the test's (or suite's) name as ` (skipped: needs …)`, and the skip
 * reporter (test/support/skip-reporter.ts) lists skipped tests under their reasons after a run.
 *
 *     describe.skipIf(lacks(CHROMIUM_NEED))(needing('the web surface', CHROMIUM_NEED), () => …)
 */
import { spawnSync } from 'node:child_process';
import { chromiumPath, hasChromium } from '../../src/surfaces/browser-pool.js';
import { HAS_SHARED, SHARED_REASON } from './paths.js';

/** Something a test needs from the machine (or from the data under test): whether it is there, and `needs …` naming it and where. */
export interface Need {
  present: boolean;
  /** e.g. `needs chromium at /usr/bin/chromium`. */
  reason: string;
}

const onPath = (cmd: string, arg = '--version') => spawnSync(cmd, [arg], { stdio: 'ignore' }).status === 0;

/** ../shared beside the checkout: tau2's data, seed records (test/support/paths.ts). */
export const SHARED_NEED: Need = { present: HAS_SHARED, reason: SHARED_REASON };
/** The Chromium the browser surfaces and viewer tests drive (SERVICEGYM_CHROMIUM, else /usr/bin/chromium). */
export const CHROMIUM_NEED: Need = { present: hasChromium(), reason: `needs chromium at ${chromiumPath()}` };
/** redis-server on PATH: queue tests start their own on a free 127.0.0.1 port (test/support/redis.ts). */
export const REDIS_NEED: Need = { present: onPath('redis-server'), reason: 'needs redis-server on PATH (each queue test starts its own on 127.0.0.1)' };
/** util-linux `script`, which gives a command a pseudo-terminal. */
export const SCRIPT_NEED: Need = { present: onPath('script'), reason: 'needs script (util-linux) on PATH' };

/** True when any of `needs` is missing (the test is then skipped). */
export function lacks(...needs: Need[]): boolean {
  return needs.some((n) => !n.present);
}

/** ` (skipped: needs …; needs …)` naming what of `needs` is missing, or '' when nothing is. */
export function skipReason(...needs: Need[]): string {
  const missing = needs.filter((n) => !n.present).map((n) => n.reason);
  return missing.length ? ` (skipped: ${missing.join('; ')})` : '';
}

/** A test or suite name that says why it is skipped when any of `needs` is missing: `name` plus {@link skipReason}. */
export function needing(name: string, ...needs: Need[]): string {
  return `${name}${skipReason(...needs)}`;
}
