/**
 * Benchmark: airline gold-action replay throughput. Every tau2 airline task with gold actions
 * is replayed on a forked copy-on-write state, replayed a second time, and the two final states
 * are compared (the evaluator's "gold vs predicted" check without hashing). Reported as tasks/s
 * against tau2-bench's own rate for the same work (about 3 tasks/s: it deep-copies and re-validates
 * the 7 MB DB for every fresh environment). Also reports the one-off DB load and the hash cost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Environment } from '../src/env/environment.js';
import { loadAirline, AIRLINE_TAU2_NOW, type AirlineState } from '../src/domains/airline/index.js';
import type { LoadedDomain } from '../src/spec/domain.js';
import type { GoldAction } from '../src/spec/task.js';

/** tau2-bench's gold replay rate on the airline domain (fresh env per task), tasks per second. */
export const TAU2_TASKS_PER_SECOND = 3;

/** One printed benchmark value, with its ratio to the baseline where there is one. */
export interface BenchRow {
  name: string;
  value: string;
  ratio?: string;
}

const DATA_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'shared', 'peers', 'tau2', 'airline');

function replay(loaded: LoadedDomain<AirlineState>, actions: GoldAction[]): Environment<AirlineState> {
  const env = new Environment(loaded.domain, { now: AIRLINE_TAU2_NOW });
  for (const [i, a] of actions.entries()) {
    env.execute({ id: `gold_${i}`, type: 'function', function: { name: a.name, arguments: JSON.stringify(a.arguments) } }, a.requestor);
  }
  return env;
}

/** One pass over the tasks: replay twice, compare; returns the number of tasks whose replays agree. */
function pass(loaded: LoadedDomain<AirlineState>, tasks: GoldAction[][]): number {
  let same = 0;
  for (const actions of tasks) {
    const a = replay(loaded, actions);
    const b = replay(loaded, actions);
    if (a.sameStateAs(b)) same++;
  }
  return same;
}

/** Replays all gold-action tasks for at least `minSeconds` after a warm-up pass. */
export async function benchAirlineReplay(minSeconds = 2): Promise<BenchRow[]> {
  if (!fs.existsSync(path.join(DATA_DIR, 'db.json'))) {
    return [{ name: 'airline gold replay', value: `skipped (${DATA_DIR} not found)` }];
  }
  const t0 = performance.now();
  const loaded = loadAirline({ dataDir: DATA_DIR }) as LoadedDomain<AirlineState>;
  const loadMs = performance.now() - t0;
  const tasks = loaded.tasks.map((t) => t.evaluation_criteria?.actions ?? []).filter((a) => a.length > 0);
  const warm = pass(loaded, tasks);
  if (warm !== tasks.length) throw new Error(`replays disagree on ${tasks.length - warm} tasks`);
  let rounds = 0;
  const start = performance.now();
  while (performance.now() - start < minSeconds * 1000) {
    pass(loaded, tasks);
    rounds++;
  }
  const seconds = (performance.now() - start) / 1000;
  const rate = (rounds * tasks.length) / seconds;

  // Hash cost of a written state (first hash of the pristine DB is paid in the warm-up below).
  const writeTask = tasks.find((acts) => acts.some((a) => a.name === 'book_reservation')) ?? tasks[0];
  const env = replay(loaded, writeTask);
  env.stateHash();
  const h0 = performance.now();
  const reps = 50;
  for (let i = 0; i < reps; i++) env.stateHash();
  const hashMs = (performance.now() - h0) / reps;

  return [
    { name: 'airline DB load + validation (7 MB, once per process)', value: `${loadMs.toFixed(0)} ms` },
    {
      name: `gold replay, ${tasks.length} tasks x2 + state equality (${rounds} rounds)`,
      value: `${rate.toFixed(0)} tasks/s`,
      ratio: `${(rate / TAU2_TASKS_PER_SECOND).toFixed(0)}x tau2's ~${TAU2_TASKS_PER_SECOND} tasks/s`,
    },
    { name: 'tau2-compatible DB hash of a state after a booking', value: `${hashMs.toFixed(2)} ms` },
  ];
}
