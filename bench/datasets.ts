/**
 * Benchmark: building servicegym's own datasets (seeded generation of the airline and retail
 * DBs at tau2's scale and of the telecom carrier, plus the seed records), which every `validate` or `run` on them pays once
 * per process. Reported in milliseconds of the first build (cold: includes JIT warm-up, what a
 * CLI start pays) and the mean of later builds, against a budget of 40 ms per dataset (a tenth
 * of the 0.4 s CLI start-up target).
 */
import { servicegymAirlineDb } from '../src/domains/airline/servicegym-dataset.js';
import { servicegymRetailDb } from '../src/domains/retail/servicegym-dataset.js';
import { kestrelTablesJson } from '../src/domains/telecom/own/dataset.js';
import type { BenchRow } from './seed-replay.js';

/** Budget per dataset build, in milliseconds. */
export const DATASET_BUILD_BUDGET_MS = 40;

function rows(name: string, build: () => unknown, runs = 10): BenchRow[] {
  let t = performance.now();
  build();
  const cold = performance.now() - t;
  t = performance.now();
  for (let i = 0; i < runs; i++) build();
  const warm = (performance.now() - t) / runs;
  const ratio = (ms: number) => `${(ms / DATASET_BUILD_BUDGET_MS).toFixed(2)}x the ${DATASET_BUILD_BUDGET_MS} ms budget`;
  return [
    { name: `${name}: first build (cold)`, value: `${cold.toFixed(1)} ms`, ratio: ratio(cold) },
    { name: `${name}: later builds (mean of ${runs})`, value: `${warm.toFixed(1)} ms`, ratio: ratio(warm) },
  ];
}

/** Times the builds. */
export async function benchDatasets(): Promise<BenchRow[]> {
  return [...rows('airline (344 flights x 31 days, 610 users, 2,012 reservations)', servicegymAirlineDb), ...rows('retail (60 products, 610 users, 1,213 orders)', servicegymRetailDb), ...rows('telecom (Kestrel Mobile: 495 customers, ~1,000 lines, ~1,500 bills)', () => kestrelTablesJson())];
}
