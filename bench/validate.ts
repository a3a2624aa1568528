/**
 * Benchmark: `validate` throughput — the oracle agent through the full episode loop (scripted
 * confirming user, environment on a copy-on-write view) plus the evaluator (gold replay, every
 * component and check) — on a tau2 domain's tasks with gold actions, in tasks/s, against
 * tau2-bench's own rate for the same tasks on this kind of machine, and the process's peak RSS.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDomain } from '../src/domains/index.js';
import { runDomainTasks } from '../src/run/task-run.js';
import { classifyValidateEpisode } from '../src/cli/validate-verdict.js';
import type { BenchRow } from './seed-replay.js';

const SHARED = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'peers', 'tau2');

/**
 * Validates every task with gold actions of `domain` for at least `minSeconds` (after one
 * warm-up pass, which also loads the DB once); `baselineTasksPerSecond` is tau2's rate.
 */
export async function benchValidate(domain: string, baselineTasksPerSecond: number, minSeconds = 3): Promise<BenchRow[]> {
  return benchValidateRate(domain, minSeconds, baselineTasksPerSecond);
}

/** As {@link benchValidate}; without a baseline no ratio is printed. */
export async function benchValidateRate(domain: string, minSeconds = 3, baselineTasksPerSecond?: number): Promise<BenchRow[]> {
  const dir = path.join(SHARED, domain);
  if (!fs.existsSync(dir)) return [{ name: `${domain} validate`, value: `skipped (${dir} not found)` }];
  const t0 = performance.now();
  const loaded = loadDomain(domain, { dataDir: dir });
  const loadSeconds = (performance.now() - t0) / 1000;
  const tasks = loaded.tasks.filter((t) => (t.evaluation_criteria?.actions ?? []).length > 0);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const once = async () => {
    const r = await runDomainTasks({ loaded, tasks, trials: 1, concurrency: 8, agent: 'oracle', user: 'personas', runId: 'bench' });
    // Perfect, or (retail) NL assertions not judged with every other component scoring 1.
    const ok = r.records.filter((x) => classifyValidateEpisode(x.evaluation, byId.get(x.taskId)) !== 'failing').length;
    if (ok !== tasks.length) throw new Error(`${domain}: only ${ok}/${tasks.length} tasks scored 1 (or were not judged with everything else 1)`);
  };
  await once();
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minSeconds * 1000) {
    await once();
    n += tasks.length;
  }
  const rate = n / ((performance.now() - start) / 1000);
  return [
    { name: `${domain} DB load and validation (once per process)`, value: `${loadSeconds.toFixed(2)} s` },
    {
      name: `${domain} validate throughput (${tasks.length} tasks with gold actions, oracle + evaluator)`,
      value: `${rate.toFixed(0)} tasks/s`,
      ...(baselineTasksPerSecond ? { ratio: `${(rate / baselineTasksPerSecond).toFixed(0)}x tau2's ~${baselineTasksPerSecond} tasks/s (target >= 100x)` } : {}),
    },
    { name: 'peak RSS so far', value: `${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB` },
  ];
}
