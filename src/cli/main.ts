/**
 * The `servicegym` command. Exit codes: 0 ok, 1 failed checks (a rejected candidate, a replay
 * that did not reproduce, a provider that failed after retries), 2 bad input (names the file and
 * the JSON path), 70 internal error.
 */
import { Command, CommanderError } from 'commander';
import { BadInputError, ProviderError, ReplayMissError } from '../spec/errors.js';
import { registerReplay } from './replay.js';
import { registerCampaign } from './campaign.js';
import { registerImportRecord } from './import-record.js';
import { registerValidate } from './validate.js';
import { registerRun } from './run.js';
import { registerConformance } from './conformance.js';
import { registerOptimize } from './optimize.js';
import { registerPrompts } from './prompts.js';
import { registerCanary } from './canary.js';
import { registerView } from './view.js';
import { registerLint } from './lint.js';
import { registerCompare } from './compare.js';
import { registerCompareSurfaces } from './compare-surfaces.js';
import { registerTerminal } from './terminal.js';
import { registerWorker } from './worker.js';
import { registerMergeShards } from './merge-shards.js';
import { packageVersion } from './paths.js';
import { registerRescore } from './rescore.js';
import { registerEvaluate } from './evaluate.js';
import { registerImportTau2 } from './import-tau2.js';

/** Runs the CLI on `argv` (as process.argv) and returns the exit code; never calls process.exit. */
export async function main(argv: string[]): Promise<number> {
  let code = 0;
  const setExit = (c: number) => (code = c);
  const program = new Command()
    .name('servicegym')
    .description('simulate, evaluate and improve policy-bound customer-service agents')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: (s, write) => write(`servicegym: ${s}`) })
    .showHelpAfterError('(add --help for usage)');
  registerReplay(program, setExit);
  registerCampaign(program, setExit);
  registerImportRecord(program, setExit);
  registerValidate(program, setExit);
  registerRun(program, setExit);
  registerConformance(program, setExit);
  registerLint(program, setExit);
  registerOptimize(program, setExit);
  registerCanary(program, setExit);
  registerPrompts(program, setExit);
  registerView(program, setExit);
  registerCompare(program, setExit);
  registerCompareSurfaces(program, setExit);
  registerTerminal(program, setExit);
  registerRescore(program, setExit);
  registerEvaluate(program, setExit);
  registerImportTau2(program, setExit);
  registerWorker(program, setExit);
  registerMergeShards(program, setExit);
  try {
    await program.parseAsync(argv);
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof BadInputError) {
      process.stderr.write(`servicegym: error: ${e.message}\n`);
      return 2;
    }
    if (e instanceof ReplayMissError || e instanceof ProviderError) {
      process.stderr.write(`servicegym: ${e.message}\n`);
      return 1;
    }
    const errno = e as NodeJS.ErrnoException;
    if (errno?.code && errno.path && ['EEXIST', 'EISDIR', 'ENOTDIR', 'EACCES', 'EPERM', 'ENOENT', 'EROFS', 'ENOSPC'].includes(errno.code)) {
      process.stderr.write(`servicegym: error: ${errno.path}: cannot ${errno.syscall ?? 'use'} this path (${errno.code}): ${friendlyErrno(errno.code)}\n`);
      return 2;
    }
    process.stderr.write(`servicegym: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    return 70;
  }
}

function friendlyErrno(code: string): string {
  switch (code) {
    case 'EEXIST':
      return 'a file is in the way where a folder is needed';
    case 'EISDIR':
      return 'it is a folder, a file was expected';
    case 'ENOTDIR':
      return 'part of the path is a file, a folder was expected';
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return 'not writable';
    case 'ENOSPC':
      return 'the disk is full';
    default:
      return 'not found';
  }
}
