/**
 * Benchmark: text search over a run of 2,500 episodes in the viewer (`GET /api/runs/:id/search`
 * and the run page's search box). A store gets a run of 625 tasks × 4 trials whose episodes are
 * real stored airline episodes (the oracle's on the seed tasks), each with a booking reference of
 * its own in the customer's first message, so a query can match one episode or all of them.
 *
 * Server side, in CPU time of this process (process.cpuUsage: unlike wall time it does not grow
 * when other processes share the CPUs): the former search — every episode page of the run built,
 * then matched, for each query — measured here as the baseline; the first search of a run, which
 * builds its index; every later search, which scans the kept index; and a search after one episode
 * was added to the run (a run in progress), which reads only that episode. In chromium: typing a
 * query into the run page, as a user types it (80 ms between keys): the search requests made, the
 * time from the last keystroke to the list answering it, and the renderer main thread's CPU time
 * from the first keystroke to the answer, against the 500 ms that search-as-you-type must stay
 * well under.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { loadDomain } from '../src/domains/index.js';
import { runDomainTasks } from '../src/run/task-run.js';
import { RunStore, type EpisodeRow } from '../src/store/store.js';
import { startViewer } from '../src/viewer/server.js';
import { allEpisodePayloads, runDetail, searchRun } from '../src/viewer/queries.js';
import { SearchIndexCache } from '../src/viewer/search-index.js';
import { searchEpisodes } from '../src/viewer/search.js';
import { CHROMIUM, CHROMIUM_ARGS, rendererCpuMs, uiDir } from './viewer.js';
import type { BenchRow } from './seed-replay.js';

const RUN_ID = 'bench-search';
const TASKS = 625;
const TRIALS = 4;
const EPISODES = TASKS * TRIALS;
/** Search-as-you-type must answer well under this (ms). */
const TARGET_MS = 500;
/** Queries of the server rows: one episode, every episode, a tool name in every transcript, none. */
const QUERIES = ['zx1234q', 'Flight', 'get_reservation_details', 'no such text'];

/** Writes run {@link RUN_ID} from the oracle's airline seed episodes, a booking reference ZX<i>Q in each. */
async function fillStore(db: string): Promise<void> {
  const store = RunStore.open(db);
  try {
    const loaded = loadDomain('airline');
    await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 1, concurrency: 4, agent: 'oracle', user: 'personas', store, runId: 'seed' });
    const seeds = store.episodes('seed');
    const rows: EpisodeRow[] = [];
    for (let i = 0; i < EPISODES; i++) {
      const seed = seeds[i % seeds.length];
      const result = structuredClone(seed.result) as { episode_id: string; messages: { role: string; content: unknown }[] };
      const first = result.messages.find((m) => m.role === 'user' && typeof m.content === 'string');
      if (first) first.content = `${String(first.content)} My booking reference is ZX${i}Q.`;
      const task = `task_${Math.floor(i / TRIALS)}`;
      result.episode_id = `${task}#${i % TRIALS}`;
      rows.push({ ...seed, run_id: RUN_ID, episode_id: result.episode_id, task_id: task, trial: i % TRIALS, result });
    }
    store.appendEpisodes(rows);
    store.saveRun({ id: RUN_ID, kind: 'run', name: 'bench search 2,500 episodes', domain: 'airline', created_at: new Date().toISOString(), summary: { agent_model: 'oracle', user_model: 'scripted', trials: TRIALS }, record: null });
  } finally {
    store.close();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU ms of `fn` in this process (user + system, every thread). */
function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/** The search as it was before the index: the run page and every episode page built, then matched. */
function formerSearch(store: RunStore, q: string) {
  const detail = runDetail(store, RUN_ID)!;
  const pages = allEpisodePayloads(store, detail);
  return searchEpisodes(detail.episodes.map((e) => pages[e.episode_id]), q);
}

/** The server rows: the former search (baseline), the first indexed search, the later ones; all in CPU ms. */
function serverRows(db: string, runs: number): BenchRow[] {
  const store = RunStore.open(db, { readonly: true });
  try {
    const former = Array.from({ length: runs }, (_, i) => cpuMs(() => formerSearch(store, QUERIES[i % QUERIES.length])));
    const firsts: number[] = [];
    const later: number[] = [];
    for (let r = 0; r < runs; r++) {
      const cache = new SearchIndexCache();
      firsts.push(cpuMs(() => searchRun(store, RUN_ID, QUERIES[0], cache)));
      for (const q of QUERIES) later.push(cpuMs(() => searchRun(store, RUN_ID, q, cache)));
    }
    const same = QUERIES.every((q) => JSON.stringify(searchRun(store, RUN_ID, q)!.hits) === JSON.stringify(formerSearch(store, q)));
    if (!same) throw new Error('the indexed search answers differently from the former search');
    const base = median(former);
    const ratio = (ms: number) => `${(ms / base).toFixed(3)} of the former search`;
    return [
      { name: `former search: every episode page built per query (CPU, median of ${runs}; the baseline)`, value: `${base.toFixed(0)} ms` },
      { name: `first search of the run: its index built (CPU, median of ${runs})`, value: `${median(firsts).toFixed(0)} ms`, ratio: ratio(median(firsts)) },
      { name: `each later search: the kept index scanned (CPU, median of ${later.length}: one hit, all hits, none)`, value: `${median(later).toFixed(1)} ms`, ratio: ratio(median(later)) },
    ];
  } finally {
    store.close();
  }
}

/** Types `q` into the run page's search box (80 ms between keys) until the list answers it; the requests made, ms from the last key, renderer CPU ms. */
async function typeOnce(browser: Browser, url: string, q: string, want: string, traceFile: string): Promise<{ requests: number; answerMs: number; cpuMs: number }> {
  const page = await browser.newPage();
  let requests = 0;
  page.on('request', (r) => {
    if (/\/search\?q=./.test(r.url())) requests++;
  });
  await page.goto(url);
  await page.locator('[data-testid="matrix"] a.cell').first().waitFor({ timeout: 60_000 });
  const box = page.locator('input[name="q"]');
  await box.focus();
  // The page's own clock: from the last input event to the count answering it.
  await box.evaluate((el) => el.addEventListener('input', () => ((window as unknown as { lastInput: number }).lastInput = performance.now())));
  await browser.startTracing(page, { path: traceFile, categories: ['toplevel'] });
  await page.keyboard.type(q, { delay: 80 });
  const answered = await page.waitForFunction(
    (w) => document.querySelector('[data-testid="filter-count"]')?.textContent === w && performance.now() - (window as unknown as { lastInput: number }).lastInput,
    want,
    { timeout: 60_000 },
  );
  const answerMs = (await answered.jsonValue()) as number;
  await browser.stopTracing();
  await page.close();
  return { requests, answerMs, cpuMs: rendererCpuMs(traceFile) };
}

/** The chromium rows; one row saying why when chromium is absent. */
async function browserRows(db: string, dir: string, runs: number): Promise<BenchRow[]> {
  if (!fs.existsSync(CHROMIUM)) return [{ name: 'search box in chromium', value: `skipped (${CHROMIUM} not found)` }];
  const viewer = await startViewer({ dbPath: db, port: 0, uiDir: uiDir() });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const url = `${viewer.url}#/runs/${RUN_ID}`;
    const cases: [string, string][] = [
      ['zx1234q', `1 of ${EPISODES} episodes`],
      ['zx12', `111 of ${EPISODES} episodes`],
      ['booking', `${EPISODES} of ${EPISODES} episodes`],
    ];
    const results = [];
    for (let i = 0; i < runs; i++) {
      const [q, want] = cases[i % cases.length];
      results.push(await typeOnce(browser, url, q, want, path.join(dir, `type-${i}.json`)));
    }
    const answer = median(results.map((r) => r.answerMs));
    const cpu = median(results.map((r) => r.cpuMs));
    const ratio = (ms: number) => `${(ms / TARGET_MS).toFixed(2)} of the ${TARGET_MS} ms target`;
    return [
      { name: `typing a query into the run page, 80 ms between keys: search requests per query (median of ${runs}; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)`, value: String(median(results.map((r) => r.requests))) },
      { name: '  last keystroke → the list answers (includes the 150 ms typing pause)', value: `${answer.toFixed(0)} ms`, ratio: ratio(answer) },
      { name: '  renderer main-thread CPU from the first keystroke to the answer', value: `${cpu.toFixed(0)} ms`, ratio: ratio(cpu) },
    ];
  } finally {
    await browser.close();
    await viewer.close();
  }
}

/**
 * A run in progress: with the run's index kept, one episode is added (as a writer adds it), then
 * searched; CPU ms (median of `runs`), against the former search (`base`).
 */
function inProgressRow(db: string, runs: number, base: number): BenchRow {
  const store = RunStore.open(db);
  try {
    const cache = new SearchIndexCache();
    searchRun(store, RUN_ID, QUERIES[0], cache);
    const [model] = store.episodes(RUN_ID);
    const times = Array.from({ length: runs }, (_, i) => {
      store.appendEpisodes([{ ...model, episode_id: `added_${i}#0`, task_id: `added_${i}`, trial: 0 }]);
      return cpuMs(() => searchRun(store, RUN_ID, QUERIES[0], cache));
    });
    if (cache.reads.whole !== 1) throw new Error(`the kept index was read whole ${cache.reads.whole} times`);
    const ms = median(times);
    return { name: `a run in progress: one episode added, then a search (CPU, median of ${runs}; only the new episode read)`, value: `${ms.toFixed(1)} ms`, ratio: `${(ms / base).toFixed(3)} of the former search` };
  } finally {
    store.close();
  }
}

/** Every row of the search benchmark. */
export async function benchViewerSearch(runs = 3): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-search-'));
  const db = path.join(dir, 'store.db');
  await fillStore(db);
  const server = serverRows(db, runs);
  const browser = await browserRows(db, dir, runs);
  // Last: it adds episodes to the run the other rows count.
  const base = Number.parseFloat(server[0].value);
  return [...server, inProgressRow(db, runs, base), ...browser];
}
