/**
 * Benchmark of the web surface over the service console (Lumen, seed task T11 and C01-C06),
 * worked by the oracle (scripted browser actions, no model):
 *
 * - browser-action overhead: the time of each browser tool call (the action, the wait for the
 *   page to settle, the snapshot, and on `web-screenshot` the JPEG), median and p90, one episode
 *   at a time over three representative tasks, with the median of each phase (the surface's own
 *   timings, `WebEpisode.timings`); target median <= 100 ms per action;
 * - concurrent episodes in one worker process: N episodes of T11 at once on the process's one
 *   Chromium (one context each), for growing N: how many finished at reward 1, wall time, the
 *   per-action median and p90 under that load, and the peak memory of the worker and its
 *   Chromium (proportional set size summed over the process tree, sampled every 2 s: reading a
 *   process's PSS walks its memory map under the map's lock, which stalls a busy renderer when done
 *   often); target >= 16 episodes within 3 GB. The 1-minute load average is reported beside each row: the
 *   machine is shared, so the numbers are only as quiet as it was.
 */
import fs from 'node:fs';
import os from 'node:os';
import { loadServicegymConsole } from '../src/domains/console/index.js';
import { runDomainTasks } from '../src/run/task-run.js';
import type { Surface } from '../src/spec/surface.js';
import type { Domain } from '../src/spec/domain.js';
import type { ToolContext, ToolDef } from '../src/spec/tool.js';
import { closeSharedBrowser, hasChromium } from '../src/surfaces/browser-pool.js';
import { getSurface } from '../src/surfaces/index.js';
import { WebEpisode, type WebPhase } from '../src/surfaces/web.js';
import type { BenchRow } from './seed-replay.js';

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const load = () => os.loadavg()[0].toFixed(2);

/** `surface` with every tool call's wall time (ms) appended to `times` and every episode it opens kept in `episodes` (for their phase timings). */
function timed(surface: Surface, times: number[], episodes: WebEpisode[]): Surface {
  const tools = <S>(domain: Domain<S>): ToolDef<S>[] =>
    surface.tools(domain).map((t) => ({
      ...t,
      invoke: async (args: unknown, ctx: ToolContext<S>) => {
        const t0 = performance.now();
        try {
          return await t.invoke(args, ctx);
        } finally {
          times.push(performance.now() - t0);
        }
      },
    }));
  const open: Surface['open'] = async (ctx) => {
    const ep = await surface.open!(ctx);
    if (ep instanceof WebEpisode) episodes.push(ep);
    return ep;
  };
  return { ...surface, tools, open };
}

/** Where the time went (see `WebPhase`): median per occurrence of each phase over `episodes`. */
function phases(episodes: WebEpisode[]): string {
  const of = (k: WebPhase) => episodes.flatMap((e) => e.timings[k]);
  const part = (k: WebPhase) => (of(k).length ? `${k} ${quantile(of(k), 0.5).toFixed(0)}` : null);
  const action = (['action', 'settle', 'snapshot', 'screenshot'] as const).map(part).filter(Boolean).join(', ');
  const episode = (['server', 'context', 'load'] as const).map(part).filter(Boolean).join(', ');
  return `per action ${action} ms; per episode ${episode} ms (medians)`;
}

/** Child pids of `pid` (from /proc). */
function children(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Proportional set size of this process and all its descendants (the Chromium tree), in bytes. */
function treePss(): number {
  let total = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (m) total += Number(m[1]) * 1024;
    } catch {
      // the process ended meanwhile
    }
    stack.push(...children(pid));
  }
  return total;
}

/** How often the memory of the process tree is sampled, in ms. */
const SAMPLE_MS = 2000;

/** Runs `fn` while sampling the tree's memory; resolves to its result and the peak. */
async function withPeakMemory<T>(fn: () => Promise<T>): Promise<{ value: T; peak: number }> {
  let peak = treePss();
  const timer = setInterval(() => (peak = Math.max(peak, treePss())), SAMPLE_MS);
  try {
    return { value: await fn(), peak };
  } finally {
    clearInterval(timer);
    peak = Math.max(peak, treePss());
  }
}

const ms = (xs: number[]) => `median ${quantile(xs, 0.5).toFixed(0)} ms, p90 ${quantile(xs, 0.9).toFixed(0)} ms`;
const gib = (b: number) => `${(b / 2 ** 30).toFixed(2)} GiB`;

/** Concurrency levels tried, in order; the sweep stops at the first level that fails or exceeds 3 GB. */
const LEVELS = [4, 8, 16, 24, 32];
/**
 * The tasks of the overhead rows: the three flows of the console (in warranty with a return
 * order, out of warranty, a duplicate case closed first), which between them use every kind of
 * step the other tasks use (search, links, picklists, lookups, forms, a log-a-call).
 */
const OVERHEAD_TASKS = ['T11', 'C01', 'C03'];
const MEMORY_LIMIT = 3 * 2 ** 30;

/** The rows (see the module doc). */
export async function benchWeb(): Promise<BenchRow[]> {
  if (!hasChromium()) return [{ name: 'web surface', value: 'skipped (Chromium not found)' }];
  const loaded = loadServicegymConsole();
  const rows: BenchRow[] = [];
  const push = rows.push.bind(rows);
  // each row also goes to stderr as soon as it is measured (the section prints at its end)
  rows.push = (...r: BenchRow[]) => {
    for (const row of r) process.stderr.write(`  [web] ${row.name}: ${row.value}\n`);
    return push(...r);
  };
  try {
    const tasks = loaded.tasks.filter((t) => OVERHEAD_TASKS.includes(t.id));
    for (const name of ['web', 'web-screenshot']) {
      const times: number[] = [];
      const episodes: WebEpisode[] = [];
      const t0 = performance.now();
      const res = await runDomainTasks({ loaded, tasks, trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: `bench-${name}`, surface: timed(getSurface(name), times, episodes) });
      const ok = res.records.filter((r) => r.evaluation?.reward === 1).length;
      const median = quantile(times, 0.5);
      rows.push({ name: `${name}: browser-action overhead, one episode at a time (${times.length} actions over console tasks ${OVERHEAD_TASKS.join(', ')}, ${ok}/${res.records.length} at reward 1, ${((performance.now() - t0) / 1000).toFixed(1)} s; load ${load()})`, value: `${ms(times)}; ${phases(episodes)}`, ratio: `target median <= 100 ms: ${median <= 100 ? 'met' : 'missed'}` });
    }
    const t11 = loaded.tasks.find((t) => t.id === 'T11')!;
    let sustained = 0;
    for (const n of LEVELS) {
      const times: number[] = [];
      const episodes: WebEpisode[] = [];
      const before = load();
      const t0 = performance.now();
      const { value: res, peak } = await withPeakMemory(() => runDomainTasks({ loaded, tasks: [t11], trials: n, concurrency: n, agent: 'oracle', user: 'personas', runId: `bench-web-${n}`, surface: timed(getSurface('web'), times, episodes) }));
      const wall = (performance.now() - t0) / 1000;
      const ok = res.records.filter((r) => r.evaluation?.reward === 1).length;
      const good = ok === n && peak <= MEMORY_LIMIT;
      const failed = res.records.filter((r) => r.evaluation?.reward !== 1).map((r) => `${r.harnessError ?? r.infraError ?? r.episode.failure?.message ?? r.episode.termination} (reward ${r.evaluation?.reward ?? '-'})`);
      if (good) sustained = n;
      rows.push({ name: `web: ${n} concurrent T11 episodes in one worker (load ${before} -> ${load()})`, value: `${ok}/${n} at reward 1 in ${wall.toFixed(1)} s; per action ${ms(times)}; ${phases(episodes)}; peak memory ${gib(peak)} (worker + Chromium, PSS)${failed.length ? `; first failure: ${failed[0].slice(0, 300)}` : ''}`, ratio: good ? 'sustained' : 'not sustained' });
      if (!good) break;
    }
    rows.push({ name: 'web: concurrent episodes one worker sustains (all at reward 1, memory <= 3 GB)', value: `${sustained}${sustained === LEVELS.at(-1) ? ' or more (highest level tried)' : ''}`, ratio: `target >= 16: ${sustained >= 16 ? 'met' : 'missed'}` });
  } finally {
    await closeSharedBrowser();
  }
  return rows;
}
