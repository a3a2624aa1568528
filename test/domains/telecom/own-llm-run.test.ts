/**
 * Seed task T07 on servicegym's own telecom dataset through `run` against the local mock model
 * server: the LLM agent diagnoses and instructs, the LLM user simulator calls its own phone tools
 * (requestor `user`); the stored episode read back through the viewer's API shows those calls and
 * their outputs as the customer's, and scores the seed's 100%.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createViewerApp } from '../../../src/viewer/server.js';
import type { EpisodeDetail } from '../../../src/viewer/types.js';
import { runCli } from '../../support/cli.js';
import { tmpDir } from '../../support/paths.js';
import { last, startTwoRoleMock, type TwoRoleMock } from '../../support/two-role-mock.js';

const KEY = 'test-fake-key-telecom-own-7070';
const AGENT: ({ name: string; arguments: Record<string, unknown> } | string)[] = [
  { name: 'get_customer', arguments: { customer_id: 'zoe_adams_773' } },
  { name: 'get_line', arguments: { line_id: 'L-77301' } },
  { name: 'get_plan', arguments: { plan_id: 'PL-TRAVEL' } },
  { name: 'list_bills', arguments: { customer_id: 'zoe_adams_773' } },
  'Please turn Data roaming on, reset the APN settings to default, restart the phone, and run the connection check in the Kestrel app.',
  'Your plan includes the Europe Pass 7 days for $25.00 on 503-555-0173. Shall I add it?',
  { name: 'add_roaming_pass', arguments: { line_id: 'L-77301', pass_id: 'RP-EU7' } },
  'Done: data works and the Europe Pass 7 days ($25.00) is on your line.',
];
const PHONE = [{ name: 'set_data_roaming', arguments: { enabled: true } }, { name: 'reset_apn_to_default', arguments: {} }, { name: 'restart_phone', arguments: {} }, { name: 'run_connection_check', arguments: {} }];

let mock: TwoRoleMock;
let saved: string | undefined;
let uiDir: string;

beforeAll(async () => {
  saved = process.env.SERVICEGYM_API_KEY;
  process.env.SERVICEGYM_API_KEY = KEY;
  mock = await startTwoRoleMock({
    agent: (messages) => {
      const step = AGENT[messages.filter((m: any) => m.role === 'assistant').length - 1] ?? 'Goodbye.';
      return typeof step === 'string' ? { content: step } : { tool_calls: [step] };
    },
    user: (messages) => {
      const mine = messages.filter((m: any) => m.role === 'assistant');
      const done = mine.filter((m: any) => m.tool_calls).length;
      const heard = String(last(messages).content ?? '');
      if (mine.length === 0) return { content: "Hi, I'm Zoe Adams (zoe_adams_773, born 1991-03-14). I'm in Spain and have no mobile data." };
      if (last(messages).role === 'tool' && done === PHONE.length) return { content: 'Done, the connection check passed.' };
      if (last(messages).role === 'tool' || /Data roaming on/.test(heard)) return { tool_calls: [PHONE[done]] };
      if (/Shall I add it\?/.test(heard)) return { content: 'Yes, please add it.' };
      return { content: 'Thanks! ###STOP###' };
    },
  });
  uiDir = tmpDir('sg-telecom-ui-');
  fs.mkdirSync(path.join(uiDir, 'assets'));
  fs.writeFileSync(path.join(uiDir, 'index.html'), '<!doctype html><title>view</title>');
}, 60_000);

afterAll(async () => {
  await mock?.close();
  if (saved === undefined) delete process.env.SERVICEGYM_API_KEY;
  else process.env.SERVICEGYM_API_KEY = saved;
});

it("T07 under `run`: the simulator's phone tool calls are stored and shown as the customer's; 100%", async () => {
  const db = path.join(tmpDir('sg-telecom-own-'), 'store.db');
  const r = await runCli(['run', '--domain', 'telecom', '--tasks', 'T07', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', mock.server.url, '--db', db, '-q', '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const out = JSON.parse(r.out);
  // the simulator was offered the phone tools, the agent only the account tools
  expect(mock.bodies('user')[0].tools.map((t: any) => t.function.name)).toContain('set_data_roaming');
  expect(mock.bodies('agent')[0].tools.map((t: any) => t.function.name)).not.toContain('set_data_roaming');
  const res = await createViewerApp({ dbPath: db, uiDir, busyTimeoutMs: 200 }).request(`/api/runs/${encodeURIComponent(out.run_id)}/episodes/${encodeURIComponent('T07#0')}`);
  expect(res.status).toBe(200);
  const detail = (await res.json()) as EpisodeDetail;
  const customerCalls = detail.transcript.flatMap((e) => (e.kind === 'customer' ? (e.tool_calls ?? []).map((c) => c.name) : []));
  expect(customerCalls).toEqual(PHONE.map((p) => p.name));
  const customerOutputs = detail.transcript.filter((e) => e.kind === 'tool' && e.requestor === 'user');
  expect(customerOutputs.map((e) => (e.kind === 'tool' ? e.name : ''))).toEqual(PHONE.map((p) => p.name));
  expect(customerOutputs.at(-1)).toMatchObject({ output: 'Connection check passed: test page loaded over 4G (roaming) at 60 Mbps.', error: false });
  expect(detail.transcript.filter((e) => e.kind === 'tool' && e.requestor === undefined).map((e) => (e.kind === 'tool' ? e.name : ''))).toEqual([...AGENT.filter((s) => typeof s !== 'string').map((s) => (s as { name: string }).name)]);
  expect(detail.rubric.every((item) => item.verdict === 'pass')).toBe(true);
  expect(fs.readFileSync(db).includes(KEY)).toBe(false);
});
