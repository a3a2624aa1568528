/**
 * Benchmark: telecom `validate` throughput — on tau2's 2,285 telecom tasks warm in-process (the
 * oracle agent and the oracle's customer performing the user-side gold actions, the sync, the
 * evaluator) and as a whole process (`node dist/cli/bin.js validate --domain telecom --data-dir
 * …`, start-up and loading included), and on servicegym's own telecom dataset (Kestrel Mobile,
 * 14 tasks) warm in-process and as a whole process. tau2's own rate for the same work is measured
 * beside it by the team lead (target: >= 100x tau2 for the whole process), so no ratio is printed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDomain } from '../src/domains/index.js';
import { runDomainTasks } from '../src/run/task-run.js';
import { benchValidateRate } from './validate.js';
import type { BenchRow } from './seed-replay.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.resolve(ROOT, '..', 'shared', 'peers', 'tau2', 'telecom');
const BIN = path.join(ROOT, 'dist', 'cli', 'bin.js');

/** One whole `validate` process; throws unless every task scored 1. */
function wholeProcess(label: string, args: string[]): BenchRow {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'validate', '--domain', 'telecom', ...args, '--no-store', '-q'], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  const m = /^validate: (\d+)\/(\d+) tasks/.exec(last);
  if (r.status !== 0 || !m || m[1] !== m[2]) throw new Error(`${label} (whole process) did not score every task 1: ${last || r.stderr}`);
  return { name: `${label}, whole process (${m[2]} tasks, node start-up and loading included)`, value: `${(Number(m[2]) / seconds).toFixed(0)} tasks/s (${seconds.toFixed(2)} s)` };
}

/** Warm in-process validate rate on servicegym's own telecom dataset (oracle, gold customer, evaluator). */
async function ownWarm(minSeconds = 2): Promise<BenchRow> {
  const loaded = loadDomain('telecom');
  const once = async () => {
    const r = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 8, agent: 'oracle', user: 'scripted', runId: 'bench' });
    const ok = r.records.filter((x) => x.evaluation?.reward === 1 && x.evaluation.partial === 1).length;
    if (ok !== loaded.tasks.length) throw new Error(`own telecom: only ${ok}/${loaded.tasks.length} tasks scored reward 1 and partial 100%`);
  };
  await once();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minSeconds * 1000) {
    await once();
    n += loaded.tasks.length;
  }
  return { name: `own telecom validate throughput (${loaded.tasks.length} tasks, oracle + gold customer + evaluator)`, value: `${(n / ((performance.now() - start) / 1000)).toFixed(0)} tasks/s` };
}

/** Warm in-process and whole-process telecom validate throughput (tasks/s). */
export async function benchTelecomValidate(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [await ownWarm()];
  if (fs.existsSync(DIR)) rows.push(...(await benchValidateRate('telecom', 1)));
  else rows.push({ name: 'telecom validate (tau2 tasks)', value: `skipped (${DIR} not found)` });
  if (!fs.existsSync(BIN)) return [...rows, { name: 'telecom validate, whole process', value: 'skipped (run `npm run build` first)' }];
  rows.push(wholeProcess("own telecom validate (servicegym's Kestrel Mobile)", []));
  if (fs.existsSync(DIR)) rows.push(wholeProcess('telecom validate (tau2 tasks)', ['--data-dir', DIR]));
  return rows;
}
