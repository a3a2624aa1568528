/**
 * The `servicegym` command. Exit codes: 0 ok, 1 failed checks (a rejected candidate, a replay
 * that did not reproduce, a provider that failed after retries), 2 bad input (names the file and
 * the JSON path), 70 internal error.
 */
import { Command, CommanderError, Help, type Option } from 'commander';
import { BadInputError, ProviderError, ReplayMissError } from '../spec/errors.js';
import { packageVersion } from './paths.js';

/** How a command module adds its command to the program. */
type Register = (program: Command, setExit: (code: number) => void) => void;

/**
 * Every command, by name, in the order the help lists them: each loads its own module, so a run
 * of one command compiles only that command's module (and what it imports), not all of them.
 */
export const COMMANDS: Record<string, () => Promise<Register>> = {
  replay: async () => (await import('./replay.js')).registerReplay,
  campaign: async () => (await import('./campaign.js')).registerCampaign,
  'import-record': async () => (await import('./import-record.js')).registerImportRecord,
  validate: async () => (await import('./validate.js')).registerValidate,
  run: async () => (await import('./run.js')).registerRun,
  conformance: async () => (await import('./conformance.js')).registerConformance,
  lint: async () => (await import('./lint.js')).registerLint,
  optimize: async () => (await import('./optimize.js')).registerOptimize,
  canary: async () => (await import('./canary.js')).registerCanary,
  prompts: async () => (await import('./prompts.js')).registerPrompts,
  view: async () => (await import('./view.js')).registerView,
  compare: async () => (await import('./compare.js')).registerCompare,
  'compare-surfaces': async () => (await import('./compare-surfaces.js')).registerCompareSurfaces,
  terminal: async () => (await import('./terminal.js')).registerTerminal,
  rescore: async () => (await import('./rescore.js')).registerRescore,
  evaluate: async () => (await import('./evaluate.js')).registerEvaluate,
  'export-trajectories': async () => (await import('./export-trajectories.js')).registerExportTrajectories,
  import: async () => (await import('./import-tau2.js')).registerImportTau2,
  worker: async () => (await import('./worker.js')).registerWorker,
  'merge-shards': async () => (await import('./merge-shards.js')).registerMergeShards,
};

/**
 * The commands to register for `argv`: the named command alone when the first argument names
 * one (its parsing, help and errors are the same with or without the others), else all of them
 * (the program's help, `--version`, an unknown command and its suggestions).
 */
function commandsFor(argv: string[]): string[] {
  const first = argv[2];
  return first !== undefined && Object.hasOwn(COMMANDS, first) ? [first] : Object.keys(COMMANDS);
}

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
    .configureHelp({ optionDescription: requiredNoted })
    .showHelpAfterError('(add --help for usage)');
  const names = commandsFor(argv);
  const registers = await Promise.all(names.map((n) => COMMANDS[n]()));
  for (const register of registers) register(program, setExit);
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

/**
 * Commander's description of an option in `--help`, with `(required)` after a mandatory one
 * (`requiredOption`): commander marks it nowhere in the help. Every command inherits it from the
 * program, so each `--help` says which options it cannot run without.
 */
function requiredNoted(this: Help, option: Option): string {
  const text = Help.prototype.optionDescription.call(this, option);
  return option.mandatory ? `${text} (required)` : text;
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
