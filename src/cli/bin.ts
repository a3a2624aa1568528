#!/usr/bin/env node
/** Executable entry of the `servicegym` command. */
import { main } from './main.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
