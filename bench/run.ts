/**
 * `npm run bench`: every benchmark, printed as values and ratios against a baseline measured or
 * recorded for the same work. Speed is asked for here, never in timed tests.
 * `npm run bench -- pixel viewer`: only the sections whose title contains one of the words.
 */
import { benchSeedReplay, type BenchRow } from './seed-replay.js';
import { benchAirlineReplay, TAU2_TASKS_PER_SECOND } from './airline-validate.js';
import { benchValidate } from './validate.js';
import { benchTelecomValidate } from './telecom-validate.js';
import { benchOptimizer } from './optimizer.js';
import { benchViewerMatrix } from './viewer.js';
import { benchViewerSearch } from './viewer-search.js';
import { benchDatasets } from './datasets.js';
import { benchFaultDrill } from './fault-drill.js';
import { benchPixels } from './pixels.js';
import { benchWeb } from './web.js';
import { benchScale, benchStartup } from './scale.js';
import { benchStorePath } from './store-path.js';

const sections: [string, () => Promise<BenchRow[]>][] = [
  ['seed campaign replay', () => benchSeedReplay()],
  ['airline gold replay (environment only)', () => benchAirlineReplay()],
  ["servicegym's own datasets: generation once per process", () => benchDatasets()],
  ['airline validate (tau2 tasks)', () => benchValidate('airline', TAU2_TASKS_PER_SECOND)],
  // tau2's own code validates retail tasks at about 7.7 tasks/s on this kind of machine.
  ['retail validate (tau2 tasks)', () => benchValidate('retail', 7.7)],
  ['telecom validate (tau2 tasks; the customer performs the user-side gold actions)', () => benchTelecomValidate()],
  ['optimizer at seed scale (mock HTTP server, scripted prompt-sensitive model)', () => benchOptimizer()],
  ['viewer matrix of 1,000 episodes (headless chromium)', () => benchViewerMatrix()],
  ['viewer search over 2,500 episodes (server CPU; the search box in headless chromium)', () => benchViewerSearch()],
  ['fault drill: airline seed suite through a proxy faulting 20% of requests', () => benchFaultDrill()],
  ['pixel surface: TellerLink/32 streamed from headless chromium (seed T20 and C01-C04)', () => benchPixels()],
  ['web surface: the service console in headless chromium (oracle, no model; seed T11, C01 and C03)', () => benchWeb()],
  ['store side of the model-call path (receipts content-addressed, batched writes)', () => benchStorePath()],
  ['start-up (whole processes)', () => benchStartup()],
  ['scale: P2 load test, store growth, memory, distributed run (mock model in its own process, 300 ms per call)', () => benchScale()],
];

const only = process.argv.slice(2).map((w) => w.toLowerCase());
const chosen = sections.filter(([title]) => only.length === 0 || only.some((w) => title.toLowerCase().includes(w)));
if (chosen.length === 0) throw new Error(`no bench section matches ${only.join(', ')} (sections: ${sections.map(([t]) => t).join('; ')})`);
for (const [title, fn] of chosen) {
  const rows = await fn();
  process.stdout.write(`\n${title}\n`);
  for (const r of rows) process.stdout.write(`  ${r.name}: ${r.value}${r.ratio ? `  [${r.ratio}]` : ''}\n`);
}
process.stdout.write(`\npeak RSS of the whole bench: ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB\n`);
