/**
 * Benchmark of the pixel surface (TellerLink/32 over the banking back-end): per step, the time
 * to capture and encode a 1024x768 frame (median and p90; target median <= 50 ms), and the image
 * bytes per episode of seed task T20, as lossy JPEG (quality 70, the default) and as PNG; beside
 * it the same five tasks through the API surface and through pixels, by the oracle, side by side.
 */
import { loadServicegymBank } from '../src/domains/banking/index.js';
import { runDomainTasks } from '../src/run/task-run.js';
import { closeSharedBrowser, hasChromium } from '../src/surfaces/browser-pool.js';
import { createPixelSurface } from '../src/surfaces/pixels.js';
import { apiSurface } from '../src/surfaces/api.js';
import type { Frame } from '../src/surfaces/pixel-stream.js';
import type { Surface } from '../src/spec/surface.js';
import type { BenchRow } from './seed-replay.js';

const PIXEL_TASKS = ['T20', 'C01', 'C02', 'C03', 'C04'];

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

async function oracleRun(surface: Surface, ids: string[]) {
  const loaded = loadServicegymBank();
  const t0 = performance.now();
  const res = await runDomainTasks({ loaded, tasks: loaded.tasks.filter((t) => ids.includes(t.id)), trials: 1, concurrency: 1, agent: 'oracle', user: 'personas', runId: 'bench-pixels', surface });
  return { res, seconds: (performance.now() - t0) / 1000 };
}

/** Frame capture+encode time per step and image bytes per T20 episode (JPEG and PNG), and API vs pixels side by side. */
export async function benchPixels(): Promise<BenchRow[]> {
  if (!hasChromium()) return [{ name: 'pixel surface', value: 'skipped (Chromium not found)' }];
  const rows: BenchRow[] = [];
  try {
    for (const format of ['jpeg', 'png'] as const) {
      const frames: Frame[] = [];
      const { res } = await oracleRun(createPixelSurface({ format, latencyMs: 0, onFrame: (f) => frames.push(f) }), ['T20']);
      const ok = res.records[0].evaluation?.reward === 1;
      const ms = frames.map((f) => f.captureMs);
      const bytes = frames.reduce((n, f) => n + f.bytes.length, 0);
      rows.push({ name: `T20 ${format.toUpperCase()} frame capture+encode per step (${frames.length} steps${ok ? '' : ', EPISODE FAILED'})`, value: `median ${quantile(ms, 0.5).toFixed(1)} ms, p90 ${quantile(ms, 0.9).toFixed(1)} ms`, ratio: `target median <= 50 ms: ${quantile(ms, 0.5) <= 50 ? 'met' : 'missed'}` });
      rows.push({ name: `T20 ${format.toUpperCase()} image bytes per episode`, value: `${(bytes / 1024).toFixed(0)} KiB (${(bytes / frames.length / 1024).toFixed(1)} KiB per frame)` });
    }
    const api = await oracleRun(apiSurface, PIXEL_TASKS);
    const px = await oracleRun(createPixelSurface(), PIXEL_TASKS);
    const score = (r: typeof api) => r.res.records.map((x) => `${x.taskId} ${x.evaluation?.reward ?? 'err'}/${x.evaluation?.partial ?? '-'}`).join(', ');
    rows.push({ name: 'oracle via API surface (reward/partial)', value: `${score(api)}; ${(api.seconds / PIXEL_TASKS.length).toFixed(3)} s per episode` });
    rows.push({ name: 'oracle via pixels (reward/partial)', value: `${score(px)}; ${(px.seconds / PIXEL_TASKS.length).toFixed(1)} s per episode`, ratio: `${(px.seconds / api.seconds).toFixed(0)}x the API time` });
  } finally {
    await closeSharedBrowser();
  }
  return rows;
}
