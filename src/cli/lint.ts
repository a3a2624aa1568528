/**
 * `servicegym lint [--domain retail] [--data-dir DIR] [--json] [-v]`: the dataset's data lints
 * (`src/evaluation/lint.ts`) — reward-basis groups, NL assertions, `communicate_info` or gold
 * actions the reward no longer counts, transfers it does not check, gold actions failing in the
 * gold replay, known-bad tasks with reasons; `--strict` says what strict evaluation counts. Exit 0 (a lint describes the data; it is no failure).
 */
import type { Command } from 'commander';
import { withDefaultDomainHint } from './domain-hint.js';

/** Registers `servicegym lint`. */
export function registerLint(program: Command, setExit: (code: number) => void): void {
  program
    .command('lint')
    .description("report facts about a dataset's tasks that change what its rewards mean (uncounted criteria, unchecked transfers, known-bad tasks)")
    .option('--domain <name>', 'domain', 'airline')
    .option('--data-dir <dir>', "a tau2-bench domain folder; default: servicegym's own dataset")
    .option('--policy-variant <name>', "a policy variant of the domain (telecom: workflow)")
    .option('--solo', "tau2's solo mode (telecom): lints what a solo agent can know")
    .option('--tasks <ids>', "comma-separated task ids or globs, as run takes them, e.g. 'T1*' (default: all)")
    .option('--strict', 'describe strict evaluation (ACTION in every reward basis, transfers checked), as validate --strict and run --strict score')
    .option('-v, --verbose', 'print every per-task detail')
    .option('--json', 'print the report as JSON')
    .action(async (flags, cmd: Command) => {
      const { loadDomainAsync } = await import('../domains/catalog.js');
      const { formatLintReport, lintDataset } = await import('../evaluation/lint.js');
      const { selectTasksFlag } = await import('../run/select-tasks.js');
      const loaded = await withDefaultDomainHint(cmd, flags, () => loadDomainAsync(flags.domain, { dataDir: flags.dataDir, policy: flags.policyVariant, solo: flags.solo === true }));
      const tasks = selectTasksFlag(loaded, flags.tasks);
      const report = await lintDataset(loaded, { tasks, strict: flags.strict === true });
      process.stdout.write(flags.json ? JSON.stringify(report, null, 2) + '\n' : formatLintReport(report, flags.verbose === true) + '\n');
      setExit(0);
    });
}
