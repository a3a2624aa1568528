/**
 * An LLM agent (the local mock model server, scripted from the screens it is shown) drives the GDS
 * terminal end to end through `servicegym run`: it reads the availability screen to pick the first
 * line with two economy seats, sells, cancels, carries the SSR and ends. The episode is stored and
 * its screens read back through the viewer's API.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createViewerApp } from '../../../src/viewer/server.js';
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { runCli } from '../../support/cli.js';
import { tmpDir } from '../../support/paths.js';
import { startTwoRoleMock, type TwoRoleMock } from '../../support/two-role-mock.js';

let mock: TwoRoleMock;
let saved: string | undefined;

/** The agent: a fixed plan whose sell line is read off the availability screen it was shown. */
function agent(messages: any[]) {
  const tools = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
  const sent = messages.filter((m) => m.role === 'assistant' && m.tool_calls).length;
  const gds = (command: string) => ({ tool_calls: [{ name: 'gds_command', arguments: { command } }] });
  if (sent === 0) return gds('*LKJ8TQ');
  if (sent === 1) return gds('120OCTJFKORD');
  if (sent === 2) {
    const line = tools[1].split('\n').find((l) => /^\d+ XA/.test(l) && / [YBMHQ][2-9]/.test(l) && !l.includes('CNLD'));
    const m = line!.match(/^(\d+) .* ([YBMHQ])[2-9]/)!;
    return gds(`02${m[2]}${m[1]}`);
  }
  const rest = ['X1', '3WCHR/1-1.1', '6AGENT', 'E'];
  if (sent - 3 < rest.length) return gds(rest[sent - 3]);
  return { content: 'LKJ8TQ is rebooked on XA208 with the wheelchair request carried, ended with received-from AGENT; no ticket reissue.' };
}

beforeAll(async () => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = 'test-fake-key-gds-9191';
  mock = await startTwoRoleMock({ agent, user: (messages) => (messages.length <= 2 ? { content: 'XA204 20OCT JFK-ORD is cancelled; please rebook PNR LKJ8TQ per IRROPS.' } : { content: 'Thanks. ###STOP###' }) });
});
afterAll(async () => {
  await mock?.close();
  if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
  else process.env.SERVICEGYM_API_KEY = saved;
});

it('an LLM agent drives the terminal through T12 to reward 1; the screens are stored and shown', async () => {
  const db = path.join(tmpDir('sg-gds-llm-'), 'store.db');
  const r = await runCli(['run', '--domain', 'gds', '--tasks', 'T12', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.out);
  expect(out.summary.rewardMean ?? out.summary.reward_mean).toBe(1);
  // The model saw only the terminal: one tool, and screens as tool results.
  const first = mock.bodies('agent')[0];
  expect(first.tools.map((t: any) => t.function.name)).toEqual(['gds_command']);
  const uiDir = tmpDir('sg-gds-ui-');
  fs.mkdirSync(path.join(uiDir, 'assets'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html>');
  const res = await createViewerApp({ dbPath: db, uiDir, busyTimeoutMs: 200 }).request(`/api/runs/${encodeURIComponent(out.run_id)}/episodes/${encodeURIComponent('T12#0')}`);
  expect(res.status).toBe(200);
  const body = JSON.stringify(await res.json() as EpisodeDetail);
  expect(body).toContain('3 XA 208  F0 A0 J1 C0 Y0 B0 M2 H0 Q1  JFKORD 1300 1445 738');
  expect(body).toContain('OK 1400 LKJ8TQ');
});
