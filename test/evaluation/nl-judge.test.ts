import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { evaluateTask } from '../../src/evaluation/compose.js';
import { NL_JUDGE_SYSTEM, parseNlJudgeReply } from '../../src/evaluation/nl.js';
import { resolveLiveModelConfig } from '../../src/models/config.js';
import { startMockServer, type MockHandler, type MockServer } from '../../src/models/mock-server.js';
import { OpenAICompatibleModel } from '../../src/models/openai-adapter.js';
import { ReplayModel } from '../../src/models/replay.js';
import { ProviderError, ReplayMissError } from '../../src/spec/errors.js';
import { ReceiptSchema, type Receipt } from '../../src/spec/receipt.js';
import { buildTrace, miniLoaded, miniTask } from '../support/mini-domain.js';

const MODEL = 'judge-mock-1';
const CASSETTE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'nl-judge.cassette.json');

const servers: MockServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function judgeOn(handler: MockHandler): Promise<{ server: MockServer; judge: OpenAICompatibleModel }> {
  const server = await startMockServer({ handler });
  servers.push(server);
  const cfg = resolveLiveModelConfig({ model: MODEL, provider: 'mock', timeout: 5, maxRetries: 0 }, { SERVICEGYM_BASE_URL: server.url, SERVICEGYM_API_KEY: 'test-fake-key' });
  return { server, judge: new OpenAICompatibleModel(cfg) };
}

/** A deterministic judge: every numbered assertion is met unless it mentions "rude". */
const fairJudge: MockHandler = (body) => {
  const text: string = body.messages[1].content;
  const list = text.slice(text.indexOf('\nAssertions:\n') + 13).split('\n');
  const results = list.map((line) => {
    const [, n, a] = /^(\d+)\. (.*)$/.exec(line)!;
    return { id: Number(n), met: !/rude/i.test(a), reason: `assertion ${n} checked` };
  });
  return { content: JSON.stringify({ results }) };
};

const task = miniTask({
  id: 'nl_1',
  evaluation_criteria: {
    actions: [{ action_id: 'a1', name: 'cancel_order', arguments: { order_id: 'O1', reason: 'no longer needed' } }],
    nl_assertions: ['The agent tells the customer the refund amount.'],
    reward_basis: ['DB', 'NL_ASSERTION'],
  },
  servicegym: {
    checks: [
      { id: 'outcome', kind: 'db_gold' },
      { id: 'polite', kind: 'nl', assertion: 'The agent is courteous.' },
      { id: 'not_rude', kind: 'nl', assertion: 'The agent is rude to the customer.' },
    ],
    partial_credit: [
      { id: 'o', weight: 50, description: 'outcome', checks: ['outcome'] },
      { id: 'p', weight: 30, description: 'polite', checks: ['polite'] },
      { id: 'r', weight: 20, description: 'rude', checks: ['not_rude'] },
    ],
  },
});

const trace = (await buildTrace([
  { user: "Hi, I'm ada@example.com. Please cancel order O1." },
  { calls: [['find_account', { email: 'ada@example.com' }]] },
  { agent: 'Order O1 totals $1,234.50. Shall I cancel it?' },
  { user: 'Yes, go ahead.' },
  { calls: [['cancel_order', { order_id: 'O1', reason: 'no longer needed' }]] },
  { agent: 'Done: order O1 is cancelled and $1,234.50 was refunded.' },
]));

describe('NL judge against the mock server', () => {
  it('sends one llm_judge request at temperature 0 and scores each assertion', async () => {
    const { server, judge } = await judgeOn(fairJudge);
    const e = await evaluateTask({ loaded: miniLoaded, task, trace, judge });
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0].body;
    expect(body.model).toBe(MODEL);
    expect(body.temperature).toBe(0);
    expect(body.response_format).toEqual({ type: 'json_object' });
    expect(body.messages[0]).toEqual({ role: 'system', content: NL_JUDGE_SYSTEM });
    expect(body.messages[1].content).toBe(
      [
        'Conversation:',
        "user: Hi, I'm ada@example.com. Please cancel order O1.",
        'assistant (tool call): find_account {"email":"ada@example.com"}',
        'tool: A1',
        'assistant: Order O1 totals $1,234.50. Shall I cancel it?',
        'user: Yes, go ahead.',
        'assistant (tool call): cancel_order {"order_id":"O1","reason":"no longer needed"}',
        'tool: {"account_id": "A1", "status": "cancelled", "total": 1234.5, "items": ["lamp", "desk"]}',
        'assistant: Done: order O1 is cancelled and $1,234.50 was refunded.',
        '',
        'Assertions:',
        '1. The agent tells the customer the refund amount.',
        '2. The agent is courteous.',
        '3. The agent is rude to the customer.',
      ].join('\n'),
    );
    expect(e.reward).toBe(1);
    expect(e.not_judged).toBe(false);
    expect(e.partial).toBe(0.8);
    expect(e.checks.filter((c) => c.kind === 'nl' || c.kind === 'NL_ASSERTION')).toEqual([
      { id: 'tau2_nl_assertion', kind: 'NL_ASSERTION', verdict: 'pass', evidence: '[met] "The agent tells the customer the refund amount.": assertion 1 checked' },
      { id: 'polite', kind: 'nl', verdict: 'pass', evidence: '"The agent is courteous.": assertion 2 checked' },
      { id: 'not_rude', kind: 'nl', verdict: 'fail', evidence: '"The agent is rude to the customer.": assertion 3 checked' },
    ]);
    expect(e.receipts).toHaveLength(1);
    expect(ReceiptSchema.parse(e.receipts[0]).kind).toBe('llm_judge');
    expect(e.receipts[0].request).toEqual(body);
  });

  it('replays the recorded cassette to a byte-identical evaluation, with no server', async () => {
    const { judge } = await judgeOn(fairJudge);
    const live = await evaluateTask({ loaded: miniLoaded, task, trace, judge });
    const cassette: Receipt[] = JSON.parse(JSON.stringify(live.receipts));
    if (process.env.SG_RECORD_CASSETTES === '1') fs.writeFileSync(CASSETTE, `${JSON.stringify(cassette, null, 2)}\n`);
    const replay = new ReplayModel(cassette, MODEL);
    const again = await evaluateTask({ loaded: miniLoaded, task, trace, judge: replay });
    expect(JSON.stringify(again)).toBe(JSON.stringify(live));
    expect(replay.consumed()).toEqual({ total: 1, byRole: { llm_judge: 1 } });
    // the cassette holds one answer: a second evaluation asks again and misses
    await expect(evaluateTask({ loaded: miniLoaded, task, trace, judge: replay })).rejects.toThrow(ReplayMissError);
  });

  it('replays the committed cassette (a change of the judge prompt or transcript shows up as a replay miss)', async () => {
    const cassette = (JSON.parse(fs.readFileSync(CASSETTE, 'utf8')) as unknown[]).map((r) => ReceiptSchema.parse(r));
    const run = () => evaluateTask({ loaded: miniLoaded, task, trace, judge: new ReplayModel(cassette, MODEL) });
    const [a, b] = [await run(), await run()];
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect([a.reward, a.partial]).toEqual([1, 0.8]);
    expect(a.receipts).toEqual(cassette);
    const other = (await buildTrace([{ agent: 'Something else.' }]));
    await expect(evaluateTask({ loaded: miniLoaded, task, trace: other, judge: new ReplayModel(cassette, MODEL) })).rejects.toThrow(
      /no recorded response for this llm_judge request.*first difference at messages\[1\]\.content/,
    );
  });

  it('never passes an assertion on an unreadable or incomplete answer', async () => {
    const { judge } = await judgeOn(() => ({ content: 'They all look fine to me.' }));
    const e = await evaluateTask({ loaded: miniLoaded, task, trace, judge });
    expect([e.reward, e.not_judged, e.partial]).toEqual([null, true, 0.5]);
    expect(e.checks.find((c) => c.id === 'polite')!.evidence).toMatch(
      /^"The agent is courteous\.": judge reply unreadable \(.*JSON.*\): "They all look fine to me\."$/,
    );
    expect(e.receipts).toHaveLength(1);
    expect(parseNlJudgeReply('```json\n{"results":[{"id":2,"met":true}]}\n```', ['a', 'b'])).toEqual([
      { assertion: 'a', verdict: 'not_judged', reason: 'judge gave no verdict for this assertion' },
      { assertion: 'b', verdict: 'pass', reason: '' },
    ]);
    expect(parseNlJudgeReply('{"results":[{"id":1,"met":"yes"}]}', ['a'])[0].verdict).toBe('not_judged');
  });

  it('lets provider failures propagate', async () => {
    const { judge } = await judgeOn(() => ({ status: 400, error: 'bad request' }));
    await expect(evaluateTask({ loaded: miniLoaded, task, trace, judge })).rejects.toThrow(ProviderError);
  });
});
