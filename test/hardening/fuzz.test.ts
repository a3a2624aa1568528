/**
 * Issue 11's fuzz pass: generated malformed inputs of every kind the CLI reads — experiment records,
 * campaign folders, optimise configs, tau2 task files and DBs, canary traffic files and canary
 * output folders, optimise journals (trajectories) — and malformed model responses. Zero crashes
 * (never exit 70), exit codes as the README says (0, 1, 2), and every bad-input message (exit 2)
 * names the file and a JSON path. Mutations are drawn from a seeded generator, so a failure names
 * a repeatable case.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type MockReply, type MockServer } from '../../src/models/mock-server.js';
import { optimizerHandler } from '../support/optimizer-model.js';
import { runCli as cli } from '../support/cli.js';
import { HAS_SHARED, needsShared, SEED_CAMPAIGN, SEED_RECORD, SHARED, tmpDir } from '../support/paths.js';
import { Rng } from '../../src/util/rng.js';

/** The project's seeded generator (`src/util/rng.ts`) as a function. */
function rng(seed: number): () => number {
  const r = new Rng(seed);
  return () => r.next();
}

type Json = any;
const WRONG: Json[] = [null, 42, -1, 1e308, 'text', '', true, [], {}, [1, 'a'], { unexpected: 1 }, '../../etc/passwd', 'x'.repeat(5000)];

/** A random path into `doc` (random descent, up to 6 levels), as keys. */
function randomPath(doc: Json, r: () => number): (string | number)[] {
  const out: (string | number)[] = [];
  let cur = doc;
  for (let d = 0; d < 6 && cur && typeof cur === 'object'; d++) {
    const keys: (string | number)[] = Array.isArray(cur) ? cur.map((_, i) => i) : Object.keys(cur);
    if (!keys.length || (d > 0 && r() < 0.3)) break;
    const k = keys[Math.floor(r() * keys.length)];
    out.push(k);
    cur = cur[k as never];
  }
  return out;
}

/** One structural or textual mutation of `doc` (serialised as `text`): the bytes to write and what was done. */
function mutate(doc: Json, r: () => number): { bytes: Buffer; what: string } {
  const op = Math.floor(r() * 10);
  const text = JSON.stringify(doc, null, 1);
  if (op === 0) {
    const at = Math.floor(r() * text.length);
    return { bytes: Buffer.from(text.slice(0, at)), what: `truncated at ${at}` };
  }
  if (op === 1) return { bytes: Buffer.from(['', '   ', 'null', '[]', '{}', '"x"', '{"a":', '\u0000'][Math.floor(r() * 8)]), what: 'a degenerate document' };
  if (op === 2) {
    const b = Buffer.from(text);
    const at = Math.floor(r() * b.length);
    b[at] = 0xff;
    return { bytes: b, what: `invalid UTF-8 at ${at}` };
  }
  const copy = structuredClone(doc);
  const p = randomPath(copy, r);
  if (!p.length) return { bytes: Buffer.from(JSON.stringify(WRONG[Math.floor(r() * WRONG.length)])), what: 'root replaced' };
  const parent = p.slice(0, -1).reduce((o: Json, k) => o[k], copy);
  const key = p[p.length - 1];
  if (op === 3) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key];
    return { bytes: Buffer.from(JSON.stringify(copy)), what: `deleted ${p.join('.')}` };
  }
  if (op === 4) {
    let deep: Json = 1;
    for (let i = 0; i < 3000; i++) deep = [deep];
    parent[key] = deep;
    return { bytes: Buffer.from(JSON.stringify(copy)), what: `3000-deep array at ${p.join('.')}` };
  }
  if (op === 5 && !Array.isArray(parent)) {
    parent[`unexpected_${Math.floor(r() * 100)}`] = 1;
    return { bytes: Buffer.from(JSON.stringify(copy)), what: `unknown key beside ${p.join('.')}` };
  }
  const v = WRONG[Math.floor(r() * WRONG.length)];
  parent[key] = v;
  return { bytes: Buffer.from(JSON.stringify(copy)), what: `${p.join('.')} = ${JSON.stringify(v).slice(0, 30)}` };
}

interface Outcome {
  case: string;
  code: number;
  err: string;
}
const outcomes: Outcome[] = [];
let modelCases = 0;

/** Runs `args`, records the outcome, and checks the README's promises on it. */
async function check(label: string, file: string, args: string[]): Promise<void> {
  const r = await cli(args);
  outcomes.push({ case: label, code: r.code, err: r.err });
  expect(r.err, label).not.toContain('internal error');
  expect([0, 1, 2], `${label}: exit ${r.code}\n${r.err}`).toContain(r.code);
  if (r.code === 2) {
    expect(r.err, `${label}: the message names the file: ${r.err}`).toContain(path.basename(file));
    expect(r.err, `${label}: the message names a JSON path: ${r.err}`).toMatch(/\$(?:[.[]|\b|:| )/);
  }
}

const KEY = 'test-fake-key-FUZZ-6060';
let server: MockServer;
let optDir: string;
const savedEnv: Record<string, string | undefined> = {};

beforeAll(async () => {
  for (const k of ['SERVICEGYM_API_KEY', 'SERVICEGYM_BASE_URL']) savedEnv[k] = process.env[k];
  process.env.SERVICEGYM_API_KEY = KEY;
  server = await startMockServer({ handler: optimizerHandler() });
  process.env.SERVICEGYM_BASE_URL = server.url;
  optDir = tmpDir('sg-fuzz-opt-');
  fs.writeFileSync(
    path.join(optDir, 'optimize.json'),
    JSON.stringify({ name: 'fuzz', seed: 1, suite: { kind: 'campaign', dir: SEED_CAMPAIGN }, models: { agent: { model: 'mock-model', temperature: 0 }, proposer: { model: 'mock-model' } }, output_dir: 'out', store: 'db/servicegym.db' }),
  );
  const r = await cli(['optimize', path.join(optDir, 'optimize.json'), '-q']);
  expect(r.code).toBe(0);
}, 180_000);

afterAll(async () => {
  await server?.close();
  for (const [k, v] of Object.entries(savedEnv)) (v === undefined ? delete process.env[k] : (process.env[k] = v));
  // At least 200 malformed inputs and 50 malformed model responses were tried (with the peer data).
  if (HAS_SHARED) {
    expect(outcomes.length - modelCases).toBeGreaterThanOrEqual(200);
    expect(modelCases).toBeGreaterThanOrEqual(50);
  }
});

describe('fuzzed input files', () => {
  it('experiment records (import-record)', async () => {
    const base = JSON.parse(HAS_SHARED ? fs.readFileSync(SEED_RECORD, 'utf8') : (await cli(['replay', '--json', '--no-store', '-q', '--work-dir', tmpDir('sg-w-')])).out);
    const r = rng(1);
    const dir = tmpDir('sg-fuzz-rec-');
    for (let i = 0; i < 40; i++) {
      const m = mutate(base, r);
      const file = path.join(dir, `record-${i}.json`);
      fs.writeFileSync(file, m.bytes);
      await check(`record ${i}: ${m.what}`, file, ['import-record', file, '--out', path.join(dir, `out-${i}`)]);
    }
  }, 120_000);

  it('campaign folders (replay)', async () => {
    const r = rng(2);
    const spec = JSON.parse(fs.readFileSync(path.join(SEED_CAMPAIGN, 'campaign.json'), 'utf8'));
    const cases = JSON.parse(fs.readFileSync(path.join(SEED_CAMPAIGN, 'cases.json'), 'utf8'));
    for (let i = 0; i < 40; i++) {
      const dir = tmpDir('sg-fuzz-camp-');
      fs.cpSync(SEED_CAMPAIGN, dir, { recursive: true });
      const which = i % 3 === 2 ? 'cases.json' : 'campaign.json';
      const m = mutate(which === 'cases.json' ? cases : spec, r);
      fs.writeFileSync(path.join(dir, which), m.bytes);
      await check(`campaign ${i} ${which}: ${m.what}`, which, ['replay', dir, '--no-store', '-q', '--work-dir', tmpDir('sg-w-')]);
    }
  }, 300_000);

  it('optimise configs (optimize --dry-run)', async () => {
    const r = rng(3);
    const base = { name: 'fz', seed: 3, suite: { kind: 'campaign', dir: SEED_CAMPAIGN }, roles: { feedback: 0.4, sealed: 0.2 }, models: { agent: { model: 'm', temperature: 0 } }, budget: { max_rollouts: 300 }, output_dir: 'out' };
    const dir = tmpDir('sg-fuzz-cfg-');
    for (let i = 0; i < 40; i++) {
      const m = mutate(base, r);
      const file = path.join(dir, `config-${i}.json`);
      fs.writeFileSync(file, m.bytes);
      await check(`config ${i}: ${m.what}`, file, ['optimize', file, '--dry-run']);
    }
  }, 120_000);

  it.skipIf(!HAS_SHARED)(needsShared('tau2 task files and DBs (validate --data-dir)'), async () => {
    const src = path.join(SHARED, 'peers', 'tau2', 'airline');
    const tasks = JSON.parse(fs.readFileSync(path.join(src, 'tasks.json'), 'utf8')).slice(0, 2);
    const db = JSON.parse(fs.readFileSync(path.join(src, 'db.json'), 'utf8'));
    const r = rng(4);
    for (let i = 0; i < 45; i++) {
      const dir = tmpDir('sg-fuzz-tau2-');
      fs.copyFileSync(path.join(src, 'policy.md'), path.join(dir, 'policy.md'));
      const which = i < 30 ? 'tasks.json' : 'db.json';
      const m = mutate(which === 'tasks.json' ? tasks : db, r);
      fs.writeFileSync(path.join(dir, which), m.bytes);
      if (which === 'tasks.json') fs.copyFileSync(path.join(src, 'db.json'), path.join(dir, 'db.json'));
      else fs.writeFileSync(path.join(dir, 'tasks.json'), JSON.stringify(tasks));
      await check(`tau2 ${i} ${which}: ${m.what}`, which, ['validate', '--domain', 'airline', '--data-dir', dir, '--no-store', '-q']);
    }
  }, 600_000);

  it('canary traffic files and canary folders (canary)', async () => {
    const r = rng(5);
    const good = Array.from({ length: 30 }, (_, i) => ({ id: `c${i}`, success: i % 7 !== 0 }));
    for (let i = 0; i < 30; i++) {
      const dir = tmpDir('sg-fuzz-canary-');
      fs.cpSync(path.join(optDir, 'out'), path.join(dir, 'out'), { recursive: true });
      const traffic = path.join(dir, 'traffic.jsonl');
      if (i < 20) {
        const lines = good.map((e) => JSON.stringify(e));
        const m = mutate(good[i % good.length], r);
        lines[Math.floor(r() * lines.length)] = m.bytes.toString('latin1').replace(/\n/g, ' ');
        fs.writeFileSync(traffic, lines.join('\n') + '\n');
        await check(`canary traffic ${i}: ${m.what}`, traffic, ['canary', path.join(dir, 'out'), '--episodes', traffic, '--stable-rate', '0.9', '--min-episodes', '10']);
      } else {
        fs.writeFileSync(traffic, good.map((e) => JSON.stringify(e)).join('\n') + '\n');
        const recFile = path.join(dir, 'out', 'record.json');
        const m = mutate(JSON.parse(fs.readFileSync(recFile, 'utf8')), r);
        fs.writeFileSync(recFile, m.bytes);
        await check(`canary record ${i}: ${m.what}`, recFile, ['canary', path.join(dir, 'out'), '--episodes', traffic, '--stable-rate', '0.9', '--min-episodes', '10']);
      }
    }
  }, 300_000);

  it('optimise journals: trajectories (optimize --resume)', async () => {
    const r = rng(6);
    const lines = fs.readFileSync(path.join(optDir, 'out', 'events.jsonl'), 'utf8').split('\n').filter(Boolean);
    const rollouts = lines.map((l, i) => [JSON.parse(l), i] as const).filter(([e]) => e.type === 'rollout');
    for (let i = 0; i < 20; i++) {
      const dir = tmpDir('sg-fuzz-journal-');
      fs.cpSync(optDir, dir, { recursive: true });
      const [event, at] = rollouts[Math.floor(r() * rollouts.length)];
      const m = mutate(event, r);
      const copy = [...lines];
      copy[at] = m.bytes.toString('latin1').replace(/\n/g, ' ');
      const journal = path.join(dir, 'out', 'events.jsonl');
      fs.writeFileSync(journal, copy.join('\n') + '\n');
      await check(`journal ${i}: ${m.what}`, journal, ['optimize', path.join(dir, 'optimize.json'), '--resume', '--no-store', '-q']);
    }
  }, 600_000);
});

describe('malformed model responses', () => {
  const bodies: unknown[] = [
    null, 42, 'text', [], {}, { choices: null }, { choices: [] }, { choices: {} }, { choices: [null] }, { choices: [{}] },
    { choices: [{ message: null }] }, { choices: [{ message: {} }] }, { choices: [{ message: { role: 'assistant', content: 42 } }] },
    { choices: [{ message: { role: 'assistant', content: ['a'] } }] }, { choices: [{ message: { role: 'user', content: 'hi' } }] },
    { choices: [{ message: { role: 'assistant', content: null } }] }, { choices: [{ message: { role: 'assistant', content: '' } }] },
    { choices: [{ message: { role: 'assistant', content: 'x'.repeat(200_000) } }] },
    { choices: [{ message: { role: 'assistant', content: 'ok', tool_calls: null } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [null] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{}] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ type: 'function', function: { name: 'get_user_details', arguments: '{}' } }] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 42, arguments: '{}' } }] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_user_details', arguments: { user_id: 'x' } } }] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_user_details' } }] } }] },
    { choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'no_such_tool', arguments: '{}' } }] } }] },
    { choices: [{ message: { role: 'assistant', content: 'both', tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_user_details', arguments: '{"user_id":"mia_lee_301"}' } }] } }] },
    { choices: [{ finish_reason: 'length', message: { role: 'assistant', content: 'cut' } }] },
    { choices: [{ message: { role: 'assistant', content: 'a' } }, { message: { role: 'assistant', content: 'b' } }] },
    { id: 1, choices: [{ message: { role: 'assistant', content: 'ok' } }], usage: 'lots' },
    { choices: [{ message: { role: 'assistant', content: 'ok' } }], usage: { prompt_tokens: -5, completion_tokens: 'x' } },
    { choices: [{ message: { role: 'assistant', content: 'ok' } }], usage: { prompt_tokens: 1e300, completion_tokens: 1e300, total_tokens: 1e300, cost: -1 } },
    { error: { message: 'in a 200' } },
    { choices: [{ message: { role: 'assistant', content: 'ok', extra: { deep: [[[[[[[[1]]]]]]]] } } }] },
  ];
  const argStrings = [
    '', ' ', '{', 'null', '[]', '42', '"s"', '{"user_id":null}', '{"user_id":42}', '{"user_id":"x","extra":1}',
    `{"user_id":${'['.repeat(5000)}${']'.repeat(5000)}}`, `{"a":${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}}`, `{"user_id":"${'y'.repeat(400_000)}"}`,
    '{"user_id":"\\ud800"}', '{"__proto__":{"polluted":true},"user_id":"mia_lee_301"}', '{"user_id":"mia_lee_301"}{"again":1}',
  ];
  for (const args of argStrings) {
    bodies.push({ choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'get_user_details', arguments: args } }] } }] });
  }
  bodies.push(...Array.from({ length: 5 }, (_, i) => ({ choices: [{ message: { role: 'assistant', content: null, tool_calls: Array.from({ length: 50 * (i + 1) }, (_, k) => ({ id: `t${k}`, type: 'function', function: { name: 'get_user_details', arguments: '{"user_id":"mia_lee_301"}' } })) } }] })));

  it(`${bodies.length} malformed responses: no crash, exit 0 or 1, no hang`, async () => {
    expect(bodies.length).toBeGreaterThanOrEqual(50);
    for (const [i, body] of bodies.entries()) {
      let userTurns = 0;
      let agentTurns = 0;
      const mock = await startMockServer({
        handler: (b): MockReply => {
          if (b.model === 'mock-user') return { content: userTurns++ === 0 ? 'Hello, my user id is mia_lee_301.' : '###STOP###' };
          // The malformed body once (a retry of the same call gets it again), then a plain answer.
          return agentTurns++ < 2 ? { raw: body } : { content: 'Done.' };
        },
      });
      try {
        const db = path.join(tmpDir('sg-fuzz-model-'), 's.db');
        modelCases++;
        const t0 = Date.now();
        if (process.env.FUZZ_TRACE) process.stderr.write(`case ${i} start\n`);
        await check(`model response ${i}: ${JSON.stringify(body).slice(0, 80)}`, db, ['run', '--tasks', 'T01', '--agent-model', 'a', '--user-model', 'mock-user', '--base-url', mock.url, '--db', db, '-q', '--max-retries', '0', '--timeout', '5']);
        if (process.env.FUZZ_TRACE) process.stderr.write(`case ${i} ${Date.now() - t0} ms\n`);
      } finally {
        await mock.close();
      }
    }
  }, 300_000);
});
