/**
 * Issue 11's secret scan: every live command (run, validate with a judge, campaign, optimize, and
 * a run whose calls are refused) runs with a canary key against a provider that echoes the key —
 * in an error text, in a 200 body — and a base URL carrying a credential in its query. Neither
 * the key, nor its last 8 characters, nor the URL credential appears in any output or in any
 * file the commands wrote (stores with their WAL files, journals, records, output folders).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockHandler, type MockReply, type MockServer } from '../../src/models/mock-server.js';
import { optimizerHandler } from '../support/optimizer-model.js';
import { promptSensitiveHandler } from '../support/prompt-sensitive-model.js';
import { runCli as cli } from '../support/cli.js';
import { SEED_CAMPAIGN, tmpDir } from '../support/paths.js';
import { last } from '../support/two-role-mock.js';

const KEY = 'canary-SECRET-SCAN-0123456789abcdef-key';
const URL_SECRET = 'URLCANARY987654';
const NEEDLES = [KEY, KEY.slice(-8), URL_SECRET];

const outputs: string[] = [];
let root: string;
const servers: MockServer[] = [];
const saved: Record<string, string | undefined> = {};

/** The provider echoes the credential: the first request of each server fails with it in the error text; text replies carry it in reasoning_content. */
function echoing(inner: MockHandler): MockHandler {
  return async (body, ctx) => {
    const auth = ctx.log[ctx.index].headers.authorization ?? '';
    if (ctx.index === 0) return { status: 500, error: `upstream rejected ${auth} for ${KEY}`, headers: { 'retry-after-ms': '1' } };
    const reply = (await inner(body, ctx)) as MockReply;
    if ('content' in reply && !('tool_calls' in reply)) return { ...reply, reasoning_content: `key was ${auth}` };
    return reply;
  };
}

async function serve(handler: MockHandler): Promise<string> {
  const s = await startMockServer({ handler: echoing(handler) });
  servers.push(s);
  return `${s.url}?api-key=${URL_SECRET}`;
}

async function live(args: string[]): Promise<number> {
  const r = await cli(args);
  outputs.push(r.out, r.err);
  if (process.env.SCAN_TRACE) process.stderr.write(`${args[0]} -> ${r.code}: ${r.err.slice(0, 300)}\n`);
  expect(r.err).not.toContain('internal error');
  return r.code;
}

beforeAll(() => {
  for (const k of ['SERVICEGYM_API_KEY', 'SERVICEGYM_BASE_URL']) saved[k] = process.env[k];
  process.env.SERVICEGYM_API_KEY = KEY;
  root = tmpDir('sg-secret-scan-');
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  for (const [k, v] of Object.entries(saved)) (v === undefined ? delete process.env[k] : (process.env[k] = v));
});

const twoRole: MockHandler = (body) => {
  if (body.model === 'mock-user') return body.messages.length <= 2 ? { content: 'Hi, I am Mia Lee, user id mia_lee_301. Move 8KQ2ZD please.' } : { content: '###STOP###' };
  if (body.model === 'mock-judge') return { content: JSON.stringify({ results: [] }) };
  return last(body.messages).role === 'tool' ? { content: 'Basic economy cannot be changed.' } : { tool_calls: [{ name: 'get_reservation_details', arguments: { reservation_id: '8KQ2ZD' } }] };
};

describe('secret scan with a canary key', () => {
  it('run (text and --json), run --resume, validate --judge-model', async () => {
    const url = await serve(twoRole);
    const db = path.join(root, 'run', 's.db');
    const flags = ['--tasks', 'T01,T03', '--agent-model', 'mock-agent', '--user-model', 'mock-user', '--base-url', url, '--db', db, '-q'];
    expect(await live(['run', ...flags])).toBe(0);
    const code = await live(['run', ...flags, '--json']);
    expect(code).toBe(0);
    const runId = JSON.parse(outputs.at(-2)!).run_id;
    expect(await live(['run', ...flags, '--resume', runId])).toBe(0);
    process.env.SERVICEGYM_BASE_URL = url;
    expect(await live(['validate', '--tasks', 'T01', '--judge-model', 'mock-judge', '--db', db, '-q', '--json'])).toBe(0);
    delete process.env.SERVICEGYM_BASE_URL;
  }, 120_000);

  it('campaign (journal, record, store)', async () => {
    const url = await serve(promptSensitiveHandler());
    const dir = path.join(root, 'campaign');
    fs.cpSync(SEED_CAMPAIGN, path.join(dir, 'c'), { recursive: true });
    const code = await live(['campaign', path.join(dir, 'c'), '--model', 'gpt-4.1-mini', '--base-url', url, '--db', path.join(dir, 's.db'), '--receipts', path.join(dir, 'r.jsonl'), '--out', path.join(dir, 'record.json'), '--work-dir', path.join(dir, 'w'), '-q']);
    expect(code).toBe(0);
    expect(await live(['campaign', path.join(dir, 'c'), '--model', 'gpt-4.1-mini', '--base-url', url, '--json', '--no-store', '--receipts', path.join(dir, 'r2.jsonl'), '--work-dir', path.join(dir, 'w2'), '-q'])).toBe(0);
  }, 180_000);

  it('optimize (journal, releases, record, store) and prompts', async () => {
    const url = await serve(optimizerHandler());
    const dir = path.join(root, 'optimize');
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'optimize.json');
    fs.writeFileSync(file, JSON.stringify({ name: 'scan', seed: 1, suite: { kind: 'campaign', dir: SEED_CAMPAIGN }, models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' } }, output_dir: 'out', store: 's.db' }));
    expect(await live(['optimize', file, '--base-url', url, '-q'])).toBe(0);
    expect(await live(['optimize', file, '--base-url', url, '-q', '--resume', '--json'])).toBe(0);
    expect(await live(['prompts', '--db', path.join(dir, 's.db'), '--json'])).toBe(0);
  }, 300_000);

  it('a provider that refuses the key and echoes it', async () => {
    const s = await startMockServer({ handler: (_b, ctx) => ({ status: 401, error: `Incorrect API key provided: ${ctx.log.at(-1)!.headers.authorization} (${KEY.slice(-8)})` }) });
    servers.push(s);
    const db = path.join(root, 'refused', 's.db');
    for (const extra of [[], ['--json']]) {
      expect(await live(['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'u', '--base-url', `${s.url}?api-key=${URL_SECRET}`, '--db', db, '-q', ...extra])).toBe(1);
    }
    const bad = await cli(['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'u', '--base-url', `http://user:${URL_SECRET}@127.0.0.1:9/v1`, '--db', db, '-q']);
    outputs.push(bad.out, bad.err);
    expect(bad.code).toBe(2);
  }, 60_000);

  it('finds the key, its tail and the URL credential in no output and no written file', () => {
    expect(outputs.length).toBeGreaterThan(10);
    for (const needle of NEEDLES) for (const text of outputs) expect(text.includes(needle), `an output holds ${needle}`).toBe(false);
    const files = fs.readdirSync(root, { recursive: true }).map((f) => path.join(root, String(f))).filter((f) => fs.statSync(f).isFile());
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) {
      const bytes = fs.readFileSync(f);
      for (const needle of NEEDLES) expect(bytes.includes(Buffer.from(needle)), `${f} holds ${needle}`).toBe(false);
    }
  });
});
