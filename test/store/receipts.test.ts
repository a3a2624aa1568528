/**
 * Receipts stored content-addressed (schema v3, issue 17 item 1): a request splits into a template
 * and its messages and joins back byte-identically; real multi-turn episodes written to a store
 * read back exactly as `JSON.stringify` serialised them before the change (and as a v2 store
 * migrated in place holds them); the store grows linearly with conversation length; the queued
 * (batched) write path keeps the store's guarantees.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { RunStore, type ReceiptRow } from '../../src/store/store.js';
import { SCHEMA_V2_DDL } from '../../src/store/migrate-v2.js';
import { SCHEMA_V3_DDL } from '../../src/store/migrate-v3.js';
import { credentialKeyOffset, joinRequest, splitRequest } from '../../src/store/receipt-codec.js';
import { loadDomain } from '../../src/domains/index.js';
import { runDomainTasks, selectTasks } from '../../src/run/task-run.js';
import { startTwoRoleMock, last, type TwoRoleMock } from '../support/two-role-mock.js';
import { systemMessage } from '../../src/models/chat-model.js';

let dir: string;
const stores: RunStore[] = [];
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sg-receipts-'));
});
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(file = path.join(dir, 's.db'), opts: Parameters<typeof RunStore.open>[1] = {}): RunStore {
  const s = RunStore.open(file, opts);
  stores.push(s);
  return s;
}

/** Receipt rows of a `turns`-call conversation (agent side: tool call, tool result, ...), each request a fresh copy. */
function conversation(runId: string, turns: number, firstSeq = 0, who = 'Mia'): ReceiptRow[] {
  const messages: Record<string, unknown>[] = [
    { role: 'system', content: '# Policy\nConfirm every write (yes) before calling a mutating tool. ' + '规则。'.repeat(50) },
    { role: 'user', content: `I am ${who}; change reservation 8KQ2ZD "by a day" \\ please 🙂` },
  ];
  const rows: ReceiptRow[] = [];
  for (let t = 0; t < turns; t++) {
    const message = { role: 'assistant', content: null, tool_calls: [{ id: `call_${t}`, type: 'function', function: { name: 'get_reservation_details', arguments: JSON.stringify({ reservation_id: '8KQ2ZD', turn: t }) } }] };
    rows.push({
      run_id: runId,
      seq: firstSeq + t,
      kind: 'task_agent',
      provider: 'mock',
      endpoint: 'http://127.0.0.1:1/v1/chat/completions',
      request: structuredClone({ model: 'mock-agent', messages, tools: [{ type: 'function', function: { name: 'get_reservation_details', parameters: { type: 'object' } } }], temperature: 0 }),
      response: { id: `c${t}`, choices: [{ index: 0, message, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 100 + t, completion_tokens: 9, total_tokens: 109 + t } },
      elapsed_seconds: 0.25,
    });
    messages.push(message, { role: 'tool', tool_call_id: `call_${t}`, content: JSON.stringify({ reservation_id: '8KQ2ZD', cabin: 'basic_economy', flights: [{ flight_number: `HAT${t}`, date: '2024-05-15' }] }) });
  }
  return rows;
}

/** Characters stored for receipts: the receipt rows' own text plus the content-addressed pieces. */
function receiptChars(file: string): number {
  const raw = new Database(file, { readonly: true });
  try {
    const q = (sql: string) => (raw.prepare(sql).pluck().get() as number | null) ?? 0;
    return q('SELECT sum(length(response) + coalesce(length(request), 0)) FROM receipts') + q('SELECT sum(length(body)) FROM receipt_templates') + q('SELECT sum(length(message)) FROM receipt_messages');
  } finally {
    raw.close();
  }
}

describe('splitRequest / joinRequest', () => {
  const cases: Record<string, unknown> = {
    plain: { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
    'messages not first, extras after': { temperature: 0.5, messages: [{ role: 'system', content: '' }, { role: 'user', content: 'x' }], tools: [{ messages: [] }], max_tokens: 10 },
    'empty messages': { model: 'm', messages: [] },
    'unicode, escapes, lone surrogate': { model: 'm', messages: [{ role: 'user', content: '退货 "quoted" \\ \n\t \u2028 \ud800 🙂 \u0000' }] },
    'holes and undefined elements': { model: 'm', messages: [undefined, , { role: 'user', content: 'x', name: undefined }] }, // eslint-disable-line no-sparse-arrays
    'numbers that re-serialise': { model: 'm', messages: [{ role: 'user', content: 'n', n: -0, big: 1e21, small: 5e-7, frac: 0.1 + 0.2 }] },
    'a Date inside a message': { model: 'm', messages: [{ role: 'user', content: 'd', at: new Date(0) }] },
    'integer-like keys ordered first': { 2: 'two', model: 'm', messages: [{ role: 'user', content: 'x' }], 1: 'one' },
    'messages last, undefined and function values left out': { model: 'm', user: undefined, f: () => 1, stop: ['a', undefined], messages: [{ role: 'user', content: 'x' }] },
    'messages the only key': { messages: [{ role: 'user', content: 'x' }] },
    'a nested messages key': { model: 'm', metadata: { messages: [1, 2] }, messages: [{ role: 'user', content: 'x' }] },
    __proto__key: JSON.parse('{"model":"m","__proto__":{"x":1},"messages":[{"role":"user","content":"x"}]}'),
  };
  for (const [name, request] of Object.entries(cases)) {
    it(`joins back byte-identically: ${name}`, () => {
      const split = splitRequest(request);
      expect(split.kind).toBe('split');
      if (split.kind !== 'split') return;
      expect(joinRequest(split.template, split.slot, split.messages)).toBe(JSON.stringify(request));
    });
  }

  it('keeps whole what is not a plain object with a messages array', () => {
    class Request {
      model = 'm';
      messages = [];
    }
    for (const request of [{ model: 'm', prompt: 'x' }, { model: 'm', messages: 'text' }, [1, 2], 'text', null, new Request(), { messages: [], toJSON: () => ({ x: 1 }) }]) {
      const split = splitRequest(request);
      expect(split).toEqual({ kind: 'inline', text: JSON.stringify(request) });
    }
  });

  it('finds credential-named keys in JSON text, never words inside values', () => {
    expect(credentialKeyOffset(JSON.stringify({ a: { Authorization: 'Bearer x' } }))).toBeGreaterThan(0);
    expect(credentialKeyOffset(JSON.stringify([{ APIKEY: 1 }]))).toBeGreaterThan(0);
    expect(credentialKeyOffset(JSON.stringify({ api_Key: null }))).toBe(1);
    for (const v of [{ note: '"api_key": "x"' }, { note: 'authorization' }, { api_key_hint: 1 }, { 'x"api_key': 1 }, { 'apikey\\': 2 }]) {
      expect(credentialKeyOffset(JSON.stringify(v))).toBe(-1);
    }
  });
});

describe('real multi-turn episodes', () => {
  let mock: TwoRoleMock;
  afterEach(async () => mock?.close());

  it('read back byte-identically to their pre-change serialisation, and as a migrated v2 store holds them', { timeout: 60_000 }, async () => {
    // The agent looks up the user, then each of their reservations in turn, then answers; the
    // customer writes three times: every request repeats a growing conversation.
    mock = await startTwoRoleMock({
      agent: (messages) => {
        const lookups = messages.filter((m: any) => m.role === 'tool').length;
        if (last(messages).role === 'user' && /thanks/i.test(String(last(messages).content))) return { content: 'Glad to help. ###STOP###' };
        if (lookups < 4 && last(messages).role !== 'assistant') return { tool_calls: [{ name: lookups === 0 ? 'get_user_details' : 'get_reservation_details', arguments: lookups === 0 ? { user_id: 'mia_li_3668' } : { reservation_id: 'NO6JO3' }, id: `call_${lookups}` }] };
        return { content: 'Your reservation is basic economy, so it cannot be changed. Anything else?' };
      },
      user: (messages) => ({ content: messages.length <= 2 ? 'Hi, I am mia_li_3668 and I want to change reservation NO6JO3.' : messages.length <= 4 ? 'Are you sure? It matters to me.' : 'OK, thanks.' }),
    });
    const loaded = loadDomain('airline');
    const tasks = selectTasks(loaded, ['T01', 'T02']);
    const file = path.join(dir, 'v3.db');
    const store = open(file);
    const res = await runDomainTasks({ loaded, tasks, trials: 2, concurrency: 3, agent: 'llm', user: 'llm', agentModel: mock.agentModel, userModel: mock.userModel, runId: 'run-1', store });
    const inMemory = res.records.flatMap((r) => r.episode.receipts);
    expect(inMemory.length).toBeGreaterThanOrEqual(4 * 8);
    expect(Math.max(...inMemory.map((r) => r.request.messages.length))).toBeGreaterThanOrEqual(10);

    // The serialisation before the change: JSON.stringify of request and response.
    const before = inMemory.map((r) => [r.kind, JSON.stringify(r.request), JSON.stringify(r.response)].join('\n')).sort();
    const texts = store.receiptTexts('run-1');
    expect(texts.map((r) => r.seq)).toEqual(inMemory.map((_, i) => i));
    expect(texts.map((r) => [r.kind, r.request, r.response].join('\n')).sort()).toEqual(before);
    expect(store.receipts('run-1').map((r) => JSON.stringify(r.request)).sort()).toEqual(inMemory.map((r) => JSON.stringify(r.request)).sort());

    // The same receipts as schema v2 wrote them, migrated in place: the same texts, row by row.
    const v2 = path.join(dir, 'v2.db');
    const raw = new Database(v2);
    raw.exec(SCHEMA_V2_DDL);
    raw.pragma('user_version = 2');
    const insert = raw.prepare('INSERT INTO receipts (run_id, seq, kind, provider, endpoint, request, response, elapsed_seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const r of texts) insert.run(r.run_id, r.seq, r.kind, r.provider, r.endpoint, r.request, r.response, r.elapsed_seconds);
    raw.close();
    const migrated = open(v2);
    expect(migrated.receiptTexts('run-1')).toEqual(texts);
    store.close();
    migrated.close();
    // Fewer characters stored than v2's whole requests (shared prefixes, system prompt and tools once).
    const v2Chars = texts.reduce((n, r) => n + r.request.length + r.response.length, 0);
    expect(receiptChars(file)).toBeLessThan(v2Chars / 2);
    expect(receiptChars(v2)).toBe(receiptChars(file));
  });
});

describe('migration of older stores', () => {
  it('turns the receipts of a v1 store (the seed fixture) into v3, byte-identically, and drops the old table', () => {
    const fixture = JSON.parse(fs.readFileSync(new URL('./fixtures/v1-store.json', import.meta.url), 'utf8')) as { runs: Record<string, unknown>[]; receipts: (Omit<ReceiptRow, 'request' | 'response'> & { request: string; response: string })[] };
    const file = path.join(dir, 'v1.db');
    const raw = new Database(file);
    raw.exec(SCHEMA_V2_DDL);
    raw.pragma('user_version = 1');
    for (const r of fixture.receipts) {
      raw.prepare('INSERT INTO receipts (run_id, seq, kind, provider, endpoint, request, response, elapsed_seconds) VALUES (@run_id, @seq, @kind, @provider, @endpoint, @request, @response, @elapsed_seconds)').run(r);
    }
    raw.close();
    const s = open(file);
    const runId = fixture.receipts[0].run_id;
    expect(s.receiptTexts(runId)).toEqual(fixture.receipts.filter((r) => r.run_id === runId).sort((a, b) => a.seq - b.seq));
    s.close();
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(4);
    expect(after.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all()).toEqual(['episodes', 'receipt_messages', 'receipt_templates', 'receipts', 'runs']);
    expect(after.prepare('SELECT count(*) FROM receipts WHERE template IS NOT NULL').pluck().get()).toBe(fixture.receipts.length);
    after.close();
  });

  it('migrates a v3 store file to v4: receipts, runs and episodes read back unchanged, episode keys null; new receipts keep theirs', () => {
    // A v3 file as schema v3 wrote it: its tables, and content-addressed receipts copied from a current store.
    const src = path.join(dir, 'src.db');
    const a = open(src);
    a.appendReceipts([...conversation('r', 6), ...conversation('q', 3, 0, 'Noor')]);
    a.saveRun({ id: 'r', kind: 'run', name: 'run airline', domain: 'airline', created_at: '2024-01-01T00:00:00Z', summary: { attempts: [] }, record: null });
    a.appendEpisodes([{ run_id: 'r', episode_id: 'T01#0', task_id: 'T01', trial: 0, label: 'llm', reward: 1, partial: 1, termination: 'agent_stop', result: { x: 1 } }]);
    const texts = a.receiptTexts('r');
    a.close();
    const file = path.join(dir, 'v3.db');
    const raw = new Database(file);
    raw.exec(SCHEMA_V3_DDL);
    raw.pragma('user_version = 3');
    raw.exec(`ATTACH '${src}' AS cur`);
    for (const t of ['runs', 'episodes', 'receipt_templates', 'receipt_messages']) raw.exec(`INSERT INTO main.${t} SELECT * FROM cur.${t}`);
    raw.exec(`INSERT INTO main.receipts SELECT run_id, seq, kind, provider, endpoint, template, prefix, request, response, elapsed_seconds FROM cur.receipts`);
    raw.exec('DETACH cur');
    expect(raw.prepare('PRAGMA table_info(receipts)').all().map((c: any) => c.name)).not.toContain('task_id');
    raw.close();
    // Read-only: refused (a migration writes), nothing changed.
    expect(() => RunStore.open(file, { readonly: true })).toThrow(/older servicegym schema \(v3, this is v4\)/);
    const s = open(file);
    expect(s.receiptTexts('r')).toEqual(texts);
    expect(s.receipts('r').every((r) => r.episode === undefined)).toBe(true);
    expect(s.episodes('r').map((e) => e.result)).toEqual([{ x: 1 }]);
    expect(s.getRun('r')?.summary).toEqual({ attempts: [] });
    // The next receipt of the run carries its episode key.
    const [next] = conversation('r', 7).slice(6);
    s.appendReceipts([{ ...next, episode: { task_id: 'T01', trial: 1, persona: null, attempt: 2, call: 0 } }]);
    expect(s.receipts('r').map((r) => r.episode ?? null).slice(5)).toEqual([null, { task_id: 'T01', trial: 1, persona: null, attempt: 2, call: 0 }]);
    s.close();
    const after = new Database(file, { readonly: true });
    expect(after.pragma('user_version', { simple: true })).toBe(4);
    expect(after.prepare('PRAGMA table_info(receipts)').all().map((c: any) => c.name).slice(-5)).toEqual(['task_id', 'trial', 'persona', 'attempt', 'call_index']);
    expect(after.prepare('SELECT count(*) FROM receipts WHERE task_id IS NULL').pluck().get()).toBe(9);
    after.close();
    // Opened again: already v4, nothing to do.
    expect(open(file).receipts('q')).toHaveLength(3);
  });

  it('keeps whole a v2 request that would not join back to the same text', () => {
    const file = path.join(dir, 'v2.db');
    const raw = new Database(file);
    raw.exec(SCHEMA_V2_DDL);
    raw.pragma('user_version = 2');
    const texts = ['{"model":"m", "messages":[]}', '{"model":"m","messages":[{"a":1.0}]}', 'not json', '{"prompt":"x"}'];
    texts.forEach((t, seq) => raw.prepare("INSERT INTO receipts VALUES ('r', ?, 'task_agent', 'p', 'e', ?, '{}', 0.5)").run(seq, t));
    raw.close();
    const s = open(file);
    expect(s.receiptTexts('r').map((r) => r.request)).toEqual(texts);
  });
});

describe('content-addressed storage', () => {
  it('grows linearly with conversation length, and shares a prefix across conversations', () => {
    const chars = (turns: number) => {
      const file = path.join(dir, `t${turns}.db`);
      const s = open(file);
      s.appendReceipts(conversation('r', turns));
      s.close();
      return receiptChars(file);
    };
    const ten = chars(10);
    const forty = chars(40);
    expect(forty / ten).toBeGreaterThan(3.5);
    expect(forty / ten).toBeLessThan(4.5);
    // Two conversations with the same opening: the shared messages are stored once.
    const file = path.join(dir, 'two.db');
    const s = open(file);
    s.appendReceipts(conversation('a', 10));
    s.appendReceipts(conversation('b', 10));
    expect(s.receiptTexts('b').map((r) => r.request)).toEqual(conversation('b', 10).map((r) => JSON.stringify(r.request)));
    s.close();
    expect(receiptChars(file)).toBeLessThan(ten * 1.5);
  });

  it('reconstructs receipts whose prefix was written before the store was reopened', () => {
    const file = path.join(dir, 's.db');
    const rows = conversation('r', 12);
    const first = open(file);
    first.appendReceipts(rows.slice(0, 5));
    first.close();
    const again = open(file);
    again.appendReceipts(rows.slice(5));
    expect(again.receiptTexts('r').map((r) => r.request)).toEqual(rows.map((r) => JSON.stringify(r.request)));
    expect(again.receipts('r')).toEqual(rows.map((r) => JSON.parse(JSON.stringify(r))));
  });

  it('continues a conversation whose requests share their message objects (as the model adapter sends them), branches included', () => {
    const s = open();
    const messages: Record<string, unknown>[] = [{ role: 'system', content: 'policy' }, { role: 'user', content: 'hi' }];
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const rows: ReceiptRow[] = [];
    const call = (list: Record<string, unknown>[], seq: number) => {
      const row: ReceiptRow = { run_id: 'r', seq, kind: 'task_agent', provider: 'p', endpoint: 'e', request: { model: 'm', messages: list.slice(), tools: tools.slice() }, response: { choices: [{ message: { role: 'assistant', content: `a${seq}` } }] }, elapsed_seconds: 0.1 };
      rows.push(row);
      return row;
    };
    for (let t = 0; t < 12; t++) {
      s.queueReceipt(call(messages, t));
      if (t % 3 === 2) s.flushReceipts();
      messages.push({ role: 'assistant', content: `a${t}` }, { role: 'user', content: `u${t}` });
    }
    // A branch from an earlier point (same objects up to it), a list with a middle message dropped,
    // and one with its objects reordered: each stored as sent.
    s.appendReceipts([call([...messages.slice(0, 5), { role: 'user', content: 'other' }], 12)]);
    s.appendReceipts([call([...messages.slice(0, 3), ...messages.slice(4)], 13)]);
    s.appendReceipts([call([messages[1], messages[0], ...messages.slice(2)], 14)]);
    s.appendReceipts([call(messages, 15)]);
    expect(s.receiptTexts('r').map((r) => r.request)).toEqual(rows.map((r) => JSON.stringify(r.request)));
  });

  it('keys conversations that open with one shared system message as those that open with copies of it', () => {
    const shared = systemMessage('# Policy — one object for every conversation ' + '规则。'.repeat(40));
    const rows = (runId: string, first: () => object, seq0: number): ReceiptRow[] =>
      ['hi', 'hello', 'hi'].map((text, i) => ({ run_id: runId, seq: seq0 + i, kind: 'user_simulator', provider: 'p', endpoint: 'e', request: { model: 'm', messages: [first(), { role: 'user', content: text }] }, response: { choices: [] }, elapsed_seconds: 0.1 }));
    // Copies first, in a store of their own: the node keys are what the shared object must reproduce.
    const copies = open(path.join(dir, 'copies.db'));
    copies.appendReceipts(rows('c', () => ({ ...shared }), 0));
    const withShared = open(path.join(dir, 'shared.db'));
    const sharedRows = rows('s', () => shared, 0);
    for (const r of sharedRows) withShared.queueReceipt(r);
    withShared.appendReceipts(rows('t', () => shared, 0));
    expect(withShared.receiptTexts('s').map((r) => r.request)).toEqual(sharedRows.map((r) => JSON.stringify(r.request)));
    copies.close();
    withShared.close();
    const nodes = (file: string) => {
      const raw = new Database(file, { readonly: true });
      try {
        return raw.prepare('SELECT hex(hash) AS hash, message FROM receipt_messages ORDER BY id').all();
      } finally {
        raw.close();
      }
    };
    // The system message is one node, with the same key either way; so is each distinct two-message prefix.
    expect(nodes(path.join(dir, 'shared.db'))).toEqual(nodes(path.join(dir, 'copies.db')));
    expect(nodes(path.join(dir, 'shared.db'))).toHaveLength(3);
  });

  it('caches no id of a rolled-back batch', () => {
    const s = open();
    const rows = conversation('r', 6);
    s.appendReceipts([rows[0]]);
    // New prefix nodes are written, then the duplicate seq 0 rolls the batch back.
    expect(() => s.appendReceipts([rows[1], rows[2], { ...rows[3], seq: 0 }])).toThrow('receipt r#0 is already stored (seq must be unique within a run)');
    s.appendReceipts(rows.slice(1));
    expect(s.receiptTexts('r').map((r) => r.request)).toEqual(rows.map((r) => JSON.stringify(r.request)));
  });
});

describe('queued receipts (the model-call path)', () => {
  const count = (file: string) => {
    const raw = new Database(file, { readonly: true });
    try {
      return raw.prepare('SELECT count(*) FROM receipts').pluck().get() as number;
    } finally {
      raw.close();
    }
  };

  it('are written in one transaction with the next episode, or by a read, or by close', () => {
    const file = path.join(dir, 's.db');
    const s = open(file);
    const rows = conversation('r', 6);
    for (const r of rows.slice(0, 3)) s.queueReceipt(r);
    expect(count(file)).toBe(0);
    s.appendEpisodes([{ run_id: 'r', episode_id: 'e1', task_id: 't', trial: 0, label: 'l', reward: 1, partial: 1, termination: 'agent_stop', result: {} }]);
    expect(count(file)).toBe(3);
    s.queueReceipt(rows[3]);
    expect(s.receiptCount('r')).toBe(4);
    s.queueReceipt(rows[4]);
    s.queueReceipt(rows[5]);
    s.close();
    expect(count(file)).toBe(6);
    const ro = open(file, { readonly: true });
    expect(ro.receiptTexts('r').map((r) => r.request)).toEqual(rows.map((r) => JSON.stringify(r.request)));
  });

  it('are written by themselves within moments when nothing else writes', async () => {
    const file = path.join(dir, 's.db');
    const s = open(file);
    s.queueReceipt(conversation('r', 1)[0]);
    await vi.waitFor(() => expect(count(file)).toBe(1), { timeout: 10_000, interval: 20 });
  });

  it('refuse a credential at once, queueing nothing', () => {
    const s = open();
    const [row] = conversation('r', 1);
    expect(() => s.queueReceipt({ ...row, request: { ...(row.request as object), headers: { Authorization: 'Bearer sk-x' } } })).toThrow(
      'refusing to store receipt r#0: it contains a credential key at $.request.headers.Authorization; receipts must be credential-free',
    );
    expect(s.receiptCount('r')).toBe(0);
  });

  it('report a duplicate seq at the next write and keep the queue', () => {
    const s = open();
    const rows = conversation('r', 2);
    s.appendReceipts([rows[0]]);
    s.queueReceipt({ ...rows[1], seq: 0 });
    expect(() => s.receiptCount('r')).toThrow('receipt r#0 is already stored');
    expect(() => s.flushReceipts()).toThrow('receipt r#0 is already stored');
    // close() reports it too, and closes all the same.
    expect(() => s.close()).toThrow('receipt r#0 is already stored');
    expect(() => s.receiptCount('r')).toThrow(TypeError);
  });
});

describe('secrets by value', () => {
  it('refuses a receipt holding a configured secret anywhere, writing nothing', () => {
    const secret = 'sk-live-4f9a8b7c6d5e';
    const s = open(path.join(dir, 's.db'), { secrets: [secret] });
    const rows = conversation('r', 3);
    const leaked: ReceiptRow = { ...rows[2], request: { ...(rows[2].request as object), messages: [...(rows[2].request as { messages: unknown[] }).messages, { role: 'user', content: `my key is ${secret}` }] } };
    expect(() => s.appendReceipts([rows[0], rows[1], leaked])).toThrow('refusing to store receipt r#2: it contains a secret value; receipts must be credential-free');
    expect(() => s.queueReceipt({ ...rows[0], response: { note: secret } })).toThrow(/it contains a secret value/);
    expect(s.receiptCount('r')).toBe(0);
    s.appendReceipts(rows);
    expect(s.receiptCount('r')).toBe(3);
  });
});
