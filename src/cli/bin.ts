#!/usr/bin/env node
/** Executable entry of the `servicegym` command. */
import { main } from './main.js';
import { closeSharedBrowser } from '../surfaces/browser-pool.js';

/**
 * Output piped into a reader that stops early (`servicegym replay --json | head`): the reader is
 * gone, so the rest of the output has nowhere to go. Exit at once, as command-line tools do,
 * instead of an unhandled EPIPE stack trace; any other stream error is still thrown.
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
quietOnClosedPipe(process.stdout);
quietOnClosedPipe(process.stderr);

main(process.argv)
  .then((code) => {
    process.exitCode = code;
  })
  // A browser-backed surface leaves the process's Chromium running: close it so the command exits.
  .finally(() => closeSharedBrowser());
