/**
 * `servicegym compare <run-a> <run-b> [--db PATH] [--json]`: run B against baseline A from the
 * store, task by task (fixed, broken, unchanged, added, removed), and which differences exceed
 * run-to-run noise: the pass^1 difference with its 95% paired bootstrap interval over the common
 * tasks, and per task a two-sided Fisher exact test (p < 0.05). The same view as the viewer's
 * compare page. Exit 0; 2 when a run is not in the store.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH, RunStore } from '../store/store.js';
import { comparePayload } from '../viewer/queries.js';
import type { CompareView } from '../viewer/types.js';
import { table } from './output.js';

const f3 = (x: number) => x.toFixed(3);
const signed = (x: number) => (x > 0 ? `+${f3(x)}` : f3(x));

/** The comparison as text: one row per task, then the noise verdict. */
export function compareText(v: CompareView): string {
  const side = (t: CompareView['rows'][number]['a']) => (t ? `${t.passed}/${t.scored}` : '-');
  const rows = [['task', 'change', 'A passed', 'B passed', 'noise']];
  for (const r of v.rows) rows.push([r.key, r.change, side(r.a), side(r.b), r.noise ? `${r.noise.beyond_noise ? 'beyond' : 'within'} (p ${r.noise.p.toFixed(3)})` : '-']);
  const counts = Object.entries(v.counts).map(([k, n]) => `${k} ${n}`).join(', ');
  const lines = [`compare A ${v.a.id} → B ${v.b.id}`, '', table(rows), '', `changes: ${counts}`];
  const n = v.noise;
  if (!n) lines.push('noise: the runs share no scored task');
  else {
    lines.push(
      `pass^1 over ${n.tasks} common tasks: A ${f3(n.a)} → B ${f3(n.b)}, Δ ${signed(n.delta)} (${Math.round(n.level * 100)}% CI [${signed(n.low)}, ${signed(n.high)}], bootstrap over tasks): ${n.beyond_noise ? 'beyond' : 'within'} run-to-run noise`,
      `tasks changed beyond noise (Fisher exact p < 0.05): ${n.tasks_beyond_noise.length ? n.tasks_beyond_noise.join(', ') : 'none'}`,
    );
  }
  return lines.join('\n');
}

/** Registers `servicegym compare`. */
export function registerCompare(program: Command, setExit: (code: number) => void): void {
  program
    .command('compare')
    .description('compare run B with baseline run A task by task and say which differences exceed run-to-run noise')
    .argument('<run-a>', 'baseline run id')
    .argument('<run-b>', 'run id to compare')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--json', 'print the comparison as JSON')
    .action((a: string, b: string, flags) => {
      if (!fs.existsSync(flags.db)) throw new BadInputError('no run store here (run something first, or give --db)', { file: flags.db });
      const store = RunStore.open(flags.db, { readonly: true });
      try {
        const v = comparePayload(store, a, b);
        if ('missing' in v) throw new BadInputError(`no run '${v.missing}' in the store`, { file: flags.db });
        process.stdout.write(flags.json ? JSON.stringify(v, null, 2) + '\n' : compareText(v) + '\n');
        setExit(0);
      } finally {
        store.close();
      }
    });
}
