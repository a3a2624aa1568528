/**
 * The `servicegym` command. Exit codes: 0 ok, 1 failed checks (a rejected candidate, a replay
 * that did not reproduce, a provider that failed after retries), 2 bad input (names the file and
 * the JSON path), 70 internal error.
 */
import { Command, CommanderError, Help, type Option } from 'commander';
import { BadInputError, ProviderError, ReplayMissError } from '../spec/errors.js';
import { packageVersion } from './paths.js';
import { COMMAND_SUMMARIES } from './command-summaries.js';

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
 * Which commands `argv` needs: `load`, whose modules are loaded and registered, and `listed`,
 * added only as their help entry ({@link COMMAND_SUMMARIES}). The named command alone when the
 * first argument names one (its parsing, help and errors are the same with or without the
 * others); else every command a later argument names is loaded (`help run`, `-- run`: commander
 * dispatches to those) and the rest are listed, which is all the program's help, `--version` and
 * an unknown command's suggestions read of them.
 */
function commandsFor(argv: string[]): { load: string[]; listed: string[] } {
  const args = argv.slice(2);
  if (args[0] !== undefined && Object.hasOwn(COMMANDS, args[0])) return { load: [args[0]], listed: [] };
  const named = new Set(args);
  const names = Object.keys(COMMANDS);
  return { load: names.filter((n) => named.has(n)), listed: names.filter((n) => !named.has(n)) };
}

/** Commands added by {@link listCommand}: the help prints their term from {@link COMMAND_SUMMARIES}. */
const listedOnly = new WeakSet<Command>();

/**
 * Adds command `name` as its help entry alone. Nothing dispatches to it ({@link commandsFor}
 * loads every command an argument names); if something did, it fails as an internal error
 * rather than doing nothing.
 */
function listCommand(program: Command, name: string): void {
  const cmd = program
    .command(name)
    .description(COMMAND_SUMMARIES[name].description)
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new Error(`command ${name} was listed but not loaded`);
    });
  listedOnly.add(cmd);
}

/** Commander's term of a command in the program's help; a listed-only command's from its summary. */
function subcommandTerm(this: Help, cmd: Command): string {
  return listedOnly.has(cmd) ? COMMAND_SUMMARIES[cmd.name()].term : Help.prototype.subcommandTerm.call(this, cmd);
}

/** Options of {@link main}. */
export interface MainOptions {
  /** Load every command's module even where its help entry would do (tests compare the two). */
  loadAll?: boolean;
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit code; never calls process.exit. */
export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  let code = 0;
  const setExit = (c: number) => (code = c);
  const program = new Command()
    .name('servicegym')
    .description('simulate, evaluate and improve policy-bound customer-service agents')
    .version(packageVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), outputError: (s, write) => write(`servicegym: ${s}`) })
    .configureHelp({ optionDescription: requiredNoted, subcommandTerm })
    .showHelpAfterError('(add --help for usage)');
  const { load, listed } = options.loadAll ? { load: Object.keys(COMMANDS), listed: [] } : commandsFor(argv);
  const registers = new Map(await Promise.all(load.map(async (n) => [n, await COMMANDS[n]()] as const)));
  // In the order of COMMANDS, as the help lists them.
  for (const name of Object.keys(COMMANDS)) {
    const register = registers.get(name);
    if (register) register(program, setExit);
    else if (listed.includes(name)) listCommand(program, name);
  }
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
