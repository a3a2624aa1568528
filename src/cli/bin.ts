#!/usr/bin/env node
/** Executable entry of the `servicegym` command. */
import { main } from './main.js';
import { closeSharedBrowser } from '../surfaces/browser-pool.js';

main(process.argv)
  .then((code) => {
    process.exitCode = code;
  })
  // A browser-backed surface leaves the process's Chromium running: close it so the command exits.
  .finally(() => closeSharedBrowser());
