#!/usr/bin/env node
/** Executable entry of the `servicegym` command. */
import { main } from './main.js';
import { closeSharedBrowser } from '../surfaces/browser-pool.js';

/** Exit code when the command's output cannot be written (a full disk, an I/O error): sysexits' EX_IOERR. */
const EXIT_OUTPUT_ERROR = 74;

/**
 * Output piped into a reader that stops early (`servicegym replay --json | head`): the reader is
 * gone, so the rest of the output has nowhere to go. Exit at once, as command-line tools do,
 * instead of an unhandled EPIPE stack trace. Output that cannot be written for another reason
 * (`> /dev/full`, a full disk) ends the command with one line on stderr naming the cause and exit
 * code 74, as `ls > /dev/full` says "write error", instead of a stack trace; an error of stderr
 * itself ends it with that code silently (there is nowhere to say it).
 */
function quietOnClosedPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    if (!err.code) throw err;
    if (stream !== process.stderr) {
      try {
        process.stderr.write(`servicegym: cannot write the output: ${err.message}\n`);
      } catch {
        // stderr cannot be written either
      }
    }
    process.exit(EXIT_OUTPUT_ERROR);
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
