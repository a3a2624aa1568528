/**
 * `npm run bench`: every benchmark, printed as values and ratios against a baseline measured or
 * recorded for the same work. Speed is asked for here, never in timed tests.
 */
import { benchSeedReplay } from './seed-replay.js';

const sections: [string, () => Promise<{ name: string; value: string; ratio?: string }[]>][] = [['seed campaign replay', benchSeedReplay]];

for (const [title, fn] of sections) {
  const rows = await fn();
  process.stdout.write(`\n${title}\n`);
  for (const r of rows) process.stdout.write(`  ${r.name}: ${r.value}${r.ratio ? `  [${r.ratio}]` : ''}\n`);
}
const mem = process.memoryUsage();
process.stdout.write(`\npeak-ish memory: rss ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB\n`);
