/**
 * Benchmark: opening the run page of a 1,000-episode run in the viewer. A store gets a run of
 * 250 tasks × 4 trials whose episodes are real stored airline episodes (the oracle's on the five
 * seed tasks, some turned into failures), the viewer serves it on 127.0.0.1, and headless
 * chromium opens the run page. Measured: navigation start → the matrix rendered (the UI's
 * `servicegym:matrix` performance mark, so it includes loading the page, fetching the run from
 * the API and rendering 1,000 cells), against the 1 s target; the renderer main thread's CPU
 * time for the same page (a traced opening; unlike wall time it does not grow when other
 * processes share the CPUs); the API answer alone; and the same page from a static export
 * opened from file://.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { loadDomain } from '../src/domains/index.js';
import { runDomainTasks } from '../src/run/task-run.js';
import { RunStore, type EpisodeRow } from '../src/store/store.js';
import { startViewer } from '../src/viewer/server.js';
import { exportStaticSite } from '../src/viewer/export.js';
import { defaultUiDir } from '../src/viewer/ui-dir.js';
import type { BenchRow } from './seed-replay.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/** The issue's target for rendering the matrix of a 1,000-episode run. */
const TARGET_MS = 1000;
const RUN_ID = 'bench-1000';
const TASKS = 250;
const TRIALS = 4;

/** The built UI: dist/viewer/ui, or a fresh build into a temporary folder when it is missing. */
export function uiDir(): string {
  const dir = defaultUiDir();
  if (fs.existsSync(path.join(dir, 'index.html'))) return dir;
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-ui-'));
  const res = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '-c', path.join(ROOT, 'viewer', 'vite.config.ts'), '--outDir', out], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (res.status !== 0) throw new Error(`vite build failed: ${res.stderr}`);
  return out;
}

/** Writes run {@link RUN_ID}: 250 tasks × 4 trials built from real stored episodes; every third fails. */
async function fillStore(db: string): Promise<void> {
  const store = RunStore.open(db);
  try {
    const loaded = loadDomain('airline');
    await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 4, agent: 'oracle', user: 'personas', store, runId: 'seed' });
    const seeds = store.episodes('seed');
    const rows: EpisodeRow[] = [];
    for (let t = 0; t < TASKS; t++) {
      for (let trial = 0; trial < TRIALS; trial++) {
        const i = t * TRIALS + trial;
        const seed = seeds[i % seeds.length];
        const result = structuredClone(seed.result) as { evaluation: { checks: { verdict: string }[]; reward: number; partial: number } };
        const fails = i % 3 === 0;
        if (fails) {
          result.evaluation.checks[0].verdict = 'fail';
          result.evaluation.reward = 0;
          result.evaluation.partial = 0.5;
        }
        rows.push({ ...seed, run_id: RUN_ID, episode_id: `task_${t}#${trial}`, task_id: `task_${t}`, trial, reward: fails ? 0 : seed.reward, partial: fails ? 0.5 : seed.partial, result });
      }
    }
    store.appendEpisodes(rows);
    store.saveRun({ id: RUN_ID, kind: 'run', name: 'bench 1,000 episodes', domain: 'airline', created_at: new Date().toISOString(), summary: { agent_model: 'oracle', user_model: 'scripted', trials: TRIALS }, record: null });
  } finally {
    store.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/**
 * CPU time of the page's renderer main thread in a trace (sum of its top-level tasks' thread
 * time), in ms: what rendering costs when the machine is not shared, unlike the wall time.
 */
export function rendererCpuMs(traceFile: string): number {
  const events = (JSON.parse(fs.readFileSync(traceFile, 'utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && mains.has(`${e.pid}:${e.tid}`));
  const byThread = new Map<string, number>();
  for (const e of tasks) byThread.set(`${e.pid}:${e.tid}`, (byThread.get(`${e.pid}:${e.tid}`) ?? 0) + (e.tdur ?? 0) / 1000);
  return Math.max(0, ...byThread.values());
}

/** Opens `url` in a fresh page until the matrix has all its cells; ms to the matrix mark. */
async function openOnce(browser: Browser, url: string, traceFile?: string): Promise<number> {
  const page = await browser.newPage();
  if (traceFile) await browser.startTracing(page, { path: traceFile, categories: ['toplevel'] });
  await page.goto(url);
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="matrix"] a.cell').length === n, TASKS * TRIALS, { timeout: 30_000 });
  const ms = await page.evaluate(() => performance.getEntriesByName('servicegym:matrix')[0]?.startTime ?? NaN);
  if (traceFile) await browser.stopTracing();
  await page.close();
  return ms;
}

/** Median ms to the matrix over `runs` openings (after one warm-up), and the renderer CPU ms of one traced opening. */
async function timeMatrix(browser: Browser, url: string, runs: number, traceFile: string): Promise<{ wall: number; cpu: number }> {
  await openOnce(browser, url);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await openOnce(browser, url));
  await openOnce(browser, url, traceFile);
  return { wall: median(times), cpu: rendererCpuMs(traceFile) };
}

/** The matrix benchmark rows; skipped (one row saying why) when chromium is absent. */
export async function benchViewerMatrix(runs = 5): Promise<BenchRow[]> {
  if (!fs.existsSync(CHROMIUM)) return [{ name: 'viewer matrix of 1,000 episodes', value: `skipped (${CHROMIUM} not found)` }];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-viewer-'));
  const db = path.join(dir, 'store.db');
  await fillStore(db);
  const ui = uiDir();
  const viewer = await startViewer({ dbPath: db, port: 0, uiDir: ui });
  const site = path.join(dir, 'site');
  exportStaticSite({ dbPath: db, outDir: site, uiDir: ui });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const hash = `#/runs/${RUN_ID}`;
    const live = await timeMatrix(browser, `${viewer.url}${hash}`, runs, path.join(dir, 'live-trace.json'));
    const file = await timeMatrix(browser, `file://${path.join(site, 'index.html')}${hash}`, runs, path.join(dir, 'file-trace.json'));
    const api: number[] = [];
    for (let i = 0; i <= runs; i++) {
      const t0 = performance.now();
      await (await fetch(`${viewer.url}api/runs/${RUN_ID}`)).json();
      if (i > 0) api.push(performance.now() - t0);
    }
    const ratio = (ms: number) => `${(ms / TARGET_MS).toFixed(2)} of the ${TARGET_MS} ms target`;
    const load = `load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs`;
    return [
      { name: `run page, live server: navigation → matrix of ${TASKS * TRIALS} cells (median of ${runs}; ${load})`, value: `${live.wall.toFixed(0)} ms`, ratio: ratio(live.wall) },
      { name: '  renderer main-thread CPU for that page (load, script, fetch handling, render, layout, paint)', value: `${live.cpu.toFixed(0)} ms`, ratio: ratio(live.cpu) },
      { name: `  GET /api/runs/:id of ${TASKS * TRIALS} episodes (median of ${runs})`, value: `${median(api).toFixed(1)} ms` },
      { name: `run page, static export from file:// (median of ${runs})`, value: `${file.wall.toFixed(0)} ms`, ratio: ratio(file.wall) },
      { name: '  renderer main-thread CPU for that page', value: `${file.cpu.toFixed(0)} ms`, ratio: ratio(file.cpu) },
    ];
  } finally {
    await browser.close();
    await viewer.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const r of await benchViewerMatrix()) process.stdout.write(`  ${r.name}: ${r.value}${r.ratio ? `  [${r.ratio}]` : ''}\n`);
}
