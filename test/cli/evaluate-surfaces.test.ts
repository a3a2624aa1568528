/**
 * `export-trajectories` then `evaluate` on every registered surface a domain supports: the export
 * names the surface each episode ran on (and the run's surface options), `evaluate` replays the
 * recorded calls on that surface, and every episode scores the evaluation the run stored, with
 * every recorded tool output reproduced. `--surface` replays lines that name no surface (an
 * export made before the field existed) and overrides the ones that do; an unknown surface, one
 * that cannot front the domain or the task, and bad surface options are exit 2 before any
 * trajectory is scored. Browser surfaces are skipped (with the reason) without Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { expectStoredVerdicts, exportStoredRun, type ScoredTrajectory } from '../support/export-roundtrip.js';
import { tmpDir } from '../support/paths.js';
import { CHROMIUM_NEED, lacks, needing } from '../support/needs.js';
import { loadDomain } from '../../src/domains/index.js';
import { getSurface } from '../../src/surfaces/index.js';
import { SURFACE_NAMES } from '../../src/surfaces/names.js';
import { closeSharedBrowser } from '../../src/surfaces/browser-pool.js';
import type { EpisodeRunLog } from '../../src/spec/run-log.js';

const dir = tmpDir('sg-evaluate-surfaces-');
const db = path.join(dir, 'store.db');
afterAll(async () => {
  await closeSharedBrowser();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Scored extends ScoredTrajectory {
  source: string;
}

/** The domains whose surfaces differ (JSON tools, a terminal, a web console, a pixel-streamed desktop app) and the tasks run on each. */
const DOMAINS: Record<string, string[]> = { gds: ['T12', 'G01'], banking: ['T20', 'C01'], console: ['T11', 'C01', 'C02', 'C03', 'C04', 'C05', 'C06'] };

/** The surfaces of the registry that front `domain` (the surface's own answer), with the tasks of {@link DOMAINS} they front. */
function supported(domain: string): { surface: string; tasks: string[]; browser: boolean }[] {
  const loaded = loadDomain(domain);
  return SURFACE_NAMES.flatMap((name) => {
    const s = getSurface(name);
    try {
      s.tools(loaded.domain);
    } catch {
      return [];
    }
    const tasks = DOMAINS[domain].filter((id) => !s.fronts || s.fronts(loaded.domain, loaded.tasks.find((t) => t.id === id)!));
    return tasks.length ? [{ surface: name, tasks, browser: s.browser === true }] : [];
  });
}

/** Runs the oracle on `surface` (validate stores the run), exports it and returns the stored records and the export file. */
async function runAndExport(domain: string, surface: string, tasks: string[], options: string[] = []): Promise<{ records: EpisodeRunLog[]; file: string; lines: Record<string, unknown>[] }> {
  const v = await runCli(['validate', '--domain', domain, '--surface', surface, ...options, '--tasks', tasks.join(','), '--db', db, '-j', '2', '-q', '--json']);
  expect(v.code, v.err).toBe(0);
  const runId = (JSON.parse(v.out) as { run_id: string }).run_id;
  const file = path.join(dir, `${domain}-${surface}.jsonl`);
  return { ...(await exportStoredRun(db, runId, file)), file };
}

async function evaluate(domain: string, file: string, extra: string[] = []): Promise<{ code: number; scored: Scored[]; err: string }> {
  const r = await runCli(['evaluate', file, '--domain', domain, '--json', '-q', ...extra]);
  return { code: r.code, scored: r.out ? (JSON.parse(r.out) as Scored[]) : [], err: r.err };
}

describe('run -> export-trajectories -> evaluate gives the stored verdicts on every surface a domain supports', () => {
  for (const domain of Object.keys(DOMAINS)) {
    for (const { surface, tasks, browser } of supported(domain)) {
      const needs = browser ? [CHROMIUM_NEED] : [];
      it.skipIf(lacks(...needs))(needing(`${domain} on ${surface} (${tasks.join(', ')})`, ...needs), async () => {
        const { records, file, lines } = await runAndExport(domain, surface, tasks);
        expect(lines.map((l) => l.surface)).toEqual(records.map(() => surface));
        expect(records.every((r) => r.surface === surface)).toBe(true);
        const { code, scored, err } = await evaluate(domain, file);
        expect(code, err).toBe(0);
        expectStoredVerdicts(scored, records);
      }, 600_000);
    }
  }

  it('covers the API, terminal, web and pixel surfaces', () => {
    const covered = new Set(Object.keys(DOMAINS).flatMap((d) => supported(d).map((s) => s.surface)));
    for (const name of ['api', 'terminal', 'web', 'pixels']) expect(covered).toContain(name);
  });

  it.skipIf(lacks(CHROMIUM_NEED))(needing("the run's surface options travel with the export (pixels, document=text)", CHROMIUM_NEED), async () => {
    const { records, file, lines } = await runAndExport('banking', 'pixels', ['T20'], ['--surface-option', 'document=text', '--surface-option', 'format=png']);
    expect(lines.map((l) => [l.surface, l.surface_options])).toEqual([['pixels', { document: 'text', format: 'png' }]]);
    const { code, scored, err } = await evaluate('banking', file);
    expect(code, err).toBe(0);
    expectStoredVerdicts(scored, records);
    // The call script was read as text: replayed with the default options it comes back as page images.
    const images = await evaluate('banking', file, ['--surface-option', 'document=images']);
    expect(images.code).toBe(1);
    expect(images.scored[0].tool_output_differences).toContainEqual(expect.objectContaining({ index: 0 }));
  }, 600_000);
});

describe('evaluate --surface', () => {
  it('replays lines that name no surface on --surface, and overrides the surface a line names', async () => {
    const { records, file, lines } = await runAndExport('gds', 'api', ['T12', 'G01']);
    const bare = path.join(dir, 'gds-api-bare.jsonl');
    fs.writeFileSync(bare, lines.map(({ surface: _s, ...l }) => JSON.stringify(l)).join('\n') + '\n');
    // Without a surface the dataset's own (the terminal) is used: the recorded JSON calls name no tool of it.
    const own = await evaluate('gds', bare);
    expect(own.code).toBe(1);
    expect(own.scored[0].tool_output_differences).toContainEqual(expect.objectContaining({ replayed: expect.stringMatching(/Tool '\w+' not found/) }));
    const flagged = await evaluate('gds', bare, ['--surface', 'api']);
    expect(flagged.code, flagged.err).toBe(0);
    expectStoredVerdicts(flagged.scored, records);
    const overridden = await evaluate('gds', file, ['--surface', 'terminal']);
    expect(overridden.code).toBe(1);
  }, 300_000);

  it('refuses an unknown surface, one that cannot front the domain or the task, and bad options (exit 2, nothing scored)', async () => {
    const file = path.join(dir, 'one.jsonl');
    const messages = [{ role: 'assistant', content: 'Hi! How can I help you today?' }, { role: 'user', content: 'Hello. ###STOP###' }];
    fs.writeFileSync(file, JSON.stringify({ task_id: 'T12', messages }) + '\n');
    const unknown = await evaluate('gds', file, ['--surface', 'fax']);
    expect([unknown.code, unknown.scored]).toEqual([2, []]);
    expect(unknown.err).toContain("--surface fax: unknown surface 'fax' (known: api, terminal, web, web-screenshot, pixels)");
    const noApp = await evaluate('gds', file, ['--surface', 'web']);
    expect(noApp.code).toBe(2);
    expect(noApp.err).toContain('--surface web: the gds domain does not support the web surface: it has no web app; surfaces it supports: api, terminal\n');
    const noOptions = await evaluate('gds', file, ['--surface', 'terminal', '--surface-option', 'format=png']);
    expect(noOptions.code).toBe(2);
    expect(noOptions.err).toContain('the terminal surface takes no options (given: format)');

    const lineFile = path.join(dir, 'line-surface.jsonl');
    fs.writeFileSync(lineFile, [JSON.stringify({ task_id: 'T12', surface: 'terminal', messages }), JSON.stringify({ task_id: 'G01', surface: 'fax', messages })].join('\n') + '\n');
    const bad = await evaluate('gds', lineFile);
    expect([bad.code, bad.scored]).toEqual([2, []]);
    expect(bad.err).toContain(`${lineFile}:2 at surface: unknown surface 'fax'`);
    const badOptions = path.join(dir, 'line-options.jsonl');
    fs.writeFileSync(badOptions, JSON.stringify({ task_id: 'T20', surface: 'pixels', surface_options: { format: 'gif' }, messages }) + '\n');
    const opt = await evaluate('banking', badOptions);
    expect(opt.code).toBe(2);
    expect(opt.err).toMatch(/line-options\.jsonl:1 at surface: --surface-option format: .*png.*jpeg/);
    const notString = path.join(dir, 'line-options-type.jsonl');
    fs.writeFileSync(notString, JSON.stringify({ task_id: 'T20', surface: 'pixels', surface_options: { quality: 80 }, messages }) + '\n');
    const typed = await evaluate('banking', notString);
    expect(typed.code).toBe(2);
    expect(typed.err).toContain('surface_options');

    // The pixel app fronts only some banking tasks (B01 is not one of them).
    const notFronted = path.join(dir, 'not-fronted.jsonl');
    fs.writeFileSync(notFronted, JSON.stringify({ task_id: 'B01', surface: 'pixels', messages }) + '\n');
    const nf = await evaluate('banking', notFronted);
    expect(nf.code).toBe(2);
    expect(nf.err).toContain(`${notFronted}:1: the pixels surface does not front task B01 of the banking domain`);
  }, 120_000);
});
