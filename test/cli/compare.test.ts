/** `servicegym compare A B`: the per-task changes and the noise verdict from the store, as text and JSON. */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli as cli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { fillViewerStore, type ViewerStore } from '../support/viewer-store.js';

let s: ViewerStore;
beforeAll(async () => {
  s = await fillViewerStore(tmpDir('sg-compare-'));
}, 120_000);

describe('servicegym compare', () => {
  it('prints the changes and which exceed run-to-run noise', async () => {
    const r = await cli(['compare', s.faultyId, s.validateId, '--db', s.db]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^T15\s+fixed\s+0\/2\s+1\/1\s+within \(p 0\.333\)/m);
    expect(r.out).toContain('changes: fixed 3, broken 0, unchanged 2, added 0, removed 0');
    expect(r.out).toMatch(/^pass\^1 over 5 common tasks: A \d\.\d{3} → B 1\.000, Δ \+\d\.\d{3} \(95% CI \[[-+]\d\.\d{3}, [-+]\d\.\d{3}\], bootstrap over tasks\): (beyond|within) run-to-run noise$/m);
    expect(r.out).toContain('tasks changed beyond noise (Fisher exact p < 0.05): none');
    const j = JSON.parse((await cli(['compare', s.faultyId, s.validateId, '--db', s.db, '--json'])).out);
    expect(j.noise.tasks).toBe(5);
    expect(j.rows.find((x: any) => x.key === 'T15').noise).toEqual({ p: 0.333333333333, beyond_noise: false });
  });

  it('names a run that is not in the store, or a missing store (exit 2)', async () => {
    const r = await cli(['compare', s.faultyId, 'nope', '--db', s.db]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("no run 'nope' in the store");
    expect((await cli(['compare', 'a', 'b', '--db', path.join(tmpDir(), 'none.db')])).code).toBe(2);
  });
});
