/**
 * A run's first model calls go out before the dataset's DB is read (issue 17: time to the first
 * model request). servicegym's airline DB is a lazily read base (`src/domains/common/lazy-db.ts`):
 * starting an episode — its view over the base, the agent's system prompt, the user simulator's
 * opening turn — reads no table, and `runDomainTasks` reads the DB (and the start state's hash)
 * once the first calls are out. The episodes are exactly those of a run over the DB read up front,
 * and a bad tau2 DB file is still an error naming the file before anything runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domains/index.js';
import { createAirlineDomain } from '../../src/domains/airline/index.js';
import { servicegymAirlineDb, servicegymAirlineTools } from '../../src/domains/airline/servicegym-dataset.js';
import { lazyTableDb } from '../../src/domains/common/lazy-db.js';
import { runDomainTasks, type DomainEpisodeRecord } from '../../src/run/task-run.js';
import { RunStore } from '../../src/store/store.js';
import { readEpisodeLogs } from '../../src/store/run-log.js';
import { BadInputError } from '../../src/spec/errors.js';
import type { LoadedDomain } from '../../src/spec/domain.js';
import type { MockHandler } from '../../src/models/mock-server.js';
import { InProcessModel } from '../support/optimizer-model.js';
import { useTempCacheDir } from '../support/cache-dir.js';
import { tmpDir } from '../support/paths.js';

/** The customer of T01 and an agent that looks the customer up twice, then answers (the scale bench's model). */
const handler = (side: 'agent' | 'user'): MockHandler => (req) => {
  const assistants = (req.messages as { role: string }[]).filter((m) => m.role === 'assistant').length;
  if (side === 'user') return { content: assistants === 0 ? "Hi, I'm Mia Lee (mia_lee_301). Please move reservation 8KQ2ZD by a day." : 'I see, thanks. ###STOP###' };
  const own = assistants - 1;
  if (own < 2) return { tool_calls: [{ id: `call_${own}`, name: own === 0 ? 'get_user_details' : 'get_reservation_details', arguments: own === 0 ? { user_id: 'mia_lee_301' } : { reservation_id: '8KQ2ZD' } }] };
  return { content: 'Your reservation 8KQ2ZD is basic economy, so it cannot be changed; it stays on its date.' };
};

/** The comparable content of a run's episodes: everything but the wall-clock fields. */
const content = (records: DomainEpisodeRecord[], store: RunStore, runId: string) => ({
  records: records.map((r) => ({ taskId: r.taskId, trial: r.trial, messages: r.episode.messages, toolLog: r.episode.toolLog, actionLog: r.episode.actionLog, termination: r.episode.termination, evaluation: { ...r.evaluation, receipts: undefined } })),
  stored: readEpisodeLogs(store, runId).map((e) => JSON.stringify(e.record, (k, v) => (k === 'elapsed_seconds' || k === 'elapsedSeconds' ? null : v))),
});

async function llmRun(loaded: LoadedDomain<any>, dir: string, onUserCall?: () => void) {
  const store = RunStore.open(path.join(dir, `${Math.random().toString(36).slice(2)}.db`));
  const user = handler('user');
  const userModel = new InProcessModel('user-5', (req, ctx) => (onUserCall?.(), user(req, ctx)));
  const res = await runDomainTasks({ loaded, tasks: loaded.tasks, trials: 2, concurrency: 4, agent: 'llm', user: 'llm', agentModel: new InProcessModel('agent-5', handler('agent')), userModel, store, runId: 'r1', keepRecords: true });
  store.flushReceipts();
  const out = content(res.records, store, 'r1');
  store.close();
  return { res, out };
}

describe("servicegym's airline DB is read once the first model calls are out", () => {
  const tempDir = useTempCacheDir('sg-deferred-');

  it('loading the dataset and starting the episodes read no DB; the run reads it, and the episodes equal a run over the DB read up front', async () => {
    const generated = () => path.join(tempDir(), 'cache', 'generated-db');
    const loaded = loadDomain('airline');
    expect(loaded.prepare).toBeTypeOf('function');
    expect(fs.existsSync(generated())).toBe(false); // neither generated nor read: this cache is empty
    const atUserCalls: boolean[] = [];
    const lazy = await llmRun(loaded, tempDir(), () => atUserCalls.push(fs.existsSync(generated())));
    expect(atUserCalls.slice(0, 4)).toEqual([false, false, false, false]); // every first-wave opening call went out before the DB was made
    expect(fs.readdirSync(generated())).toHaveLength(1); // read (here: generated and kept) during the run
    expect(lazy.res.records).toHaveLength(loaded.tasks.length * 2);
    expect(lazy.res.records.every((r) => r.episode.toolLog.length === 2 && r.episode.toolLog.every((t) => !t.error))).toBe(true);

    const eager: LoadedDomain<any> = { ...loaded, prepare: undefined, domain: createAirlineDomain({ db: servicegymAirlineDb(), policy: loaded.policy, tools: servicegymAirlineTools(), description: loaded.domain.description }) };
    const upFront = await llmRun(eager, tempDir());
    expect(lazy.out).toEqual(upFront.out);
    expect(lazy.res.summary).toEqual(upFront.res.summary);
  });

  it('validate-style episodes (oracle agent, scripted customer) score the same on the lazy DB as on the DB read up front', async () => {
    const loaded = loadDomain('airline');
    const eager: LoadedDomain<any> = { ...loaded, prepare: undefined, domain: createAirlineDomain({ db: servicegymAirlineDb(), policy: loaded.policy, tools: servicegymAirlineTools(), description: loaded.domain.description }) };
    const run = (l: LoadedDomain<any>) => runDomainTasks({ loaded: l, tasks: l.tasks, trials: 1, concurrency: 2, agent: 'oracle', user: 'personas', runId: 'v' });
    const [a, b] = [await run(loaded), await run(eager)];
    const view = (rs: DomainEpisodeRecord[]) => rs.map((r) => ({ id: r.taskId, reward: r.evaluation?.reward, breakdown: r.evaluation?.reward_breakdown, toolLog: r.episode.toolLog, hash: loaded.domain.state!.hash(r.episode.finalState) }));
    expect(view(a.records)).toEqual(view(b.records));
    expect(a.records.every((r) => r.evaluation?.reward === 1)).toBe(true);
  });

  it('a tau2 airline folder with a bad db.json is still an error naming the file, at load', () => {
    const dir = tmpDir('sg-baddb-');
    try {
      fs.writeFileSync(path.join(dir, 'db.json'), '{"flights": {}, "users": {}, "reservations": {"X": {"reservation_id": 5}}}');
      fs.writeFileSync(path.join(dir, 'tasks.json'), '[]');
      fs.writeFileSync(path.join(dir, 'policy.md'), 'policy');
      let err: unknown;
      try {
        loadDomain('airline', { dataDir: dir });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(BadInputError);
      expect(String((err as Error).message) + JSON.stringify(err)).toContain(path.join(dir, 'db.json'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a lazily read base DB', () => {
  it('reads once, on the first table access or load(); a failed read is not kept', () => {
    let reads = 0;
    let fail = true;
    const lazy = lazyTableDb<{ a: Record<string, unknown>; b: Record<string, unknown> }>(['a', 'b'], () => {
      reads++;
      if (fail) throw new Error('disk gone');
      return { a: { x: 1 }, b: {} };
    });
    expect(Object.keys(lazy.db)).toEqual(['a', 'b']);
    expect(reads).toBe(0);
    expect(() => lazy.db.a).toThrow('disk gone');
    expect(lazy.loaded()).toBe(false);
    fail = false;
    expect(lazy.db.a).toEqual({ x: 1 });
    lazy.load();
    expect(lazy.db.b).toEqual({});
    expect(reads).toBe(2);
    expect(lazy.loaded()).toBe(true);
    expect(JSON.stringify(lazy.db)).toBe('{"a":{"x":1},"b":{}}');
  });

  it('refuses a read with other tables', () => {
    const lazy = lazyTableDb<{ a: Record<string, unknown> }>(['a'], () => ({ a: {}, extra: {} }) as never);
    expect(() => lazy.load()).toThrow(/tables a,extra, expected a/);
  });
});
