/**
 * Issue 11 items 3 and 8 through `servicegym run`: over-deep tool arguments are a tool error the
 * agent sees (no crash, the run is stored and resumable), and a refused credential (401) stops
 * the run at once with the provider's reason.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Environment } from '../../src/env/environment.js';
import { loadDomain } from '../../src/domains/index.js';
import { startMockServer } from '../../src/models/mock-server.js';
import { runCli as cli } from '../support/cli.js';
import { tmpDir } from '../support/paths.js';
import { startTwoRoleMock, last } from '../support/two-role-mock.js';

const KEY = 'test-fake-key-RUN-FAULTS-7070';
let saved: string | undefined;
beforeEach(() => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = KEY;
});
afterEach(() => (saved === undefined ? delete process.env.SERVICEGYM_API_KEY : (process.env.SERVICEGYM_API_KEY = saved)));

const deep = (levels: number) => `{"reservation_id":${'['.repeat(levels)}${']'.repeat(levels)}}`;

describe('over-deep tool arguments (item 3)', () => {
  it('the environment answers a tool error; nothing recursive sees the arguments', async () => {
    const env = new Environment(loadDomain('airline').domain, { now: '2026-10-15T12:00:00' });
    const entry = await env.execute({ id: 'c1', type: 'function', function: { name: 'get_reservation_details', arguments: deep(20_000) } });
    expect(entry.error).toBe(true);
    expect(entry.output).toMatch(/nests deeper than 64 levels/);
    expect(typeof entry.arguments).toBe('string');
    const wide = await env.execute({ id: 'c2', type: 'function', function: { name: 'get_reservation_details', arguments: `{"reservation_id":"${'x'.repeat(300_000)}"}` } });
    expect(wide.error).toBe(true);
    expect(wide.output).toMatch(/characters long/);
  });

  it('run stores the episode, the agent sees the error, and --resume works', async () => {
    const mock = await startTwoRoleMock({
      agent: (messages) =>
        last(messages).role === 'tool'
          ? { content: `The tool said: ${String(last(messages).content).slice(0, 60)} ###STOP###` }
          : { tool_calls: [{ name: 'get_reservation_details', arguments: deep(8_000) }] },
      user: (messages) => (messages.length <= 2 ? { content: 'Please look at 8KQ2ZD.' } : { content: '###STOP###' }),
    });
    try {
      const db = path.join(tmpDir('sg-deep-'), 's.db');
      const flags = ['--tasks', 'T01', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json'];
      const r = await cli(['run', ...flags]);
      expect(r.err).not.toContain('internal error');
      expect([0, 1]).toContain(r.code);
      const out = JSON.parse(r.out);
      expect(out.episodes).toHaveLength(1);
      expect(out.episodes[0].infra_error).toBeNull();
      const toolReply = mock.bodies('agent').at(-1).messages.find((m: any) => m.role === 'tool');
      expect(toolReply.content).toMatch(/nests deeper than 64 levels/);
      const again = await cli(['run', ...flags, '--resume', out.run_id]);
      expect(again.err).not.toContain('internal error');
      expect([0, 1]).toContain(again.code);
    } finally {
      await mock.close();
    }
  }, 30_000);
});

describe('a refused credential stops the run (item 8)', () => {
  it('401 on the first call: one request, exit 1, the provider reason on stderr, nothing retried', async () => {
    const server = await startMockServer({ handler: () => ({ status: 401, error: 'Incorrect API key provided: sk-***abcd. You can find your API key at …' }) });
    try {
      const db = path.join(tmpDir('sg-401-'), 's.db');
      const r = await cli(['run', '--tasks', 'T01,T02,T03', '--trials', '2', '-j', '1', '--agent-model', 'a', '--user-model', 'u', '--base-url', server.url, '--db', db, '-q']);
      expect(r.code).toBe(1);
      expect(server.requests).toHaveLength(1);
      expect(r.err).toContain('the provider refused the credential');
      expect(r.err).toContain('Incorrect API key provided');
      expect(r.out).toContain('infrastructure: ');
      expect(r.out).toContain('401 Incorrect API key provided');
      expect(fs.readFileSync(db).includes(KEY)).toBe(false);
    } finally {
      await server.close();
    }
  });
});
