/**
 * merge-shards of a run one of whose shards stopped early (`--max-cost`): the merged run says it
 * stopped, with every shard's not-started episodes, whichever order the stores are given in (the
 * viewer shows it `stopped`, not `complete`). Against the local mock model server.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isolatedModelEnv } from '../support/model-env.js';
import { startMockServer, type MockServer } from '../../src/models/mock-server.js';
import { runStatus } from '../../src/viewer/run-status.js';
import { last } from '../support/two-role-mock.js';
import { tmpDir } from '../support/paths.js';
import { runCli as cli } from '../support/cli.js';

const AGENT = 'agent-merge-halted';
const USER = 'user-merge-halted';

/** A short T01 conversation: the user asks, the agent looks up and answers, the user stops. */
function reply(body: any) {
  const messages = body.messages as any[];
  if (body.model === USER) return messages.length <= 2 ? { content: "Hi, I'm Mia Lee (mia_lee_301). Please move 8KQ2ZD to 2026-10-21." } : { content: 'Thanks. ###STOP###' };
  const calls = messages.filter((m) => m.role === 'assistant' && m.tool_calls).length;
  if (last(messages).role === 'user' && calls === 0) return { tool_calls: [{ name: 'get_user_details', arguments: { user_id: 'mia_lee_301' } }] };
  return { content: 'Reservation 8KQ2ZD cannot be changed.' };
}

let mock: MockServer;
isolatedModelEnv({ SERVICEGYM_API_KEY: 'test-fake-key-merge-halted' });
beforeEach(async () => {
  mock = await startMockServer({ handler: reply, cost: 0.002 });
});
afterEach(async () => {
  await mock.close();
});

function summaryOf(db: string, runId: string): Record<string, any> {
  const q = new Database(db, { readonly: true });
  try {
    return JSON.parse((q.prepare('SELECT summary FROM runs WHERE id = ?').get(runId) as { summary: string }).summary);
  } finally {
    q.close();
  }
}

describe('merge-shards of a run with a stopped shard', () => {
  it('the merged run is stopped, with the not-started episodes of every shard, in either order', async () => {
    const dir = tmpDir('sg-merge-halted-');
    const flags = ['--tasks', 'T01,T02', '--trials', '2', '-j', '1', '--run-id', 'sh', '--agent-model', AGENT, '--user-model', USER, '--base-url', mock.url, '-q'];
    const s1 = path.join(dir, 's1.db');
    const s2 = path.join(dir, 's2.db');
    expect((await cli(['run', ...flags, '--shard', '1/2', '--db', s1])).code).toBe(0);
    const stopped = await cli(['run', ...flags, '--shard', '2/2', '--max-cost', '0.001', '--db', s2]);
    expect(stopped.code).toBe(1);
    const reason = summaryOf(s2, 'sh').halted.reason as string;
    expect(summaryOf(s2, 'sh').halted).toEqual({ reason, not_started: 1 });
    for (const [name, order] of [['a.db', [s1, s2]], ['b.db', [s2, s1]]] as const) {
      const out = path.join(dir, name);
      const m = await cli(['merge-shards', '--db', out, ...order]);
      expect(m.code, m.err).toBe(0);
      const merged = summaryOf(out, 'sh');
      expect([name, merged.halted]).toEqual([name, { reason, not_started: 1 }]);
      expect(merged.episodes).toBe(3);
      expect(runStatus('run', merged, false)).toBe('stopped');
    }
  }, 60_000);
});
