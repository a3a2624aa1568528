/**
 * `servicegym conformance --domain D --data-dir DIR --reference FILE [--json]`: replays tau2's
 * gold actions for every task of a reference file and checks that tool outputs, the DB diff
 * and the DB hashes are identical to tau2's. Prints one line per task and
 * `conformance: N/M tasks identical`. Exit 0 when all are identical, 1 otherwise, 2 on bad input.
 */
import { BadInputError } from '../spec/errors.js';
import type { Command } from 'commander';
import type { ConformanceReport } from '../conformance/run.js';
import { conformanceText, taskProblems } from '../conformance/format.js';

/** The report as JSON: per task the verdict, problems and only the differing actions in full. */
function reportJson(r: ConformanceReport): unknown {
  return {
    domain: r.domain,
    identical: r.identical,
    total: r.total,
    tasks: r.tasks.map((t) => ({
      task_id: t.task_id,
      ok: t.ok,
      problems: taskProblems(t),
      actions: t.actions.length,
      differing_actions: t.actions.filter((a) => !a.ok),
      initial_hash: t.initialHash,
      final_hash: t.finalHash,
      ...(t.initialUserHash || t.finalUserHash ? { initial_user_hash: t.initialUserHash, final_user_hash: t.finalUserHash, user_diff: t.userDiff && { ok: t.userDiff.ok, missing: t.userDiff.missing, extra: t.userDiff.extra } } : {}),
      diff: t.diff && { ok: t.diff.ok, missing: t.diff.missing, extra: t.diff.extra },
      ...(t.setupError ? { setup_error: t.setupError } : {}),
    })),
  };
}

/** Registers `servicegym conformance` on the program; `setExit` receives 0 (all identical) or 1. */
export function registerConformance(program: Command, setExit: (code: number) => void): void {
  program
    .command('conformance')
    .description("replay tau2's gold actions and check outputs, DB diffs and hashes against a tau2 reference file")
    .requiredOption('--domain <name>', 'domain name (e.g. airline)')
    .requiredOption('--data-dir <dir>', 'tau2 domain folder (db.json, tasks.json, policy.md)')
    .requiredOption('--reference <file>', 'reference JSON Lines (e.g. airline.train.jsonl)')
    .option('--json', 'print the report as JSON')
    .option('--synced', "replay on tau2's live path (sync after every call; telecom) instead of its evaluator's gold replay")
    .action(async (flags: { domain: string; dataDir: string; reference: string; json?: boolean; synced?: boolean }) => {
      const { loadDomainAsync } = await import('../domains/catalog.js');
      const { readReference } = await import('../conformance/reference.js');
      const { runConformance } = await import('../conformance/run.js');
      const loaded = await loadDomainAsync(flags.domain, { dataDir: flags.dataDir });
      const reference = readReference(flags.reference);
      if (reference.length === 0) throw new BadInputError('the reference file has no lines; expected one JSON object per task', { file: flags.reference });
      const other = reference.findIndex((l) => (l as { domain?: string }).domain !== undefined && (l as { domain?: string }).domain !== flags.domain);
      if (other >= 0) throw new BadInputError(`line ${other + 1} is a ${(reference[other] as { domain?: string }).domain} reference, not ${flags.domain}`, { file: flags.reference });
      const report = await runConformance({ loaded, reference, synced: flags.synced === true });
      process.stdout.write(flags.json ? JSON.stringify(reportJson(report), null, 2) + '\n' : conformanceText(report));
      setExit(report.identical === report.total ? 0 : 1);
    });
}
