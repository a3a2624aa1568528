/**
 * `servicegym compare-surfaces <run-a> <run-b> [more runs] [--db PATH] [--json]`: the same
 * back-end tasks reached through different surfaces (e.g. banking's T20 and C01-C04 on the API
 * surface and on the pixel surface), side by side per task: successes, mean reward and partial
 * score, the agent's steps, wall seconds and the image bytes it received per episode; then the
 * same over the common tasks, each run's time and steps against the first run's, and the tasks
 * where the surfaces disagree (`src/evaluation/surface-comparison.ts`). Exit 0; 2 when a run is
 * not in the store, or the runs are not of one domain and dataset, or share no task.
 */
import fs from 'node:fs';
import type { Command } from 'commander';
import { BadInputError } from '../spec/errors.js';
import { DEFAULT_STORE_PATH } from '../store/paths.js';
import type { SurfaceCell, SurfaceComparison } from '../evaluation/surface-comparison.js';
import { table } from './output.js';
import { cleanFloats } from '../util/round.js';

const f3 = (x: number | null) => (x === null ? '-' : x.toFixed(3));
const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null, digits = 1) => (x === null ? '-' : x.toFixed(digits));
const kib = (x: number | null) => (x === null ? '-' : x === 0 ? '0' : `${(x / 1024).toFixed(1)} KiB`);

const cellColumns = (c: SurfaceCell | null): string[] =>
  c === null ? ['-', '-', '-', '-', '-', '-'] : [`${c.passed}/${c.episodes}${c.errors ? ` (+${c.errors} err)` : ''}`, f3(c.reward), pct(c.partial), num(c.steps), num(c.seconds, 2), kib(c.image_bytes)];

/** The comparison as text (see the module doc). */
export function compareSurfacesText(v: SurfaceComparison): string {
  const label = (i: number) => `${String.fromCharCode(65 + i)} ${v.runs[i].surface}`;
  const head = ['task', ...v.runs.flatMap((_, i) => [`${label(i)} passed`, 'reward', 'partial', 'steps', 'seconds', 'images'])];
  const rows: string[][] = [head, ...v.tasks.map((t) => [t.agree ? t.task : `${t.task} *`, ...t.cells.flatMap(cellColumns)])];
  rows.push([`all ${v.common.tasks} common`, ...v.common.cells.flatMap(cellColumns)]);
  const lines = [`compare-surfaces: ${v.runs[0].domain} (${v.runs[0].dataset}), ${v.common.tasks} common task${v.common.tasks === 1 ? '' : 's'}`];
  v.runs.forEach((r, i) => lines.push(`  ${label(i)}: run ${r.id}${r.strict ? ' (strict)' : ''}`));
  lines.push('', table(rows), '');
  lines.push('per episode: steps are the agent\'s tool calls; seconds are wall time; images are the decoded image bytes the agent received');
  const base = v.common.cells[0];
  v.common.cells.forEach((c, i) => {
    const vs = i === 0 || base.seconds === null || c.seconds === null || base.seconds === 0 ? '' : `; ${(c.seconds / base.seconds).toFixed(1)}x the time and ${base.steps ? (c.steps! / base.steps).toFixed(1) : '-'}x the steps of ${label(0)}`;
    lines.push(`${label(i)}: success ${c.passed}/${c.episodes} (${pct(c.episodes ? c.passed / c.episodes : null)}), partial ${pct(c.partial)}${c.errors ? `, ${c.errors} episode(s) with errors left out` : ''}${vs}`);
  });
  lines.push(v.disagreements.length ? `surfaces disagree on ${v.disagreements.length} task(s) (marked *): ${v.disagreements.join(', ')}` : 'the surfaces agree on every task');
  for (const note of v.notes) lines.push(`note: ${note}`);
  return lines.join('\n');
}

/** Registers `servicegym compare-surfaces`. */
export function registerCompareSurfaces(program: Command, setExit: (code: number) => void): void {
  program
    .command('compare-surfaces')
    .description('the same tasks run on different surfaces (e.g. --surface api and --surface pixels), side by side per task: successes, reward, partial, steps, seconds and image bytes per episode')
    .argument('<run-ids...>', 'two or more run ids, one surface each; the first is the reference')
    .option('--db <path>', 'run store (SQLite)', DEFAULT_STORE_PATH)
    .option('--json', 'print the comparison as JSON (snake_case keys)')
    .action(async (ids: string[], flags) => {
      const { RunStore } = await import('../store/store.js');
      const { readEpisodeLogs } = await import('../store/run-log.js');
      const { compareSurfaces } = await import('../evaluation/surface-comparison.js');
      if (ids.length < 2) throw new BadInputError('give at least two run ids');
      if (!fs.existsSync(flags.db)) throw new BadInputError('no run store here (run something first, or give --db)', { file: flags.db });
      const store = RunStore.open(flags.db, { readonly: true });
      try {
        const runs = ids.map((id) => {
          if (!store.getRun(id)) throw new BadInputError(`no run '${id}' in the store`, { file: flags.db });
          return { id, episodes: readEpisodeLogs(store, id).map((e) => e.record) };
        });
        const v = compareSurfaces(runs);
        process.stdout.write(flags.json ? JSON.stringify(cleanFloats(v), null, 2) + '\n' : compareSurfacesText(v) + '\n');
        setExit(0);
      } finally {
        store.close();
      }
    });
}
