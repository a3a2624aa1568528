/**
 * Scale benchmarks (issue 17). Every value is measured in this run on this machine; tau2's figures
 * appear only as recorded baselines, labelled so (the team lead measures tau2 side by side).
 *
 * - P2 load test: N episodes of the LLM agent against the LLM user simulator on a loopback mock
 *   model (its own process) answering every call after 300 ms, C calls per episode, `-j 200`,
 *   through `servicegym run` into a store. The ideal critical path is ceil(N / j) waves of C
 *   calls × 300 ms; the ratio is wall time over it. The run's CPU time per model call (user +
 *   system, start-up included: reliable on a loaded machine, where the wall ratio is not; the
 *   load average is printed beside it). Peak RSS of the run's process, and memory per 1,000
 *   episodes (peak minus the RSS before the run, scaled). The run is the bundled CLI users run
 *   (dist/cli/bin.js), timed from the load of its modules to the process's exit (bench/cli-child.mjs).
 *   The P2 rows run as `run` does by default, on one thread (the row label says `--threads 1`); one
 *   more row gives the 1,000 x 5-call load on `--threads 2` for comparison (CPU of all threads).
 *   On this 2-core machine, shared with the mock model's process, threads cost more CPU than they
 *   spread (each thread loads its own modules and domain; results are copied to the storing thread).
 *   One row gives a thread's start-up: the extra CPU per thread of a small run on 4 threads over 1.
 * - First use: a small run on the empty cache and again on the filled one (the dataset's DB, its
 *   validated copy and start-state hash are derived once per dataset and version); the P2 rows
 *   then run on the filled cache, as every run after a machine's first does.
 * - Store bytes per episode at 10 and 40 calls per episode (SQLite file plus WAL over episodes).
 * - Start-up: `servicegym --help` and `validate` of one tau2 airline task (whole processes),
 *   and whole-process `validate` of all tau2 airline tasks, with `--no-store` and into a run
 *   store (first run, and again with the final states' digests kept).
 * - Distributed: the same episodes through 2 `servicegym worker`s on a local Redis against one process,
 *   workers and single process from the same build (dist/ when built), with the CPU time of the
 *   storing process and of each worker (on a 2-core machine the three processes share the cores, so
 *   the CPU sum, not the wall time, says what distribution costs).
 *
 * Temporary folders are removed at the end. Sizes can be lowered with BENCH_P2_EPISODES and
 * BENCH_P2_LONG_EPISODES (default 1000 each).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import type { BenchRow } from './seed-replay.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TAU2_AIRLINE = path.resolve(ROOT, '..', 'shared', 'peers', 'tau2', 'airline');
const LATENCY_MS = 300;
const TSX = ['--import', 'tsx'];

interface ChildCost {
  code: number;
  seconds: number;
  cpu_ms: number;
  rss_before_mib: number;
  peak_rss_mib: number;
}

function lines(child: ChildProcess, stream: 'stdout' | 'stderr', onLine: (l: string) => void): void {
  let buf = '';
  child[stream]!.on('data', (d) => {
    buf += String(d);
    const parts = buf.split('\n');
    buf = parts.pop()!;
    parts.forEach(onLine);
  });
}

async function startMock(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [...TSX, path.join(ROOT, 'bench', 'mock-model.ts'), String(LATENCY_MS)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    lines(child, 'stdout', (l) => l.startsWith('http') && resolve(l.trim()));
    child.once('exit', (c) => reject(new Error(`mock model exited (${c})`)));
  });
  return { url, stop: () => new Promise((r) => (child.once('exit', () => r()), child.kill('SIGTERM'))) };
}

/** Whether the CLI is built: the run children then run dist/ as users do (else the sources through tsx, which costs start-up CPU). */
const BUILT = fs.existsSync(path.join(ROOT, 'dist', 'cli', 'bin.js'));

/** `servicegym` as a command line: the built CLI when there is one, else the sources through tsx (as {@link cliChild} runs them). */
const CLI = BUILT ? [path.join(ROOT, 'dist', 'cli', 'bin.js')] : [...TSX, path.join(ROOT, 'src', 'cli', 'bin.ts')];

/** Runs `servicegym ARGS` in a child (bench/cli-child.mjs) and returns its cost line. */
async function cliChild(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ChildCost> {
  const child = spawn(process.execPath, [...(BUILT ? [] : TSX), path.join(ROOT, 'bench', 'cli-child.mjs'), ...args], { cwd: ROOT, env: { ...process.env, SERVICEGYM_API_KEY: 'bench-fake-key', ...(BUILT ? {} : { SERVICEGYM_BENCH_SOURCE: '1' }), ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const err: string[] = [];
  lines(child, 'stderr', (l) => err.push(l));
  const code = await new Promise<number | null>((r) => child.once('exit', r));
  const last = err.filter((l) => l.startsWith('{"code"')).pop();
  if (!last) throw new Error(`servicegym ${args.join(' ')} failed (exit ${code}):\n${err.slice(-20).join('\n')}`);
  const cost = JSON.parse(last) as ChildCost;
  if (cost.code !== 0) throw new Error(`servicegym ${args[0]} exited ${cost.code}:\n${err.slice(-20).join('\n')}`);
  return cost;
}

function storeBytes(db: string): number {
  return [db, `${db}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
}

const TASKS = 5; // servicegym's own airline dataset

function runArgs(url: string, calls: number, episodes: number, j: number, db: string, threads = 1): string[] {
  return ['run', '--trials', String(Math.ceil(episodes / TASKS)), '-j', String(j), '--agent-model', `agent-${calls}`, '--user-model', `user-${calls}`, '--base-url', url, '--db', db, '-q', '--json', '--timeout', '120', ...(threads > 1 ? ['--threads', String(threads)] : [])];
}

/** Worker threads of the P2 runs (`run --threads`; 1 = the default single-thread run). */
const P2_THREADS = 1;

async function p2(url: string, dir: string, calls: number, episodes: number, threads = P2_THREADS, j = 200): Promise<{ rows: BenchRow[]; bytesPerEpisode: number }> {
  const db = path.join(dir, `p2-${calls}-t${threads}.db`);
  const n = Math.ceil(episodes / TASKS) * TASKS;
  const cost = await cliChild(runArgs(url, calls, n, j, db, threads));
  const ideal = Math.ceil(n / j) * calls * (LATENCY_MS / 1000);
  const bytes = storeBytes(db) / n;
  const perThousand = ((cost.peak_rss_mib - cost.rss_before_mib) * 1000) / n;
  return {
    bytesPerEpisode: bytes,
    rows: [
      { name: `${n} episodes x ${calls} calls, ${LATENCY_MS} ms per call, -j ${j} --threads ${threads}: wall time`, value: `${cost.seconds.toFixed(2)} s`, ratio: `${(cost.seconds / ideal).toFixed(2)}x the ideal critical path of ${ideal.toFixed(1)} s` },
      { name: `  CPU of the run's process (user + system)`, value: `${(cost.cpu_ms / 1000).toFixed(2)} s`, ratio: `${(cost.cpu_ms / (n * calls)).toFixed(2)} ms per model call, start-up included; load average ${os.loadavg()[0].toFixed(1)}` },
      { name: `  peak RSS of the run's process`, value: `${cost.peak_rss_mib.toFixed(0)} MiB`, ratio: `memory per 1,000 episodes: ${perThousand.toFixed(0)} MiB` },
      { name: `  store bytes per episode (${calls} calls)`, value: `${(bytes / 1024).toFixed(1)} KiB` },
    ],
  };
}

/**
 * The one-time cost of a dataset's first use on a machine: the same small run (5 episodes x 5
 * calls) on the empty cache and again on the cache it filled — the default dataset's DB derived
 * from its seed, its validated copy and its start-state hash stream (SERVICEGYM_CACHE_DIR), made
 * once per dataset and code version. The P2 rows after it run as every later run does.
 */
async function firstUse(url: string, dir: string, cacheWasEmpty: boolean): Promise<BenchRow[]> {
  const first = await cliChild(runArgs(url, 5, TASKS, 200, path.join(dir, 'first-use.db')));
  const again = await cliChild(runArgs(url, 5, TASKS, 200, path.join(dir, 'first-use-again.db')));
  return [{
    name: `first use of the default dataset (${TASKS} episodes x 5 calls ${cacheWasEmpty ? 'on an empty cache' : 'with the cache in SERVICEGYM_CACHE_DIR'}), then the same run again`,
    value: `${first.seconds.toFixed(2)} s, then ${again.seconds.toFixed(2)} s`,
    ratio: `once per dataset and version: the DB, its validated copy and start-state hash are derived and cached (${((first.cpu_ms - again.cpu_ms) / 1000).toFixed(2)} s more CPU); the P2 rows below run on the filled cache, as every later run does`,
  }];
}

/**
 * What a worker thread of `run --threads` costs to start: the same small run (5 episodes x 5
 * calls, -j 4) on 1 thread and on 4 (all 4 get an episode), whole-process CPU (median of 3 each);
 * the difference over the 3 extra threads is each thread's start-up (Node's worker bootstrap,
 * the bundle's chunks, the domain and its dataset check), beside the CPU of the whole 1-thread run.
 */
async function threadStartup(url: string, dir: string): Promise<BenchRow[]> {
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const cpu = async (threads: number) => {
    const runs: number[] = [];
    for (let i = 0; i < 3; i++) runs.push((await cliChild(runArgs(url, 5, TASKS, 4, path.join(dir, `threads-${threads}-${i}.db`), threads))).cpu_ms);
    return median(runs);
  };
  const one = await cpu(1);
  const four = await cpu(4);
  return [{ name: `start-up of a --threads worker thread: extra CPU per thread (${TASKS} episodes x 5 calls, -j 4, --threads 4 vs 1; median of 3)`, value: `${((four - one) / 3).toFixed(0)} ms`, ratio: `the whole 1-thread run: ${one.toFixed(0)} ms CPU; load average ${os.loadavg()[0].toFixed(1)}` }];
}

/** Writes the process's CPU seconds (user + system, from its start) to $SG_BENCH_CPU_FILE at exit. */
const CPU_AT_EXIT = `data:text/javascript,${encodeURIComponent('import fs from "node:fs"; process.on("exit", () => { const c = process.cpuUsage(); fs.writeFileSync(process.env.SG_BENCH_CPU_FILE, String((c.user + c.system) / 1e6)); });')}`;

/**
 * Medians of `reps` runs of a whole `servicegym` process: wall seconds, and CPU seconds (user +
 * system of the process), which a machine shared with other work disturbs far less than the wall time.
 */
function wholeProcess(args: string[], reps: number, env: NodeJS.ProcessEnv = process.env): { wall: number; cpu: number } {
  const bin = fs.existsSync(path.join(ROOT, 'dist', 'cli', 'bin.js')) ? [path.join(ROOT, 'dist', 'cli', 'bin.js')] : [...TSX, path.join(ROOT, 'src', 'cli', 'bin.ts')];
  const cpuFile = path.join(os.tmpdir(), `sg-bench-cpu-${process.pid}`);
  const walls: number[] = [];
  const cpus: number[] = [];
  try {
    for (let i = 0; i < reps; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, ['--import', CPU_AT_EXIT, ...bin, ...args], { cwd: ROOT, env: { ...env, SG_BENCH_CPU_FILE: cpuFile }, stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) throw new Error(`servicegym ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
      walls.push((performance.now() - t0) / 1000);
      cpus.push(Number(fs.readFileSync(cpuFile, 'utf8')));
    }
  } finally {
    fs.rmSync(cpuFile, { force: true });
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { wall: median(walls), cpu: median(cpus) };
}

/** `0.42 s (CPU 0.31 s)`. */
const secs = (t: { wall: number; cpu: number }) => `${t.wall.toFixed(2)} s (CPU ${t.cpu.toFixed(2)} s)`;

/** Start-up and whole-process validate. tau2's rows are recorded figures, not measured here. */
export async function benchStartup(): Promise<BenchRow[]> {
  const built = fs.existsSync(path.join(ROOT, 'dist', 'cli', 'bin.js'));
  const rows: BenchRow[] = [{ name: 'servicegym --help (whole process, median of 5; wall, and CPU user+system)', value: secs(wholeProcess(['--help'], 5)), ratio: `target <= 0.3 s; load average ${os.loadavg()[0].toFixed(1)}` }];
  if (!built) rows.push({ name: 'note', value: 'dist/ not built: whole-process times include tsx (run npm run build first)' });
  if (!fs.existsSync(TAU2_AIRLINE)) return [...rows, { name: 'validate start-up', value: `skipped (${TAU2_AIRLINE} not found)` }];
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-cache-'));
  const env = { ...process.env, SERVICEGYM_CACHE_DIR: cache };
  try {
    wholeProcess(['validate', '--data-dir', TAU2_AIRLINE, '--tasks', '0', '--no-store', '-q'], 1, env); // fills the DB copy
    const one = wholeProcess(['validate', '--data-dir', TAU2_AIRLINE, '--tasks', '0', '--no-store', '-q'], 5, env);
    const cold = wholeProcess(['validate', '--data-dir', TAU2_AIRLINE, '--tasks', '0', '--no-store', '-q'], 3, { ...process.env, SERVICEGYM_CACHE_DIR: 'off' });
    rows.push({ name: 'validate start-up: whole process on 1 tau2 airline task (median of 5; validated DB copy on disk)', value: secs(one), ratio: 'target <= 0.4 s' });
    rows.push({ name: '  the same without the DB copy (SERVICEGYM_CACHE_DIR=off; median of 3)', value: secs(cold) });
    const all = wholeProcess(['validate', '--data-dir', TAU2_AIRLINE, '--no-store', '-q'], 3, env);
    rows.push({ name: 'whole-process validate of the 50 tau2 airline tasks (median of 3)', value: secs(all), ratio: `${(50 / all.wall).toFixed(1)} tasks/s (wall), ${(50 / all.cpu).toFixed(1)} tasks per CPU second` });
    // With the run store (validate's default) every episode records its final DB's tau2 hash: the
    // first run hashes each written state (and makes the start state's hash stream), later runs
    // find the digests kept by the changes each state made (src/domains/common/digest-memo.ts).
    const storeArgs = ['validate', '--data-dir', TAU2_AIRLINE, '--db', path.join(cache, 'bench.db'), '-q'];
    const firstStored = wholeProcess(storeArgs, 1, env);
    const stored = wholeProcess(storeArgs, 3, env);
    rows.push({ name: '  the same into a run store (the default), first run: start-state hash stream made, every written final DB hashed', value: secs(firstStored), ratio: `${(firstStored.cpu / all.cpu).toFixed(2)}x the CPU of --no-store` });
    rows.push({ name: '  into a run store again (median of 3; final-state digests found kept)', value: secs(stored), ratio: `${(stored.cpu / all.cpu).toFixed(2)}x the CPU of --no-store` });
  } finally {
    fs.rmSync(cache, { recursive: true, force: true });
  }
  rows.push({ name: 'baseline (RECORDED in issue 17, not measured here)', value: "before issue 17 whole-process validate of airline took 24.7x tau2's own code's time for the same tasks (1.0-1.3 s of CLI start-up); tau2 is measured side by side by the team lead" });
  return rows;
}

async function redisUrl(): Promise<{ url: string; stop: () => Promise<void> } | undefined> {
  const { HAS_REDIS, startRedis } = await import('../test/support/redis.js');
  if (!HAS_REDIS) return undefined;
  return startRedis();
}

/** CPU seconds (user + system) a live child has used so far, from /proc (Linux); undefined elsewhere. */
function cpuOfPid(pid: number | undefined): number | undefined {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, in clock ticks of USER_HZ (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * The distributed rows: `episodes` 5-call episodes in one process (`-j 200`), then through 2
 * workers (`-j 100` each, started before, the same build as the single process) on a private
 * local Redis, with the CPU of the storing process and of the workers.
 */
export async function distributed(url: string, dir: string, episodes: number): Promise<BenchRow[]> {
  const redis = await redisUrl();
  if (!redis) return [{ name: 'distributed run', value: 'skipped (no redis-server on PATH)' }];
  const queue = `bench-${randomUUID()}`;
  // Workers run the same build as the single process (dist/ when built), so the two rows compare like with like.
  const workers = [0, 1].map(() => spawn(process.execPath, [...CLI, 'worker', '--queue', redis.url, '--queue-name', queue, '-j', '100', '-q'], { cwd: ROOT, env: { ...process.env, SERVICEGYM_API_KEY: 'bench-fake-key' }, stdio: 'ignore' }));
  try {
    const single = await cliChild(runArgs(url, 5, episodes, 200, path.join(dir, 'single.db')));
    const idle = workers.map((w) => cpuOfPid(w.pid) ?? NaN);
    const queued = await cliChild([...runArgs(url, 5, episodes, 200, path.join(dir, 'queued.db')), '--queue', redis.url, '--queue-name', queue]);
    const workerCpu = workers.map((w, i) => (cpuOfPid(w.pid) ?? NaN) - idle[i]);
    const ideal = Math.ceil(episodes / 200) * 5 * (LATENCY_MS / 1000);
    const cpu = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    return [
      { name: `${episodes} episodes x 5 calls, one process -j 200`, value: `${single.seconds.toFixed(2)} s`, ratio: `${(single.seconds / ideal).toFixed(2)}x ideal ${ideal.toFixed(1)} s; CPU ${cpu(single.cpu_ms)}` },
      {
        name: `${episodes} episodes x 5 calls, 2 workers -j 100 each on local Redis (workers started before, same build)`,
        value: `${queued.seconds.toFixed(2)} s`,
        ratio: `${(queued.seconds / single.seconds).toFixed(2)}x the single process; CPU of the storing process ${cpu(queued.cpu_ms)}, of the workers ${workerCpu.map((c) => `${c.toFixed(2)} s`).join(' + ')}; load average ${os.loadavg()[0].toFixed(1)}`,
      },
    ];
  } finally {
    await Promise.all(workers.map((w) => new Promise((r) => (w.once('exit', r), w.kill('SIGTERM')))));
    await redis.stop();
  }
}

/** All scale rows; temp folders removed. */
export async function benchScale(): Promise<BenchRow[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-scale-'));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-bench-cache-'));
  const cacheWasEmpty = !process.env.SERVICEGYM_CACHE_DIR;
  process.env.SERVICEGYM_CACHE_DIR ??= cache;
  const mock = await startMock();
  try {
    const episodes = Number(process.env.BENCH_P2_EPISODES ?? 1000);
    const long = Number(process.env.BENCH_P2_LONG_EPISODES ?? 1000);
    const once = await firstUse(mock.url, dir, cacheWasEmpty);
    const short = await p2(mock.url, dir, 5, episodes);
    // For comparison: the same load on 2 worker threads (--threads 2), wall and CPU in one row.
    const two = (await p2(mock.url, dir, 5, episodes, 2)).rows;
    const ten = await p2(mock.url, dir, 10, 200);
    const forty = await p2(mock.url, dir, 40, long);
    const startup = await threadStartup(mock.url, dir);
    const growth = forty.bytesPerEpisode / ten.bytesPerEpisode;
    return [
      ...(BUILT ? [] : [{ name: 'note', value: 'dist/ not built: the runs load the sources through tsx (run npm run build first)' }]),
      ...once,
      ...short.rows,
      { name: two[0].name, value: two[0].value, ratio: `${two[0].ratio}; CPU ${two[1].value}; load average ${os.loadavg()[0].toFixed(1)}` },
      ...startup,
      ...forty.rows,
      { name: 'store bytes per episode at 10 calls vs 40 calls', value: `${(ten.bytesPerEpisode / 1024).toFixed(1)} KiB vs ${(forty.bytesPerEpisode / 1024).toFixed(1)} KiB`, ratio: `${growth.toFixed(1)}x for 4x the calls (linear: about 4x)` },
      ...(await distributed(mock.url, dir, Math.min(episodes, 400))),
      { name: 'baseline (RECORDED in issue 17, not measured here)', value: 'servicegym before issue 17 on the 1,000 x 5-call P2 load: 16.95 s, 2.26x the ideal 7.5 s; 80.8 KiB store per episode; 0.22-0.35 MiB per short episode' },
    ];
  } finally {
    await mock.stop();
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(cache, { recursive: true, force: true });
  }
}
