/**
 * The runs list's size of a run: tasks × trials, and tasks × trials × personas when every task
 * played several personas — the same for `validate --personas` (one scripted episode per task and
 * persona) as for `run --personas` (k trials per task and persona), never the personas counted
 * as trials ("5 × 4" for five tasks validated with four personas).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { RunStore } from '../../src/store/store.js';
import { listRunItems } from '../../src/viewer/queries.js';
import { runSize } from '../../viewer/src/format.js';
import { runCli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';

const db = path.join(tmpDir('sg-run-size-'), 'store.db');
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ handler: (body) => (Array.isArray(body.tools) && body.tools.length ? { content: 'I cannot help with that.' } : { content: (body.messages as unknown[]).length <= 2 ? 'Please change my flight.' : '###STOP###' }) });
});
afterAll(async () => {
  await mock.close();
});

function item(id: string) {
  const store = RunStore.open(db, { readonly: true });
  try {
    return listRunItems(store).find((r) => r.id === id)!;
  } finally {
    store.close();
  }
}

describe('run size in the runs list', () => {
  it('validate with four personas on five tasks is 5 × 1 × 4 personas; without personas 5 × 1', async () => {
    const withPersonas = await runCli(['validate', '--domain', 'airline', '--personas', 'impatient,vague,contradictory,off-policy', '--db', db, '--json', '-q']);
    const v = item(JSON.parse(withPersonas.out).run_id);
    expect([v.tasks, v.episodes]).toEqual([5, 20]);
    expect(v.personas).toEqual({ count: 4, trials: 1 });
    expect(runSize(v)).toBe('5 × 1 × 4 personas');
    const plain = await runCli(['validate', '--domain', 'airline', '--db', db, '--json', '-q']);
    const p = item(JSON.parse(plain.out).run_id);
    expect(p.personas).toBeUndefined();
    expect(runSize(p)).toBe('5 × 1');
  }, 120_000);

  it('run with two trials and two personas is 2 × 2 × 2 personas, as validate counts', async () => {
    const r = await runCli(['run', '--domain', 'airline', '--tasks', 'T01,T02', '--trials', '2', '--personas', 'plain,impatient', '--base-url', mock.url, '--agent-model', 'm', '--user-model', 'm', '--db', db, '--json', '-q']);
    expect(r.code, r.err).toBe(0);
    const v = item(JSON.parse(r.out).run_id);
    expect([v.tasks, v.trials, v.episodes]).toEqual([2, 4, 8]);
    expect(v.personas).toEqual({ count: 2, trials: 2 });
    expect(runSize(v)).toBe('2 × 2 × 2 personas');
  }, 120_000);
});
