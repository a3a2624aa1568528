/**
 * `servicegym compare <run-a> <run-b> [--db PATH] [--json] [--force]`: run B against baseline A
 * from the store (`src/evaluation/run-comparison.ts`): per task the success rates and their
 * difference (3/4 → 4/4 is +25 points, not "fixed"), whether each change exceeds run-to-run noise
 * (two-sided Fisher exact, p < 0.05); the overall success-rate difference with its 95% paired
 * bootstrap interval over tasks; pass^k of both runs side by side; every setting that differs
 * (models, prompt, temperature, trials, personas, step limit, dataset) and the prompt diff.
 * Runs of different task sets or datasets are refused (exit 2) unless `--force`, which compares
 * the common tasks only. Exit 0; 2 when a run is not in the store.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import type { RunDetail } from '../viewer/types.js';
import { counted, table } from './output.js';
import type { ComparedRun, RunComparison, TaskRateRow } from '../evaluation/run-comparison.js';
import { cleanFloats } from '../util/round.js';
import type { NoiseVerdict } from '../evaluation/pass-k-ci.js';

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => (x > 0 ? `+${f3(x)}` : f3(x));
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const points = (x: number) => `${x > 0 ? '+' : ''}${(x * 100).toFixed(1)}`;

/** The comparison input of a stored run. */
export function comparedRun(d: RunDetail): ComparedRun {
  return { id: d.run.id, kind: d.run.kind, domain: d.run.domain, config: (d.summary ?? null) as Record<string, unknown> | null, prompt: d.prompt, episodes: d.episodes };
}

function taskTable(rows: readonly TaskRateRow[]): string {
  const side = (t: TaskRateRow['a']) => (t ? [`${t.passed}/${t.trials}`, t.trials ? pct(t.rate) : '-'] : ['-', '-']);
  const out = [['task', 'A passed', 'A rate', 'B passed', 'B rate', 'Δ points', 'p', 'noise']];
  for (const r of rows) out.push([r.task, ...side(r.a), ...side(r.b), r.delta === null ? r.direction : points(r.delta), r.p === null ? '-' : r.p.toFixed(3), r.p === null ? '-' : r.beyond_noise ? 'beyond' : 'within']);
  return table(out);
}

/** The overall noise verdict in words; `too_few_tasks` names the common tasks and the minimum (`minTasksForNoise`). */
function noiseWords(verdict: NoiseVerdict, tasks: number, min: number): string {
  if (verdict !== 'too_few_tasks') return `${verdict} run-to-run noise`;
  return `too few tasks to tell noise from a difference (${counted(tasks, 'common task')}; a bootstrap over tasks needs at least ${min})`;
}

const shown = (v: unknown) => (v === null || v === undefined ? '-' : typeof v === 'string' ? v : JSON.stringify(v));

/** The comparison as text (see the module doc). */
export function compareText(v: RunComparison): string {
  const c = v.counts;
  const lines = [`compare A ${v.a} → B ${v.b}`, v.task_sets.same ? `task sets: the same ${counted(v.task_sets.common, 'task')}` : `task sets: ${v.task_sets.reason}; compared on the ${counted(v.task_sets.common, 'common task')} (--force)`, '', taskTable(v.tasks), ''];
  lines.push(`tasks: ${c.improved} improved, ${c.regressed} regressed, ${c.same} same${c.added ? `, ${c.added} added` : ''}${c.removed ? `, ${c.removed} removed` : ''}${c.unscored ? `, ${c.unscored} not scored in both runs` : ''}; ${c.beyond_noise} beyond run-to-run noise (Fisher exact p < 0.05)`);
  const o = v.overall;
  if (!o) lines.push('overall: the runs share no scored task');
  else lines.push(`overall success rate (pass^1) over ${counted(o.tasks, 'common task')}: A ${f3(o.a)} → B ${f3(o.b)}, Δ ${signed(o.delta)} (${Math.round(o.level * 100)}% CI [${signed(o.low)}, ${signed(o.high)}], paired bootstrap over tasks): ${noiseWords(o.verdict, o.tasks, o.min_tasks)}`);
  if (v.pass_hat_k.length) {
    const iv = (x: { value: number; low: number; high: number }) => `${f3(x.value)} [${f3(x.low)}, ${f3(x.high)}]`;
    const rows = [['k', 'A pass^k [95% CI]', 'B pass^k [95% CI]', 'Δ [95% CI]', 'noise']];
    for (const p of v.pass_hat_k) rows.push([`pass^${p.k}`, iv(p.a), iv(p.b), `${signed(p.delta.value)} [${signed(p.delta.low)}, ${signed(p.delta.high)}]`, p.delta.verdict === 'too_few_tasks' ? 'too few tasks' : p.delta.verdict]);
    lines.push('', table(rows));
  }
  lines.push('', v.config_diff.length ? `configuration: ${v.config_diff.length} setting(s) differ` : 'configuration: the same settings');
  if (v.config_diff.length) lines.push(table([['setting', 'A', 'B'], ...v.config_diff.map((d) => [d.key, shown(d.a), shown(d.b)])]));
  lines.push(v.prompt_note ? `agent system prompt: ${v.prompt_note}` : v.prompt_diff ? `agent system prompt differs:\n${v.prompt_diff.trimEnd()}` : 'agent system prompt: the same (or not recorded)');
  return lines.join('\n');
}

/** Registers `servicegym compare`. */
export function registerCompare(program: Command, setExit: (code: number) => void): void {
  program
    .command('compare')
    .description('compare run B with baseline run A: per-task success rates, the overall difference and pass^k against run-to-run noise, and every setting that differs')
    .argument('<run-a>', 'baseline run id')
    .argument('<run-b>', 'run id to compare')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--force', 'compare runs of different task sets or datasets on their common tasks')
    .option('--json', 'print the comparison as JSON (snake_case keys)')
    .action(async (a: string, b: string, flags) => {
      const { RunStore } = await import('../store/store.js');
      const { runDetail } = await import('../viewer/queries.js');
      const { compareRunResults } = await import('../evaluation/run-comparison.js');
      if (!fs.existsSync(flags.db)) throw new BadInputError('no run store here (run something first, or give --db)', { file: flags.db });
      const store = RunStore.open(flags.db, { readonly: true });
      try {
        const da = runDetail(store, a);
        if (!da) throw new BadInputError(`no run '${a}' in the store`, { file: flags.db });
        const db = runDetail(store, b);
        if (!db) throw new BadInputError(`no run '${b}' in the store`, { file: flags.db });
        const v = compareRunResults(comparedRun(da), comparedRun(db));
        if (!v.task_sets.same && !flags.force) {
          const { only_a, only_b, common } = v.task_sets;
          const list = (side: string, xs: string[]) => (xs.length ? `; only in ${side}: ${xs.slice(0, 8).join(', ')}${xs.length > 8 ? ', …' : ''}` : '');
          const next = common ? `Add --force to compare their ${common} common task${common === 1 ? '' : 's'}` : 'They share no task';
          throw new BadInputError(`the runs are not comparable: ${v.task_sets.reason}${list('A', only_a)}${list('B', only_b)}. ${next}`);
        }
        if (v.task_sets.common === 0) throw new BadInputError('the runs share no task; there is nothing to compare');
        process.stdout.write(flags.json ? JSON.stringify(cleanFloats(v), null, 2) + '\n' : compareText(v) + '\n');
        setExit(0);
      } finally {
        store.close();
      }
    });
}
