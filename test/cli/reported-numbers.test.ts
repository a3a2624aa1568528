/**
 * Reported numbers carry no float noise (src/util/round.ts): JSON on stdout and results files round
 * to 12 decimals, the rounding rates and differences already used, so a partial mean of 0.15 and
 * 0.55 reads 0.35, not 0.35000000000000003; the stored values stay as computed.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanFloat, cleanFloats } from '../../src/util/round.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs, writeEpisodeLogs } from '../../src/store/run-log.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

describe('cleanFloat', () => {
  it('removes the noise of sums and means, keeps integers, exact values and large magnitudes', () => {
    expect((0.15 + 0.55) / 2).toBe(0.35000000000000003);
    expect(cleanFloat((0.15 + 0.55) / 2)).toBe(0.35);
    expect(cleanFloat(0.1 + 0.2)).toBe(0.3);
    expect(cleanFloat(0.6 / 3)).toBe(0.2);
    expect(cleanFloat(1 / 3)).toBe(0.333333333333);
    expect(cleanFloat(12.600000000000001)).toBe(12.6);
    expect(cleanFloat(0.000123456)).toBe(0.000123456); // a small cost in US dollars keeps its digits
    expect(cleanFloat(-1e-15)).toBe(0);
    expect(Object.is(cleanFloat(-1e-15), 0)).toBe(true);
    for (const x of [0, 1, -3, 1e21, Number.NaN, Infinity]) expect(cleanFloat(x)).toBe(x);
  });

  it('cleanFloats copies JSON data with every number cleaned', () => {
    const data = { a: [0.1 + 0.2, 'x', null, { b: 7 * 0.05, c: true }] };
    expect(cleanFloats(data)).toEqual({ a: [0.3, 'x', null, { b: 0.35, c: true }] });
    expect(data.a[0]).toBe(0.30000000000000004); // the input is not changed
  });

  it('cleanFloats keeps a key named __proto__ as data, as JSON.parse made it', () => {
    const data = JSON.parse('{"__proto__": {"x": 0.30000000000000004}, "y": 1}');
    const out = cleanFloats(data);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"x":0.3},"y":1}');
  });
});

describe('compare-surfaces --json', () => {
  it('reports a partial mean of 0.15 and 0.55 as 0.35; the store keeps the partials as they were', async () => {
    const db = path.join(tmpDir('sg-reported-'), 'store.db');
    const ids: string[] = [];
    for (const surface of ['api', 'terminal']) {
      const r = await runCli(['validate', '--domain', 'gds', '--tasks', 'T12,G01', '--surface', surface, '--db', db, '-q', '--json']);
      expect(r.code, r.err).toBe(0);
      ids.push((JSON.parse(r.out) as { run_id: string }).run_id);
    }
    const s = RunStore.open(db);
    try {
      const partials = [0.15, 0.55];
      const changed = readEpisodeLogs(s, ids[0]).map((e, i) => (e.record.evaluation?.kind === 'task' ? { ...e.record, evaluation: { ...e.record.evaluation, reward: 0, partial: partials[i] } } : e.record));
      s.saveRun({ ...s.getRun(ids[0])!, id: 'noisy' });
      writeEpisodeLogs(s, 'noisy', changed);
    } finally {
      s.close();
    }
    const j = await runCli(['compare-surfaces', 'noisy', ids[1], '--db', db, '--json']);
    expect(j.code, j.err).toBe(0);
    expect(j.out).not.toMatch(/\d\.\d*0{6,}\d\b|\d\.\d*9{6,}\d\b/);
    const report = JSON.parse(j.out) as { common: { cells: { partial: number }[] } };
    expect(report.common.cells[0].partial).toBe(0.35);
  }, 120_000);
});
