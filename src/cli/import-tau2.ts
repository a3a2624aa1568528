/**
 * `servicegym import tau2-results <results.json> --data-dir DIR [--domain D] [--db PATH]
 * [--no-store] [--json]`: reads a tau2-bench results file (src/spec/tau2-results.ts), replays and
 * scores every simulation with servicegym on the same dataset (src/run/import-tau2.ts), stores it
 * as a run (viewer, rescore) and prints servicegym's agreement with tau2's recorded reward per
 * component, naming each disagreement. Exit 0 on full agreement (NL assertions not judged without
 * `--judge-model` do not count), 1 on any disagreement, 2 for bad input.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import type { Tau2Import } from '../run/import-tau2.js';
import { summarizeRun } from '../run/summary.js';
import { parseJsonText, readTextFile, validate } from '../util/json-file.js';
import { sha256Hex } from '../util/canonical.js';
import { table } from './output.js';

const pct = (a: number, n: number) => (n ? `${Math.round((1000 * a) / n) / 10}%` : '-');

/** The agreement table, the disagreements and the skipped simulations, as printed. */
export function agreementReport(imp: Tau2Import): string {
  const rows = imp.agreement.map((a) => [a.component, `${a.agree}/${a.agree + a.disagree}`, pct(a.agree, a.agree + a.disagree), a.not_judged ? `${a.not_judged} not judged (no judge model)` : '']);
  const lines = [table([['component', 'agree', 'agreement', ''], ...rows])];
  for (const d of imp.disagreements) lines.push(`disagreement: simulation ${d.simulation_id} (task ${d.task_id}, trial ${d.trial}) ${d.component}: tau2 ${JSON.stringify(d.tau2)}, servicegym ${JSON.stringify(d.servicegym)} — ${d.evidence}`);
  for (const t of imp.tool_output_differences) lines.push(`tool outputs: simulation ${t.simulation_id}: ${t.count} recorded output(s) differ from the replay; first: ${t.first}`);
  for (const s of imp.skipped) lines.push(`skipped: simulation ${s.simulation_id} (task ${s.task_id}): ${s.reason}`);
  return lines.join('\n');
}

/** Registers `import tau2-results`. */
export function registerImportTau2(program: Command, setExit: (code: number) => void): void {
  const imp = program.command('import').description('import runs made by other tools');
  imp
    .command('tau2-results')
    .description("store a tau2-bench results file as a run, re-score every simulation with servicegym and report agreement with tau2's rewards")
    .argument('<results>', "a tau2-bench results JSON file (info, tasks, simulations)")
    .requiredOption('--data-dir <dir>', "the tau2-bench domain folder the simulations ran on (db.json, tasks.json, policy.md)")
    .option('--domain <name>', 'domain (default: the results file\'s environment_info.domain_name)')
    .option('--judge-model <name>', 'judge NL assertions with this model (live, at SERVICEGYM_BASE_URL or OPENAI_BASE_URL, else the default base URL; the key from SERVICEGYM_API_KEY or OPENAI_API_KEY, none for a loopback base URL such as http://127.0.0.1:8000/v1)')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--no-store', 'do not save the run')
    .option('--json', 'print the agreement as JSON')
    .action(async (file: string, flags) => {
      // The command's heavy modules load when it runs: `--help` and the other commands need none of them.
      const { Tau2ResultsSchema } = await import('../spec/tau2-results.js');
      const { loadDomainAsync } = await import('../domains/catalog.js');
      const { RunStore } = await import('../store/store.js');
      const { writeEpisodeLogs } = await import('../store/run-log.js');
      const { importTau2Simulations } = await import('../run/import-tau2.js');
      const { resolveLiveModelConfig } = await import('../models/config.js');
      const { createModel } = await import('../models/providers.js');
      const text = readTextFile(file);
      const results = validate(Tau2ResultsSchema, parseJsonText(text, file), file);
      const domain: string = flags.domain ?? results.info.environment_info.domain_name;
      const loaded = await loadDomainAsync(domain, { dataDir: flags.dataDir });
      if (loaded.mode !== 'tau2') throw new BadInputError(`--data-dir must be a tau2-bench ${domain} folder`, { file: flags.dataDir });
      const judge = flags.judgeModel ? createModel('openai-compatible', { config: resolveLiveModelConfig({ model: flags.judgeModel }) }) : undefined;
      const res = await importTau2Simulations({ results, loaded, judge });
      const runId = `tau2-${domain}-${sha256Hex(text).slice(0, 12)}`;
      if (flags.store !== false) {
        const store = RunStore.open(flags.db);
        try {
          const outcomes = res.records.map((r) => ({ taskId: r.task.id, trial: r.trial, termination: r.termination.reason as never, reward: r.evaluation?.kind === 'task' ? r.evaluation.reward : null, partial: r.evaluation?.kind === 'task' ? r.evaluation.partial : null, infraError: false, evaluationError: r.evaluation_error !== null }));
          const info = results.info;
          store.saveRun({
            id: runId, kind: 'run', name: `tau2 import ${path.basename(file)}`, domain, created_at: new Date().toISOString(),
            summary: { command: 'import', source: 'tau2-results', agent_model: info.agent_info?.llm ?? null, user_model: info.user_info?.llm ?? null, trials: info.num_trials ?? null, data: loaded.source, mode: loaded.mode, ...summarizeRun(outcomes), tasks: new Set(outcomes.map((o) => o.taskId)).size, agreement: res.agreement },
            record: { kind: 'tau2_import', file: path.basename(file), agreement: res.agreement, disagreements: res.disagreements, skipped: res.skipped, tool_output_differences: res.tool_output_differences, simulations: results.simulations.map((s) => ({ id: s.id, task_id: s.task_id, trial: s.trial ?? null, termination_reason: s.termination_reason, reward_info: s.reward_info ?? null })) },
          });
          writeEpisodeLogs(store, runId, res.records);
        } finally {
          store.close();
        }
      }
      const disagreeing = res.disagreements.length;
      if (flags.json) {
        process.stdout.write(JSON.stringify({ run_id: flags.store !== false ? runId : null, simulations: results.simulations.length, imported: res.records.length, agreement: res.agreement, disagreements: res.disagreements, skipped: res.skipped, tool_output_differences: res.tool_output_differences }, null, 2) + '\n');
      } else {
        process.stdout.write(agreementReport(res) + '\n');
        const stored = flags.store !== false ? ` stored as run ${runId};` : '';
        process.stdout.write(`import: ${res.records.length}/${results.simulations.length} simulations re-scored;${stored} ${disagreeing === 0 ? 'servicegym agrees with every recorded reward component' : `${disagreeing} disagreement(s)`}\n`);
      }
      setExit(disagreeing ? 1 : 0);
    });
}
