/**
 * `servicegym compare-surfaces`: the same back-end tasks on two surfaces side by side. Banking's
 * call-script tasks (seed T20 and C01-C04) validated on the API surface and on the pixel surface
 * (Chromium; skipped without it) give, per task, the successes, reward, partial, steps, wall
 * seconds and image bytes of each, computed here again from the stored records; a run whose T20
 * failed is named as a disagreement. Without a browser: the GDS tasks on the API and terminal
 * surfaces, and the refusals (one run, an unknown run, runs of different domains).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs, writeEpisodeLogs } from '../../src/store/run-log.js';
import type { EpisodeRunLog } from '../../src/spec/run-log.js';
import { compareSurfaces, type SurfaceComparison } from '../../src/evaluation/surface-comparison.js';
import { compareSurfacesText } from '../../src/cli/compare-surfaces.js';
import { closeSharedBrowser } from '../../src/surfaces/browser-pool.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';

const PIXEL_TASKS = ['C01', 'C02', 'C03', 'C04', 'T20'];
const db = path.join(tmpDir('sg-compare-surfaces-'), 'store.db');

afterAll(async () => {
  await closeSharedBrowser();
});

async function validate(args: string[]): Promise<string> {
  const r = await runCli(['validate', '--db', db, '-q', '--json', ...args]);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as { run_id: string }).run_id;
}

function records(runId: string): EpisodeRunLog[] {
  const s = RunStore.open(db, { readonly: true });
  try {
    return readEpisodeLogs(s, runId).map((e) => e.record);
  } finally {
    s.close();
  }
}

async function compare(ids: string[]): Promise<{ text: string; json: SurfaceComparison }> {
  const t = await runCli(['compare-surfaces', ...ids, '--db', db]);
  expect(t.code, t.err).toBe(0);
  const j = await runCli(['compare-surfaces', ...ids, '--db', db, '--json']);
  expect(j.code, j.err).toBe(0);
  return { text: t.out, json: JSON.parse(j.out) as SurfaceComparison };
}

/** What the report must say of one episode, computed from the record independently. */
function expected(r: EpisodeRunLog) {
  const images = r.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === 'image_url');
  return {
    steps: r.tool_calls.filter((t) => t.requestor === 'assistant').length,
    images: images.length,
    image_bytes: images.reduce((n, p) => n + Buffer.from((p as { image_url: { url: string } }).image_url.url.split(',')[1], 'base64').length, 0),
    seconds: r.timings.elapsed_seconds,
  };
}

describe('compare-surfaces', () => {
  it('puts the GDS tasks on the API and terminal surfaces side by side; refuses what it cannot compare', async () => {
    const terminal = await validate(['--domain', 'gds', '--tasks', 'T12,G01']);
    const api = await validate(['--domain', 'gds', '--tasks', 'T12,G01', '--surface', 'api']);
    const { text, json } = await compare([api, terminal]);
    expect(json.runs.map((r) => [r.id, r.surface, r.domain])).toEqual([[api, 'api', 'gds'], [terminal, 'terminal', 'gds']]);
    expect(json.tasks.map((t) => t.task)).toEqual(['G01', 'T12']);
    for (const t of json.tasks) for (const c of t.cells) expect([c!.passed, c!.episodes, c!.reward, c!.partial, c!.image_bytes]).toEqual([1, 1, 1, 1, 0]);
    // On the API the oracle calls the host's four operations (sell, cancel, SSR, end transaction);
    // on the terminal it types seven entries with the same effect.
    expect(json.tasks.find((t) => t.task === 'T12')!.cells.map((c) => c!.steps)).toEqual([4, 7]);
    expect(json.disagreements).toEqual([]);
    expect(text).toContain('A api passed');
    expect(text).toContain('B terminal passed');
    expect(text).toMatch(/^all 2 common/m);
    expect(text).toContain('the surfaces agree on every task');

    const one = await runCli(['compare-surfaces', api, '--db', db]);
    expect([one.code, one.err]).toEqual([2, 'servicegym: error: give at least two run ids\n']);
    const unknown = await runCli(['compare-surfaces', api, 'no-such-run', '--db', db]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("no run 'no-such-run' in the store");
    const airline = await validate(['--domain', 'airline', '--tasks', 'T01']);
    const other = await runCli(['compare-surfaces', api, airline, '--db', db]);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/are not of the same domain and dataset/);
  }, 300_000);

  it('orders tasks naturally (T2 before T10) and notes when one run was scored with --strict and the other not', async () => {
    const api = await validate(['--domain', 'gds', '--tasks', 'T12,G01', '--surface', 'api']);
    const strict = await validate(['--domain', 'gds', '--tasks', 'T12,G01', '--strict']);
    const { text, json } = await compare([api, strict]);
    expect(json.runs.map((r) => r.strict)).toEqual([false, true]);
    expect(json.notes).toEqual([`strict evaluation differs: ${strict} scored with --strict (ACTION in every reward basis), ${api} without; rewards may differ by the rules, not the surface (run both with or without --strict)`]);
    expect(text).toContain(`note: ${json.notes[0]}`);
    expect(text).toContain(`B terminal: run ${strict} (strict)`);
    const same = await compare([api, await validate(['--domain', 'gds', '--tasks', 'T12,G01'])]);
    expect(same.json.notes).toEqual([]);
    expect(same.text).not.toContain('note:');
    // Task ids with numbers of different lengths: natural order, as the viewer's matrix.
    const renamed = (id: string) => records(id).map((r) => ({ ...r, task: { ...r.task, id: r.task.id === 'T12' ? 'T10' : 'T2' } }));
    const v = compareSurfaces([{ id: api, episodes: renamed(api) }, { id: strict, episodes: renamed(strict) }]);
    expect(v.tasks.map((t) => t.task)).toEqual(['T2', 'T10']);
    expect(compareSurfacesText(v).split('\n').filter((l) => /^T\d/.test(l)).map((l) => l.split(/\s+/)[0])).toEqual(['T2', 'T10']);
  }, 300_000);

  it.skipIf(lacks(CHROMIUM_NEED))(needing('puts banking T20 and C01-C04 on the API and pixel surfaces side by side', CHROMIUM_NEED), async () => {
    const api = await validate(['--domain', 'banking', '--tasks', PIXEL_TASKS.join(',')]);
    const pixels = await validate(['--domain', 'banking', '--surface', 'pixels', '--surface-option', 'latency_ms=0']);
    const { text, json } = await compare([api, pixels]);
    expect(json.runs.map((r) => r.surface)).toEqual(['api', 'pixels']);
    expect(json.tasks.map((t) => t.task)).toEqual(PIXEL_TASKS);
    expect(json.common.tasks).toBe(5);
    const stored = [records(api), records(pixels)];
    for (const row of json.tasks) {
      row.cells.forEach((c, i) => {
        const rec = stored[i].find((r) => r.task.id === row.task)!;
        const want = expected(rec);
        expect([c!.passed, c!.episodes, c!.reward, c!.partial], `${row.task} on ${json.runs[i].surface}`).toEqual([1, 1, 1, 1]);
        expect({ steps: c!.steps, images: c!.images, image_bytes: c!.image_bytes, seconds: c!.seconds }).toEqual(want);
        expect(c!.seconds).toBeGreaterThan(0);
      });
      // The API agent receives no image; the pixel agent only images (the call script's page and ~50 frames).
      expect(row.cells[0]!.image_bytes).toBe(0);
      expect(row.cells[1]!.images).toBeGreaterThan(20);
      expect(row.cells[1]!.steps).toBeGreaterThan(row.cells[0]!.steps!);
    }
    expect(json.disagreements).toEqual([]);
    expect(text).toMatch(/^B pixels: success 5\/5 \(100\.0%\), partial 100\.0%; [\d.]+x the time and [\d.]+x the steps of A api$/m);

    // A run whose T20 failed (the fee waived for a Standard customer: 65%) is a disagreement.
    const s = RunStore.open(db);
    try {
      const bad = readEpisodeLogs(s, api).map((e) => (e.record.task.id === 'T20' && e.record.evaluation?.kind === 'task' ? { ...e.record, evaluation: { ...e.record.evaluation, reward: 0, partial: 0.65 } } : e.record));
      s.saveRun({ ...s.getRun(api)!, id: 'api-fee-waived' });
      writeEpisodeLogs(s, 'api-fee-waived', bad);
    } finally {
      s.close();
    }
    const off = await compare(['api-fee-waived', pixels]);
    expect(off.json.disagreements).toEqual(['T20']);
    expect(off.json.common.cells.map((c) => c.passed)).toEqual([4, 5]);
    expect(off.text).toMatch(/^T20 \*\s+0\/1\s+0\.000\s+65\.0%/m);
    expect(off.text).toContain('surfaces disagree on 1 task(s) (marked *): T20');
  }, 900_000);
});
