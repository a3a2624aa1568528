/**
 * Benchmark: telecom `validate` throughput on tau2's 2,285 telecom tasks — warm in-process (the
 * oracle agent and the oracle's customer performing the user-side gold actions, the sync, the
 * evaluator), and the whole process (`node dist/cli/bin.js validate --domain telecom`, start-up
 * and loading included). tau2's own rate for the same work is measured beside it by the team
 * lead (target: >= 100x tau2 for the whole process), so no ratio is printed here.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchValidateRate } from './validate.js';
import type { BenchRow } from './seed-replay.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.resolve(ROOT, '..', 'shared', 'peers', 'tau2', 'telecom');

/** Warm in-process and whole-process telecom validate throughput (tasks/s). */
export async function benchTelecomValidate(): Promise<BenchRow[]> {
  if (!fs.existsSync(DIR)) return [{ name: 'telecom validate', value: `skipped (${DIR} not found)` }];
  const rows = await benchValidateRate('telecom', 1);
  const bin = path.join(ROOT, 'dist', 'cli', 'bin.js');
  if (!fs.existsSync(bin)) return [...rows, { name: 'telecom validate, whole process', value: 'skipped (run `npm run build` first)' }];
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, 'validate', '--domain', 'telecom', '--data-dir', DIR, '--no-store', '-q'], { encoding: 'utf8' });
  const seconds = (performance.now() - t0) / 1000;
  const last = r.stdout.trim().split('\n').at(-1) ?? '';
  const m = /^validate: (\d+)\/(\d+) tasks/.exec(last);
  if (r.status !== 0 || !m || m[1] !== m[2]) throw new Error(`telecom validate (whole process) did not score every task 1: ${last || r.stderr}`);
  return [...rows, { name: `telecom validate, whole process (${m[2]} tasks, node start-up and loading included)`, value: `${(Number(m[2]) / seconds).toFixed(0)} tasks/s (${seconds.toFixed(1)} s)` }];
}
